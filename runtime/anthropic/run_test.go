package anthropic_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/anthropic"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
)

// A message's model and usage reach its calls' Run, the cache's tokens counted as input.
func TestParseCallsFillsRun(t *testing.T) {
	calls, err := anthropic.ParseCalls([]byte(`{"model":"claude-sonnet-4-5","content":[
		{"type":"tool_use","id":"a","name":"x","input":{}},{"type":"tool_use","id":"b","name":"y","input":{}}],
		"usage":{"input_tokens":10,"cache_creation_input_tokens":5,"cache_read_input_tokens":100,"output_tokens":42}}`))
	require.NoError(t, err)
	require.Len(t, calls, 2)
	want := runtime.RunInfo{Model: "claude-sonnet-4-5", InputTokens: 115, OutputTokens: 42}
	for _, c := range calls {
		require.NotNil(t, c.Run)
		assert.Equal(t, want, *c.Run)
	}
	calls, err = anthropic.ParseCalls([]byte(`{"content":[{"type":"tool_use","id":"a","name":"x","input":{}}]}`))
	require.NoError(t, err)
	assert.Nil(t, calls[0].Run, "a message naming no model or usage gives none")
}

// A streamed message's calls carry message_start's model and input tokens as they complete,
// and the output tokens of the final message_delta once it arrived.
func TestStreamFillsRun(t *testing.T) {
	var s anthropic.Stream
	var first runtime.Call
	for _, data := range fixture.DataLines(fixture.AnthropicStream) {
		call, done, err := s.AddJSON([]byte(data))
		require.NoError(t, err)
		if done && first.ID == "" {
			first = call
		}
	}
	require.NotNil(t, first.Run)
	assert.Equal(t, runtime.RunInfo{Model: "claude-opus-4-8", InputTokens: 10, OutputTokens: 1}, *first.Run)
	calls := s.Calls()
	require.Len(t, calls, 2)
	for _, c := range calls {
		assert.Equal(t, runtime.RunInfo{Model: "claude-opus-4-8", InputTokens: 10, OutputTokens: 30}, *c.Run)
	}
}
