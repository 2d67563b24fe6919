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

// A whole chat completion's model and usage reach its calls' Run.
func TestParseChatCompletionCallsFillsRun(t *testing.T) {
	calls, err := openai.ParseChatCompletionCalls([]byte(`{"model":"gpt-5","choices":[{"index":0,"message":{"role":"assistant",
		"tool_calls":[{"id":"c1","type":"function","function":{"name":"x","arguments":"{}"}},{"id":"c2","type":"function","function":{"name":"y","arguments":"{}"}}]}}],
		"usage":{"prompt_tokens":120,"completion_tokens":9,"total_tokens":129}}`))
	require.NoError(t, err)
	require.Len(t, calls, 2)
	for _, c := range calls {
		require.NotNil(t, c.Run)
		assert.Equal(t, runtime.RunInfo{Model: "gpt-5", InputTokens: 120, OutputTokens: 9}, *c.Run)
	}
	_, err = openai.ParseChatCompletionCalls([]byte(`{"choices":[{"index":0,"message":7}]}`))
	assert.Error(t, err)
}

// A streamed chat completion's calls carry the chunks' model, and the usage of the chunk that
// follows the finish_reason (stream_options.include_usage) once it arrived.
func TestChatStreamFillsRun(t *testing.T) {
	var s openai.ChatStream
	for _, chunk := range []string{
		`{"model":"gpt-5","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"x","arguments":"{}"}}]},"finish_reason":null}]}`,
		`{"model":"gpt-5","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`,
	} {
		require.NoError(t, s.AddJSON([]byte(chunk)))
	}
	require.Len(t, s.Calls(), 1)
	assert.Equal(t, runtime.RunInfo{Model: "gpt-5"}, *s.Calls()[0].Run)
	require.NoError(t, s.AddJSON([]byte(`{"model":"gpt-5","choices":[],"usage":{"prompt_tokens":80,"completion_tokens":5,"total_tokens":85}}`)))
	require.NoError(t, s.AddJSON([]byte(`[DONE]`)))
	assert.Equal(t, runtime.RunInfo{Model: "gpt-5", InputTokens: 80, OutputTokens: 5}, *s.Calls()[0].Run)
}

// A streamed response's calls carry its model as they complete, and its usage once
// response.completed arrived.
func TestResponsesStreamFillsRun(t *testing.T) {
	var s openai.ResponsesStream
	add := func(event string) (runtime.Call, bool) {
		call, done, err := s.AddJSON([]byte(event))
		require.NoError(t, err)
		return call, done
	}
	add(`{"type":"response.created","response":{"model":"gpt-5","status":"in_progress","output":[]}}`)
	add(`{"type":"response.output_item.added","item":{"type":"function_call","id":"fc_1","call_id":"c1","name":"x","arguments":""}}`)
	call, done := add(`{"type":"response.function_call_arguments.done","item_id":"fc_1","arguments":"{}"}`)
	require.True(t, done)
	assert.Equal(t, runtime.RunInfo{Model: "gpt-5"}, *call.Run)
	add(`{"type":"response.completed","response":{"model":"gpt-5","status":"completed","usage":{"input_tokens":300,"output_tokens":12}}}`)
	require.Len(t, s.Calls(), 1)
	assert.Equal(t, runtime.RunInfo{Model: "gpt-5", InputTokens: 300, OutputTokens: 12}, *s.Calls()[0].Run)
	assert.Equal(t, runtime.RunInfo{Model: "gpt-5"}, *call.Run, "a call already returned is not changed under its caller")
}
