package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// rawClient speaks streamable HTTP by hand, for what the go-sdk client would not send.
type rawClient struct {
	t     *testing.T
	url   string
	token string
}

// post sends body (with session id, if any) and returns the status, the Mcp-Session-Id the
// answer names and the answer's body.
func (c rawClient) post(session, body string) (status int, id string, answer string) {
	c.t.Helper()
	header := map[string]string{}
	if session != "" {
		header["Mcp-Session-Id"] = session
		header["Mcp-Protocol-Version"] = "2025-06-18"
	}
	if c.token != "" {
		header["Authorization"] = "Bearer " + c.token
	}
	res, data := postHTTP(c.t, c.url, body, header)
	return res.StatusCode, res.Header.Get("Mcp-Session-Id"), string(data)
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// open opens a session, returning its id, or "" and the refusal.
func (c rawClient) open() (id string, status int, refusal string) {
	c.t.Helper()
	status, id, answer := c.post("", initialize)
	if status != http.StatusOK {
		return "", status, answer
	}
	require.NotEmpty(c.t, id, answer)
	status, _, answer = c.post(id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	require.Equal(c.t, http.StatusAccepted, status, answer)
	return id, http.StatusOK, ""
}

func (c rawClient) delete(id string) {
	c.t.Helper()
	req, err := http.NewRequestWithContext(c.t.Context(), http.MethodDelete, c.url, nil)
	require.NoError(c.t, err)
	req.Header.Set("Mcp-Session-Id", id)
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(c.t, err)
	res.Body.Close()
	require.Equal(c.t, http.StatusNoContent, res.StatusCode)
}

func handlerURL(t *testing.T, opts ...toolmcp.Option) string {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(callInfoTool()))
	srv := httptest.NewServer(toolmcp.HTTPHandler(reg, opts...))
	t.Cleanup(func() {
		srv.CloseClientConnections() // streams a failed test left open
		srv.Close()
	})
	return srv.URL
}

// One client cannot open sessions without end: by default it holds at most
// DefaultMaxSessionsPerClient at once (before, one client opened 300 a second, each held
// until the process ended).
func TestHTTPSessionsPerClientAreBoundedByDefault(t *testing.T) {
	c := rawClient{t: t, url: handlerURL(t)}
	var ids []string
	for range toolmcp.DefaultMaxSessionsPerClient {
		id, status, refusal := c.open()
		require.Equal(t, http.StatusOK, status, refusal)
		ids = append(ids, id)
	}
	_, status, refusal := c.open()
	assert.Equal(t, http.StatusTooManyRequests, status)
	assert.Contains(t, refusal, "this client holds 50 MCP sessions, the most it may")
	c.delete(ids[0])
	_, status, refusal = c.open()
	assert.Equal(t, http.StatusOK, status, "a closed session frees its place: %s", refusal)
}

// Sessions are bounded per client (here, per authenticated user) and in all, with clear
// refusals; the go-sdk client sees them too.
func TestHTTPSessionLimits(t *testing.T) {
	url := handlerURL(t, toolmcp.WithBearerAuth(bearer, nil), toolmcp.WithSessionLimits(toolmcp.SessionLimits{Max: 3, MaxPerClient: 2}))
	ann, bob, cid := rawClient{t, url, "token-ann"}, rawClient{t, url, "token-bob"}, rawClient{t, url, "token-cid"}
	a1, status, _ := ann.open()
	require.Equal(t, http.StatusOK, status)
	_, status, _ = ann.open()
	require.Equal(t, http.StatusOK, status)
	_, status, refusal := ann.open()
	assert.Equal(t, http.StatusTooManyRequests, status, "ann's share is two")
	assert.Contains(t, refusal, "close one (an HTTP DELETE with its Mcp-Session-Id) or wait until one has been idle for 30m0s")
	_, status, _ = bob.open()
	require.Equal(t, http.StatusOK, status, "bob has his own share")
	_, status, refusal = cid.open()
	assert.Equal(t, http.StatusServiceUnavailable, status, "three in all")
	assert.Contains(t, refusal, "the server holds 3 MCP sessions, the most it may")

	transport := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: headerTransport{"Authorization": "Bearer token-cid"}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(t.Context(), transport, nil)
	if err == nil {
		_ = cs.Close()
	}
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Service Unavailable")

	ann.delete(a1)
	cs = httpClient(t, url, headerTransport{"Authorization": "Bearer token-cid"}, nil)
	assert.Equal(t, "cid", callInfoOver(t, cs).User, "a place freed by a DELETE")
}

// An idle session is closed, and its place goes to a new one (before, sessions never
// expired: 3,000 idle ones held 6,000 goroutines).
func TestHTTPIdleSessionsAreClosed(t *testing.T) {
	const idle = 50 * time.Millisecond
	c := rawClient{t: t, url: handlerURL(t, toolmcp.WithSessionLimits(toolmcp.SessionLimits{Idle: idle, MaxPerClient: 1}))}
	id, status, refusal := c.open()
	require.Equal(t, http.StatusOK, status, refusal)
	// Each ping is a request that renews the session: look less often than it idles.
	require.Eventually(t, func() bool {
		status, _, _ := c.post(id, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
		return status == http.StatusNotFound
	}, 30*time.Second, 4*idle, "the idle session is closed")
	require.Eventually(t, func() bool {
		_, status, _ := c.open()
		return status == http.StatusOK
	}, 30*time.Second, 50*time.Millisecond, "its place is free again")
}

// What a client sends past the bounds is not repeated back: a 3 MB method, id or tool name
// gets a short answer, over stateful and stateless HTTP (before, the go-sdk echoed each
// whole).
func TestHTTPAnswersDoNotRepeatHugeRequests(t *testing.T) {
	huge := strings.Repeat("x", 3<<20)
	for _, stateless := range []bool{false, true} {
		t.Run(fmt.Sprint("stateless ", stateless), func(t *testing.T) {
			var opts []toolmcp.Option
			if stateless {
				opts = append(opts, toolmcp.WithStateless())
			}
			c := rawClient{t: t, url: handlerURL(t, opts...)}
			session := ""
			if !stateless {
				var status int
				session, status, _ = c.open()
				require.Equal(t, http.StatusOK, status)
			}
			for name, body := range map[string]string{
				"method":       fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"method":%q,"params":{}}`, huge),
				"id":           fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"method":"tools/list","params":{}}`, huge),
				"tool name":    fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":%q,"arguments":{}}}`, huge),
				"prompt":       fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"method":"prompts/get","params":{"name":%q}}`, huge),
				"resource":     fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":%q}}`, "toolgen://results/"+huge),
				"notification": fmt.Sprintf(`{"jsonrpc":"2.0","method":%q}`, huge),
				"batch":        fmt.Sprintf(`[{"jsonrpc":"2.0","id":7,"method":%q}]`, huge),
			} {
				status, _, answer := c.post(session, body)
				assert.Less(t, len(answer), 1000, "%s: %d bytes came back (status %d)", name, len(answer), status)
				assert.NotContains(t, answer, "xxxxxxxxxx", name)
			}
			status, _, answer := c.post(session, fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":%q,"arguments":{}}}`, huge))
			assert.Equal(t, http.StatusOK, status)
			var reply struct {
				ID    int `json:"id"`
				Error struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			require.NoError(t, json.Unmarshal([]byte(answer), &reply), answer)
			assert.Equal(t, 7, reply.ID, "the id is repeated when it is short")
			assert.Equal(t, -32602, reply.Error.Code)
			assert.Contains(t, reply.Error.Message, "unknown tool: a name of 3145728 bytes")

			// Calls within the bounds are served as before.
			status, _, answer = c.post(session, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"call_info","arguments":{}}}`)
			assert.Equal(t, http.StatusOK, status)
			assert.Contains(t, answer, `"result":{"content"`)
		})
	}
}

// The go-sdk client calling a tool of a 3 MB name gets a short error.
func TestHugeToolNameFromTheSDKClient(t *testing.T) {
	cs := httpClient(t, handlerURL(t), nil, nil)
	_, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: strings.Repeat("x", 3<<20), Arguments: map[string]any{}})
	require.Error(t, err)
	assert.Less(t, len(err.Error()), 1000)
	assert.Contains(t, err.Error(), "unknown tool")
	assert.Equal(t, 1, callInfoOver(t, cs).Calls, "the session goes on")
}

// StaticToken accepts its token and nothing else, an empty one nothing at all.
func TestStaticToken(t *testing.T) {
	verify := toolmcp.StaticToken("s3cret-token", "owner")
	ti, err := verify(t.Context(), "s3cret-token", nil)
	require.NoError(t, err)
	assert.Equal(t, "owner", ti.UserID)
	assert.True(t, ti.Expiration.After(time.Now()))
	for _, bad := range []string{"", "s3cret-toke", "s3cret-token2", "S3CRET-TOKEN"} {
		_, err := verify(t.Context(), bad, nil)
		assert.ErrorIs(t, err, auth.ErrInvalidToken, "%q", bad)
	}
	_, err = toolmcp.StaticToken("", "owner")(t.Context(), "", nil)
	assert.ErrorIs(t, err, auth.ErrInvalidToken, "an empty token accepts nothing")
}

// Behind WithBearerAuth, a notifications/cancelled sent on a stateful session by another
// user (holding the session's id) cancels nothing: it is refused as the SDK refuses that
// user's every request on the session. The session's own user still cancels its call.
func TestCancelKeepsToTheSessionsUser(t *testing.T) {
	calls := make(chan context.Context, 1)
	reg := runtime.NewRegistry()
	tool := funcTool("wait", func(ctx context.Context, _ funcArgs) runtime.Result {
		calls <- ctx
		<-ctx.Done()
		return runtime.ErrorResult(ctx.Err())
	})
	tool.NoTimeout = true
	require.NoError(t, reg.Add(tool))
	srv := httptest.NewServer(toolmcp.HTTPHandler(reg, toolmcp.WithBearerAuth(bearer, nil)))
	t.Cleanup(srv.Close)

	ann := httpClient(t, srv.URL, headerTransport{"Authorization": "Bearer token-ann"}, legacy)
	done := make(chan error, 1)
	go func() {
		_, err := ann.CallTool(t.Context(), &mcp.CallToolParams{Name: "wait", Arguments: map[string]any{}})
		done <- err
	}()
	var call context.Context
	select {
	case call = <-calls:
	case <-time.After(20 * time.Second):
		t.Fatal("the call did not start")
	}
	info, ok := runtime.CallInfoFrom(call)
	require.True(t, ok)
	require.NotEmpty(t, info.CallID)
	cancel := fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%s}}`, info.CallID)

	// The cancel is acted on, if at all, before the answer to the notification is written.
	bob := rawClient{t: t, url: srv.URL, token: "token-bob"}
	status, _, _ := bob.post(ann.ID(), cancel)
	assert.Equal(t, http.StatusForbidden, status, "another user's request on the session")
	require.NoError(t, call.Err(), "another user's notifications/cancelled cancelled the call")
	select {
	case err := <-done:
		t.Fatalf("the call ended: %v", err)
	default:
	}

	owner := rawClient{t: t, url: srv.URL, token: "token-ann"}
	status, _, _ = owner.post(ann.ID(), cancel)
	assert.Equal(t, http.StatusAccepted, status)
	select {
	case <-call.Done():
	case <-time.After(20 * time.Second):
		t.Fatal("the session's user's notifications/cancelled did not cancel the call")
	}
}
