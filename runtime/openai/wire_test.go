package openai_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	toolopenai "github.com/toolgen-go/toolgen/runtime/openai"
	"github.com/toolgen-go/toolgen/runtime/variant"
)

// firstMessage returns choices[0].message of a chat.completion.
func firstMessage(t *testing.T, completion string) json.RawMessage {
	t.Helper()
	var c struct {
		Choices []struct {
			Message json.RawMessage `json:"message"`
		} `json:"choices"`
	}
	require.NoError(t, json.Unmarshal([]byte(completion), &c))
	require.NotEmpty(t, c.Choices)
	return c.Choices[0].Message
}

// One Chat turn on the wire alone, without the SDK: declarations, calls, results.
func TestWireTurn(t *testing.T) {
	reg := fixture.NewRegistry(fixture.WeatherTool())
	tools, err := toolopenai.ChatToolsJSON(reg.Tools())
	require.NoError(t, err)
	assert.JSONEq(t, `[{"type":"function","function":{"name":"get_weather","description":"Gets the current weather for a city.","parameters":`+
		fixture.WeatherOpenAISchema+`,"strict":true}}]`, string(tools))

	calls, err := toolopenai.ParseChatCalls(firstMessage(t, fixture.OpenAIChatCompletionWithCalls))
	require.NoError(t, err)
	msgs, err := toolopenai.ChatToolMessagesJSON(toolopenai.Dispatch(context.Background(), reg, calls))
	require.NoError(t, err)
	var got []map[string]string
	require.NoError(t, json.Unmarshal(msgs, &got))
	require.Len(t, got, 3)
	assert.Equal(t, map[string]string{"role": "tool", "tool_call_id": "call_1", "content": `{"city":"Tokyo","temperature":21,"unit":"celsius"}`}, got[0])
	assert.Contains(t, got[1]["content"], `Error: invalid arguments for get_weather`)
	assert.Equal(t, "Error: no weather station in Atlantis", got[2]["content"])
}

func TestNonStrictToolSaysStrictFalse(t *testing.T) {
	tool := fixture.WeatherTool()
	tool.Variants = map[string]variant.Variant{variant.OpenAI: {Schema: json.RawMessage(fixture.WeatherSchema)}}
	wire, err := toolopenai.ResponsesToolsJSON([]runtime.Tool{tool})
	require.NoError(t, err)
	assert.Contains(t, string(wire), `"strict":false`, "strict must always be explicit on Responses")
}

func TestMissingVariantIsRefused(t *testing.T) {
	tool := fixture.WeatherTool()
	tool.Variants = nil
	for name, f := range map[string]func([]runtime.Tool) error{
		"ChatToolsJSON":      func(ts []runtime.Tool) error { _, err := toolopenai.ChatToolsJSON(ts); return err },
		"ResponsesToolsJSON": func(ts []runtime.Tool) error { _, err := toolopenai.ResponsesToolsJSON(ts); return err },
	} {
		err := f([]runtime.Tool{fixture.AskUserTool(), tool})
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), `"get_weather"`, name)
		assert.Contains(t, err.Error(), "regenerate", name)
	}
}

func TestParseCallsFromWireJSON(t *testing.T) {
	calls, err := toolopenai.ParseChatCalls(firstMessage(t, fixture.OpenAIChatCompletionWithCalls))
	require.NoError(t, err)
	fixture.SameCalls(t, calls, []runtime.Call{
		{ID: "call_1", Name: "get_weather", Args: []byte(`{"city":"Tokyo","unit":null}`)},
		{ID: "call_2", Name: "get_weather", Args: []byte(`{"city":"Paris","unit":"kelvin"}`)},
		{ID: "call_3", Name: "get_weather", Args: []byte(`{"city":"Atlantis","unit":"celsius"}`)},
	})

	calls, err = toolopenai.ParseResponsesCalls([]byte(fixture.OpenAIResponseWithCalls))
	require.NoError(t, err)
	require.Len(t, calls, 3)
	assert.Equal(t, "call_a", calls[0].ID, "the id must be the call_id")
	var resp struct {
		Output json.RawMessage `json:"output"`
	}
	require.NoError(t, json.Unmarshal([]byte(fixture.OpenAIResponseWithCalls), &resp))
	fromOutput, err := toolopenai.ParseResponsesCalls(resp.Output)
	require.NoError(t, err)
	fixture.SameCalls(t, fromOutput, calls)

	for _, bad := range []string{`{"tool_calls":`, `"x"`, `{"tool_calls":"x"}`} {
		_, err := toolopenai.ParseChatCalls([]byte(bad))
		assert.Error(t, err, "ParseChatCalls(%s)", bad)
	}
	// A string is neither a response nor an output array; the other is truncated.
	for _, bad := range []string{`"x"`, `[{"type":"function_call"`} {
		_, err := toolopenai.ParseResponsesCalls([]byte(bad))
		assert.Error(t, err, "ParseResponsesCalls(%s)", bad)
	}
}

// Custom-tool calls are skipped, and arguments are kept as the model wrote them: spacing and
// number text included.
func TestParseCallsSkipsCustomAndKeepsArgumentText(t *testing.T) {
	const args = `{"city": "Tokyo",  "days": 1.50}`
	quoted, _ := json.Marshal(args)
	want := []runtime.Call{{ID: "call_2", Name: "get_weather", Args: []byte(args)}}

	calls, err := toolopenai.ParseChatCalls([]byte(`{"role":"assistant","tool_calls":[
		{"id":"call_1","type":"custom","custom":{"name":"grammar","input":"x"}},
		{"id":"call_2","type":"function","function":{"name":"get_weather","arguments":` + string(quoted) + `}}]}`))
	require.NoError(t, err)
	fixture.SameCalls(t, calls, want)

	calls, err = toolopenai.ParseResponsesCalls([]byte(`[
		{"type":"custom_tool_call","id":"ctc_1","call_id":"call_1","name":"grammar","input":"x"},
		{"type":"function_call","id":"fc_2","call_id":"call_2","name":"get_weather","arguments":` + string(quoted) + `}]`))
	require.NoError(t, err)
	fixture.SameCalls(t, calls, want)
}

func TestNullRestoreIsTargeted(t *testing.T) {
	reg := fixture.NewRegistry(fixture.WeatherTool())
	outs := toolopenai.Dispatch(context.Background(), reg, []runtime.Call{
		// city is required: its null is the model's mistake, not an absent optional.
		{ID: "1", Name: "get_weather", Args: []byte(`{"city":null,"unit":null}`)},
		// Not JSON: the decoder reports it, untouched.
		{ID: "2", Name: "get_weather", Args: []byte(`{"city":"Rome","unit":nul`)},
		// Unknown tool: Invoke names the available ones.
		{ID: "3", Name: "get_wether", Args: []byte(`{"unit":null}`)},
	})
	assert.True(t, outs[0].Result.IsError)
	assert.Contains(t, outs[0].Result.Text, "/city", "required null")
	assert.NotContains(t, outs[0].Result.Text, "/unit", "optional null")
	assert.True(t, outs[1].Result.IsError, "malformed JSON passed")
	assert.True(t, outs[2].Result.IsError)
	assert.Contains(t, outs[2].Result.Text, "get_weather", "unknown tool")
	assert.Equal(t, `{"city":null,"unit":null}`, string(outs[0].Call.Args), "Outcome.Call keeps the arguments as the model wrote them")
}

func TestEffectOnlyResultSendsNoContent(t *testing.T) {
	outs := []toolopenai.Outcome{{Call: runtime.Call{ID: "call_1", Name: "update_todos"}, Result: runtime.EffectResult(fixture.Effect("todo_change"))}}
	chat, err := toolopenai.ChatToolMessagesJSON(outs)
	require.NoError(t, err)
	assert.JSONEq(t, `[{"role":"tool","tool_call_id":"call_1","content":""}]`, string(chat))
	items, err := toolopenai.ResponsesOutputsJSON(outs)
	require.NoError(t, err)
	assert.JSONEq(t, `[{"type":"function_call_output","call_id":"call_1","output":""}]`, string(items))
}

func TestChatStreamFromWireJSON(t *testing.T) {
	var acc toolopenai.ChatStream
	for _, data := range fixture.DataLines(fixture.OpenAIChatStream) {
		require.NoError(t, acc.AddJSON([]byte(data)))
	}
	fixture.SameCalls(t, acc.Calls(), fixture.OpenAIStreamedChatCalls)
	assert.Error(t, acc.AddJSON([]byte(`{"choices":[`)), "a truncated chunk")
}

func TestResponsesStreamFromWireJSON(t *testing.T) {
	var acc toolopenai.ResponsesStream
	for _, data := range fixture.DataLines(fixture.OpenAIResponsesStream) {
		_, _, err := acc.AddJSON([]byte(data))
		require.NoError(t, err)
	}
	assert.Len(t, acc.Calls(), 2)
	_, _, err := acc.AddJSON([]byte(`not json`))
	assert.Error(t, err, "a malformed event")
}
