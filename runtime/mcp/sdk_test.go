package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"

	"github.com/toolgen-go/toolgen/internal/mcptool"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

const weatherOutputSchema = `{"type":"object","properties":{"city":{"type":"string"},"unit":{"type":"string"},"temperature":{"type":"number"}},"required":["city","unit","temperature"],"additionalProperties":false}`

// servedWeather is get_weather as a real server would declare it: title, hints and an
// output schema.
func servedWeather() runtime.Tool {
	t := fixture.WeatherTool()
	t.Title = "Weather"
	t.Hints = runtime.Hints{ReadOnly: true, OpenWorld: true}
	t.OutputSchema = json.RawMessage(weatherOutputSchema)
	return t
}

// connect serves reg over streamable HTTP on an httptest server and connects the SDK's client.
func connect(t *testing.T, reg *runtime.Registry) *mcp.ClientSession {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "1.0.0"}, nil)
	toolmcp.AddTools(server, reg, reg.Tools())
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	t.Cleanup(srv.Close)
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1.0.0"}, nil)
	session, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = session.Close() })
	return session
}

func TestServeOverStreamableHTTP(t *testing.T) {
	reg := fixture.NewRegistry(servedWeather(), fixture.AskUserTool())
	session := connect(t, reg)
	ctx := context.Background()

	list, err := session.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	fixture.JSONEqual(t, "tools/list", list.Tools, `[{"name":"get_weather","title":"Weather","description":"Gets the current weather for a city.",
		"inputSchema":`+fixture.WeatherSchema+`,"outputSchema":`+weatherOutputSchema+`,
		"annotations":{"readOnlyHint":true,"idempotentHint":false,"destructiveHint":false,"openWorldHint":true}}]`)

	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": "Tokyo"}})
	if err != nil {
		t.Fatal(err)
	}
	fixture.JSONEqual(t, "valid call", res, `{"content":[{"type":"text","text":"{\"city\":\"Tokyo\",\"temperature\":21,\"unit\":\"celsius\"}"}],
		"structuredContent":{"city":"Tokyo","temperature":21,"unit":"celsius"}}`)

	res, err = session.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": "Paris", "unit": "kelvin"}})
	if err != nil {
		t.Fatalf("invalid arguments must be a tool error, not a protocol error: %v", err)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !res.IsError || res.StructuredContent != nil ||
		!strings.Contains(text, `/unit: must be one of "celsius", "fahrenheit", got "kelvin"`) {
		t.Errorf("invalid call: %+v %q", res, text)
	}

	res, err = session.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": "Atlantis"}})
	if err != nil {
		t.Fatal(err)
	}
	fixture.JSONEqual(t, "handler error", res, `{"content":[{"type":"text","text":"no weather station in Atlantis"}],"isError":true}`)

	if _, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "ask_user", Arguments: map[string]any{"question": "?"}}); err == nil {
		t.Error("a client tool must not be served")
	}
}

func TestWireFormsMatchSDK(t *testing.T) {
	tools := []runtime.Tool{servedWeather(), {Name: "ping", Description: "Checks the service.", Bind: fixture.BindWeather}}
	wire, err := toolmcp.ToolsJSON(tools)
	if err != nil {
		t.Fatal(err)
	}
	sdk, _ := json.Marshal(toolmcp.Tools(tools))
	fixture.JSONEqual(t, "tools, wire vs SDK", fixture.JSONValue(t, wire), string(sdk))
	if !strings.Contains(string(wire), `"name":"ping","description":"Checks the service.","inputSchema":{"type":"object","additionalProperties":false},"annotations":{"destructiveHint":false,"idempotentHint":false,"readOnlyHint":false}}`) {
		t.Errorf("a tool without schema or hints: %s", wire)
	}

	for _, res := range []runtime.Result{
		runtime.StructuredResult([]byte(`{"a":1}`)),
		runtime.StructuredResult([]byte(`[1,2]`)), // not an object: text only
		runtime.StructuredResult([]byte(` "s"`)),
		runtime.StructuredResult([]byte(`null`)),
		runtime.StructuredResult([]byte("\n {\"b\": 2}")),
		runtime.TextResult("plain"),
		{Text: "bad", IsError: true},
		runtime.EffectResult(fixture.Effect("refresh")),
	} {
		wire, err := toolmcp.ResultJSON(res)
		if err != nil {
			t.Fatal(err)
		}
		sdk, _ := json.Marshal(toolmcp.Result(res))
		fixture.JSONEqual(t, "result "+res.Text, fixture.JSONValue(t, wire), string(sdk))
	}
	effect, _ := toolmcp.ResultJSON(runtime.EffectResult(fixture.Effect("refresh")))
	if string(effect) != `{"content":[]}` {
		t.Errorf("an effect-only result sends nothing to the model: %s", effect)
	}
	for _, data := range []string{`[1,2]`, ` "s"`, `null`, `42`, ``} {
		res := runtime.StructuredResult([]byte(data))
		wire, _ := toolmcp.ResultJSON(res)
		if strings.Contains(string(wire), "structuredContent") || toolmcp.Result(res).StructuredContent != nil {
			t.Errorf("structuredContent must be an object, got it for %q: %s", data, wire)
		}
	}
	object, _ := toolmcp.ResultJSON(runtime.StructuredResult([]byte("\n {\"b\": 2}")))
	if !strings.Contains(string(object), `"structuredContent":{"b":2}`) {
		t.Errorf("an object after white space is structuredContent: %s", object)
	}
}

func TestParseCall(t *testing.T) {
	call, err := toolmcp.ParseCall([]byte(`{"name":"get_weather","arguments":{"city":"Tokyo"}}`), "7")
	if err != nil || call.ID != "7" || call.Name != "get_weather" || string(call.Args) != `{"city":"Tokyo"}` {
		t.Errorf("ParseCall = %+v, %v", call, err)
	}
	res := fixture.NewRegistry(fixture.WeatherTool()).Invoke(context.Background(), call)
	if res.IsError {
		t.Errorf("parsed call did not run: %s", res.Text)
	}
	for _, bad := range []string{`{"arguments":{}}`, `[`, `"x"`} {
		if _, err := toolmcp.ParseCall([]byte(bad), ""); err == nil {
			t.Errorf("ParseCall(%s): no error", bad)
		}
	}
}

// TestAnnotationsAsExplainShowsThem: the annotations tools/list sends, through the SDK and
// through ToolsJSON, are the ones toolgen -explain prints (internal/mcptool), for every
// combination of hints.
func TestAnnotationsAsExplainShowsThem(t *testing.T) {
	for bits := range 16 {
		h := runtime.Hints{ReadOnly: bits&1 != 0, Idempotent: bits&2 != 0, Destructive: bits&4 != 0, OpenWorld: bits&8 != 0}
		tool := runtime.Tool{Name: "x", Title: "X", Hints: h, Bind: fixture.BindWeather}
		explained := mcptool.JSON(h)
		sdk := toolmcp.Tools([]runtime.Tool{tool})[0].Annotations
		wire, err := toolmcp.ToolsJSON([]runtime.Tool{tool})
		if err != nil {
			t.Fatal(err)
		}
		var listed []struct {
			Annotations json.RawMessage `json:"annotations"`
		}
		if err := json.Unmarshal(wire, &listed); err != nil {
			t.Fatal(err)
		}
		// destructiveHint always (a mount reading an absent one as true would ask a second
		// time); openWorldHint only when set, so the client keeps MCP's cautious default.
		assert.Contains(t, string(explained), fmt.Sprintf(`"destructiveHint":%t`, h.Destructive), "hints %+v", h)
		assert.Equal(t, h.OpenWorld, strings.Contains(string(explained), "openWorldHint"), "hints %+v: openWorldHint is sent only when set: %s", h, explained)
		fromSDK, _ := json.Marshal(sdk)
		if string(fromSDK) != string(explained) || string(listed[0].Annotations) != string(explained) {
			t.Errorf("hints %+v: explained %s, SDK %s, wire %s", h, explained, fromSDK, listed[0].Annotations)
		}
	}
}
