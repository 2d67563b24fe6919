package openaisdk_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	toolopenai "github.com/toolgen-go/toolgen/runtime/openai"
	"github.com/toolgen-go/toolgen/runtime/openai/openaisdk"
)

func TestChatStreamWithSDK(t *testing.T) {
	reg := fixture.NewRegistry(fixture.WeatherTool(), fixture.AskUserTool())
	api := &fixture.FakeAPI{Answers: []string{fixture.OpenAIChatStream}}
	client := newClient(t, api)
	ctx := context.Background()

	stream := client.Chat.Completions.NewStreaming(ctx, openai.ChatCompletionNewParams{
		Model: "gpt-5", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Weather?")},
	})
	var acc openaisdk.ChatStream
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
	fixture.SameCalls(t, acc.Calls(), fixture.OpenAIStreamedChatCalls)
	if run := acc.Calls()[0].Run; run == nil || run.Model != "gpt-5" {
		t.Errorf("Run = %+v, want the chunks' model", run)
	}

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

func TestResponsesStreamWithSDK(t *testing.T) {
	reg := fixture.NewRegistry(fixture.WeatherTool())
	api := &fixture.FakeAPI{Answers: []string{fixture.OpenAIResponsesStream}}
	client := newClient(t, api)
	ctx := context.Background()

	stream := client.Responses.NewStreaming(ctx, responses.ResponseNewParams{Model: "gpt-5"})
	var acc openaisdk.ResponsesStream
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
	if run := acc.Calls()[0].Run; run == nil || run.Model != "gpt-5" {
		t.Errorf("Run = %+v, want response.created's model", run)
	}
	fixture.SameCalls(t, acc.Calls(), []runtime.Call{
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

func TestToolsJSONMatchesSDK(t *testing.T) {
	tools := []runtime.Tool{fixture.WeatherTool(), fixture.AskUserTool()}
	chatWire, err := toolopenai.ChatToolsJSON(tools)
	if err != nil {
		t.Fatal(err)
	}
	chatSDK, err := openaisdk.ChatTools(tools)
	if err != nil {
		t.Fatal(err)
	}
	sdkJSON, _ := json.Marshal(chatSDK)
	fixture.JSONEqual(t, "Chat tools, wire vs SDK", fixture.JSONValue(t, chatWire), string(sdkJSON))
	// Key order of properties survives: OpenAI writes arguments in schema order.
	if !strings.Contains(string(sdkJSON), `"properties":{"city":`) {
		t.Errorf("the SDK form lost the order of properties: %s", sdkJSON)
	}

	respWire, err := toolopenai.ResponsesToolsJSON(tools)
	if err != nil {
		t.Fatal(err)
	}
	respSDK, err := openaisdk.ResponsesTools(tools)
	if err != nil {
		t.Fatal(err)
	}
	sdkJSON, _ = json.Marshal(respSDK)
	fixture.JSONEqual(t, "Responses tools, wire vs SDK", fixture.JSONValue(t, respWire), string(sdkJSON))
}
