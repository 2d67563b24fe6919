package geminisdk_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/genai"

	"github.com/toolgen-go/toolgen/runtime"
	toolgemini "github.com/toolgen-go/toolgen/runtime/gemini"
	"github.com/toolgen-go/toolgen/runtime/gemini/geminisdk"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	"github.com/toolgen-go/toolgen/runtime/variant"
)

// newClient returns an SDK client talking to api, which answers an unexpected request with a
// Gemini error.
func newClient(t *testing.T, api *fixture.FakeAPI) *genai.Client {
	api.ErrorBody = `{"error":{"code":400,"message":"unexpected request"}}`
	client, err := genai.NewClient(context.Background(), &genai.ClientConfig{
		APIKey: "test-key", Backend: genai.BackendGeminiAPI, HTTPOptions: genai.HTTPOptions{BaseURL: api.Serve(t)},
	})
	if err != nil {
		t.Fatal(err)
	}
	return client
}

// zipTool has a property whose name Gemini rejects: the generator renamed it.
func zipTool() runtime.Tool {
	canonical := `{"type":"object","properties":{"zip-code":{"type":"string"}},"required":["zip-code"],"additionalProperties":false}`
	renamed := `{"type":"object","properties":{"zip_code":{"type":"string"}},"required":["zip_code"]}`
	return runtime.Tool{
		Name: "lookup_zip", Description: "Finds the town of a zip code.", InputSchema: json.RawMessage(canonical),
		Variants: map[string]variant.Variant{variant.GeminiParameters: {
			Schema:  json.RawMessage(renamed),
			Renames: []variant.Rename{{Path: "", From: "zip-code", To: "zip_code"}},
		}},
		Bind: func(_ context.Context, data []byte) (runtime.BoundCall, error) {
			var args map[string]string
			if err := json.Unmarshal(data, &args); err != nil || args["zip-code"] == "" || len(args) != 1 {
				return nil, &runtime.ArgsError{Problems: []runtime.Problem{{Path: "/zip-code", Message: "required, got " + string(data)}}}
			}
			return textCall("Springfield, " + args["zip-code"]), nil
		},
	}
}

type textCall string

func (c textCall) Args() any                          { return nil }
func (c textCall) Run(context.Context) runtime.Result { return runtime.TextResult(string(c)) }

// A parallel turn: a valid call, an invalid unit, a handler error, a renamed property and a
// client tool.
const responseWithCalls = `{"candidates":[{"content":{"role":"model","parts":[
  {"functionCall":{"id":"fc_1","name":"get_weather","args":{"city":"Tokyo"}},"thoughtSignature":"c2lnbmF0dXJl"},
  {"functionCall":{"id":"fc_2","name":"get_weather","args":{"city":"Paris","unit":"kelvin"}}},
  {"functionCall":{"id":"fc_3","name":"get_weather","args":{"city":"Atlantis"}}},
  {"functionCall":{"id":"fc_4","name":"lookup_zip","args":{"zip_code":"10001"}}},
  {"functionCall":{"id":"fc_5","name":"ask_user","args":{"question":"Which day?"}}}]},
 "finishReason":"STOP","index":0}],"modelVersion":"gemini-3-flash"}`

const responseFinal = `{"candidates":[{"content":{"role":"model","parts":[{"text":"21 degrees in Tokyo."}]},"finishReason":"STOP","index":0}]}`

func TestGenerateContentRoundTrip(t *testing.T) {
	reg := fixture.NewRegistry(fixture.WeatherTool(), zipTool(), fixture.AskUserTool())
	api := &fixture.FakeAPI{Answers: []string{responseWithCalls, responseFinal}}
	client := newClient(t, api)
	ctx := context.Background()

	tool, err := geminisdk.Tool(reg.Tools())
	if err != nil {
		t.Fatal(err)
	}
	config := &genai.GenerateContentConfig{Tools: []*genai.Tool{tool}}
	contents := []*genai.Content{genai.NewContentFromText("Weather in Tokyo?", genai.RoleUser)}
	resp, err := client.Models.GenerateContent(ctx, "gemini-3-flash", contents, config)
	if err != nil {
		t.Fatal(err)
	}
	fixture.JSONEqual(t, "tools sent", api.Request(t, 0)["tools"], `[{"functionDeclarations":[
		{"name":"ask_user","description":"Asks the user a question.","parametersJsonSchema":{"type":"object","properties":{"question":{"type":"string"}},"required":["question"],"additionalProperties":false}},
		{"name":"get_weather","description":"Gets the current weather for a city.","parametersJsonSchema":`+fixture.WeatherSchema+`},
		{"name":"lookup_zip","description":"Finds the town of a zip code.","parameters":{"type":"object","properties":{"zip_code":{"type":"string"}},"required":["zip_code"]}}]}]`)

	calls, err := geminisdk.Calls(resp.FunctionCalls())
	if err != nil {
		t.Fatal(err)
	}
	outs := toolgemini.Dispatch(ctx, reg, calls)
	if cc := outs[4].Result.ClientCall; cc == nil || cc.CallID != "fc_5" {
		t.Fatalf("the client tool must come back to the host: %+v", outs[4].Result)
	}
	parts := append(geminisdk.Responses(outs), geminisdk.Response(outs[4].Call, runtime.TextResult("Tomorrow.")))
	contents = append(contents, resp.Candidates[0].Content, genai.NewContentFromParts(parts, genai.RoleUser))
	if _, err := client.Models.GenerateContent(ctx, "gemini-3-flash", contents, config); err != nil {
		t.Fatal(err)
	}

	sent := api.Request(t, 1)["contents"].([]any)
	if len(sent) != 3 {
		t.Fatalf("second request has %d contents, want user, model, user", len(sent))
	}
	model := sent[1].(map[string]any)["parts"].([]any)[0].(map[string]any)
	if model["thoughtSignature"] != "c2lnbmF0dXJl" {
		t.Errorf("the model content must be replayed with its thought signature: %v", model)
	}
	answer := sent[2].(map[string]any)
	if answer["role"] != "user" {
		t.Errorf("results must be in a user content: %v", answer)
	}
	got := answer["parts"].([]any)
	if len(got) != 5 {
		t.Fatalf("%d parts, want 5", len(got))
	}
	fixture.JSONEqual(t, "fc_1", got[0], `{"functionResponse":{"id":"fc_1","name":"get_weather","response":{"output":{"city":"Tokyo","temperature":21,"unit":"celsius"}}}}`)
	invalid := got[1].(map[string]any)["functionResponse"].(map[string]any)
	if msg, _ := invalid["response"].(map[string]any)["error"].(string); invalid["id"] != "fc_2" ||
		!strings.Contains(msg, `/unit: must be one of "celsius", "fahrenheit", got "kelvin"`) {
		t.Errorf("invalid-argument response: %v", invalid)
	}
	fixture.JSONEqual(t, "fc_3", got[2], `{"functionResponse":{"id":"fc_3","name":"get_weather","response":{"error":"no weather station in Atlantis"}}}`)
	fixture.JSONEqual(t, "fc_4 (renamed property restored)", got[3], `{"functionResponse":{"id":"fc_4","name":"lookup_zip","response":{"output":"Springfield, 10001"}}}`)
	fixture.JSONEqual(t, "fc_5 (host's answer)", got[4], `{"functionResponse":{"id":"fc_5","name":"ask_user","response":{"output":"Tomorrow."}}}`)
}

func TestWireFormsMatchSDK(t *testing.T) {
	reg := fixture.NewRegistry(fixture.WeatherTool(), zipTool(), fixture.AskUserTool())
	wire, err := toolgemini.ToolsJSON(reg.Tools())
	if err != nil {
		t.Fatal(err)
	}
	tool, err := geminisdk.Tool(reg.Tools())
	if err != nil {
		t.Fatal(err)
	}
	sdk, _ := json.Marshal([]*genai.Tool{tool})
	fixture.JSONEqual(t, "tools, wire vs SDK", fixture.JSONValue(t, wire), string(sdk))

	calls, err := toolgemini.ParseCalls([]byte(responseWithCalls))
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 5 || calls[3].ID != "fc_4" || string(calls[3].Args) != `{"zip_code":"10001"}` {
		t.Fatalf("parsed calls: %v", calls)
	}
	outs := toolgemini.Dispatch(context.Background(), reg, calls)
	parts, err := toolgemini.ResponsesJSON(outs)
	if err != nil {
		t.Fatal(err)
	}
	sdkParts, _ := json.Marshal(geminisdk.Responses(outs))
	fixture.JSONEqual(t, "responses, wire vs SDK", fixture.JSONValue(t, parts), string(sdkParts))

	// A Content on its own parses too, and a call without id or args is a call with {}.
	calls, err = toolgemini.ParseCalls([]byte(`{"role":"model","parts":[{"text":"hm"},{"functionCall":{"name":"ask_user"}}]}`))
	if err != nil || len(calls) != 1 || calls[0].ID != "" || string(calls[0].Args) != "{}" {
		t.Errorf("content: %v, %v", calls, err)
	}
	if _, err := toolgemini.ParseCalls([]byte(`{"candidates":`)); err == nil {
		t.Error("truncated response: no error")
	}
}

func TestMissingVariantIsRefused(t *testing.T) {
	tool := fixture.WeatherTool()
	tool.Variants = map[string]variant.Variant{variant.OpenAI: tool.Variants[variant.OpenAI]}
	if _, err := geminisdk.Tool([]runtime.Tool{tool}); err == nil || !strings.Contains(err.Error(), "regenerate") {
		t.Errorf("Tool: err = %v", err)
	}
	if _, err := toolgemini.ToolsJSON([]runtime.Tool{tool}); err == nil || !strings.Contains(err.Error(), `"get_weather"`) {
		t.Errorf("ToolsJSON: err = %v", err)
	}
	// Dispatch still runs a call of such a tool (declared by other means), with nothing to
	// restore.
	outs := toolgemini.Dispatch(context.Background(), fixture.NewRegistry(tool), []runtime.Call{{ID: "fc_1", Name: "get_weather", Args: []byte(`{"city":"Tokyo"}`)}})
	if outs[0].Result.IsError {
		t.Errorf("a tool without a Gemini variant: %s", outs[0].Result.Text)
	}
}

// A structured output is its JSON value in both forms: on the wire as the handler wrote it
// (numbers keep their text), for the SDK decoded with json.Number. JSON that does not parse
// is sent as text.
func TestStructuredOutput(t *testing.T) {
	call := runtime.Call{ID: "fc_1", Name: "stats"}
	res := runtime.StructuredResult([]byte(`{"big": 12345678901234567890, "mean": 1.50, "tags": ["a<b"]}`))
	wire, err := toolgemini.ResponsesJSON([]toolgemini.Outcome{{Call: call, Result: res}})
	if err != nil {
		t.Fatal(err)
	}
	if want := `[{"functionResponse":{"id":"fc_1","name":"stats","response":{"output":{"big":12345678901234567890,"mean":1.50,"tags":["a\u003cb"]}}}}]`; string(wire) != want {
		t.Errorf("wire:\n got %s\nwant %s", wire, want)
	}
	output, _ := geminisdk.Response(call, res).FunctionResponse.Response["output"].(map[string]any)
	if output["big"] != json.Number("12345678901234567890") || output["mean"] != json.Number("1.50") {
		t.Errorf("SDK output %#v: numbers must keep their text", output)
	}

	broken := runtime.Result{Text: `{"cut`, Structured: json.RawMessage(`{"cut`)}
	wire, err = toolgemini.ResponsesJSON([]toolgemini.Outcome{{Call: call, Result: broken}})
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"functionResponse":{"id":"fc_1","name":"stats","response":{"output":"{\"cut"}}}]`
	fixture.JSONEqual(t, "wire, not JSON", fixture.JSONValue(t, wire), want)
	sdk, _ := json.Marshal([]*genai.Part{geminisdk.Response(call, broken)})
	fixture.JSONEqual(t, "SDK, not JSON", fixture.JSONValue(t, sdk), want)
}

func TestEffectOnlyResultSendsEmptyOutput(t *testing.T) {
	part := geminisdk.Response(runtime.Call{ID: "fc_1", Name: "update_todos"}, runtime.EffectResult(fixture.Effect("todo_change")))
	got, _ := json.Marshal(part)
	fixture.JSONEqual(t, "effect-only response", fixture.JSONValue(t, got), `{"functionResponse":{"id":"fc_1","name":"update_todos","response":{"output":""}}}`)
}

// A tool generated without the parametersJsonSchema variant is declared with its "parameters"
// (OpenAPI subset) schema, in both forms: the one the fixture carries for that.
func TestParametersVariantWhenNoJSONSchema(t *testing.T) {
	tool := fixture.WeatherTool()
	delete(tool.Variants, variant.GeminiJSONSchema)
	tools := []runtime.Tool{tool}
	want := `[{"functionDeclarations":[{"name":"get_weather","description":"Gets the current weather for a city.","parameters":` + fixture.WeatherGeminiSchema + `}]}]`

	wire, err := toolgemini.ToolsJSON(tools)
	if err != nil {
		t.Fatal(err)
	}
	fixture.JSONEqual(t, "wire", fixture.JSONValue(t, wire), want)

	reg := fixture.NewRegistry(tool)
	api := &fixture.FakeAPI{Answers: []string{responseFinal}}
	sdkTool, err := geminisdk.Tool(reg.Tools())
	if err != nil {
		t.Fatal(err)
	}
	contents := []*genai.Content{genai.NewContentFromText("Weather?", genai.RoleUser)}
	if _, err := newClient(t, api).Models.GenerateContent(context.Background(), "gemini-3-flash", contents,
		&genai.GenerateContentConfig{Tools: []*genai.Tool{sdkTool}}); err != nil {
		t.Fatal(err)
	}
	fixture.JSONEqual(t, "sent by the SDK", api.Request(t, 0)["tools"], want)
}

func TestPartsInFunctionResponses(t *testing.T) {
	outs := []toolgemini.Outcome{{Call: runtime.Call{ID: "c1", Name: "chart"}, Result: fixture.PartsResult()}}
	wire, err := toolgemini.ResponsesJSON(outs)
	require.NoError(t, err)
	fixture.JSONEqual(t, "wire", fixture.JSONValue(t, wire), `[{"functionResponse":{"id":"c1","name":"chart",
		"response":{"output":"Here is the chart.","attachments":[
			"[The tool also returned audio (audio/wav), 4 bytes, not shown here: Gemini function responses take images (PNG, JPEG, WebP) and PDFs only.]",
			"Resource: data.csv <https://example.com/data.csv> (text/csv, 42 bytes)",
			"Resource <file:///report.md> (text/markdown):\n# Report"]},
		"parts":[
			{"inlineData":{"mimeType":"image/png","data":"UE5H"}},
			{"inlineData":{"mimeType":"application/pdf","data":"JVBERg==","displayName":"file:///report.pdf"}}]}}]`)
	sdk, err := json.Marshal(geminisdk.Responses(outs))
	require.NoError(t, err)
	fixture.JSONEqual(t, "SDK", fixture.JSONValue(t, sdk), string(wire))
}
