package mcp_test

import (
	"context"
	"fmt"
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

// conversationHeader is a header whose value a test changes between the calls of one
// connection.
type conversationHeader struct {
	mu    sync.Mutex
	value string
}

func (h *conversationHeader) set(v string) {
	h.mu.Lock()
	h.value = v
	h.mu.Unlock()
}

func (h *conversationHeader) RoundTrip(req *http.Request) (*http.Response, error) {
	h.mu.Lock()
	v := h.value
	h.mu.Unlock()
	req = req.Clone(req.Context())
	if v != "" {
		req.Header.Set("X-Conversation", v)
	}
	return http.DefaultTransport.RoundTrip(req)
}

// countedTool is call_info counting its runs.
func countedTool(runs *atomic.Int32) runtime.Tool {
	inner := callInfoTool()
	tool := funcTool("call_info", func(ctx context.Context, args funcArgs) runtime.Result {
		runs.Add(1)
		bound, err := inner.Bind(ctx, []byte(`{}`))
		if err != nil {
			return runtime.ErrorResult(err)
		}
		return bound.Run(ctx)
	})
	return tool
}

// A client naming a new conversation each call on one stateful HTTP session holds at most
// MaxKeysPerConnection registry sessions besides the session's own: past it, a new one is
// refused before it runs; the ones it holds still serve; a new connection starts afresh.
func TestKeysPerConnectionAreBounded(t *testing.T) {
	store := &countingStore{live: map[string]bool{}}
	reg := runtime.NewRegistry(runtime.WithSessionStore(store))
	var runs atomic.Int32
	require.NoError(t, reg.Add(countedTool(&runs)))
	srv := httptest.NewServer(toolmcp.HTTPHandler(reg,
		toolmcp.WithSessionKey(toolmcp.SessionFromHeader("X-Conversation")),
		toolmcp.WithSessionLimits(toolmcp.SessionLimits{MaxKeysPerConnection: 3})))
	t.Cleanup(srv.Close)
	connect := func() (*mcp.ClientSession, *conversationHeader) {
		h := &conversationHeader{}
		transport := &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: &http.Client{Transport: h}}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(t.Context(), transport, nil)
		require.NoError(t, err)
		t.Cleanup(func() { _ = cs.Close() })
		return cs, h
	}
	call := func(cs *mcp.ClientSession) *mcp.CallToolResult {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "call_info", Arguments: map[string]any{}})
		require.NoError(t, err)
		return res
	}

	cs, h := connect()
	assert.Equal(t, 1, callInfoOf(t, call(cs)).Calls, "the connection's own session, not counted")
	for _, v := range []string{"c1", "c2", "c3"} {
		h.set(v)
		info := callInfoOf(t, call(cs))
		assert.Equal(t, v, info.Header)
		assert.Equal(t, 1, info.Calls)
	}
	require.EqualValues(t, 4, runs.Load())
	require.Equal(t, 4, store.count())

	h.set("c4-secret-looking-value")
	res := call(cs)
	require.True(t, res.IsError, "%+v", res.Content)
	text := res.Content[0].(*mcp.TextContent).Text
	assert.Contains(t, text, "already uses 3 sessions")
	assert.Contains(t, text, "open a new connection")
	assert.NotContains(t, text, "c4-secret")
	assert.EqualValues(t, 4, runs.Load(), "the refused call did not run")
	assert.Equal(t, 4, store.count(), "no more registry sessions than the bound and the connection's own")

	h.set("c2")
	assert.Equal(t, 2, callInfoOf(t, call(cs)).Calls, "a key the connection holds still serves")
	h.set("")
	assert.Equal(t, 2, callInfoOf(t, call(cs)).Calls, "and so does its own")

	require.NoError(t, cs.Close())
	require.Eventually(t, func() bool { return store.count() == 0 }, 10*time.Second, time.Millisecond,
		"sessions with state left after the connection closed: %d", store.count())

	cs, h = connect()
	for _, v := range []string{"c4", "c5", "c6"} {
		h.set(v)
		assert.Equal(t, 1, callInfoOf(t, call(cs)).Calls, "a new connection names new keys")
	}
}

// The bound applies on every server, stdio and in-memory too, by default at
// DefaultMaxKeysPerConnection; a negative bound turns it off.
func TestKeysPerConnectionDefault(t *testing.T) {
	// The conversation comes in the call's _meta, which reaches every transport.
	byMeta := toolmcp.WithSessionKey(toolmcp.SessionFunc(func(_ context.Context, req mcp.Request) (string, error) {
		v, _ := req.GetParams().GetMeta()["conversation"].(string)
		return v, nil
	}))
	call := func(t *testing.T, cs *mcp.ClientSession, conversation string) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "call_info", Arguments: map[string]any{},
			Meta: mcp.Meta{"conversation": conversation}})
		require.NoError(t, err)
		return res
	}
	newReg := func(t *testing.T) (*runtime.Registry, *atomic.Int32) {
		reg := runtime.NewRegistry()
		var runs atomic.Int32
		require.NoError(t, reg.Add(countedTool(&runs)))
		return reg, &runs
	}

	t.Run("in memory, default", func(t *testing.T) {
		reg, runs := newReg(t)
		server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
		tracked := toolmcp.AddToolsTracked(server, reg, nil, byMeta)
		cs := connectInMemory(t, server, nil, nil)
		callInfoOf(t, call(t, cs, "")) // the connection's own
		for i := range toolmcp.DefaultMaxKeysPerConnection {
			callInfoOf(t, call(t, cs, fmt.Sprint("c", i)))
		}
		res := call(t, cs, "one more")
		require.True(t, res.IsError, "%+v", res.Content)
		assert.Contains(t, res.Content[0].(*mcp.TextContent).Text, fmt.Sprintf("already uses %d sessions", toolmcp.DefaultMaxKeysPerConnection))
		assert.EqualValues(t, toolmcp.DefaultMaxKeysPerConnection+1, runs.Load())
		keys, _ := tracked()
		assert.Equal(t, toolmcp.DefaultMaxKeysPerConnection+1, keys, "the bound and the connection's own")
	})
	t.Run("in memory, off", func(t *testing.T) {
		reg, runs := newReg(t)
		cs := inMemory(t, reg, nil, nil, byMeta, toolmcp.WithSessionLimits(toolmcp.SessionLimits{MaxKeysPerConnection: -1}))
		for i := range toolmcp.DefaultMaxKeysPerConnection + 1 {
			callInfoOf(t, call(t, cs, fmt.Sprint("c", i)))
		}
		assert.EqualValues(t, toolmcp.DefaultMaxKeysPerConnection+1, runs.Load())
	})
	t.Run("stdio", func(t *testing.T) {
		reg, runs := newReg(t)
		cs, _ := stdioClient(t, reg, nil, nil, byMeta, toolmcp.WithSessionLimits(toolmcp.SessionLimits{MaxKeysPerConnection: 1}))
		callInfoOf(t, call(t, cs, "a"))
		assert.True(t, call(t, cs, "b").IsError)
		assert.Equal(t, 2, callInfoOf(t, call(t, cs, "a")).Calls)
		assert.EqualValues(t, 2, runs.Load())
	})
}

// A long header value keys its session by a hash: the key stays short however long the
// value, and values differing in their last byte are still apart.
func TestLongHeaderKeysAreHashed(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(callInfoTool()))
	srv := httptest.NewServer(toolmcp.HTTPHandler(reg, toolmcp.WithSessionKey(toolmcp.SessionFromHeader("X-Conversation"))))
	t.Cleanup(srv.Close)
	h := &conversationHeader{}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(t.Context(),
		&mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: &http.Client{Transport: h}}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	call := func(v string) callInfo {
		h.set(v)
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "call_info", Arguments: map[string]any{}})
		require.NoError(t, err)
		return callInfoOf(t, res)
	}

	short := call("c1")
	assert.Contains(t, short.Session, "c1", "a short value is kept as it is")
	long := strings.Repeat("x", 4<<10) // call_info repeats the header: within its result bound
	first := call(long + "1")
	assert.Less(t, len(first.Session), 200, "%q", first.Session)
	assert.Equal(t, 1, first.Calls)
	assert.Equal(t, 1, call(long+"2").Calls, "a different value: another session")
	again := call(long + "1")
	assert.Equal(t, 2, again.Calls, "the same value: the same session")
	assert.Equal(t, first.Session, again.Session)
}
