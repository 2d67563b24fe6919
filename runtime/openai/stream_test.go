package openai_test

import (
	"bufio"
	"context"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	toolopenai "github.com/toolgen-go/toolgen/runtime/openai"
)

// sse turns event payloads into a server-sent event stream.
func sse(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		b.WriteString("data: " + e + "\n\n")
	}
	return b.String()
}

// dataLines returns the payloads of a server-sent event stream.
func dataLines(stream string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(stream))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			out = append(out, rest)
		}
	}
	return out
}

const chunkHead = `{"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-5","choices":[{"index":0,`

// Two parallel calls whose fragments interleave: a weather call and a client tool.
var chatStreamBody = sse(
	chunkHead+`"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":""}}]},"finish_reason":null}]}`,
	chunkHead+`"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":"}}]},"finish_reason":null}]}`,
	chunkHead+`"delta":{"tool_calls":[{"index":1,"id":"call_2","type":"function","function":{"name":"ask_user","arguments":""}}]},"finish_reason":null}]}`,
	chunkHead+`"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"Tokyo\",\"unit\":null}"}}]},"finish_reason":null}]}`,
	chunkHead+`"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{\"question\":\"Which day?\"}"}}]},"finish_reason":null}]}`,
	chunkHead+`"delta":{},"finish_reason":"tool_calls"}]}`,
	`[DONE]`,
)

var wantStreamedCalls = []runtime.Call{
	{ID: "call_1", Name: "get_weather", Args: []byte(`{"city":"Tokyo","unit":null}`)},
	{ID: "call_2", Name: "ask_user", Args: []byte(`{"question":"Which day?"}`)},
}

func sameCalls(t *testing.T, got, want []runtime.Call) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d calls %q, want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i].ID != want[i].ID || got[i].Name != want[i].Name || string(got[i].Args) != string(want[i].Args) {
			t.Errorf("call %d = %s %s %s, want %s %s %s", i, got[i].ID, got[i].Name, got[i].Args, want[i].ID, want[i].Name, want[i].Args)
		}
	}
}

func TestChatStreamWithSDK(t *testing.T) {
	reg := fixture.NewRegistry(fixture.WeatherTool(), fixture.AskUserTool())
	api := &fixture.FakeAPI{Answers: []string{chatStreamBody}}
	client := newClient(t, api)
	ctx := context.Background()

	stream := client.Chat.Completions.NewStreaming(ctx, openai.ChatCompletionNewParams{
		Model: "gpt-5", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Weather?")},
	})
	var acc toolopenai.ChatStream
	for stream.Next() {
		if acc.Calls() != nil {
			t.Fatal("calls came out before the message was finished")
		}
		acc.Add(stream.Current())
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if !acc.Done() {
		t.Fatal("the stream finished but Done is false")
	}
	sameCalls(t, acc.Calls(), wantStreamedCalls)

	outs := toolopenai.Dispatch(ctx, reg, acc.Calls())
	if outs[0].Result.ClientCall != nil || outs[0].Result.IsError {
		t.Errorf("weather call: %+v", outs[0])
	}
	if outs[1].Result.ClientCall == nil || outs[1].Result.ClientCall.CallID != "call_2" {
		t.Errorf("the client tool must come back to the host, got %+v", outs[1])
	}
	wire, err := toolopenai.ChatToolMessagesJSON(outs)
	if err != nil {
		t.Fatal(err)
	}
	fixture.JSONEqual(t, "tool messages", fixture.JSONValue(t, wire),
		`[{"role":"tool","tool_call_id":"call_1","content":"{\"city\":\"Tokyo\",\"temperature\":21,\"unit\":\"celsius\"}"}]`)
}

func TestChatStreamFromWireJSON(t *testing.T) {
	var acc toolopenai.ChatStream
	for _, data := range dataLines(chatStreamBody) {
		if err := acc.AddJSON([]byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	sameCalls(t, acc.Calls(), wantStreamedCalls)
	if err := acc.AddJSON([]byte(`{"choices":[`)); err == nil {
		t.Error("a truncated chunk must be an error")
	}
}

var responsesStreamBody = sse(
	`{"type":"response.created","sequence_number":0,"response":{"id":"resp_1","object":"response","created_at":1,"model":"gpt-5","status":"in_progress","output":[]}}`,
	`{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_a","name":"get_weather","arguments":"","status":"in_progress"}}`,
	`{"type":"response.function_call_arguments.delta","sequence_number":2,"item_id":"fc_1","output_index":0,"delta":"{\"city\":"}`,
	`{"type":"response.output_item.added","sequence_number":3,"output_index":1,"item":{"type":"function_call","id":"fc_2","call_id":"call_b","name":"get_weather","arguments":"","status":"in_progress"}}`,
	`{"type":"response.function_call_arguments.delta","sequence_number":4,"item_id":"fc_2","output_index":1,"delta":"{\"city\":\"Atlan"}`,
	`{"type":"response.function_call_arguments.delta","sequence_number":5,"item_id":"fc_1","output_index":0,"delta":"\"Tokyo\",\"unit\":null}"}`,
	`{"type":"response.function_call_arguments.done","sequence_number":6,"item_id":"fc_1","output_index":0,"name":"get_weather","arguments":"{\"city\":\"Tokyo\",\"unit\":null}"}`,
	`{"type":"response.output_item.done","sequence_number":7,"output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_a","name":"get_weather","arguments":"{\"city\":\"Tokyo\",\"unit\":null}","status":"completed"}}`,
	`{"type":"response.function_call_arguments.delta","sequence_number":8,"item_id":"fc_2","output_index":1,"delta":"tis\",\"unit\":\"celsius\"}"}`,
	`{"type":"response.output_item.done","sequence_number":9,"output_index":1,"item":{"type":"function_call","id":"fc_2","call_id":"call_b","name":"get_weather","arguments":"{\"city\":\"Atlantis\",\"unit\":\"celsius\"}","status":"completed"}}`,
)

func TestResponsesStreamWithSDK(t *testing.T) {
	reg := fixture.NewRegistry(fixture.WeatherTool())
	api := &fixture.FakeAPI{Answers: []string{responsesStreamBody}}
	client := newClient(t, api)
	ctx := context.Background()

	stream := client.Responses.NewStreaming(ctx, responses.ResponseNewParams{Model: "gpt-5"})
	var acc toolopenai.ResponsesStream
	var completedAt []int64
	var outs []toolopenai.Outcome
	for stream.Next() {
		ev := stream.Current()
		if call, ok := acc.Add(ev); ok {
			completedAt = append(completedAt, ev.SequenceNumber)
			// Dispatched as soon as it is complete, while the stream goes on.
			outs = append(outs, toolopenai.Dispatch(ctx, reg, []runtime.Call{call})...)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if len(completedAt) != 2 || completedAt[0] != 6 || completedAt[1] != 9 {
		t.Errorf("calls completed at events %v, want [6 9] (arguments.done, else output_item.done; once each)", completedAt)
	}
	sameCalls(t, acc.Calls(), []runtime.Call{
		{ID: "call_a", Name: "get_weather", Args: []byte(`{"city":"Tokyo","unit":null}`)},
		{ID: "call_b", Name: "get_weather", Args: []byte(`{"city":"Atlantis","unit":"celsius"}`)},
	})
	wire, err := toolopenai.ResponsesOutputsJSON(outs)
	if err != nil {
		t.Fatal(err)
	}
	fixture.JSONEqual(t, "outputs", fixture.JSONValue(t, wire), `[
		{"type":"function_call_output","call_id":"call_a","output":"{\"city\":\"Tokyo\",\"temperature\":21,\"unit\":\"celsius\"}"},
		{"type":"function_call_output","call_id":"call_b","output":"Error: no weather station in Atlantis"}]`)
}

func TestResponsesStreamFromWireJSON(t *testing.T) {
	var acc toolopenai.ResponsesStream
	for _, data := range dataLines(responsesStreamBody) {
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
