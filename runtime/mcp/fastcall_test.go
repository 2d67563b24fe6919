package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// postRaw sends one body to a stateless handler with the given headers and returns the
// answer's content type and its JSON-RPC message (the data of an event stream).
func postRaw(t *testing.T, url, body string, header map[string]string) (contentType string, msg map[string]any) {
	t.Helper()
	status, contentType, msg, _ := postAny(t, url, body, header)
	require.Equal(t, http.StatusOK, status, "%v", msg)
	return contentType, msg
}

// postHTTP posts body as an MCP client would, with header besides, and returns the answer,
// its body read (up to 8 MiB).
func postHTTP(t *testing.T, url, body string, header map[string]string) (*http.Response, []byte) {
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
	data, err := io.ReadAll(io.LimitReader(res.Body, 8<<20))
	require.NoError(t, err)
	return res, data
}

// postAny is postRaw for an answer of any status, with the session id the answer names.
func postAny(t *testing.T, url, body string, header map[string]string) (status int, contentType string, msg map[string]any, session string) {
	t.Helper()
	res, data := postHTTP(t, url, body, header)
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
	return res.StatusCode, contentType, msg, res.Header.Get("Mcp-Session-Id")
}

// A tools/call on stateless HTTP that the SDK would serve without reaching the client is
// answered by HTTPHandler's own path (in JSON), with what the SDK answers (in an event
// stream) when the same call takes its path: a progress token sends it there.
func TestStatelessCallsAnswerAsTheSDK(t *testing.T) {
	reg := runtime.NewRegistry()
	var runs atomic.Int32
	require.NoError(t, reg.Add(servedWeather(), callInfoTool(), rowsTool(), mailTool(&runs),
		funcTool("fails", func(context.Context, funcArgs) runtime.Result {
			return runtime.ErrorResult(assert.AnError)
		})))
	h, fastCalls := toolmcp.HTTPHandlerCounting(reg, toolmcp.WithStateless())
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	calls := map[string]string{
		"valid":             `"name":"get_weather","arguments":{"city":"Tokyo"}`,
		"invalid arguments": `"name":"get_weather","arguments":{"city":"Tokyo","unit":42,"extra":true}`,
		"no arguments":      `"name":"get_weather"`,
		"handler error":     `"name":"fails","arguments":{}`,
		"call info":         `"name":"call_info","arguments":{}`,
		"cut to its cap":    `"name":"rows","arguments":{"n":200}`,
		"approval":          `"name":"send_mail","arguments":{"to":"ann@example.com"}`,
	}
	// What a go-sdk v1.8.0 client sends on each protocol: on 2026-07-28 the _meta triple and
	// the standard headers.
	protocols := map[string]struct {
		meta   string
		header func(tool string) map[string]string
	}{
		"2025-11-25": {``, func(string) map[string]string { return nil }},
		"2026-07-28": {`"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"`,
			func(tool string) map[string]string {
				return map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": tool}
			}},
	}
	for protocol, form := range protocols {
		for name, params := range calls {
			t.Run(protocol+" "+name, func(t *testing.T) {
				tool := strings.Split(params, `"`)[3]
				meta, withToken := `{`+form.meta+`}`, `{`+form.meta+`,"progressToken":1}`
				if form.meta == "" {
					meta, withToken = `{}`, `{"progressToken":1}`
				}
				for _, id := range []string{`7`, `"call-7"`} {
					before := fastCalls()
					fastType, fast := postRaw(t, srv.URL, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{`+params+`,"_meta":`+meta+`}}`, form.header(tool))
					sdkType, sdk := postRaw(t, srv.URL, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{`+params+`,"_meta":`+withToken+`}}`, form.header(tool))
					assert.Equal(t, "application/json", fastType)
					assert.True(t, strings.HasPrefix(sdkType, "text/event-stream"), sdkType)
					assert.Equal(t, before+1, fastCalls(), "the first beside the SDK, the second by it")
					switch name {
					case "call info":
						// Each request is its own session: the keys differ, the rest agrees.
						for _, m := range []map[string]any{fast, sdk} {
							text := m["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"].(string)
							var info callInfo
							require.NoError(t, json.Unmarshal([]byte(text), &info))
							assert.Equal(t, strings.Trim(id, `"`), info.ID, "the call id is the request id")
							assert.True(t, strings.HasPrefix(info.Session, "conn:"), info.Session)
						}
						continue
					case "cut to its cap":
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
					case "approval":
						if protocol == "2026-07-28" {
							// The question and its sealed state: a state of each answer's own.
							for _, m := range []map[string]any{fast, sdk} {
								result := m["result"].(map[string]any)
								require.Equal(t, "input_required", result["resultType"], "%v", m)
								require.NotEmpty(t, result["requestState"])
								result["requestState"] = "…"
							}
						}
					}
					assert.Equal(t, sdk, fast)
				}
			})
		}
	}
	assert.Zero(t, runs.Load(), "nothing approved, nothing sent")

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
			"_meta naming another protocol than the header": {`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Tokyo"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}}}}`,
				map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "get_weather"}},
			"2026-07-28 without capabilities": {`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Tokyo"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
				map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "get_weather"}},
			"2026-07-28 naming another tool in Mcp-Name": {`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Tokyo"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
				map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "send_mail"}},
			"2026-07-28 with a log level": {`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Tokyo"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"debug"}}}`,
				map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "get_weather"}},
		} {
			status, contentType, msg, _ := postAny(t, srv.URL, c.body, c.header)
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

// waitRegistry serves "wait", a tool without a timeout that waits for its ctx to end; started
// and cancelled close when it starts and when its ctx ends.
func waitRegistry(t *testing.T) (reg *runtime.Registry, started, cancelled chan struct{}) {
	started, cancelled = make(chan struct{}), make(chan struct{})
	reg = runtime.NewRegistry()
	tool := funcTool("wait", func(ctx context.Context, _ funcArgs) runtime.Result {
		close(started)
		<-ctx.Done()
		close(cancelled)
		return runtime.ErrorResult(ctx.Err())
	})
	tool.NoTimeout = true
	require.NoError(t, reg.Add(tool))
	return reg, started, cancelled
}

// The client closing its request cancels a call served on the handler's own path.
func TestFastCallIsCancelledWithItsRequest(t *testing.T) {
	reg, started, cancelled := waitRegistry(t)
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

// statefulPost sends body on session id (initialize when id is "") and returns the answer's
// content type and message (with its status when it is not JSON-RPC), and the session id it
// names.
func statefulPost(t *testing.T, url, id, body string, header map[string]string) (contentType string, msg map[string]any, session string) {
	t.Helper()
	withSession := map[string]string{}
	if id != "" {
		withSession["Mcp-Session-Id"] = id
		withSession["Mcp-Protocol-Version"] = "2025-11-25"
	}
	for k, v := range header {
		withSession[k] = v
	}
	status, contentType, msg, session := postAny(t, url, body, withSession)
	if _, rpc := msg["jsonrpc"]; !rpc {
		msg["status"] = status
	}
	return contentType, msg, session
}

// openSession opens a stateful session whose client declares capabilities.
func openSession(t *testing.T, url, capabilities string, header map[string]string) string {
	t.Helper()
	_, msg, id := statefulPost(t, url, "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":`+capabilities+`,"clientInfo":{"name":"raw","version":"1"}}}`, header)
	require.NotEmpty(t, id, "%v", msg)
	statefulPost(t, url, id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, header)
	return id
}

// On a stateful session whose client can be sent nothing but answers, HTTPHandler serves
// tools/call itself (in JSON) with what the SDK answers (in an event stream) to the same call
// sent its way with a progress token; a client that can be asked questions, or set a log
// level, has its calls served by the SDK.
func TestStatefulCallsAnswerAsTheSDK(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(servedWeather(), callInfoTool()))
	srv := httptest.NewServer(toolmcp.HTTPHandler(reg))
	t.Cleanup(srv.Close)
	id := openSession(t, srv.URL, `{}`, nil)
	for _, params := range []string{
		`"name":"get_weather","arguments":{"city":"Tokyo"}`,
		`"name":"get_weather","arguments":{"city":"","unit":42}`,
	} {
		fastType, fast, _ := statefulPost(t, srv.URL, id, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{`+params+`}}`, nil)
		sdkType, sdk, _ := statefulPost(t, srv.URL, id, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{`+params+`,"_meta":{"progressToken":1}}}`, nil)
		assert.Equal(t, "application/json", fastType)
		assert.True(t, strings.HasPrefix(sdkType, "text/event-stream"), sdkType)
		assert.Equal(t, sdk, fast)
	}
	// Both paths run in the session's registry session.
	_, msg, _ := statefulPost(t, srv.URL, id, `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"call_info","arguments":{}}}`, nil)
	_, sdk, _ := statefulPost(t, srv.URL, id, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"call_info","arguments":{},"_meta":{"progressToken":1}}}`, nil)
	var fastInfo, sdkInfo callInfo
	require.NoError(t, json.Unmarshal([]byte(msg["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"].(string)), &fastInfo))
	require.NoError(t, json.Unmarshal([]byte(sdk["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"].(string)), &sdkInfo))
	assert.Equal(t, fastInfo.Session, sdkInfo.Session)
	assert.Equal(t, 2, sdkInfo.Calls)

	call := `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Tokyo"}}}`
	asks := openSession(t, srv.URL, `{"elicitation":{}}`, nil)
	contentType, _, _ := statefulPost(t, srv.URL, asks, call, nil)
	assert.NotEqual(t, "application/json", contentType, "a client that can be asked questions")

	statefulPost(t, srv.URL, id, `{"jsonrpc":"2.0","id":9,"method":"logging/setLevel","params":{"level":"debug"}}`, nil)
	contentType, _, _ = statefulPost(t, srv.URL, id, call, nil)
	assert.NotEqual(t, "application/json", contentType, "a client that set a log level")

	_, msg, _ = statefulPost(t, srv.URL, "not-a-session", call, nil)
	assert.Equal(t, http.StatusNotFound, msg["status"], "an unknown session is refused with the SDK's plain 404")
}

// A stateful session's call served beside the SDK sees its user, and another user's request
// on the session is refused as the SDK refuses it.
func TestStatefulFastCallKeepsToItsUser(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(callInfoTool()))
	srv := httptest.NewServer(toolmcp.HTTPHandler(reg, toolmcp.WithBearerAuth(bearer, nil)))
	t.Cleanup(srv.Close)
	ann := map[string]string{"Authorization": "Bearer token-ann"}
	id := openSession(t, srv.URL, `{}`, ann)
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call_info","arguments":{}}}`
	contentType, msg, _ := statefulPost(t, srv.URL, id, call, ann)
	require.Equal(t, "application/json", contentType, "%v", msg)
	assert.Contains(t, msg["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"], `"user":"ann"`)
	_, msg, _ = statefulPost(t, srv.URL, id, call, map[string]string{"Authorization": "Bearer token-bob"})
	assert.Equal(t, http.StatusForbidden, msg["status"], "%v", msg)
}

// notifications/cancelled reaches a call served beside the SDK on a stateful session.
func TestStatefulFastCallIsCancelled(t *testing.T) {
	reg, started, cancelled := waitRegistry(t)
	srv := httptest.NewServer(toolmcp.HTTPHandler(reg))
	t.Cleanup(srv.Close)
	id := openSession(t, srv.URL, `{}`, nil)
	answered := make(chan string)
	go func() {
		contentType, _, _ := statefulPost(t, srv.URL, id, `{"jsonrpc":"2.0","id":"w1","method":"tools/call","params":{"name":"wait","arguments":{}}}`, nil)
		answered <- contentType
	}()
	<-started
	statefulPost(t, srv.URL, id, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"w1"}}`, nil)
	<-cancelled
	assert.Equal(t, "application/json", <-answered)
}

// Calls served beside the SDK keep a session from idling, as the SDK's own requests do.
func TestFastCallsKeepTheSessionOpen(t *testing.T) {
	const idle = time.Second
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(callInfoTool()))
	srv := httptest.NewServer(toolmcp.HTTPHandler(reg, toolmcp.WithSessionLimits(toolmcp.SessionLimits{Idle: idle})))
	t.Cleanup(srv.Close)
	id := openSession(t, srv.URL, `{}`, nil)
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call_info","arguments":{}}}`
	for end := time.Now().Add(3 * idle); time.Now().Before(end); time.Sleep(idle / 20) {
		contentType, msg, _ := statefulPost(t, srv.URL, id, call, nil)
		require.Equal(t, "application/json", contentType, "%v", msg)
	}
	require.Eventually(t, func() bool {
		_, msg, _ := statefulPost(t, srv.URL, id, call, nil)
		return msg["status"] == http.StatusNotFound
	}, 30*time.Second, 2*idle, "the session closes once idle (each look is a request: look less often than it idles)")
}

// Over ServeStdio's lines, a legacy client's plain calls are served beside the SDK, with the
// answers the SDK gives the same calls sent its way (with a progress token); a client on
// protocol 2026-07-28 is served by the SDK alone.
func TestStdioServesCallsBesideTheSDK(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(servedWeather()))
	cs, fastCalls := stdioClient(t, reg, nil, legacy)
	for _, args := range []map[string]any{{"city": "Tokyo"}, {"city": "", "unit": 42}} {
		fast, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "get_weather", Arguments: args})
		require.NoError(t, err)
		viaSDK := &mcp.CallToolParams{Name: "get_weather", Arguments: args}
		viaSDK.SetProgressToken("p")
		sdk, err := cs.CallTool(t.Context(), viaSDK)
		require.NoError(t, err)
		assert.Equal(t, sdk, fast)
	}
	assert.EqualValues(t, 2, fastCalls())

	// 2026-07-28: each call carries its protocol and the client's capabilities in its _meta.
	cs, fastCalls = stdioClient(t, reg, nil, nil)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": "Tokyo"}})
	require.NoError(t, err)
	viaSDK := &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": "Tokyo"}}
	viaSDK.SetProgressToken("p")
	sdk, err := cs.CallTool(t.Context(), viaSDK)
	require.NoError(t, err)
	assert.Equal(t, sdk, res)
	assert.EqualValues(t, 1, fastCalls())
}

// A stateful HTTP session's registry session ends when the session does: deleted by its
// client, or closed for idling (the gate tells the tracker; no goroutine waits for either).
func TestHTTPSessionsEndTheirRegistrySessions(t *testing.T) {
	store := &countingStore{live: map[string]bool{}}
	reg := runtime.NewRegistry(runtime.WithSessionStore(store))
	require.NoError(t, reg.Add(callInfoTool()))
	srv := httptest.NewServer(toolmcp.HTTPHandler(reg, toolmcp.WithSessionLimits(toolmcp.SessionLimits{Idle: 200 * time.Millisecond})))
	t.Cleanup(srv.Close)
	c := rawClient{t: t, url: srv.URL}
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call_info","arguments":{}}}`
	deleted := openSession(t, srv.URL, `{}`, nil)
	idle := openSession(t, srv.URL, `{}`, nil)
	for _, id := range []string{deleted, idle} {
		contentType, msg, _ := statefulPost(t, srv.URL, id, call, nil)
		require.Equal(t, "application/json", contentType, "%v", msg)
	}
	require.Equal(t, 2, store.count())
	c.delete(deleted)
	require.Eventually(t, func() bool { return store.count() == 0 }, 30*time.Second, 10*time.Millisecond,
		"sessions with state left: %d", store.count())
}

// A client sending calls without waiting has at most MaxStdioCallsBeside served beside the
// SDK at once; the SDK serves the rest, and every call is answered.
func TestStdioCallsBesideAreBounded(t *testing.T) {
	release := make(chan struct{})
	var started atomic.Int32
	reg := runtime.NewRegistry()
	tool := funcTool("wait", func(ctx context.Context, _ funcArgs) runtime.Result {
		started.Add(1)
		<-release
		return runtime.TextResult("done")
	})
	tool.NoTimeout = true
	require.NoError(t, reg.Add(tool))
	cs, fastCalls := stdioClient(t, reg, nil, legacy)
	const calls = toolmcp.MaxStdioCallsBeside + 16
	var wg sync.WaitGroup
	for range calls {
		wg.Go(func() {
			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "wait", Arguments: map[string]any{}})
			assert.NoError(t, err)
			assert.False(t, res != nil && res.IsError)
		})
	}
	// While every call waits, the bound's worth run beside the SDK and the SDK runs others.
	require.Eventually(t, func() bool {
		return fastCalls() == toolmcp.MaxStdioCallsBeside && started.Load() > toolmcp.MaxStdioCallsBeside
	}, 30*time.Second, time.Millisecond, "beside: %d, started: %d", fastCalls(), started.Load())
	close(release)
	wg.Wait()
	assert.EqualValues(t, calls, started.Load())
}

// A stateless call served beside the SDK that logs answers with an event stream, as the SDK
// does: its log messages at info and above, then its result; it cannot sample.
func TestFastCallLogsAsTheSDK(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(funcTool("chatty", func(ctx context.Context, _ funcArgs) runtime.Result {
		if err := toolmcp.Log(ctx, "debug", "not sent"); err != nil {
			return runtime.ErrorResult(err)
		}
		if err := toolmcp.Log(ctx, "info", "working"); err != nil {
			return runtime.ErrorResult(err)
		}
		_, err := toolmcp.SampleText(ctx, "?", 0)
		return runtime.TextResult(fmt.Sprint(errors.Is(err, toolmcp.ErrNoSampling)))
	})))
	srv := httptest.NewServer(toolmcp.HTTPHandler(reg, toolmcp.WithStateless()))
	t.Cleanup(srv.Close)
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL, strings.NewReader(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"chatty","arguments":{}}}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	assert.Equal(t, "text/event-stream", res.Header.Get("Content-Type"))
	var events []map[string]any
	for line := range strings.SplitSeq(string(body), "\n") {
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			var m map[string]any
			require.NoError(t, json.Unmarshal([]byte(data), &m))
			events = append(events, m)
		}
	}
	require.Len(t, events, 2, "%s", body)
	assert.Equal(t, "notifications/message", events[0]["method"])
	assert.Equal(t, map[string]any{"level": "info", "logger": "chatty", "data": "working"}, events[0]["params"])
	assert.EqualValues(t, 3, events[1]["id"])
	result := events[1]["result"].(map[string]any)
	assert.Equal(t, "true", result["content"].([]any)[0].(map[string]any)["text"], "sampling is refused as unavailable")
}

// Streams kept resumable (WithEventStore) stay the SDK's on stateful sessions.
func TestResumableStreamsStayTheSDKs(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(callInfoTool()))
	srv := httptest.NewServer(toolmcp.HTTPHandler(reg, toolmcp.WithEventStore(mcp.NewMemoryEventStore(nil))))
	t.Cleanup(srv.Close)
	id := openSession(t, srv.URL, `{}`, nil)
	contentType, msg, _ := statefulPost(t, srv.URL, id, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call_info","arguments":{}}}`, nil)
	assert.True(t, strings.HasPrefix(contentType, "text/event-stream"), "%s %v", contentType, msg)
}

// The SDK handler's cross-origin protection (WithHTTPOptions) holds for the calls served
// beside it.
func TestFastCallsPassTheCrossOriginCheck(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(callInfoTool()))
	//lint:ignore SA1019 the deprecated option is what a host may still set
	options := mcp.StreamableHTTPOptions{CrossOriginProtection: http.NewCrossOriginProtection()}
	srv := httptest.NewServer(toolmcp.HTTPHandler(reg, toolmcp.WithStateless(), toolmcp.WithHTTPOptions(options)))
	t.Cleanup(srv.Close)
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call_info","arguments":{}}}`
	status, _, msg, _ := postAny(t, srv.URL, call, map[string]string{"Sec-Fetch-Site": "cross-site"})
	assert.Equal(t, http.StatusForbidden, status, "%v", msg)
	contentType, _ := postRaw(t, srv.URL, call, map[string]string{"Sec-Fetch-Site": "same-origin"})
	assert.Equal(t, "application/json", contentType)
}

// A protocol version the server's options leave out is refused by the SDK, not served beside
// it.
func TestFastCallsKeepToTheServersVersions(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(callInfoTool()))
	srv := httptest.NewServer(toolmcp.HTTPHandler(reg, toolmcp.WithStateless(),
		toolmcp.WithServerOptions(mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}})))
	t.Cleanup(srv.Close)
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call_info","arguments":{}}}`
	status, _, msg, _ := postAny(t, srv.URL, call, map[string]string{"Mcp-Protocol-Version": "2025-06-18"})
	assert.Equal(t, http.StatusBadRequest, status, "%v", msg)
	contentType, _ := postRaw(t, srv.URL, call, map[string]string{"Mcp-Protocol-Version": "2025-11-25"})
	assert.Equal(t, "application/json", contentType)
}

// On 2026-07-28 a protocol error has an HTTP status of its own (SEP-2575): a handler asking
// for a capability the client did not declare is answered 400 with -32021 beside the SDK, as
// by it.
func TestStatelessProtocolErrorsHaveTheSDKsStatus(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(funcTool("sample", func(ctx context.Context, _ funcArgs) runtime.Result {
		_, err := toolmcp.SampleText(ctx, "hi", 0)
		return runtime.ErrorResult(err)
	})))
	h, fastCalls := toolmcp.HTTPHandlerCounting(reg, toolmcp.WithStateless())
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	header := map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "sample"}
	const meta = `"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/protocolVersion":"2026-07-28"`
	fastStatus, _, fast, _ := postAny(t, srv.URL, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sample","_meta":{`+meta+`}}}`, header)
	require.EqualValues(t, 1, fastCalls())
	sdkStatus, _, sdk, _ := postAny(t, srv.URL, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sample","_meta":{`+meta+`,"progressToken":1}}}`, header)
	assert.Equal(t, http.StatusBadRequest, sdkStatus)
	assert.Equal(t, sdkStatus, fastStatus)
	assert.Equal(t, sdk, fast)
	assert.EqualValues(t, -32021, fast["error"].(map[string]any)["code"])
}
