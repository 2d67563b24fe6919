package mcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// routedTool is a tool whose region and replicas arguments are mirrored into the Mcp-Param-Region
// and Mcp-Param-Replicas headers (what tool:"header=NAME" generates); it answers the region.
func routedTool() runtime.Tool {
	t := funcTool("deploy", func(_ context.Context, args funcArgs) runtime.Result {
		region, _ := args["region"].(string)
		return runtime.TextResult("deployed to " + region)
	})
	t.InputSchema = json.RawMessage(`{"type":"object","properties":{` +
		`"region":{"type":"string","x-mcp-header":"Region"},` +
		`"replicas":{"type":"integer","x-mcp-header":"Replicas"}},"required":["region"]}`)
	return t
}

// recordingTransport keeps the headers of the last tools/call a client sent.
type recordingTransport struct {
	mu   sync.Mutex
	last http.Header
}

func (r *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("Mcp-Method") == "tools/call" {
		r.mu.Lock()
		r.last = req.Header.Clone()
		r.mu.Unlock()
	}
	return http.DefaultTransport.RoundTrip(req)
}

// The go-sdk client on 2026-07-28 mirrors a tool's x-mcp-header arguments into Mcp-Param
// headers itself (Base64 for a value that is not plain ASCII), and the call is served.
func TestRoutedHeadersFromTheSDKClient(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(routedTool()))
	h, _ := toolmcp.HTTPHandlerCounting(reg, toolmcp.WithStateless())
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	rec := &recordingTransport{}
	transport := &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: &http.Client{Transport: rec}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).
		Connect(t.Context(), transport, &mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	_, err = cs.ListTools(t.Context(), nil) // the client mirrors the headers of the tools it listed
	require.NoError(t, err)

	for region, header := range map[string]string{"eu-west": "eu-west", "Zürich": "=?base64?WsO8cmljaA==?="} {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "deploy", Arguments: map[string]any{"region": region, "replicas": 3}})
		require.NoError(t, err)
		require.False(t, res.IsError, "%v", res.Content)
		assert.Equal(t, "deployed to "+region, res.Content[0].(*mcp.TextContent).Text)
		rec.mu.Lock()
		assert.Equal(t, header, rec.last.Get("Mcp-Param-Region"))
		assert.Equal(t, "3", rec.last.Get("Mcp-Param-Replicas"))
		rec.mu.Unlock()
	}
}

// A raw 2026-07-28 call of a tool with x-mcp-header arguments is checked as the SDK checks it,
// on either path: a header that disagrees with its argument, one missing for an argument sent,
// or one sent for an argument left out is refused with the SDK's error and status; one that
// agrees is served. The handler's own path leaves such calls to the SDK.
func TestRoutedHeadersAreCheckedOnBothPaths(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(routedTool(), servedWeather()))
	h, fastCalls := toolmcp.HTTPHandlerCounting(reg, toolmcp.WithStateless())
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	const meta = `"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/protocolVersion":"2026-07-28"`
	body := func(args string, sdk bool) string {
		m := meta
		if sdk {
			m += `,"progressToken":1` // a progress token sends a call to the SDK
		}
		return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"deploy","arguments":` + args + `,"_meta":{` + m + `}}}`
	}
	standard := map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "deploy"}
	with := func(extra map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range standard {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	for name, c := range map[string]struct {
		args   string
		header map[string]string
		refuse string // the SDK's error message; "" when the call is served
	}{
		"missing header":      {`{"region":"eu"}`, with(nil), `header mismatch: missing Mcp-Param-Region header for parameter "region"`},
		"mismatching header":  {`{"region":"eu"}`, with(map[string]string{"Mcp-Param-Region": "us"}), `header mismatch: Mcp-Param-Region header value 'us' does not match body value`},
		"one of two missing":  {`{"region":"eu","replicas":2}`, with(map[string]string{"Mcp-Param-Region": "eu"}), `header mismatch: missing Mcp-Param-Replicas header for parameter "replicas"`},
		"header without arg":  {`{"region":"eu"}`, with(map[string]string{"Mcp-Param-Region": "eu", "Mcp-Param-Replicas": "2"}), `header mismatch: unexpected Mcp-Param-Replicas header for absent or null parameter "replicas"`},
		"integer disagreeing": {`{"region":"eu","replicas":2}`, with(map[string]string{"Mcp-Param-Region": "eu", "Mcp-Param-Replicas": "3"}), `header mismatch: Mcp-Param-Replicas header value '3' does not match body value`},
		"agreeing":            {`{"region":"eu","replicas":2}`, with(map[string]string{"Mcp-Param-Region": "eu", "Mcp-Param-Replicas": "2"}), ""},
		"agreeing in Base64":  {`{"region":"Zürich"}`, with(map[string]string{"Mcp-Param-Region": "=?base64?WsO8cmljaA==?="}), ""},
	} {
		t.Run(name, func(t *testing.T) {
			before := fastCalls()
			fastStatus, _, fast, _ := postAny(t, srv.URL, body(c.args, false), c.header)
			sdkStatus, _, sdk, _ := postAny(t, srv.URL, body(c.args, true), c.header)
			assert.Equal(t, before, fastCalls(), "a call of a tool with header arguments is the SDK's")
			assert.Equal(t, sdkStatus, fastStatus)
			assert.Equal(t, sdk, fast)
			if c.refuse == "" {
				require.Equal(t, http.StatusOK, fastStatus, "%v", fast)
				result, _ := fast["result"].(map[string]any)
				require.NotNil(t, result, "%v", fast)
				assert.NotEqual(t, true, result["isError"], "%v", result)
				return
			}
			require.Equal(t, http.StatusBadRequest, fastStatus, "%v", fast)
			e, _ := fast["error"].(map[string]any)
			require.NotNil(t, e, "%v", fast)
			assert.Equal(t, c.refuse, e["message"])
		})
	}

	// A tool without header arguments is still served beside the SDK.
	before := fastCalls()
	status, _, msg, _ := postAny(t, srv.URL, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Tokyo"},"_meta":{`+meta+`}}}`,
		map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "get_weather"})
	require.Equal(t, http.StatusOK, status, "%v", msg)
	assert.Equal(t, before+1, fastCalls())
}
