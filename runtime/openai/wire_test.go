package openai_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	toolopenai "github.com/toolgen-go/toolgen/runtime/openai"
)

func TestNonStrictToolSaysStrictFalse(t *testing.T) {
	tool := fixture.WeatherTool()
	tool.Variants = map[string]runtime.Variant{runtime.VariantOpenAI: {Schema: json.RawMessage(fixture.WeatherSchema)}}
	wire, err := toolopenai.ResponsesToolsJSON([]runtime.Tool{tool})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(wire), `"strict":false`) {
		t.Errorf("strict must always be explicit on Responses: %s", wire)
	}
}

func TestMissingVariantIsRefused(t *testing.T) {
	tool := fixture.WeatherTool()
	tool.Variants = nil
	for name, f := range map[string]func([]runtime.Tool) error{
		"ChatToolsJSON":      func(ts []runtime.Tool) error { _, err := toolopenai.ChatToolsJSON(ts); return err },
		"ResponsesToolsJSON": func(ts []runtime.Tool) error { _, err := toolopenai.ResponsesToolsJSON(ts); return err },
	} {
		err := f([]runtime.Tool{fixture.AskUserTool(), tool})
		if err == nil || !strings.Contains(err.Error(), `"get_weather"`) || !strings.Contains(err.Error(), "regenerate") {
			t.Errorf("%s: err = %v, want one naming the tool and saying to regenerate", name, err)
		}
	}
}

func TestParseCallsFromWireJSON(t *testing.T) {
	var completion struct {
		Choices []struct {
			Message json.RawMessage `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal([]byte(fixture.OpenAIChatCompletionWithCalls), &completion); err != nil {
		t.Fatal(err)
	}
	calls, err := toolopenai.ParseChatCalls(completion.Choices[0].Message)
	if err != nil {
		t.Fatal(err)
	}
	fixture.SameCalls(t, calls, []runtime.Call{
		{ID: "call_1", Name: "get_weather", Args: []byte(`{"city":"Tokyo","unit":null}`)},
		{ID: "call_2", Name: "get_weather", Args: []byte(`{"city":"Paris","unit":"kelvin"}`)},
		{ID: "call_3", Name: "get_weather", Args: []byte(`{"city":"Atlantis","unit":"celsius"}`)},
	})

	calls, err = toolopenai.ParseResponsesCalls([]byte(fixture.OpenAIResponseWithCalls))
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 3 || calls[0].ID != "call_a" {
		t.Errorf("calls from a whole response: %q (the id must be the call_id)", calls)
	}
	var resp struct {
		Output json.RawMessage `json:"output"`
	}
	_ = json.Unmarshal([]byte(fixture.OpenAIResponseWithCalls), &resp)
	fromOutput, err := toolopenai.ParseResponsesCalls(resp.Output)
	if err != nil {
		t.Fatal(err)
	}
	fixture.SameCalls(t, fromOutput, calls)

	if _, err := toolopenai.ParseChatCalls([]byte(`{"tool_calls":`)); err == nil {
		t.Error("truncated message: no error")
	}
	if _, err := toolopenai.ParseResponsesCalls([]byte(`"x"`)); err == nil {
		t.Error("a string is neither a response nor an output array: no error")
	}
	if _, err := toolopenai.ParseResponsesCalls([]byte(`[{"type":"function_call"`)); err == nil {
		t.Error("truncated output: no error")
	}
	for _, bad := range []string{`"x"`, `{"tool_calls":"x"}`} {
		if _, err := toolopenai.ParseChatCalls([]byte(bad)); err == nil {
			t.Errorf("ParseChatCalls(%s): no error", bad)
		}
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
	if err != nil {
		t.Fatal(err)
	}
	fixture.SameCalls(t, calls, want)

	calls, err = toolopenai.ParseResponsesCalls([]byte(`[
		{"type":"custom_tool_call","id":"ctc_1","call_id":"call_1","name":"grammar","input":"x"},
		{"type":"function_call","id":"fc_2","call_id":"call_2","name":"get_weather","arguments":` + string(quoted) + `}]`))
	if err != nil {
		t.Fatal(err)
	}
	fixture.SameCalls(t, calls, want)
}

func TestNullRestoreIsTargeted(t *testing.T) {
	reg := fixture.NewRegistry(fixture.WeatherTool())
	ctx := context.Background()
	outs := toolopenai.Dispatch(ctx, reg, []runtime.Call{
		// city is required: its null is the model's mistake, not an absent optional.
		{ID: "1", Name: "get_weather", Args: []byte(`{"city":null,"unit":null}`)},
		// Not JSON: the decoder reports it, untouched.
		{ID: "2", Name: "get_weather", Args: []byte(`{"city":"Rome","unit":nul`)},
		// Unknown tool: Invoke names the available ones.
		{ID: "3", Name: "get_wether", Args: []byte(`{"unit":null}`)},
	})
	if !outs[0].Result.IsError || !strings.Contains(outs[0].Result.Text, "/city") || strings.Contains(outs[0].Result.Text, "/unit") {
		t.Errorf("required null: %q", outs[0].Result.Text)
	}
	if !outs[1].Result.IsError {
		t.Errorf("malformed JSON passed: %+v", outs[1].Result)
	}
	if !outs[2].Result.IsError || !strings.Contains(outs[2].Result.Text, "get_weather") {
		t.Errorf("unknown tool: %q", outs[2].Result.Text)
	}
	if string(outs[0].Call.Args) != `{"city":null,"unit":null}` {
		t.Errorf("Outcome.Call must keep the arguments as the model wrote them, got %s", outs[0].Call.Args)
	}
}

func TestEffectOnlyResultSendsNoContent(t *testing.T) {
	outs := []toolopenai.Outcome{{Call: runtime.Call{ID: "call_1", Name: "update_todos"}, Result: runtime.EffectResult("todos changed")}}
	chat, _ := toolopenai.ChatToolMessagesJSON(outs)
	fixture.JSONEqual(t, "chat", fixture.JSONValue(t, chat), `[{"role":"tool","tool_call_id":"call_1","content":""}]`)
	items, _ := toolopenai.ResponsesOutputsJSON(outs)
	fixture.JSONEqual(t, "responses", fixture.JSONValue(t, items), `[{"type":"function_call_output","call_id":"call_1","output":""}]`)
}

func TestChatStreamFromWireJSON(t *testing.T) {
	var acc toolopenai.ChatStream
	for _, data := range fixture.DataLines(fixture.OpenAIChatStream) {
		if err := acc.AddJSON([]byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	fixture.SameCalls(t, acc.Calls(), fixture.OpenAIStreamedChatCalls)
	if err := acc.AddJSON([]byte(`{"choices":[`)); err == nil {
		t.Error("a truncated chunk must be an error")
	}
}

func TestResponsesStreamFromWireJSON(t *testing.T) {
	var acc toolopenai.ResponsesStream
	for _, data := range fixture.DataLines(fixture.OpenAIResponsesStream) {
		if _, _, err := acc.AddJSON([]byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	if got := len(acc.Calls()); got != 2 {
		t.Fatalf("%d calls, want 2", got)
	}
	if _, _, err := acc.AddJSON([]byte(`not json`)); err == nil {
		t.Error("a malformed event must be an error")
	}
}
