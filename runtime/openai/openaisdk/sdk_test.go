package openaisdk_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	toolopenai "github.com/toolgen-go/toolgen/runtime/openai"
	"github.com/toolgen-go/toolgen/runtime/openai/openaisdk"
)

// newClient returns an SDK client talking to api.
func newClient(t *testing.T, api *fixture.FakeAPI) openai.Client {
	return openai.NewClient(option.WithBaseURL(api.Serve(t)), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
}

const chatToolsWire = `[{"type":"function","function":{"name":"get_weather","description":"Gets the current weather for a city.","parameters":` + fixture.WeatherOpenAISchema + `,"strict":true}}]`

func TestChatCompletionsRoundTrip(t *testing.T) {
	reg := fixture.NewRegistry(fixture.WeatherTool())
	api := &fixture.FakeAPI{Answers: []string{fixture.OpenAIChatCompletionWithCalls, fixture.OpenAIChatCompletionFinal}}
	client := newClient(t, api)
	ctx := context.Background()

	tools, err := openaisdk.ChatTools(reg.Tools())
	if err != nil {
		t.Fatal(err)
	}
	params := openai.ChatCompletionNewParams{
		Model:    "gpt-5",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Weather in Tokyo, Paris and Atlantis?")},
		Tools:    tools,
	}
	resp, err := client.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	fixture.JSONEqual(t, "tools sent", api.Request(t, 0)["tools"], chatToolsWire)

	msg := resp.Choices[0].Message
	outs := toolopenai.Dispatch(ctx, reg, openaisdk.ChatCalls(msg))
	params.Messages = append(params.Messages, msg.ToParam())
	params.Messages = append(params.Messages, openaisdk.ChatToolMessages(outs)...)
	final, err := client.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if got := final.Choices[0].Message.Content; got != "It is 21 degrees in Tokyo." {
		t.Errorf("final answer %q", got)
	}

	msgs := api.Request(t, 1)["messages"].([]any)
	if len(msgs) != 5 {
		t.Fatalf("second request has %d messages, want user, assistant and 3 tool messages: %v", len(msgs), msgs)
	}
	assistant := msgs[1].(map[string]any)
	if assistant["role"] != "assistant" || len(assistant["tool_calls"].([]any)) != 3 {
		t.Errorf("the assistant turn is not echoed with its calls: %v", assistant)
	}
	fixture.JSONEqual(t, "result of call_1", msgs[2], `{"role":"tool","tool_call_id":"call_1","content":"{\"city\":\"Tokyo\",\"temperature\":21,\"unit\":\"celsius\"}"}`)
	invalid := msgs[3].(map[string]any)
	if invalid["tool_call_id"] != "call_2" || !strings.HasPrefix(invalid["content"].(string), "Error: invalid arguments for get_weather") ||
		!strings.Contains(invalid["content"].(string), `/unit: must be one of "celsius", "fahrenheit", got "kelvin"`) {
		t.Errorf("invalid-argument result: %v", invalid)
	}
	fixture.JSONEqual(t, "result of call_3", msgs[4], `{"role":"tool","tool_call_id":"call_3","content":"Error: no weather station in Atlantis"}`)
}

func TestResponsesRoundTrip(t *testing.T) {
	reg := fixture.NewRegistry(fixture.WeatherTool())
	api := &fixture.FakeAPI{Answers: []string{fixture.OpenAIResponseWithCalls, fixture.OpenAIResponseFinal}}
	client := newClient(t, api)
	ctx := context.Background()

	tools, err := openaisdk.ResponsesTools(reg.Tools())
	if err != nil {
		t.Fatal(err)
	}
	input := responses.ResponseInputParam{responses.ResponseInputItemParamOfMessage("Weather in Tokyo?", responses.EasyInputMessageRoleUser)}
	resp, err := client.Responses.New(ctx, responses.ResponseNewParams{
		Model: "gpt-5", Tools: tools,
		Input: responses.ResponseNewParamsInputUnion{OfInputItemList: input},
	})
	if err != nil {
		t.Fatal(err)
	}
	fixture.JSONEqual(t, "tools sent", api.Request(t, 0)["tools"],
		`[{"type":"function","name":"get_weather","description":"Gets the current weather for a city.","parameters":`+fixture.WeatherOpenAISchema+`,"strict":true}]`)

	outs := toolopenai.Dispatch(ctx, reg, openaisdk.ResponsesCalls(resp.Output))
	input = append(input, openaisdk.ResponsesReplay(resp.Output)...)
	input = append(input, openaisdk.ResponsesOutputs(outs)...)
	if _, err := client.Responses.New(ctx, responses.ResponseNewParams{
		Model: "gpt-5", Tools: tools,
		Input: responses.ResponseNewParamsInputUnion{OfInputItemList: input},
	}); err != nil {
		t.Fatal(err)
	}

	items := api.Request(t, 1)["input"].([]any)
	if len(items) != 8 {
		t.Fatalf("second request has %d input items, want message, reasoning, 3 calls, 3 outputs: %v", len(items), items)
	}
	fixture.JSONEqual(t, "output of call_a", items[5], `{"type":"function_call_output","call_id":"call_a","output":"{\"city\":\"Tokyo\",\"temperature\":21,\"unit\":\"celsius\"}"}`)
	fixture.JSONEqual(t, "output of call_b", items[6], `{"type":"function_call_output","call_id":"call_b","output":"Error: no weather station in Atlantis"}`)
	bad := items[7].(map[string]any)
	if bad["call_id"] != "call_c" || !strings.HasPrefix(bad["output"].(string), "Error: invalid arguments for get_weather") {
		t.Errorf("malformed arguments must come back as an error output: %v", bad)
	}
}

func TestPartsInFunctionCallOutputs(t *testing.T) {
	outs := []toolopenai.Outcome{{Call: runtime.Call{ID: "call_1", Name: "chart"}, Result: fixture.PartsResult()}}
	wire, err := toolopenai.ResponsesOutputsJSON(outs)
	require.NoError(t, err)
	fixture.JSONEqual(t, "Responses wire", fixture.JSONValue(t, wire), `[{"type":"function_call_output","call_id":"call_1","output":[
		{"type":"input_text","text":"Here is the chart."},
		{"type":"input_image","image_url":"data:image/png;base64,UE5H"},
		{"type":"input_text","text":"[The tool also returned audio (audio/wav), 4 bytes, not shown here: function call outputs take images (JPEG, PNG, GIF, WebP) and PDFs only.]"},
		{"type":"input_text","text":"Resource: data.csv <https://example.com/data.csv> (text/csv, 42 bytes)"},
		{"type":"input_text","text":"Resource <file:///report.md> (text/markdown):\n# Report"},
		{"type":"input_file","file_data":"data:application/pdf;base64,JVBERg==","filename":"report.pdf"}]}]`)
	sdk, err := json.Marshal(openaisdk.ResponsesOutputs(outs))
	require.NoError(t, err)
	fixture.JSONEqual(t, "Responses SDK", fixture.JSONValue(t, sdk), string(wire))

	// Chat Completions tool messages carry text only: the parts follow as text.
	chat, err := toolopenai.ChatToolMessagesJSON(outs)
	require.NoError(t, err)
	fixture.JSONEqual(t, "Chat wire", fixture.JSONValue(t, chat), `[{"role":"tool","tool_call_id":"call_1","content":
		"Here is the chart.\n\n[The tool also returned image (image/png), 3 bytes, not shown here: Chat Completions tool results carry text only.]\n\n[The tool also returned audio (audio/wav), 4 bytes, not shown here: Chat Completions tool results carry text only.]\n\nResource: data.csv <https://example.com/data.csv> (text/csv, 42 bytes)\n\nResource <file:///report.md> (text/markdown):\n# Report\n\n[The tool also returned embedded resource <file:///report.pdf> (application/pdf), 4 bytes, not shown here: Chat Completions tool results carry text only.]"}]`)
	chatSDK, err := json.Marshal(openaisdk.ChatToolMessages(outs))
	require.NoError(t, err)
	fixture.JSONEqual(t, "Chat SDK", fixture.JSONValue(t, chatSDK), string(chat))
}
