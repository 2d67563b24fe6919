// Code generated from ../anthropicsdk/sdk_test.go by go test -run TestFilesFollowV1 -update. DO NOT EDIT.

package anthropicsdkv2_test

import (
	"bufio"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolanthropic "github.com/toolgen-go/toolgen/runtime/anthropic"
	anthropicsdk "github.com/toolgen-go/toolgen/runtime/anthropic/anthropicsdkv2"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	"github.com/toolgen-go/toolgen/runtime/variant"
)

// newClient returns an SDK client talking to api, which answers an unexpected request with an
// Anthropic error.
func newClient(t *testing.T, api *fixture.FakeAPI) anthropic.Client {
	api.ErrorBody = `{"type":"error","error":{"type":"invalid_request_error","message":"unexpected request"}}`
	return anthropic.NewClient(option.WithBaseURL(api.Serve(t)), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
}

func TestMessagesRoundTrip(t *testing.T) {
	reg := fixture.NewRegistry(fixture.WeatherTool(), fixture.AskUserTool())
	api := &fixture.FakeAPI{Answers: []string{fixture.AnthropicMessageWithCalls, fixture.AnthropicMessageFinal}}
	client := newClient(t, api)
	ctx := context.Background()

	tools, err := anthropicsdk.Tools(reg.Tools())
	if err != nil {
		t.Fatal(err)
	}
	params := anthropic.MessageNewParams{
		Model: "claude-opus-4-8", MaxTokens: 1024, Tools: tools,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Weather?"))},
	}
	msg, err := client.Messages.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	fixture.JSONEqual(t, "tools sent", api.Request(t, 0)["tools"], `[
		{"name":"ask_user","description":"Asks the user a question.","input_schema":{"type":"object","properties":{"question":{"type":"string"}},"required":["question"],"additionalProperties":false}},
		{"name":"get_weather","description":"Gets the current weather for a city.","input_schema":`+fixture.WeatherSchema+`}]`)

	outs := toolanthropic.Dispatch(ctx, reg, anthropicsdk.Calls(*msg))
	if outs[3].Result.ClientCall == nil {
		t.Fatalf("the client tool must come back to the host: %+v", outs[3])
	}
	blocks := anthropicsdk.ToolResults(outs)
	blocks = append(blocks, anthropicsdk.ToolResult(outs[3].Call.ID, runtime.TextResult("Tomorrow.")))
	params.Messages = append(params.Messages, msg.ToParam(), anthropic.NewUserMessage(blocks...))
	if _, err := client.Messages.New(ctx, params); err != nil {
		t.Fatal(err)
	}

	msgs := api.Request(t, 1)["messages"].([]any)
	if len(msgs) != 3 {
		t.Fatalf("second request has %d messages, want user, assistant, user: %v", len(msgs), msgs)
	}
	content := msgs[2].(map[string]any)["content"].([]any)
	if len(content) != 4 {
		t.Fatalf("the results message has %d blocks, want 4 tool_result blocks: %v", len(content), content)
	}
	fixture.JSONEqual(t, "result of toolu_1", content[0],
		`{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"{\"city\":\"Tokyo\",\"temperature\":21,\"unit\":\"celsius\"}"}]}`)
	invalid := content[1].(map[string]any)
	text := invalid["content"].([]any)[0].(map[string]any)["text"].(string)
	if invalid["tool_use_id"] != "toolu_2" || invalid["is_error"] != true ||
		!strings.Contains(text, `/unit: must be one of "celsius", "fahrenheit", got "kelvin"`) {
		t.Errorf("invalid-argument result: %v", invalid)
	}
	fixture.JSONEqual(t, "result of toolu_3", content[2],
		`{"type":"tool_result","tool_use_id":"toolu_3","is_error":true,"content":[{"type":"text","text":"no weather station in Atlantis"}]}`)
	fixture.JSONEqual(t, "host's answer to toolu_4", content[3],
		`{"type":"tool_result","tool_use_id":"toolu_4","content":[{"type":"text","text":"Tomorrow."}]}`)
}

func TestStrictTools(t *testing.T) {
	tools := []runtime.Tool{fixture.WeatherTool(), fixture.AskUserTool()}
	wire, err := toolanthropic.ToolsJSON(tools, toolanthropic.Strict())
	if err != nil {
		t.Fatal(err)
	}
	// ask_user has no strict variant: declared as usual.
	fixture.JSONEqual(t, "strict tools", fixture.JSONValue(t, wire), `[
		{"name":"get_weather","description":"Gets the current weather for a city.","input_schema":`+fixture.WeatherAnthropicStrictSchema+`,"strict":true},
		{"name":"ask_user","description":"Asks the user a question.","input_schema":{"type":"object","properties":{"question":{"type":"string"}},"required":["question"],"additionalProperties":false}}]`)
	sdk, err := anthropicsdk.Tools(tools, toolanthropic.Strict())
	if err != nil {
		t.Fatal(err)
	}
	sdkJSON, _ := json.Marshal(sdk)
	fixture.JSONEqual(t, "wire vs SDK", fixture.JSONValue(t, wire), string(sdkJSON))

	many := make([]runtime.Tool, 21)
	for i := range many {
		many[i] = fixture.WeatherTool()
	}
	if _, err := toolanthropic.ToolsJSON(many, toolanthropic.Strict()); err == nil || !strings.Contains(err.Error(), "at most 20") {
		t.Errorf("21 strict tools: err = %v", err)
	}
	if _, err := toolanthropic.ToolsJSON(many); err != nil {
		t.Errorf("21 tools without Strict: %v", err)
	}
}

func TestMissingVariantIsRefused(t *testing.T) {
	tool := fixture.WeatherTool()
	delete(tool.Variants, variant.Anthropic)
	if _, err := anthropicsdk.Tools([]runtime.Tool{tool}); err == nil || !strings.Contains(err.Error(), "regenerate") {
		t.Errorf("Tools: err = %v", err)
	}
	// With Strict, the strict variant is enough.
	if _, err := toolanthropic.ToolsJSON([]runtime.Tool{tool}, toolanthropic.Strict()); err != nil {
		t.Errorf("strict variant present: %v", err)
	}
}

func TestWireResultsMatchSDK(t *testing.T) {
	reg := fixture.NewRegistry(fixture.WeatherTool(), fixture.AskUserTool())
	calls, err := toolanthropic.ParseCalls([]byte(fixture.AnthropicMessageWithCalls))
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 4 || calls[1].ID != "toolu_2" || string(calls[1].Args) != `{"city":"Paris","unit":"kelvin"}` {
		t.Fatalf("parsed calls: %v", calls)
	}
	outs := toolanthropic.Dispatch(context.Background(), reg, calls)
	wire, err := toolanthropic.ToolResultsJSON(outs)
	if err != nil {
		t.Fatal(err)
	}
	got := fixture.JSONValue(t, wire).([]any)
	if len(got) != 3 {
		t.Fatalf("%d results, want 3 (the client call is the host's): %s", len(got), wire)
	}
	fixture.JSONEqual(t, "handler error", got[2], `{"type":"tool_result","tool_use_id":"toolu_3","content":"no weather station in Atlantis","is_error":true}`)
	if _, err := toolanthropic.ParseCalls([]byte(`{"content":[`)); err == nil {
		t.Error("truncated message: no error")
	}
	for _, bad := range []string{`"x"`, `{"content":"x"}`} {
		if _, err := toolanthropic.ParseCalls([]byte(bad)); err == nil {
			t.Errorf("ParseCalls(%s): no error", bad)
		}
	}
}

func TestStreamWithSDK(t *testing.T) {
	reg := fixture.NewRegistry(fixture.WeatherTool())
	api := &fixture.FakeAPI{Answers: []string{fixture.AnthropicStream}}
	client := newClient(t, api)
	ctx := context.Background()

	stream := client.Messages.NewStreaming(ctx, anthropic.MessageNewParams{
		Model: "claude-opus-4-8", MaxTokens: 1024,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Weather?"))},
	})
	var acc anthropicsdk.Stream
	var events int
	var completedAt []int
	var outs []toolanthropic.Outcome
	for stream.Next() {
		events++
		if call, ok := acc.Add(stream.Current()); ok {
			completedAt = append(completedAt, events)
			outs = append(outs, toolanthropic.Dispatch(ctx, reg, []runtime.Call{call})...)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if len(completedAt) != 2 || completedAt[0] != 9 || completedAt[1] != 12 {
		t.Errorf("calls completed at events %v, want [9 12] (their content_block_stop)", completedAt)
	}
	if len(outs) != 2 || string(outs[0].Call.Args) != `{"city": "Tokyo"}` || outs[0].Result.IsError || !outs[1].Result.IsError {
		t.Errorf("outcomes: %+v", outs)
	}

	// The SDK's message_start and message_delta reach the calls' Run as the wire's do.
	for _, c := range acc.Calls() {
		if c.Run == nil || *c.Run != (runtime.RunInfo{Model: "claude-opus-4-8", InputTokens: 10, OutputTokens: 30}) {
			t.Errorf("call %s: Run = %+v, want the stream's model and usage", c.ID, c.Run)
		}
	}

	var fromWire anthropicsdk.Stream
	sc := bufio.NewScanner(strings.NewReader(fixture.AnthropicStream))
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			if _, _, err := fromWire.AddJSON([]byte(data)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(fromWire.Calls()) != 2 || string(fromWire.Calls()[1].Args) != `{"city":"Atlantis"}` {
		t.Errorf("calls from wire events: %v", fromWire.Calls())
	}
}

func TestEffectOnlyResultSendsNoContent(t *testing.T) {
	outs := []toolanthropic.Outcome{{Call: runtime.Call{ID: "toolu_1", Name: "update_todos"}, Result: runtime.EffectResult(fixture.Effect("todo_change"))}}
	wire, _ := toolanthropic.ToolResultsJSON(outs)
	fixture.JSONEqual(t, "wire", fixture.JSONValue(t, wire), `[{"type":"tool_result","tool_use_id":"toolu_1"}]`)
	sdk, _ := json.Marshal(anthropicsdk.ToolResults(outs))
	fixture.JSONEqual(t, "SDK", fixture.JSONValue(t, sdk), `[{"type":"tool_result","tool_use_id":"toolu_1"}]`)
}

func TestPartsAsContentBlocks(t *testing.T) {
	outs := []toolanthropic.Outcome{{Call: runtime.Call{ID: "toolu_1", Name: "chart"}, Result: fixture.PartsResult()}}
	wire, err := toolanthropic.ToolResultsJSON(outs)
	require.NoError(t, err)
	fixture.JSONEqual(t, "wire", fixture.JSONValue(t, wire), `[{"type":"tool_result","tool_use_id":"toolu_1","content":[
		{"type":"text","text":"Here is the chart."},
		{"type":"image","source":{"type":"base64","media_type":"image/png","data":"UE5H"}},
		{"type":"text","text":"[The tool also returned audio (audio/wav), 4 bytes, not shown here: Anthropic tool results take images (JPEG, PNG, GIF, WebP) and PDFs only.]"},
		{"type":"text","text":"Resource: data.csv <https://example.com/data.csv> (text/csv, 42 bytes)"},
		{"type":"text","text":"Resource <file:///report.md> (text/markdown):\n# Report"},
		{"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"JVBERg=="}}]}]`)
	sdk, err := json.Marshal(anthropicsdk.ToolResults(outs))
	require.NoError(t, err)
	fixture.JSONEqual(t, "SDK", fixture.JSONValue(t, sdk), string(wire))

	// A result without parts keeps its plain string content.
	plain, _ := toolanthropic.ToolResultsJSON([]toolanthropic.Outcome{{Call: runtime.Call{ID: "toolu_2"}, Result: runtime.TextResult("hi")}})
	assert.JSONEq(t, `[{"type":"tool_result","tool_use_id":"toolu_2","content":"hi"}]`, string(plain))
}
