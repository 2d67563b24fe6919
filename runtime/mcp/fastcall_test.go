package mcp_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// postRaw sends one body to a stateless handler with the given headers and returns the
// answer's content type and its JSON-RPC message (the data of an event stream).
func postRaw(t *testing.T, url, body string, header map[string]string) (contentType string, msg map[string]any) {
	t.Helper()
	status, contentType, msg := postStatus(t, url, body, header)
	require.Equal(t, http.StatusOK, status, "%v", msg)
	return contentType, msg
}

// postStatus is postRaw for an answer of any status.
func postStatus(t *testing.T, url, body string, header map[string]string) (status int, contentType string, msg map[string]any) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	contentType = res.Header.Get("Content-Type")
	if strings.HasPrefix(contentType, "text/event-stream") {
		for line := range strings.SplitSeq(string(data), "\n") {
			if d, ok := strings.CutPrefix(line, "data: "); ok && strings.Contains(d, `"id"`) {
				data = []byte(d)
			}
		}
	}
	if json.Unmarshal(data, &msg) != nil {
		msg = map[string]any{"body": string(data)}
	}
	return res.StatusCode, contentType, msg
}

// A tools/call on stateless HTTP that the SDK would serve without reaching the client is
// answered by HTTPHandler's own path (in JSON), with what the SDK answers (in an event
// stream) when the same call takes its path: a progress token sends it there.
func TestStatelessCallsAnswerAsTheSDK(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(servedWeather(), callInfoTool(), rowsTool(),
		funcTool("fails", func(context.Context, funcArgs) runtime.Result {
			return runtime.ErrorResult(assert.AnError)
		})))
	srv := httptest.NewServer(toolmcp.HTTPHandler(reg, toolmcp.WithStateless()))
	t.Cleanup(srv.Close)

	calls := map[string]string{
		"valid":             `"name":"get_weather","arguments":{"city":"Tokyo"}`,
		"invalid arguments": `"name":"get_weather","arguments":{"city":"Tokyo","unit":42,"extra":true}`,
		"no arguments":      `"name":"get_weather"`,
		"handler error":     `"name":"fails","arguments":{}`,
		"call info":         `"name":"call_info","arguments":{}`,
		"cut to its cap":    `"name":"rows","arguments":{"n":200}`,
	}
	for name, params := range calls {
		t.Run(name, func(t *testing.T) {
			for _, id := range []string{`7`, `"call-7"`} {
				fastType, fast := postRaw(t, srv.URL, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{`+params+`}}`, nil)
				sdkType, sdk := postRaw(t, srv.URL, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{`+params+`,"_meta":{"progressToken":1}}}`, nil)
				assert.Equal(t, "application/json", fastType)
				assert.True(t, strings.HasPrefix(sdkType, "text/event-stream"), sdkType)
				if name == "call info" {
					// Each request is its own session: the keys differ, the rest agrees.
					for _, m := range []map[string]any{fast, sdk} {
						text := m["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"].(string)
						var info callInfo
						require.NoError(t, json.Unmarshal([]byte(text), &info))
						assert.Equal(t, strings.Trim(id, `"`), info.ID, "the call id is the request id")
						assert.True(t, strings.HasPrefix(info.Session, "conn:"), info.Session)
					}
					continue
				}
				if name == "cut to its cap" {
					// The link to the whole result names a stored result of its own.
					for _, m := range []map[string]any{fast, sdk} {
						content := m["result"].(map[string]any)["content"].([]any)
						require.Len(t, content, 2)
						content[1].(map[string]any)["uri"] = "toolgen://results/…"
						content[1].(map[string]any)["name"] = "…"
						content[1].(map[string]any)["description"] = "…"
						text := content[0].(map[string]any)["text"].(string)
						content[0].(map[string]any)["text"] = text[:strings.Index(text, "res_")]
					}
				}
				assert.Equal(t, sdk, fast)
			}
		})
	}

	t.Run("what the SDK serves", func(t *testing.T) {
		for name, c := range map[string]struct {
			body   string
			header map[string]string
		}{
			"an unknown tool":          {`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope","arguments":{}}}`, nil},
			"protocol 2026-07-28":      {`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Tokyo"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, map[string]string{"Mcp-Protocol-Version": "2026-07-28"}},
			"a batch":                  {`[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Tokyo"}}}]`, nil},
			"tools/list":               {`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, nil},
			"a request state":          {`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Tokyo"},"requestState":"x"}}`, nil},
			"an older protocol header": {`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Tokyo"}}}`, map[string]string{"Mcp-Protocol-Version": "2024-11-05"}},
		} {
			status, contentType, msg := postStatus(t, srv.URL, c.body, c.header)
			assert.False(t, status == http.StatusOK && contentType == "application/json", "%s: %v", name, msg)
		}
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Tokyo"}}}`))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		assert.Equal(t, http.StatusBadRequest, res.StatusCode, "the SDK's refusal of an Accept without event streams")
	})
}

// The client closing its request cancels a call served on the handler's own path.
func TestFastCallIsCancelledWithItsRequest(t *testing.T) {
	started, cancelled := make(chan struct{}), make(chan struct{})
	reg := runtime.NewRegistry()
	tool := funcTool("wait", func(ctx context.Context, _ funcArgs) runtime.Result {
		close(started)
		<-ctx.Done()
		close(cancelled)
		return runtime.ErrorResult(ctx.Err())
	})
	tool.NoTimeout = true
	require.NoError(t, reg.Add(tool))
	srv := httptest.NewServer(toolmcp.HTTPHandler(reg, toolmcp.WithStateless()))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithCancel(t.Context())
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wait","arguments":{}}}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	go func() {
		<-started
		cancel()
	}()
	_, err = http.DefaultClient.Do(req)
	require.Error(t, err)
	<-cancelled
}

// Behind WithBearerAuth, a call on the handler's own path sees its user and header, and
// keys its session by them as the SDK's path does.
func TestFastCallSeesTheUser(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(callInfoTool()))
	srv := httptest.NewServer(toolmcp.HTTPHandler(reg, toolmcp.WithStateless(), toolmcp.WithBearerAuth(bearer, nil),
		toolmcp.WithSessionKey(toolmcp.SessionFromPrincipal()), toolmcp.WithSessionLinger(time.Minute)))
	t.Cleanup(srv.Close)
	call := func(user string) callInfo {
		contentType, msg := postRaw(t, srv.URL, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call_info","arguments":{}}}`,
			map[string]string{"Authorization": "Bearer token-" + user, "X-Conversation": "c1"})
		require.Equal(t, "application/json", contentType)
		text := msg["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"].(string)
		var info callInfo
		require.NoError(t, json.Unmarshal([]byte(text), &info))
		return info
	}
	first := call("ann")
	assert.Equal(t, callInfo{ID: "1", Session: "user:ann", User: "ann", Header: "c1", Calls: 1}, first)
	assert.Equal(t, 2, call("ann").Calls, "one user's requests share a session")
	assert.Equal(t, 1, call("bob").Calls)
}
