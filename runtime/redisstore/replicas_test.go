package redisstore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/runtime/redisstore"
)

// conversationHeader names the conversation of a request. A stateless MCP server has no
// session id, so the client says which conversation its calls belong to, and every replica
// finds that session's state in Redis.
const conversationHeader = "X-Conversation"

// replica is one MCP server process: its own registry, sharing only Redis.
type replica struct {
	srv  *httptest.Server
	reg  *runtime.Registry
	runs *atomic.Int64 // handler runs on this replica
}

// newReplica serves tools over stateless streamable HTTP through runtime/mcp, each call in
// the session its request's header names. Every request is a connection of its own, so
// without WithSharedSessions a replica would end (and clear in Redis) the session after each.
func newReplica(t *testing.T, store *redisstore.Store, opts []runtime.Option, tools ...runtime.Tool) *replica {
	rep := &replica{runs: new(atomic.Int64)}
	rep.reg = runtime.NewRegistry(append([]runtime.Option{runtime.WithSessionStore(store)}, opts...)...)
	require.NoError(t, rep.reg.Add(fixture.CountRuns(rep.runs, tools...)...))

	server := mcp.NewServer(&mcp.Implementation{Name: "replica", Version: "1"}, nil)
	toolmcp.AddTools(server, rep.reg, nil, toolmcp.WithSessionKey(toolmcp.SessionFromHeader(conversationHeader)),
		toolmcp.WithSharedSessions(), toolmcp.WithStateKey(replicasKey))
	rep.srv = httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	t.Cleanup(rep.srv.Close)
	return rep
}

// replicasKey signs what one replica hands a client for another to accept (the links to
// stored results).
var replicasKey = []byte("the replicas' shared signing key")

// roundRobin is a load balancer: each request goes to the next backend, and to the one
// after it when a backend refuses the connection (a killed replica).
type roundRobin struct {
	backends []string
	next     atomic.Uint64
	served   sync.Map // backend → *atomic.Int64
}

func (rr *roundRobin) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, err
	}
	var lastErr error
	for range rr.backends {
		backend := rr.backends[rr.next.Add(1)%uint64(len(rr.backends))]
		out := req.Clone(req.Context())
		out.URL.Host, out.Host = strings.TrimPrefix(backend, "http://"), ""
		out.Body = io.NopCloser(bytes.NewReader(body))
		res, err := http.DefaultTransport.RoundTrip(out)
		if errors.Is(err, syscall.ECONNREFUSED) {
			lastErr = err
			continue
		}
		if err == nil {
			n, _ := rr.served.LoadOrStore(backend, new(atomic.Int64))
			n.(*atomic.Int64).Add(1)
		}
		return res, err
	}
	return nil, lastErr
}

// balance serves the replicas behind one round-robin reverse proxy.
func balance(t *testing.T, replicas []*replica) (*httptest.Server, *roundRobin) {
	rr := &roundRobin{}
	for _, r := range replicas {
		rr.backends = append(rr.backends, r.srv.URL)
	}
	proxy := &httputil.ReverseProxy{
		Rewrite:   func(pr *httputil.ProxyRequest) { pr.Out.URL.Scheme, pr.Out.URL.Host = "http", "backend" },
		Transport: rr,
	}
	lb := httptest.NewServer(proxy)
	t.Cleanup(lb.Close)
	return lb, rr
}

// withHeader adds a header to every request.
type withHeader struct {
	key, value string
}

func (h withHeader) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set(h.key, h.value)
	return http.DefaultTransport.RoundTrip(req)
}

// connect returns an MCP client session through the load balancer, in conversation.
func connect(t *testing.T, url, conversation string) *mcp.ClientSession {
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint:             url,
		HTTPClient:           &http.Client{Transport: withHeader{conversationHeader, conversation}},
		DisableStandaloneSSE: true,
		MaxRetries:           -1,
	}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// callText calls a tool and returns its text and whether it is an error.
func callText(t *testing.T, cs *mcp.ClientSession, name string, args any) (string, bool) {
	t.Helper()
	res := callTool(t, cs, name, args)
	require.NotEmpty(t, res.Content)
	return res.Content[0].(*mcp.TextContent).Text, res.IsError
}

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err)
	return res
}

// jsonTool is a tool whose arguments are any JSON object, handled by run.
var jsonTool = fixture.JSONTool

// remember appends a note to the session's notes and says how many there are.
var remember = jsonTool("remember", func(ctx context.Context, args map[string]any) runtime.Result {
	info, _ := runtime.CallInfoFrom(ctx)
	var n int
	err := info.State.Update(ctx, "notes", func(old any, _ bool) (any, error) {
		notes, _ := old.([]any)
		notes = append(notes, args["note"])
		n = len(notes)
		return notes, nil
	})
	if err != nil {
		return runtime.ErrorResult(err)
	}
	return runtime.TextResult(fmt.Sprintf("%d notes", n))
})

// recall lists the session's notes.
var recall = jsonTool("recall", func(ctx context.Context, _ map[string]any) runtime.Result {
	info, _ := runtime.CallInfoFrom(ctx)
	notes, _, err := info.State.Get(ctx, "notes")
	if err != nil {
		return runtime.ErrorResult(err)
	}
	data, _ := json.Marshal(notes)
	return runtime.TextResult(string(data))
})

func searchTool() runtime.Tool {
	t := jsonTool("search", func(_ context.Context, args map[string]any) runtime.Result {
		return runtime.TextResult(fmt.Sprintf("results for %v", args["q"]))
	})
	t.MaxCalls = 3
	return t
}

// Three stateless replicas behind a round-robin proxy: the loop guards count across
// replicas, and a replica killed mid-session loses nothing of it.
func TestReplicasShareLoopGuardsAndSessions(t *testing.T) {
	redisSrv := startRedis(t)
	store := redisstore.New(redisSrv.client(t), redisstore.Options{})
	guard := runtime.WithLoopGuard(runtime.LoopGuard{MaxCalls: 8, RefuseRepeats: true})
	replicas := make([]*replica, 3)
	for i := range replicas {
		replicas[i] = newReplica(t, store, []runtime.Option{guard}, searchTool(), remember, recall)
	}
	lb, rr := balance(t, replicas)
	alice, bob := connect(t, lb.URL, "alice"), connect(t, lb.URL, "bob")

	// Per-tool limit (3) across replicas: three searches land on three replicas; the fourth
	// is refused wherever it lands.
	for i := range 3 {
		text, isErr := callText(t, alice, "search", map[string]any{"q": fmt.Sprint(i)})
		require.False(t, isErr, text)
	}
	text, isErr := callText(t, alice, "search", map[string]any{"q": "3"})
	assert.True(t, isErr)
	assert.Contains(t, text, "already called 3 times in this session")
	// Repeats are remembered across replicas too.
	text, isErr = callText(t, bob, "search", map[string]any{"q": "x"})
	require.False(t, isErr, text)
	text, isErr = callText(t, bob, "search", map[string]any{"q": "x"})
	assert.True(t, isErr)
	assert.Contains(t, text, "already called with exactly these arguments")

	text, _ = callText(t, alice, "remember", map[string]any{"note": "likes tea"})
	assert.Equal(t, "1 notes", text)

	// Kill a replica mid-session: the proxy sends its share to the others, and nothing of the
	// session (state, counts) was in it.
	replicas[1].srv.Close()
	text, _ = callText(t, alice, "remember", map[string]any{"note": "lives in Oslo"})
	assert.Equal(t, "2 notes", text)
	text, _ = callText(t, alice, "recall", map[string]any{"try": 1})
	assert.JSONEq(t, `["likes tea","lives in Oslo"]`, text)
	text, _ = callText(t, bob, "recall", nil)
	assert.Equal(t, "null", text, "bob's session does not see alice's notes")

	// Alice made 6 calls (a refused one counts nothing); the session total is 8.
	for try := 2; try <= 3; try++ {
		text, isErr = callText(t, alice, "recall", map[string]any{"try": try})
		require.False(t, isErr, text)
	}
	text, isErr = callText(t, alice, "recall", map[string]any{"try": 4})
	assert.True(t, isErr)
	assert.Contains(t, text, "limit of 8 tool calls")

	for i, r := range replicas {
		n, _ := rr.served.Load(r.srv.URL)
		require.NotNil(t, n, "replica %d served nothing: the test would not show sharing", i)
	}
	var runs int64
	for _, r := range replicas {
		runs += r.runs.Load()
	}
	assert.Equal(t, int64(10), runs, "alice: 3 searches, 2 remember, 3 recall; bob: 1 search, 1 recall")
}

// readResult reads a page of a stored result of the calling session, as the workspace
// toolkit's read_result does.
var readResult = jsonTool(runtime.ReadResultTool, func(ctx context.Context, args map[string]any) runtime.Result {
	id, _ := args["id"].(string)
	offset, _ := args["offset"].(float64)
	pg, err := runtime.ReadResult(ctx, id, int64(offset), 64)
	if err != nil {
		return runtime.ErrorResult(runtime.ModelErrorf(runtime.KindNotFound, "%v", err))
	}
	return runtime.TextResult(string(pg.Data))
})

// An offloaded result is readable from every replica, and only in its own session.
func TestReplicasShareOffloadedResults(t *testing.T) {
	redisSrv := startRedis(t)
	store := redisstore.New(redisSrv.client(t), redisstore.Options{})
	full := strings.Repeat("0123456789", 100)
	report := jsonTool("report", func(context.Context, map[string]any) runtime.Result { return runtime.TextResult(full) })
	report.MaxResult = 400
	replicas := make([]*replica, 3)
	for i := range replicas {
		replicas[i] = newReplica(t, store, []runtime.Option{runtime.WithResultStore(store)}, report, readResult)
	}
	lb, _ := balance(t, replicas)
	alice := connect(t, lb.URL, "alice")

	res := callTool(t, alice, "report", nil)
	require.False(t, res.IsError)
	text := res.Content[0].(*mcp.TextContent).Text
	id := regexp.MustCompile(`res_[0-9a-f]{24}`).FindString(text)
	require.NotEmpty(t, id, text)
	require.Len(t, res.Content, 2, "the preview and a link to the whole result")
	link := res.Content[1].(*mcp.ResourceLink)

	// Three reads go to three replicas; each finds the result.
	for i := range 3 {
		text, isErr := callText(t, alice, runtime.ReadResultTool, map[string]any{"id": id, "offset": 900 + i})
		require.False(t, isErr, text)
		assert.Equal(t, full[900+i:min(900+i+64, len(full))], text)
	}
	var runs int64
	for i, r := range replicas {
		assert.Positive(t, r.runs.Load(), "replica %d served no read", i)
		runs += r.runs.Load()
	}
	assert.Equal(t, int64(4), runs, "the report, then three reads in a row, one on each replica")

	// The link the client got reads the whole result through resources/read, on any replica.
	for range 3 {
		read, err := alice.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: link.URI})
		require.NoError(t, err)
		require.Len(t, read.Contents, 1)
		assert.Equal(t, full, read.Contents[0].Text)
	}

	text, isErr := callText(t, connect(t, lb.URL, "mallory"), runtime.ReadResultTool, map[string]any{"id": id})
	assert.True(t, isErr, "another session cannot read it: %s", text)
}

// An approval requested through one replica is decided through another, and the approved
// call runs exactly once though every replica is asked to run it at the same time.
func TestReplicasShareTheApprovalQueue(t *testing.T) {
	redisSrv := startRedis(t)
	store := redisstore.New(redisSrv.client(t), redisstore.Options{})
	deploy := jsonTool("deploy", func(_ context.Context, args map[string]any) runtime.Result {
		return runtime.TextResult(fmt.Sprintf("deployed to %v", args["env"]))
	})
	deploy.Permission = runtime.PermissionConfirm
	opts := []runtime.Option{runtime.WithApprovalStore(store.Approvals()), runtime.WithApprovalKey([]byte("the replicas' approval key"))}
	replicas := make([]*replica, 3)
	for i := range replicas {
		replicas[i] = newReplica(t, store, opts, deploy)
	}
	call := runtime.Call{ID: "call_1", Name: "deploy", Args: []byte(`{"env":"prod"}`), Session: "alice"}
	ctx := context.Background()

	res := replicas[0].reg.Invoke(ctx, call)
	require.NotEmpty(t, res.PendingApproval, res.Text)
	pending := replicas[1].reg.Pending()
	require.Len(t, pending, 1, "another replica lists the request")
	assert.Equal(t, res.PendingApproval, pending[0].ID)
	assert.JSONEq(t, `{"env":"prod"}`, string(pending[0].RawArgs))

	require.NoError(t, replicas[1].reg.Approve(res.PendingApproval, "bob"))
	assert.Error(t, replicas[2].reg.Approve(res.PendingApproval, "eve"), "a decision is made once")

	results := make([]runtime.Result, len(replicas))
	var wg sync.WaitGroup
	for i, r := range replicas {
		wg.Go(func() { results[i] = r.reg.Invoke(ctx, call) })
	}
	wg.Wait()
	var ran, runs int64
	for i, r := range replicas {
		runs += r.runs.Load()
		if !results[i].IsError {
			ran++
			assert.Equal(t, "deployed to prod", results[i].Text)
		} else {
			assert.Equal(t, runtime.KindLimit, results[i].Kind, results[i].Text)
		}
	}
	assert.Equal(t, int64(1), ran, "one replica ran the approved call")
	assert.Equal(t, int64(1), runs)
	assert.Empty(t, replicas[0].reg.Pending())

	require.NoError(t, replicas[2].reg.EndSession(ctx, "alice"))
	_, found, err := store.Approvals().Get(ctx, res.PendingApproval)
	require.NoError(t, err)
	assert.False(t, found, "EndSession forgets the session's requests")
}
