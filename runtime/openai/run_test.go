package openai_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/openai"
)

// A whole response's model and usage reach its calls' Run; its output array alone has none.
func TestParseResponsesCallsFillsRun(t *testing.T) {
	calls, err := openai.ParseResponsesCalls([]byte(`{"model":"gpt-5","output":[
		{"type":"function_call","call_id":"c1","name":"x","arguments":"{}"}],
		"usage":{"input_tokens":300,"output_tokens":12}}`))
	require.NoError(t, err)
	require.Len(t, calls, 1)
	require.NotNil(t, calls[0].Run)
	assert.Equal(t, runtime.RunInfo{Model: "gpt-5", InputTokens: 300, OutputTokens: 12}, *calls[0].Run)
	host := &runtime.RunInfo{RunID: "r", Turn: 4}
	assert.Equal(t, runtime.RunInfo{RunID: "r", Turn: 4, Model: "gpt-5", InputTokens: 300, OutputTokens: 12}, *calls[0].Run.With(host))

	calls, err = openai.ParseResponsesCalls([]byte(`[{"type":"function_call","call_id":"c1","name":"x","arguments":"{}"}]`))
	require.NoError(t, err)
	assert.Nil(t, calls[0].Run)
}
