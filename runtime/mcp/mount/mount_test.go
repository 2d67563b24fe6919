package mount_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
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
	"github.com/toolgen-go/toolgen/runtime/mcp/mount"
	"github.com/toolgen-go/toolgen/runtime/schematool"
)

// remote is a go-sdk server in this process, reached through in-memory transports, one per
// connection, so tests can drop a connection and see the mount come back.
type remote struct {
	server    *mcp.Server
	calls     atomic.Int64 // tools/call requests that reached a handler
	dials     atomic.Int64
	mu        sync.Mutex
	sessions  []*mcp.ServerSession
	cancelled chan struct{} // closed when slow's ctx ended
	progress  chan struct{} // slow sent its first progress
}

var quiet = slog.New(slog.DiscardHandler)

func schema(s string) json.RawMessage { return json.RawMessage(s) }

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func newRemote(t *testing.T) *remote {
	r := &remote{server: mcp.NewServer(&mcp.Implementation{Name: "remote", Version: "1"}, nil),
		cancelled: make(chan struct{}), progress: make(chan struct{})}
	args := func(req *mcp.CallToolRequest) map[string]any {
		r.calls.Add(1)
		var m map[string]any
		json.Unmarshal(req.Params.Arguments, &m)
		return m
	}
	r.server.AddTool(&mcp.Tool{Name: "echo", Description: "Echoes text.", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		InputSchema: schema(`{"type":"object","properties":{"text":{"type":"string","minLength":1},"times":{"type":"integer","minimum":1,"maximum":3,"default":1}},"required":["text"],"additionalProperties":false}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			a := args(req)
			return text(strings.Repeat(a["text"].(string), int(a["times"].(float64)))), nil
		})
	r.server.AddTool(&mcp.Tool{Name: "remove", Description: "Removes a file.",
		InputSchema: schema(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("removed " + args(req)["path"].(string)), nil
		})
	r.server.AddTool(&mcp.Tool{Name: "count", Description: "Counts.", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		InputSchema:  schema(`{"type":"object","properties":{"lie":{"type":"boolean"}},"additionalProperties":false}`),
		OutputSchema: schema(`{"type":"object","properties":{"count":{"type":"integer"}},"required":["count"]}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if args(req)["lie"] == true {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"count":"many"}`}}, StructuredContent: map[string]any{"count": "many"}}, nil
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"count":3}`}}, StructuredContent: map[string]any{"count": 3}}, nil
		})
	r.server.AddTool(&mcp.Tool{Name: "slow", Description: "Works until cancelled.", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		InputSchema: schema(`{"type":"object","properties":{},"additionalProperties":false}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			r.calls.Add(1)
			err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(), Progress: 1, Total: 10, Message: "one of ten"})
			if err != nil {
				return nil, err
			}
			close(r.progress)
			<-ctx.Done()
			close(r.cancelled)
			return nil, ctx.Err()
		})
	r.server.AddTool(&mcp.Tool{Name: "anything", Description: "Takes one of two shapes.", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		InputSchema: schema(`{"type":"object","properties":{"v":{"oneOf":[{"type":"string"},{"type":"integer"}]}},"required":["v"]}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			args(req)
			return text("ok"), nil
		})
	r.server.AddTool(&mcp.Tool{Name: "bad.name", Description: "A name the registry cannot hold.",
		InputSchema: schema(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return text("no"), nil })
	return r
}

// dial connects a new in-memory connection to the server.
func (r *remote) dial(ctx context.Context) (mcp.Transport, error) {
	r.dials.Add(1)
	serverSide, clientSide := mcp.NewInMemoryTransports()
	ss, err := r.server.Connect(ctx, serverSide, nil)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.sessions = append(r.sessions, ss)
	r.mu.Unlock()
	return clientSide, nil
}

// dropAll closes every server side connection, as a server restart would.
func (r *remote) dropAll() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, ss := range r.sessions {
		ss.Close()
	}
	r.sessions = nil
}

// eventually polls cond until it holds or a generous deadline passes: the mount's following
// of the server runs in its own goroutine.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func mountRemote(t *testing.T, reg *runtime.Registry, o mount.Options) (*remote, *mount.Mounted) {
	r := newRemote(t)
	o.Logger = quiet
	m, err := mount.Mount(t.Context(), reg, mount.Server{Name: "files", Dial: r.dial}, o)
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
	return r, m
}

func invoke(reg *runtime.Registry, name, args string) runtime.Result {
	return reg.Invoke(context.Background(), runtime.Call{Name: name, Args: []byte(args)})
}

func TestMountedToolsUnderRegistryPolicies(t *testing.T) {
	var approvals []string
	reg := runtime.NewRegistry(runtime.WithApprover(runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
		approvals = append(approvals, req.Tool+" "+string(req.RawArgs))
		return runtime.Decision{Approved: !strings.Contains(string(req.RawArgs), "keep")}, nil
	})))
	r, m := mountRemote(t, reg, mount.Options{})
	assert.Equal(t, []string{"files_anything", "files_count", "files_echo", "files_remove", "files_slow"}, m.Tools())
	require.Len(t, m.Skipped(), 1)
	assert.Equal(t, "bad.name", m.Skipped()[0].Tool)
	assert.True(t, m.Connected())

	echo, ok := reg.Tool("files_echo")
	require.True(t, ok)
	assert.Equal(t, runtime.PermissionAuto, echo.Permission)
	assert.True(t, echo.Hints.ReadOnly)
	remove, _ := reg.Tool("files_remove")
	assert.Equal(t, runtime.PermissionConfirm, remove.Permission, "no annotations: destructive, as the protocol reads them")

	// Valid arguments reach the server in their canonical form, default added.
	res := invoke(reg, "files_echo", `{"text":"ab"}`)
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, "ab", res.Text)
	// Invalid ones never leave: the decoder tables' problems, the server not called.
	before := r.calls.Load()
	res = invoke(reg, "files_echo", `{"text":"","times":9,"extra":1}`)
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, "/text: must be at least 1 character long, got 0")
	assert.Contains(t, res.Text, "/times: must be at most 3, got 9")
	assert.Contains(t, res.Text, "/extra: unknown property")
	assert.Equal(t, before, r.calls.Load())

	// Approval with the canonical arguments.
	res = invoke(reg, "files_remove", `{"path":"a.txt"}`)
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, "removed a.txt", res.Text)
	res = invoke(reg, "files_remove", `{"path":"keep.txt"}`)
	assert.True(t, res.IsError)
	assert.Equal(t, runtime.KindDenied, res.Kind)
	assert.Equal(t, []string{`files_remove {"path":"a.txt"}`, `files_remove {"path":"keep.txt"}`}, approvals)

	// Structured results are checked against the output schema.
	res = invoke(reg, "files_count", `{}`)
	require.False(t, res.IsError, res.Text)
	assert.JSONEq(t, `{"count":3}`, string(res.Structured))
	res = invoke(reg, "files_count", `{"lie":true}`)
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, "does not match its output schema")
	assert.Contains(t, res.Text, "/count")
	assert.NotContains(t, res.Text, "many", "the server's bad data is not passed on")

	// A schema outside the subset: the general validator, its paths.
	res = invoke(reg, "files_anything", `{"v":true}`)
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, "/v")
	res = invoke(reg, "files_anything", `{"v":7}`)
	require.False(t, res.IsError, res.Text)

	require.NoError(t, m.Close())
	assert.Empty(t, reg.Names(), "Close removes the tools")
	require.NoError(t, m.Close(), "Close twice")
}

func TestStrictLeavesOutSchemasOutsideTheSubset(t *testing.T) {
	reg := runtime.NewRegistry()
	_, m := mountRemote(t, reg, mount.Options{Strict: true, Prefix: "x_", Auto: []string{"remove"}, Confirm: []string{"echo"}})
	assert.NotContains(t, m.Tools(), "x_anything")
	var reasons []string
	for _, s := range m.Skipped() {
		reasons = append(reasons, s.Tool+": "+s.Reason)
	}
	assert.Contains(t, strings.Join(reasons, "\n"), `anything: input schema: schema /properties/v: the keyword "oneOf" is outside the subset toolgen emits`)
	remove, _ := reg.Tool("x_remove")
	assert.Equal(t, runtime.PermissionAuto, remove.Permission, "Auto")
	echo, _ := reg.Tool("x_echo")
	assert.Equal(t, runtime.PermissionConfirm, echo.Permission, "Confirm")
}

func TestProgressAndCancellationPassThrough(t *testing.T) {
	reg := runtime.NewRegistry()
	r, _ := mountRemote(t, reg, mount.Options{})
	var mu sync.Mutex
	var reports []string
	ctx, cancel := context.WithCancel(runtime.WithCallHooks(context.Background(), &runtime.CallHooks{
		Progress: func(_ context.Context, done, total float64, message string) {
			mu.Lock()
			reports = append(reports, message)
			mu.Unlock()
		},
	}))
	results := make(chan runtime.Result, 1)
	go func() { results <- reg.Invoke(ctx, runtime.Call{Name: "files_slow", Args: []byte(`{}`)}) }()
	select {
	case <-r.progress:
	case <-time.After(20 * time.Second):
		t.Fatal("the server never ran slow")
	}
	eventually(t, "the progress reached the caller", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(reports) == 1
	})
	assert.Equal(t, []string{"one of ten"}, reports)
	cancel()
	select {
	case <-r.cancelled:
	case <-time.After(20 * time.Second):
		t.Fatal("the cancellation never reached the server")
	}
	res := <-results
	assert.True(t, res.IsError)
	assert.Equal(t, runtime.KindCancelled, res.Kind)
}

func TestFollowsListChangedAndReconnects(t *testing.T) {
	reg := runtime.NewRegistry()
	r, m := mountRemote(t, reg, mount.Options{ReconnectDelay: time.Millisecond})

	r.server.AddTool(&mcp.Tool{Name: "added", Description: "New.", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		InputSchema: schema(`{"type":"object","properties":{},"additionalProperties":false}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return text("new"), nil })
	eventually(t, "the added tool is registered", func() bool { _, ok := reg.Tool("files_added"); return ok })
	assert.Equal(t, "new", invoke(reg, "files_added", `{}`).Text)
	r.server.RemoveTools("echo")
	eventually(t, "the removed tool is gone", func() bool { _, ok := reg.Tool("files_echo"); return !ok })

	// The server drops the connection: the mount reconnects and the tools work again.
	r.dropAll()
	eventually(t, "reconnected", func() bool { return r.dials.Load() >= 2 && m.Connected() })
	eventually(t, "a call succeeds after reconnecting", func() bool { return !invoke(reg, "files_added", `{}`).IsError })
	assert.Contains(t, m.Tools(), "files_added")
}

func TestCallWhileDisconnected(t *testing.T) {
	reg := runtime.NewRegistry()
	r := newRemote(t)
	var refuse atomic.Bool
	dial := func(ctx context.Context) (mcp.Transport, error) {
		if refuse.Load() {
			return nil, context.DeadlineExceeded
		}
		return r.dial(ctx)
	}
	m, err := mount.Mount(t.Context(), reg, mount.Server{Name: "files", Dial: dial}, mount.Options{ReconnectDelay: time.Millisecond, MaxReconnectDelay: time.Millisecond, Logger: quiet})
	require.NoError(t, err)
	defer m.Close()
	refuse.Store(true)
	r.dropAll()
	eventually(t, "disconnected", func() bool { return !m.Connected() })
	res := invoke(reg, "files_echo", `{"text":"a"}`)
	require.True(t, res.IsError)
	assert.Equal(t, runtime.KindUnavailable, res.Kind)
	assert.Contains(t, res.Text, "not connected now")
	refuse.Store(false)
	eventually(t, "reconnected", func() bool { return m.Connected() })
	assert.Equal(t, "a", invoke(reg, "files_echo", `{"text":"a"}`).Text)
}

func TestMountRefusesBadServers(t *testing.T) {
	reg := runtime.NewRegistry()
	_, err := mount.Mount(t.Context(), reg, mount.Server{Name: "x"}, mount.Options{})
	assert.ErrorContains(t, err, "exactly one of Command, URL or Dial")
	_, err = mount.Mount(t.Context(), reg, mount.Server{Name: "bad name", URL: "http://127.0.0.1:1"}, mount.Options{})
	assert.ErrorContains(t, err, "needs a Name")
	_, err = mount.Mount(t.Context(), reg, mount.Server{Name: "gone", Command: []string{"/nonexistent/server"}}, mount.Options{})
	assert.Error(t, err)
	assert.Empty(t, reg.Names())
}

// TestMountOverHTTPWithAuthHeaders mounts a registry served over streamable HTTP behind a
// bearer token, sending the token as a header.
func TestMountOverHTTPWithAuthHeaders(t *testing.T) {
	upstream := runtime.NewRegistry()
	tool, err := schematool.New("greet", "Greets someone.", schema(`{"type":"object","properties":{"name":{"type":"string","minLength":1}},"required":["name"],"additionalProperties":false}`),
		func(_ context.Context, args json.RawMessage) (runtime.Result, error) {
			var a struct{ Name string }
			json.Unmarshal(args, &a)
			return runtime.TextResult("hello " + a.Name), nil
		})
	require.NoError(t, err)
	tool.Hints.ReadOnly = true
	require.NoError(t, upstream.Add(tool))
	const token = "a-secret-of-enough-length"
	srv := httptest.NewServer(toolmcp.HTTPHandler(upstream, toolmcp.WithBearerAuth(toolmcp.StaticToken(token, "me"), nil)))
	defer srv.Close()

	reg := runtime.NewRegistry()
	_, err = mount.Mount(t.Context(), reg, mount.Server{Name: "web", URL: srv.URL}, mount.Options{Logger: quiet})
	require.Error(t, err, "no token")
	m, err := mount.Mount(t.Context(), reg, mount.Server{Name: "web", URL: srv.URL, Headers: map[string]string{"Authorization": "Bearer " + token}}, mount.Options{Logger: quiet})
	require.NoError(t, err)
	defer m.Close()
	got, _ := reg.Tool("web_greet")
	assert.Equal(t, runtime.PermissionAuto, got.Permission, "read-only by its hints")
	assert.Equal(t, "hello Ada", invoke(reg, "web_greet", `{"name":"Ada"}`).Text)
	res := invoke(reg, "web_greet", `{"name":""}`)
	assert.Contains(t, res.Text, "/name: must be at least 1 character long, got 0")
}

// TestOversizedHTTPAnswerIsRefused: a server answering with a JSON body past MaxMessageBytes
// is refused, not read whole.
func TestOversizedHTTPAnswerIsRefused(t *testing.T) {
	var served atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		chunk := []byte(strings.Repeat(" ", 1<<20))
		w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{"x":"`))
		for i := 0; i < 64; i++ {
			n, err := w.Write(chunk)
			served.Add(int64(n))
			if err != nil {
				return
			}
		}
		w.Write([]byte(`"}}`))
	}))
	defer srv.Close()
	_, err := mount.Mount(t.Context(), runtime.NewRegistry(), mount.Server{Name: "big", URL: srv.URL}, mount.Options{Logger: quiet})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "over 16777216 bytes")
	// The mount stopped reading near the cap: the server could not send its 64 MiB (the
	// margin is the sockets' buffers).
	assert.Less(t, served.Load(), int64(40<<20))
}

// TestHostileListing: a server listing more tools than MaxTools, a description past its cap,
// a schema referring outside itself (never loaded) and an output schema that cannot compile.
func TestHostileListing(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "hostile", Version: "1"}, nil)
	ok := func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return text("ok"), nil }
	for i := range mount.MaxTools + 5 {
		server.AddTool(&mcp.Tool{Name: "t" + strconv.Itoa(i), Description: strings.Repeat("d", mount.MaxDescriptionBytes+100),
			InputSchema: schema(`{"type":"object","properties":{},"additionalProperties":false}`)}, ok)
	}
	server.AddTool(&mcp.Tool{Name: "a_ref", InputSchema: schema(`{"type":"object","properties":{"x":{"$ref":"file:///etc/passwd"}}}`)}, ok)
	server.AddTool(&mcp.Tool{Name: "a_out", InputSchema: schema(`{"type":"object"}`), OutputSchema: schema(`{"type":"object","properties":{"x":{"$ref":"https://example.com/s.json"}}}`)}, ok)
	dial := dialer(server)
	reg := runtime.NewRegistry()
	m, err := mount.Mount(t.Context(), reg, mount.Server{Name: "h", Dial: dial}, mount.Options{Logger: quiet})
	require.NoError(t, err)
	defer m.Close()
	assert.LessOrEqual(t, len(m.Tools()), mount.MaxTools)
	var reasons []string
	for _, s := range m.Skipped() {
		reasons = append(reasons, s.Tool+": "+s.Reason)
	}
	all := strings.Join(reasons, "\n")
	assert.Contains(t, all, "too many tools")
	assert.Contains(t, all, `a_ref: input schema:`)
	assert.Contains(t, all, `file:///etc/passwd`)
	assert.Contains(t, all, `a_out: output schema:`)
	for _, name := range m.Tools() {
		tool, _ := reg.Tool(name)
		assert.LessOrEqual(t, len(tool.Description), mount.MaxDescriptionBytes+len("…"))
	}
}

// TestListingBytesBound: a server listing tools that are each well within the caps, but
// together over MaxListBytes, has those past it left out, so what a listing makes this
// process hold is bounded in bytes as well as in tools and pages.
func TestListingBytesBound(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "wordy", Version: "1"}, &mcp.ServerOptions{PageSize: 4})
	ok := func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return text("ok"), nil }
	const tools, each = 20, 1 << 20
	for i := range tools {
		server.AddTool(&mcp.Tool{Name: fmt.Sprintf("t%02d", i), Description: strings.Repeat("d", each),
			InputSchema: schema(`{"type":"object"}`)}, ok)
	}
	dial := dialer(server)
	m, err := mount.Mount(t.Context(), runtime.NewRegistry(), mount.Server{Name: "w", Dial: dial}, mount.Options{Logger: quiet})
	require.NoError(t, err)
	defer m.Close()
	kept := len(m.Tools())
	assert.Positive(t, kept)
	assert.LessOrEqual(t, kept*each, mount.MaxListBytes)
	require.Len(t, m.Skipped(), 1)
	assert.Equal(t, fmt.Sprintf("(the tools past the first %d)", kept), m.Skipped()[0].Tool)
	assert.Equal(t, "the listing is over 16777216 bytes", m.Skipped()[0].Reason)
}

// TestDeferAndResultCap: a large server's tools are kept for tool search, and a result over
// the cap is offloaded by the registry like any tool's.
func TestDeferAndResultCap(t *testing.T) {
	reg := runtime.NewRegistry()
	_, m := mountRemote(t, reg, mount.Options{DeferAbove: 3, MaxResult: 64})
	for _, name := range m.Tools() {
		tool, _ := reg.Tool(name)
		assert.True(t, tool.Deferred, name)
	}
	res := invoke(reg, "files_echo", `{"text":"`+strings.Repeat("x", 50)+`","times":3}`)
	require.False(t, res.IsError, res.Text)
	require.NotNil(t, res.Offloaded)
	assert.Equal(t, 150, res.Offloaded.Size)
	assert.NotEmpty(t, res.Offloaded.ID)

	small := runtime.NewRegistry()
	_, m = mountRemote(t, small, mount.Options{DeferAbove: 100})
	tool, _ := small.Tool(m.Tools()[0])
	assert.False(t, tool.Deferred)
}

// A listing that crosses DeferAbove defers the tools listed before it too, though their
// definitions did not change.
func TestDeferAboveFollowsTheToolCount(t *testing.T) {
	reg := runtime.NewRegistry()
	r, m := mountRemote(t, reg, mount.Options{DeferAbove: 6}) // six listed, one of them left out
	require.Len(t, m.Tools(), 5)
	echo, _ := reg.Tool("files_echo")
	require.False(t, echo.Deferred)

	r.server.AddTool(&mcp.Tool{Name: "added", InputSchema: schema(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return text("new"), nil })
	eventually(t, "every tool is deferred once seven are listed", func() bool {
		for _, name := range []string{"files_echo", "files_added"} {
			if tool, ok := reg.Tool(name); !ok || !tool.Deferred {
				return false
			}
		}
		return true
	})
	assert.Equal(t, "hihi", invoke(reg, "files_echo", `{"text":"hi","times":2}`).Text)
}

func TestToolNameMapsTheServersNames(t *testing.T) {
	_, m := mountRemote(t, runtime.NewRegistry(), mount.Options{})
	name, ok := m.ToolName("echo")
	assert.True(t, ok)
	assert.Equal(t, "files_echo", name)
	for _, remote := range []string{"files_echo", "bad.name", "", "nothing"} {
		_, ok := m.ToolName(remote)
		assert.False(t, ok, remote)
	}
}
