package mcp_test

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// funcArgs are the arguments of the test tools: any JSON object.
type funcArgs map[string]any

type funcCall struct {
	args funcArgs
	fn   func(ctx context.Context, args funcArgs) runtime.Result
}

func (c funcCall) Args() any                              { return &c.args }
func (c funcCall) Run(ctx context.Context) runtime.Result { return c.fn(ctx, c.args) }

// funcTool is a tool taking any JSON object and running fn.
func funcTool(name string, fn func(ctx context.Context, args funcArgs) runtime.Result) runtime.Tool {
	return runtime.Tool{
		Name:        name,
		Description: "Test tool " + name + ".",
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Bind: func(_ context.Context, raw []byte) (runtime.BoundCall, error) {
			var args funcArgs
			if err := json.Unmarshal(raw, &args); err != nil {
				return nil, &runtime.ArgsError{Problems: []runtime.Problem{{Message: "arguments must be an object"}}}
			}
			if _, bad := args["bad"]; bad {
				return nil, &runtime.ArgsError{Problems: []runtime.Problem{{Path: "/bad", Message: "unknown property"}}}
			}
			return funcCall{args: args, fn: fn}, nil
		},
	}
}

// callInfoTool reports what the handler sees of its call.
func callInfoTool() runtime.Tool {
	return funcTool("call_info", func(ctx context.Context, _ funcArgs) runtime.Result {
		info, _ := runtime.CallInfoFrom(ctx)
		n := 0
		_ = info.State.Update(ctx, "calls", func(old any, _ bool) (any, error) {
			n, _ = old.(int)
			n++
			return n, nil
		})
		user := ""
		if ti := toolmcp.TokenInfo(ctx); ti != nil {
			user = ti.UserID
		}
		out, _ := json.Marshal(map[string]any{"id": info.CallID, "session": info.Session, "calls": n, "user": user, "header": toolmcp.Header(ctx).Get("X-Conversation")})
		return runtime.StructuredResult(out)
	})
}

type callInfo struct {
	ID, Session, User, Header string
	Calls                     int
}

func callInfoOf(t *testing.T, res *mcp.CallToolResult) callInfo {
	t.Helper()
	require.False(t, res.IsError, "%+v", res.Content)
	var info callInfo
	data, _ := json.Marshal(res.StructuredContent)
	require.NoError(t, json.Unmarshal(data, &info))
	return info
}

// inMemory connects a client with opts to a server serving reg.
func inMemory(t *testing.T, reg *runtime.Registry, copts *mcp.ClientOptions, sopts *mcp.ClientSessionOptions, opts ...toolmcp.Option) *mcp.ClientSession {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	toolmcp.AddTools(server, reg, nil, opts...)
	return connectInMemory(t, server, copts, sopts)
}

func connectInMemory(t *testing.T, server *mcp.Server, copts *mcp.ClientOptions, sopts *mcp.ClientSessionOptions) *mcp.ClientSession {
	t.Helper()
	serverSide, clientSide := mcp.NewInMemoryTransports()
	ss, err := server.Connect(t.Context(), serverSide, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, copts).Connect(t.Context(), clientSide, sopts)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// legacy makes a client speak 2025-11-25, where the server sends requests to the client.
var legacy = &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}

// protocols are the two ways a server reaches the user: a request to the client (up to
// 2025-11-25) and an input-required result (2026-07-28).
var protocols = map[string]*mcp.ClientSessionOptions{"2025-11-25": legacy, "2026-07-28": nil}

func TestCallIDIsTheRequestID(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(callInfoTool()))
	eachServing(t, reg, nil, func(t *testing.T, s serving, cs *mcp.ClientSession) {
		ids := map[string]bool{}
		for range 3 {
			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "call_info", Arguments: map[string]any{}})
			require.NoError(t, err)
			info := callInfoOf(t, res)
			require.NotEmpty(t, info.ID, "the call id is the JSON-RPC request id")
			ids[info.ID] = true
			_, err = strconv.Atoi(info.ID)
			assert.NoError(t, err, "the go-sdk client numbers its requests")
		}
		assert.Len(t, ids, 3, "each request its own id")
	})
}

// stdioClient connects a client with copts and sopts to reg served as ServeStdio serves it,
// over pipes; fastCalls counts the calls served beside the SDK.
func stdioClient(t *testing.T, reg *runtime.Registry, copts *mcp.ClientOptions, sopts *mcp.ClientSessionOptions, opts ...toolmcp.Option) (cs *mcp.ClientSession, fastCalls func() int64) {
	t.Helper()
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	fastCalls, done := toolmcp.ServeLines(t.Context(), reg, toServer, fromServer, opts...)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, copts).Connect(t.Context(), &mcp.IOTransport{Reader: toClient, Writer: fromClient}, sopts)
	require.NoError(t, err)
	t.Cleanup(func() {
		// The server stops reading when t.Context() ends, before this runs: with its input
		// closed, what the client's Close still writes (the cancel of a 2026-07-28
		// subscriptions/listen) fails instead of waiting for a reader.
		_ = toServer.Close()
		_ = cs.Close()
		_ = fromClient.Close()
		<-done
	})
	return cs, fastCalls
}

func TestProgressReachesTheClient(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(funcTool("slow", func(ctx context.Context, _ funcArgs) runtime.Result {
		for i := range 3 {
			runtime.Progress(ctx, float64(i+1), 3, fmt.Sprintf("step %d", i+1))
		}
		return runtime.TextResult("done")
	})))
	var mu sync.Mutex
	var got []string
	copts := &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, fmt.Sprintf("%v %v/%v %s", req.Params.ProgressToken, req.Params.Progress, req.Params.Total, req.Params.Message))
	}}
	eachServing(t, reg, copts, func(t *testing.T, s serving, cs *mcp.ClientSession) {
		mu.Lock()
		got = nil
		mu.Unlock()
		params := &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{}}
		params.SetProgressToken("tok")
		res, err := cs.CallTool(t.Context(), params)
		require.NoError(t, err)
		require.False(t, res.IsError)
		require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(got) == 3 }, 5*time.Second, time.Millisecond)
		assert.Equal(t, []string{"tok 1/3 step 1", "tok 2/3 step 2", "tok 3/3 step 3"}, got)

		// Without a token, nothing is sent.
		mu.Lock()
		got = nil
		mu.Unlock()
		_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{}})
		require.NoError(t, err)
		assert.Empty(t, got)
	})
}

func TestCancellationReachesTheHandler(t *testing.T) {
	var started, cancelled chan error
	reg := runtime.NewRegistry()
	tool := funcTool("wait", func(ctx context.Context, _ funcArgs) runtime.Result {
		started <- nil
		<-ctx.Done()
		cancelled <- ctx.Err()
		return runtime.ErrorResult(ctx.Err())
	})
	tool.NoTimeout = true
	require.NoError(t, reg.Add(tool))
	eachServing(t, reg, nil, func(t *testing.T, s serving, cs *mcp.ClientSession) {
		if !s.reachesClient() {
			t.Skip("stateless HTTP before 2026-07-28 cannot route notifications/cancelled to the request (documented)")
		}
		started, cancelled = make(chan error, 1), make(chan error, 1)
		ctx, cancel := context.WithCancel(t.Context())
		go func() { <-started; cancel() }()
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "wait", Arguments: map[string]any{}})
		require.Error(t, err)
		assert.ErrorIs(t, <-cancelled, context.Canceled)
	})
}

// mailTool is a //tool:confirm tool that counts its runs.
func mailTool(runs *atomic.Int32) runtime.Tool {
	t := funcTool("send_mail", func(_ context.Context, args funcArgs) runtime.Result {
		runs.Add(1)
		return runtime.TextResult(fmt.Sprintf("sent to %v", args["to"]))
	})
	t.Title = "Send mail"
	t.Permission, t.ConfirmReason, t.Risk = runtime.PermissionConfirm, "sends an email in the user's name", runtime.RiskHigh
	return t
}

func TestApprovalByElicitation(t *testing.T) {
	var runs atomic.Int32
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(mailTool(&runs)))
	var asked []string
	var answer *mcp.ElicitResult
	copts := &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked = append(asked, req.Params.Message)
		return answer, nil
	}}
	eachServing(t, reg, copts, func(t *testing.T, s serving, cs *mcp.ClientSession) {
		runs.Store(0)
		asked = nil
		call := &mcp.CallToolParams{Name: "send_mail", Arguments: map[string]any{"to": "ann@example.com"}}
		if !s.reachesClient() {
			// No capabilities and no way to reach the client: fail closed.
			res, err := cs.CallTool(t.Context(), call)
			require.NoError(t, err)
			assert.True(t, res.IsError)
			assert.Contains(t, res.Content[0].(*mcp.TextContent).Text, "needs the user's approval")
			assert.Zero(t, runs.Load())
			return
		}

		answer = &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}
		res, err := cs.CallTool(t.Context(), call)
		require.NoError(t, err)
		require.False(t, res.IsError, "%s", res.Content[0].(*mcp.TextContent).Text)
		assert.Equal(t, "sent to ann@example.com", res.Content[0].(*mcp.TextContent).Text)
		assert.EqualValues(t, 1, runs.Load(), "approved: runs exactly once")
		require.Len(t, asked, 1)
		assert.Contains(t, asked[0], "Send mail (send_mail)")
		assert.Contains(t, asked[0], "Tool: Test tool send_mail.")
		assert.Contains(t, asked[0], "sends an email in the user's name")
		assert.Contains(t, asked[0], "Risk: high")
		assert.Contains(t, asked[0], `"to":"ann@example.com"`)

		answer = &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": false, "reason": "not to Ann"}}
		res, err = cs.CallTool(t.Context(), call)
		require.NoError(t, err)
		assert.True(t, res.IsError)
		assert.Contains(t, res.Content[0].(*mcp.TextContent).Text, "not to Ann")
		answer = &mcp.ElicitResult{Action: "decline"}
		res, err = cs.CallTool(t.Context(), call)
		require.NoError(t, err)
		assert.True(t, res.IsError)
		assert.Contains(t, res.Content[0].(*mcp.TextContent).Text, "declined")
		assert.EqualValues(t, 1, runs.Load(), "denied calls do not run")

		// Invalid arguments are reported without asking.
		res, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "send_mail", Arguments: map[string]any{"bad": 1}})
		require.NoError(t, err)
		assert.True(t, res.IsError)
		assert.Contains(t, res.Content[0].(*mcp.TextContent).Text, "/bad")
		assert.Len(t, asked, 3)
	})
}

func TestApprovalFailsClosedWithoutElicitation(t *testing.T) {
	for name, sopts := range protocols {
		t.Run(name, func(t *testing.T) {
			var runs atomic.Int32
			reg := runtime.NewRegistry()
			require.NoError(t, reg.Add(mailTool(&runs)))
			cs := inMemory(t, reg, nil, sopts)
			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "send_mail", Arguments: map[string]any{"to": "ann@example.com"}})
			require.NoError(t, err)
			assert.True(t, res.IsError)
			assert.Contains(t, res.Content[0].(*mcp.TextContent).Text, "needs the user's approval")
			assert.Zero(t, runs.Load())
		})
	}
}

// TestApprovalStateIsAcceptedOnce: on 2026-07-28 the answer comes back with a signed state;
// an answer for other arguments asks again about those, and a replayed or forged state, or
// one for another tool, is a protocol error (-32602): nothing runs.
func TestApprovalStateIsAcceptedOnce(t *testing.T) {
	var runs atomic.Int32
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(mailTool(&runs), funcTool("other", func(context.Context, funcArgs) runtime.Result {
		runs.Add(1)
		return runtime.TextResult("ran")
	})))
	cs := inMemory(t, reg, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, errors.New("unused") },
		MultiRoundTrip:     &mcp.MultiRoundTripOptions{Disabled: true},
	}, nil)
	call := &mcp.CallToolParams{Name: "send_mail", Arguments: map[string]any{"to": "ann@example.com"}}
	res, err := cs.CallTool(t.Context(), call)
	require.NoError(t, err)
	require.True(t, res.NeedsInput())
	require.Contains(t, res.InputRequests, "toolgen_approval")
	assert.Zero(t, runs.Load(), "nothing runs before the answer")

	yes := mcp.InputResponseMap{"toolgen_approval": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}
	other := &mcp.CallToolParams{Name: "send_mail", Arguments: map[string]any{"to": "eve@example.com"}, InputResponses: yes, RequestState: res.RequestState}
	res2, err := cs.CallTool(t.Context(), other)
	require.NoError(t, err)
	require.True(t, res2.NeedsInput(), "an answer for other arguments: asked again")
	assert.Contains(t, res2.InputRequests["toolgen_approval"].(*mcp.ElicitParams).Message, "eve@example.com")

	res, err = cs.CallTool(t.Context(), call)
	require.NoError(t, err)
	elsewhere := &mcp.CallToolParams{Name: "other", Arguments: call.Arguments, InputResponses: yes, RequestState: res.RequestState}
	_, err = cs.CallTool(t.Context(), elsewhere)
	require.ErrorContains(t, err, "another call", "a state for another tool")
	res, err = cs.CallTool(t.Context(), call)
	require.NoError(t, err)
	answered := &mcp.CallToolParams{Name: "send_mail", Arguments: call.Arguments, InputResponses: yes, RequestState: res.RequestState}
	res2, err = cs.CallTool(t.Context(), answered)
	require.NoError(t, err)
	require.False(t, res2.IsError, "%v", res2.Content)
	_, err = cs.CallTool(t.Context(), answered)
	require.ErrorContains(t, err, "already used", "replayed")
	var wire *jsonrpc.Error
	require.ErrorAs(t, err, &wire)
	assert.EqualValues(t, jsonrpc.CodeInvalidParams, wire.Code)
	forged := &mcp.CallToolParams{Name: "send_mail", Arguments: call.Arguments, InputResponses: yes, RequestState: "e30." + res.RequestState[len(res.RequestState)-10:]}
	_, err = cs.CallTool(t.Context(), forged)
	require.Error(t, err, "forged")
	assert.EqualValues(t, 1, runs.Load())
}

// TestApprovalCoversWhatRuns: a middleware that changes the arguments after the user approved
// them (here, on the round that brings the answer) voids the approval: the user is asked
// again, about what will run.
func TestApprovalCoversWhatRuns(t *testing.T) {
	var runs, rounds atomic.Int32
	rewrite := func(next runtime.Handler) runtime.Handler {
		return func(ctx context.Context, call runtime.Call) runtime.Result {
			if rounds.Add(1) > 1 {
				call.Args = []byte(`{"to":"eve@example.com"}`)
			}
			return next(ctx, call)
		}
	}
	reg := runtime.NewRegistry(runtime.WithMiddleware(rewrite))
	require.NoError(t, reg.Add(mailTool(&runs)))
	var asked []string
	cs := inMemory(t, reg, &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked = append(asked, req.Params.Message)
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
	}}, nil)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "send_mail", Arguments: map[string]any{"to": "ann@example.com"}})
	require.NoError(t, err)
	require.False(t, res.IsError, "%v", res.Content)
	assert.Equal(t, "sent to eve@example.com", res.Content[0].(*mcp.TextContent).Text)
	require.Len(t, asked, 2)
	assert.Contains(t, asked[0], "ann@example.com")
	assert.Contains(t, asked[1], "eve@example.com", "asked again about what runs")
	assert.EqualValues(t, 1, runs.Load())
}

// askTool asks the user twice, as the agent toolkit's ask_user does, and reports the answers.
func askTool(before *atomic.Int32) runtime.Tool {
	schema := map[string]any{"type": "object", "properties": map[string]any{"answer": map[string]any{"type": "string"}}, "required": []string{"answer"}}
	return funcTool("ask_twice", func(ctx context.Context, _ funcArgs) runtime.Result {
		before.Add(1)
		var answers []string
		for _, q := range []string{"first?", "second?"} {
			action, content, err := toolmcp.Elicit(ctx, q, schema)
			if err != nil {
				return runtime.ErrorResult(err)
			}
			answers = append(answers, fmt.Sprintf("%s:%v", action, content["answer"]))
		}
		return runtime.TextResult(fmt.Sprint(answers))
	})
}

func TestElicitFromAHandler(t *testing.T) {
	var runs atomic.Int32
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(askTool(&runs)))
	var asked []string
	copts := &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked = append(asked, req.Params.Message)
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"answer": "yes to " + req.Params.Message}}, nil
	}}
	eachServing(t, reg, copts, func(t *testing.T, s serving, cs *mcp.ClientSession) {
		asked = nil
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "ask_twice", Arguments: map[string]any{}})
		require.NoError(t, err)
		text := res.Content[0].(*mcp.TextContent).Text
		if !s.reachesClient() {
			assert.True(t, res.IsError)
			assert.Contains(t, text, "does not support elicitation")
			return
		}
		require.False(t, res.IsError, text)
		assert.Equal(t, "[accept:yes to first? accept:yes to second?]", text)
		assert.Equal(t, []string{"first?", "second?"}, asked)
	})

	// Up to 2025-11-25 the model reads why the call failed; 2026-07-28 has the server answer
	// with a MissingRequiredClientCapability error instead (SEP-2575).
	t.Run("client without elicitation", func(t *testing.T) {
		var runs atomic.Int32
		reg := runtime.NewRegistry()
		require.NoError(t, reg.Add(askTool(&runs)))
		cs := inMemory(t, reg, nil, legacy)
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "ask_twice", Arguments: map[string]any{}})
		require.NoError(t, err)
		assert.True(t, res.IsError)
		assert.Contains(t, res.Content[0].(*mcp.TextContent).Text, "does not support elicitation")

		cs = inMemory(t, reg, nil, nil)
		_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "ask_twice", Arguments: map[string]any{}})
		var wire *jsonrpc.Error
		require.ErrorAs(t, err, &wire)
		assert.Equal(t, int64(mcp.CodeMissingRequiredClientCapabilities), wire.Code)
		assert.JSONEq(t, `{"requiredCapabilities":{"elicitation":{}}}`, string(wire.Data))
	})
	t.Run("outside MCP", func(t *testing.T) {
		_, _, err := toolmcp.Elicit(t.Context(), "?", nil)
		assert.ErrorIs(t, err, toolmcp.ErrNotMCPCall)
	})
}

// On 2026-07-28 an answer is given back only to the question it was given to: a handler whose
// question changes between runs is asked again, never handed the answer to another question.
func TestElicitAnswerGoesToItsQuestion(t *testing.T) {
	var runs, answered atomic.Int32
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(funcTool("shifty", func(ctx context.Context, _ funcArgs) runtime.Result {
		_, _, err := toolmcp.Elicit(ctx, fmt.Sprint("question ", runs.Add(1)), nil)
		if err != nil {
			return runtime.ErrorResult(err)
		}
		answered.Add(1)
		return runtime.TextResult("answered")
	})))
	var asked atomic.Int32
	cs := inMemory(t, reg, &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked.Add(1)
		return &mcp.ElicitResult{Action: "accept"}, nil
	}}, nil)
	_, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "shifty", Arguments: map[string]any{}})
	require.Error(t, err, "the client gives up after its retries")
	assert.Zero(t, answered.Load())
	assert.Greater(t, asked.Load(), int32(1))
}

// countingStore is a session store that counts the sessions holding state.
type countingStore struct {
	runtime.MemoryStore
	mu   sync.Mutex
	live map[string]bool
	// beforeClear, when set, runs as a session's Clear begins, before the state goes.
	beforeClear func(session string)
}

func (s *countingStore) Update(ctx context.Context, session, key string, fn func(any, bool) (any, error)) error {
	s.mu.Lock()
	s.live[session] = true
	s.mu.Unlock()
	return s.MemoryStore.Update(ctx, session, key, fn)
}

func (s *countingStore) Clear(ctx context.Context, session string) error {
	s.mu.Lock()
	before := s.beforeClear
	s.mu.Unlock()
	if before != nil {
		before(session)
	}
	s.mu.Lock()
	delete(s.live, session)
	s.mu.Unlock()
	return s.MemoryStore.Clear(ctx, session)
}

func (s *countingStore) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.live)
}

func TestSessionsEndWithTheirConnection(t *testing.T) {
	store := &countingStore{live: map[string]bool{}}
	reg := runtime.NewRegistry(runtime.WithSessionStore(store))
	require.NoError(t, reg.Add(callInfoTool()))
	server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	tracked := toolmcp.AddToolsTracked(server, reg, nil)
	ctx := t.Context()
	sessions := map[string]bool{}
	for range 1000 {
		serverSide, clientSide := mcp.NewInMemoryTransports()
		ss, err := server.Connect(ctx, serverSide, nil)
		require.NoError(t, err)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, clientSide, nil)
		require.NoError(t, err)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "call_info", Arguments: map[string]any{}})
		require.NoError(t, err)
		info := callInfoOf(t, res)
		require.Equal(t, 1, info.Calls, "a new connection starts a new session")
		sessions[info.Session] = true
		require.NoError(t, cs.Close())
		_ = ss.Wait()
	}
	assert.Len(t, sessions, 1000)
	require.Eventually(t, func() bool { return store.count() == 0 }, 10*time.Second, time.Millisecond,
		"sessions with state left: %d", store.count())
	keys, conns := tracked()
	assert.Zero(t, keys, "registry sessions tracked")
	assert.Zero(t, conns, "connections tracked")
}

// httpServer serves reg over streamable HTTP on loopback, stateful or stateless, behind
// middleware.
func httpServer(t *testing.T, reg *runtime.Registry, stateless bool, wrap func(http.Handler) http.Handler, opts ...toolmcp.Option) string {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	toolmcp.AddTools(server, reg, nil, opts...)
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: stateless, PropagateRequestCancellation: true})
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// headerTransport adds headers to every request.
type headerTransport map[string]string

func (h headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, v := range h {
		req.Header.Set(k, v)
	}
	return http.DefaultTransport.RoundTrip(req)
}

func httpClient(t *testing.T, url string, headers headerTransport, sopts *mcp.ClientSessionOptions) *mcp.ClientSession {
	return httpClientWith(t, url, headers, nil, sopts)
}

func httpClientWith(t *testing.T, url string, headers headerTransport, copts *mcp.ClientOptions, sopts *mcp.ClientSessionOptions) *mcp.ClientSession {
	t.Helper()
	transport := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: headers}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, copts).Connect(t.Context(), transport, sopts)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func callInfoOver(t *testing.T, cs *mcp.ClientSession) callInfo {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "call_info", Arguments: map[string]any{}})
	require.NoError(t, err)
	return callInfoOf(t, res)
}

func TestStatelessHTTPKeepsClientsApart(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(callInfoTool()))
	for name, sopts := range protocols {
		t.Run(name, func(t *testing.T) {
			url := httpServer(t, reg, true, nil)
			a, b := httpClient(t, url, nil, sopts), httpClient(t, url, nil, sopts)
			ia, ib := callInfoOver(t, a), callInfoOver(t, b)
			assert.NotEqual(t, ia.Session, ib.Session)
			assert.Equal(t, 1, ia.Calls)
			assert.Equal(t, 1, ib.Calls)
			assert.NotEmpty(t, ia.ID)
		})
	}
	t.Run("stateful", func(t *testing.T) {
		url := httpServer(t, reg, false, nil)
		a, b := httpClient(t, url, nil, nil), httpClient(t, url, nil, nil)
		assert.Equal(t, 1, callInfoOver(t, a).Calls)
		assert.Equal(t, 2, callInfoOver(t, a).Calls, "one connection, one session")
		assert.Equal(t, 1, callInfoOver(t, b).Calls)
	})
}

// bearer is a token verifier accepting "token-<user>".
func bearer(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	user, ok := cutPrefix(token, "token-")
	if !ok {
		return nil, auth.ErrInvalidToken
	}
	return &auth.TokenInfo{UserID: user, Expiration: time.Now().Add(time.Hour)}, nil
}

func cutPrefix(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || s[:len(prefix)] != prefix {
		return "", false
	}
	return s[len(prefix):], true
}

func TestSessionKeys(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(callInfoTool()))
	requireAuth := auth.RequireBearerToken(bearer, nil)

	t.Run("principal over stateless HTTP", func(t *testing.T) {
		url := httpServer(t, reg, true, requireAuth, toolmcp.WithSessionKey(toolmcp.SessionFromPrincipal()), toolmcp.WithSessionLinger(time.Hour))
		ann1 := httpClient(t, url, headerTransport{"Authorization": "Bearer token-ann"}, nil)
		ann2 := httpClient(t, url, headerTransport{"Authorization": "Bearer token-ann"}, nil)
		bob := httpClient(t, url, headerTransport{"Authorization": "Bearer token-bob"}, nil)
		i := callInfoOver(t, ann1)
		assert.Equal(t, "ann", i.User, "the principal reaches the handler")
		assert.Equal(t, 1, i.Calls)
		assert.Equal(t, 2, callInfoOver(t, ann2).Calls, "one user, one session")
		assert.Equal(t, 1, callInfoOver(t, bob).Calls)
	})
	t.Run("header scoped by principal", func(t *testing.T) {
		url := httpServer(t, reg, true, requireAuth, toolmcp.WithSessionKey(toolmcp.SessionFromHeader("X-Conversation")), toolmcp.WithSessionLinger(time.Hour))
		ann := httpClient(t, url, headerTransport{"Authorization": "Bearer token-ann", "X-Conversation": "c1"}, nil)
		ann2 := httpClient(t, url, headerTransport{"Authorization": "Bearer token-ann", "X-Conversation": "c2"}, nil)
		bob := httpClient(t, url, headerTransport{"Authorization": "Bearer token-bob", "X-Conversation": "c1"}, nil)
		i := callInfoOver(t, ann)
		assert.Equal(t, "c1", i.Header, "the request's headers reach the handler")
		assert.Equal(t, 2, callInfoOver(t, ann).Calls)
		assert.Equal(t, 1, callInfoOver(t, ann2).Calls, "another conversation")
		assert.Equal(t, 1, callInfoOver(t, bob).Calls, "another user with the same header value")
	})
	t.Run("no principal", func(t *testing.T) {
		cs := inMemory(t, reg, nil, nil, toolmcp.WithSessionKey(toolmcp.SessionFromPrincipal()))
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "call_info", Arguments: map[string]any{}})
		require.NoError(t, err)
		assert.True(t, res.IsError)
	})
	t.Run("user data", func(t *testing.T) {
		tool := funcTool("user_data", func(ctx context.Context, _ funcArgs) runtime.Result {
			info, _ := runtime.CallInfoFrom(ctx)
			return runtime.TextResult(fmt.Sprint(info.UserData))
		})
		reg := runtime.NewRegistry()
		require.NoError(t, reg.Add(tool))
		url := httpServer(t, reg, true, requireAuth, toolmcp.WithUserData(func(_ context.Context, req *mcp.CallToolRequest) any {
			return "user " + req.Extra.TokenInfo.UserID
		}))
		cs := httpClient(t, url, headerTransport{"Authorization": "Bearer token-ann"}, nil)
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "user_data", Arguments: map[string]any{}})
		require.NoError(t, err)
		assert.Equal(t, "user ann", res.Content[0].(*mcp.TextContent).Text)
	})
	t.Run("per request", func(t *testing.T) {
		cs := inMemory(t, reg, nil, nil, toolmcp.WithSessionKey(toolmcp.SessionPerRequest()))
		a, b := callInfoOver(t, cs), callInfoOver(t, cs)
		assert.NotEqual(t, a.Session, b.Session)
		assert.Equal(t, 1, b.Calls)
	})
}

func TestToolListFollowsTheRegistry(t *testing.T) {
	for _, s := range servings() {
		t.Run(s.String(), func(t *testing.T) {
			reg := runtime.NewRegistry()
			require.NoError(t, reg.Add(callInfoTool()))
			changed := make(chan struct{}, 10)
			cs := s.connect(t, reg, &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} }})
			names := func() []string {
				list, err := cs.ListTools(t.Context(), nil)
				require.NoError(t, err)
				var out []string
				for _, tool := range list.Tools {
					out = append(out, tool.Name)
				}
				return out
			}
			// Stateless HTTP has no stream to send notifications on: the client lists again.
			waitChanged := func() {
				if s.transport != statelessHTTP {
					<-changed
				}
			}
			assert.Equal(t, []string{"call_info"}, names())
			var runs atomic.Int32
			require.NoError(t, reg.Add(mailTool(&runs)))
			waitChanged()
			assert.Equal(t, []string{"call_info", "send_mail"}, names())
			reg.Remove("call_info")
			waitChanged()
			assert.Equal(t, []string{"send_mail"}, names())
		})
	}

	t.Run("a fixed list", func(t *testing.T) {
		var runs atomic.Int32
		reg := runtime.NewRegistry()
		require.NoError(t, reg.Add(callInfoTool(), mailTool(&runs)))
		server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
		toolmcp.AddTools(server, reg, []runtime.Tool{callInfoTool()})
		cs := connectInMemory(t, server, nil, legacy)
		require.NoError(t, reg.Add(rowsTool()))
		list, err := cs.ListTools(t.Context(), nil)
		require.NoError(t, err)
		require.Len(t, list.Tools, 1, "tools added later are not in a fixed list")
		reg.Remove("call_info")
		list, err = cs.ListTools(t.Context(), nil)
		require.NoError(t, err)
		assert.Empty(t, list.Tools, "a listed tool removed from the registry goes")
	})
}

const rowsSchema = `{"type":"object","properties":{"rows":{"type":"array","items":{"type":"integer"}}},"required":["rows"],"additionalProperties":false}`

// rowsTool returns n rows as a structured result with an outputSchema and a 300-byte cap.
func rowsTool() runtime.Tool {
	t := funcTool("rows", func(_ context.Context, args funcArgs) runtime.Result {
		n, _ := args["n"].(float64)
		rows := make([]int, int(n))
		for i := range rows {
			rows[i] = i
		}
		out, _ := json.Marshal(map[string]any{"rows": rows})
		return runtime.StructuredResult(out)
	})
	t.OutputSchema = json.RawMessage(rowsSchema)
	t.MaxResult = 300
	return t
}

func TestLargeStructuredResultKeepsTheOutputSchema(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(rowsTool()))
	eachServing(t, reg, nil, func(t *testing.T, s serving, cs *mcp.ClientSession) {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "rows", Arguments: map[string]any{"n": 1000}})
		require.NoError(t, err)
		require.False(t, res.IsError, "%+v", res.Content)

		// structuredContent is the whole result, valid against the outputSchema.
		data, _ := json.Marshal(res.StructuredContent)
		var whole struct{ Rows []int }
		require.NoError(t, json.Unmarshal(data, &whole))
		assert.Len(t, whole.Rows, 1000)
		assert.NoError(t, validate(rowsSchema, data))

		// The model reads at most the cap.
		require.Len(t, res.Content, 2)
		text := res.Content[0].(*mcp.TextContent).Text
		assert.LessOrEqual(t, len(text), 300)
		assert.Contains(t, text, "Result truncated")
		assert.NotContains(t, text, "/tmp")

		// The whole result is a resource the client can read.
		link := res.Content[1].(*mcp.ResourceLink)
		assert.Equal(t, "application/json", link.MIMEType)
		assert.EqualValues(t, len(data), *link.Size)
		read, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: link.URI})
		require.NoError(t, err)
		assert.JSONEq(t, string(data), read.Contents[0].Text)
		if s.protocol >= "2026-07-28" {
			// It is the user's: no cache may serve it to another (SEP-2549; the go-sdk's
			// default is "public").
			assert.Equal(t, "private", read.CacheScope)
		}

		// A changed link reads nothing.
		changed := []byte(link.URI)
		changed[len(changed)-2] ^= 1 // another letter of the token's alphabet
		_, err = cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: string(changed)})
		assert.Error(t, err)

		// Small results are as before.
		res, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "rows", Arguments: map[string]any{"n": 3}})
		require.NoError(t, err)
		require.Len(t, res.Content, 1)
		assert.Equal(t, `{"rows":[0,1,2]}`, res.Content[0].(*mcp.TextContent).Text)
	})
}

func TestStoredResultsBelongToTheirUser(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(rowsTool()))
	url := httpServer(t, reg, true, auth.RequireBearerToken(bearer, nil))
	ann := httpClient(t, url, headerTransport{"Authorization": "Bearer token-ann"}, nil)
	bob := httpClient(t, url, headerTransport{"Authorization": "Bearer token-bob"}, nil)
	res, err := ann.CallTool(t.Context(), &mcp.CallToolParams{Name: "rows", Arguments: map[string]any{"n": 1000}})
	require.NoError(t, err)
	link := res.Content[1].(*mcp.ResourceLink)
	token, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(link.URI, "toolgen://results/"))
	require.NoError(t, err)
	assert.NotContains(t, string(token), "ann", "whoever sees the link cannot read whose it is")
	_, err = ann.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: link.URI})
	require.NoError(t, err, "over stateless HTTP, on a request of its own")
	_, err = bob.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: link.URI})
	assert.Error(t, err, "another user holding the link")
}

func validate(schema string, data []byte) error {
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(schema), &s); err != nil {
		return err
	}
	resolved, err := s.Resolve(nil)
	if err != nil {
		return err
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	return resolved.Validate(v)
}

func TestPartsGoNatively(t *testing.T) {
	png := []byte("\x89PNG fake")
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(funcTool("chart", func(context.Context, funcArgs) runtime.Result {
		return runtime.Result{Text: "Here is the chart.", Parts: []runtime.Part{
			runtime.ImagePart("image/png", png),
			runtime.AudioPart("audio/wav", []byte("RIFF")),
			{Kind: runtime.PartResourceLink, URI: "https://example.com/data.csv", Name: "data.csv", MIMEType: "text/csv", Size: 42},
			runtime.TextResourcePart("file:///report.md", "text/markdown", "# Report"),
		}}
	})))
	cs := inMemory(t, reg, nil, nil)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "chart", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.Len(t, res.Content, 5)
	assert.Equal(t, "Here is the chart.", res.Content[0].(*mcp.TextContent).Text)
	assert.Equal(t, &mcp.ImageContent{Data: png, MIMEType: "image/png"}, res.Content[1])
	assert.Equal(t, &mcp.AudioContent{Data: []byte("RIFF"), MIMEType: "audio/wav"}, res.Content[2])
	link := res.Content[3].(*mcp.ResourceLink)
	assert.Equal(t, "https://example.com/data.csv", link.URI)
	assert.EqualValues(t, 42, *link.Size)
	assert.Equal(t, "# Report", res.Content[4].(*mcp.EmbeddedResource).Resource.Text)
}

func TestHTTPHandlerHelper(t *testing.T) {
	var runs atomic.Int32
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(callInfoTool(), rowsTool(), mailTool(&runs)))
	for _, stateless := range []bool{false, true} {
		t.Run(fmt.Sprint("stateless ", stateless), func(t *testing.T) {
			opts := []toolmcp.Option{toolmcp.WithPageSize(2), toolmcp.WithBearerAuth(bearer, nil), toolmcp.WithImplementation("demo", "2.0.0")}
			if stateless {
				opts = append(opts, toolmcp.WithStateless())
			}
			srv := httptest.NewServer(toolmcp.HTTPHandler(reg, opts...))
			t.Cleanup(srv.Close)

			transport := &mcp.StreamableClientTransport{Endpoint: srv.URL}
			_, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(t.Context(), transport, nil)
			require.Error(t, err, "no token, no session")

			cs := httpClient(t, srv.URL, headerTransport{"Authorization": "Bearer token-ann"}, nil)
			page, err := cs.ListTools(t.Context(), nil)
			require.NoError(t, err)
			require.Len(t, page.Tools, 2)
			require.NotEmpty(t, page.NextCursor)
			rest, err := cs.ListTools(t.Context(), &mcp.ListToolsParams{Cursor: page.NextCursor})
			require.NoError(t, err)
			require.Len(t, rest.Tools, 1)
			assert.Equal(t, "send_mail", rest.Tools[0].Name)
			assert.Equal(t, "ann", callInfoOver(t, cs).User)
		})
	}
}

func TestSessionLingerKeepsStateForReconnects(t *testing.T) {
	store := &countingStore{live: map[string]bool{}}
	reg := runtime.NewRegistry(runtime.WithSessionStore(store))
	require.NoError(t, reg.Add(callInfoTool()))
	linger := toolmcp.WithSessionLinger(time.Hour)
	server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	tracked := toolmcp.AddToolsTracked(server, reg, nil, linger, toolmcp.WithSessionKey(toolmcp.SessionFunc(
		func(context.Context, mcp.Request) (string, error) { return "shared", nil })))
	for i := range 3 {
		cs := connectInMemory(t, server, nil, nil)
		assert.Equal(t, i+1, callInfoOver(t, cs).Calls, "the session outlives its connections")
		require.NoError(t, cs.Close())
	}
	require.Eventually(t, func() bool { _, conns := tracked(); return conns == 0 }, 10*time.Second, time.Millisecond)
	keys, _ := tracked()
	assert.Equal(t, 1, keys, "lingering")
	assert.Equal(t, 1, store.count())
}

// holdTool is a tool "hold" that tells started it runs, and returns once release is closed.
func holdTool(started, release chan struct{}) runtime.Tool {
	return funcTool("hold", func(context.Context, funcArgs) runtime.Result {
		started <- struct{}{}
		<-release
		return runtime.TextResult("released")
	})
}

// A connection's own registry session (SessionPerConnection) ends when the connection closes
// and no call of it runs any more, after the linger time if any, and never here when the store
// is shared.
func TestConnectionSessionsEnd(t *testing.T) {
	setup := func(t *testing.T) (store *countingStore, reg *runtime.Registry, started, release chan struct{}) {
		store = &countingStore{live: map[string]bool{}}
		reg = runtime.NewRegistry(runtime.WithSessionStore(store))
		started, release = make(chan struct{}, 1), make(chan struct{})
		require.NoError(t, reg.Add(callInfoTool(), holdTool(started, release)))
		return store, reg, started, release
	}
	t.Run("a running call keeps it", func(t *testing.T) {
		// Over stateful HTTP a DELETE closes the session at once, while the calls served beside
		// the SDK run on.
		store, reg, started, release := setup(t)
		srv := httptest.NewServer(toolmcp.HTTPHandler(reg))
		t.Cleanup(srv.Close)
		c := rawClient{t: t, url: srv.URL}
		id, status, refusal := c.open()
		require.Equal(t, http.StatusOK, status, refusal)
		status, _, answer := c.post(id, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"call_info","arguments":{}}}`)
		require.Equal(t, http.StatusOK, status, answer)
		require.Equal(t, 1, store.count())
		done := make(chan string, 1)
		go func() {
			_, _, answer := c.post(id, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"hold","arguments":{}}}`)
			done <- answer
		}()
		<-started
		c.delete(id)
		assert.Equal(t, 1, store.count(), "the call still runs under it")
		close(release)
		assert.Contains(t, <-done, "released")
		require.Eventually(t, func() bool { return store.count() == 0 }, 10*time.Second, time.Millisecond, "ended with the call")
	})
	for name, opt := range map[string]toolmcp.Option{"linger": toolmcp.WithSessionLinger(time.Hour), "shared": toolmcp.WithSharedSessions()} {
		t.Run(name, func(t *testing.T) {
			store, reg, _, _ := setup(t)
			server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
			tracked := toolmcp.AddToolsTracked(server, reg, nil, opt)
			cs := connectInMemory(t, server, nil, nil)
			assert.Equal(t, 1, callInfoOver(t, cs).Calls)
			require.NoError(t, cs.Close())
			require.Eventually(t, func() bool { _, conns := tracked(); return conns == 0 }, 10*time.Second, time.Millisecond)
			keys, _ := tracked()
			if name == "linger" {
				assert.Equal(t, 1, keys, "lingering")
			} else {
				assert.Zero(t, keys, "not tracked any more")
			}
			assert.Equal(t, 1, store.count(), "not ended here")
		})
	}
}

// TestElicitAnswerIsValidated: on 2026-07-28 the answer comes with the call, from a client
// that may not have checked it; Elicit checks it against the schema asked.
func TestElicitAnswerIsValidated(t *testing.T) {
	var runs atomic.Int32
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(askTool(&runs)))
	cs := inMemory(t, reg, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, errors.New("unused") },
		MultiRoundTrip:     &mcp.MultiRoundTripOptions{Disabled: true},
	}, nil)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "ask_twice", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.True(t, res.NeedsInput())
	bad := mcp.InputResponseMap{"toolgen_elicit": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"answer": 42}}}
	res, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "ask_twice", Arguments: map[string]any{}, InputResponses: bad, RequestState: res.RequestState})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, res.Content[0].(*mcp.TextContent).Text, "does not match the requested schema")
}

// A registry with an approver of its own that passes some calls on (runtime.ErrUndecided,
// as workspace.AllowCommands does for commands off its list) still asks the user for those,
// on both protocols; the calls its approver decides run without a question.
func TestUndecidedCallsAreAskedOnEveryProtocol(t *testing.T) {
	for name, sopts := range protocols {
		t.Run(name, func(t *testing.T) {
			var runs atomic.Int32
			approver := runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
				if strings.Contains(string(req.RawArgs), "bob@") {
					return runtime.Decision{Approved: true, By: "allowlist"}, nil
				}
				return runtime.Decision{}, runtime.ErrUndecided
			})
			var events []string
			var eventsMu sync.Mutex
			observer := func(_ context.Context, e runtime.Event) {
				if e.Kind == runtime.EventApproval {
					eventsMu.Lock()
					events = append(events, e.Approval)
					eventsMu.Unlock()
				}
			}
			reg := runtime.NewRegistry(runtime.WithApprover(approver), runtime.WithObserver(observer))
			require.NoError(t, reg.Add(mailTool(&runs)))
			var asked []string
			answer := &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}
			cs := inMemory(t, reg, &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				asked = append(asked, req.Params.Message)
				return answer, nil
			}}, sopts)

			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "send_mail", Arguments: map[string]any{"to": "bob@example.com"}})
			require.NoError(t, err)
			require.False(t, res.IsError, "%s", res.Content[0].(*mcp.TextContent).Text)
			assert.Empty(t, asked, "the registry's approver decided")

			res, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "send_mail", Arguments: map[string]any{"to": "ann@example.com"}})
			require.NoError(t, err)
			require.False(t, res.IsError, "%s", res.Content[0].(*mcp.TextContent).Text)
			require.Len(t, asked, 1, "passed on: the user is asked")
			assert.Contains(t, asked[0], `"to":"ann@example.com"`)
			assert.EqualValues(t, 2, runs.Load(), "each call ran once")
			eventsMu.Lock()
			want := []string{"approved", "approved"} // asked within the call
			if name == "2026-07-28" {
				want = []string{"approved", "pending", "approved"} // the call came back with the answer
			}
			assert.Equal(t, want, events, "a question is pending, not a failure")
			eventsMu.Unlock()

			answer = &mcp.ElicitResult{Action: "decline"}
			res, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "send_mail", Arguments: map[string]any{"to": "cy@example.com"}})
			require.NoError(t, err)
			assert.True(t, res.IsError)
			assert.Contains(t, res.Content[0].(*mcp.TextContent).Text, "declined")
			assert.EqualValues(t, 2, runs.Load())
		})
	}
}

// When the registry's approver passes a call on only on a later round (after the handler
// asked a question), the approval question keeps the answers given so far: the user is not
// asked the handler's question again.
func TestApprovalAskedMidCallKeepsTheAnswers(t *testing.T) {
	var runs, approvals atomic.Int32
	approver := runtime.ApproverFunc(func(context.Context, runtime.ApprovalRequest) (runtime.Decision, error) {
		if approvals.Add(1) == 1 {
			return runtime.Decision{Approved: true, By: "allowlist"}, nil
		}
		return runtime.Decision{}, runtime.ErrUndecided // e.g. a budget the first run used up
	})
	reg := runtime.NewRegistry(runtime.WithApprover(approver))
	tool := askTool(&runs)
	tool.Permission = runtime.PermissionConfirm
	require.NoError(t, reg.Add(tool))
	var asked []string
	cs := inMemory(t, reg, &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked = append(asked, req.Params.Message)
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"answer": "yes", "approve": true}}, nil
	}}, nil)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "ask_twice", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.False(t, res.IsError, "%s", res.Content[0].(*mcp.TextContent).Text)
	assert.Equal(t, "[accept:yes accept:yes]", res.Content[0].(*mcp.TextContent).Text)
	require.Len(t, asked, 3, "%q", asked)
	assert.Equal(t, []string{"first?", "second?"}, []string{asked[0], asked[2]}, "the approval came between, and first? was asked once")
}

// The outputSchema's shape is worked out once per schema, not per call: a tool replaced under
// its name is judged by its new schema.
func TestOutputSchemaOfAReplacedTool(t *testing.T) {
	text := func(declares bool) runtime.Tool {
		tool := funcTool("plain", func(context.Context, funcArgs) runtime.Result { return runtime.TextResult("not an object") })
		if declares {
			tool.OutputSchema = json.RawMessage(rowsSchema)
		}
		return tool
	}
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(text(true)))
	handle := toolmcp.Handler(reg)
	call := func() *mcp.CallToolResult {
		res, err := handle(t.Context(), &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "plain", Arguments: json.RawMessage(`{}`)}})
		require.NoError(t, err)
		return res
	}
	for range 2 {
		res := call()
		require.True(t, res.IsError, "an object outputSchema promises structuredContent")
		assert.Contains(t, res.Content[0].(*mcp.TextContent).Text, "declared structured output")
	}
	reg.Remove("plain")
	require.NoError(t, reg.Add(text(false)))
	res := call()
	require.False(t, res.IsError, "%+v", res.Content)
	assert.Equal(t, "not an object", res.Content[0].(*mcp.TextContent).Text)
	reg.Remove("plain")
	require.NoError(t, reg.Add(text(true)))
	assert.True(t, call().IsError)
}

// A call naming no tool is refused by the SDK (-32602); the refusal says which tool was
// meant and which are available, as Registry.Invoke does.
func TestUnknownToolSuggestsTheNearest(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(callInfoTool(), funcTool("get_weather", func(context.Context, funcArgs) runtime.Result { return runtime.TextResult("sun") })))
	eachServing(t, reg, nil, func(t *testing.T, s serving, cs *mcp.ClientSession) {
		_, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "get_wether", Arguments: map[string]any{}})
		require.Error(t, err)
		assert.Contains(t, err.Error(), `unknown tool "get_wether"; did you mean "get_weather"? Available tools: call_info, get_weather`)
	})
}

// Shared sessions over stateless HTTP keyed per connection share nothing (each request is a
// session of its own): HTTPHandler refuses the configuration at once, saying what to add.
func TestSharedSessionsNeedAKeyThatOutlivesARequest(t *testing.T) {
	reg := runtime.NewRegistry()
	assert.PanicsWithError(t, "toolmcp.HTTPHandler: WithSharedSessions over stateless HTTP needs a session key that outlives a request: "+
		`add WithSessionKey(SessionFromPrincipal()) (behind WithBearerAuth) or WithSessionKey(SessionFromHeader("X-Conversation")) with clients that send it; `+
		"with the default, SessionPerConnection, every stateless request is a session of its own and no state is shared",
		func() { toolmcp.HTTPHandler(reg, toolmcp.WithStateless(), toolmcp.WithSharedSessions()) })
	assert.NotPanics(t, func() {
		toolmcp.HTTPHandler(reg, toolmcp.WithStateless(), toolmcp.WithSharedSessions(), toolmcp.WithSessionKey(toolmcp.SessionFromHeader("X-Conversation")))
		toolmcp.HTTPHandler(reg, toolmcp.WithSharedSessions(), toolmcp.WithSessionAffinity()) // stateful: the session id keys it
	})
}

// Shared sessions on a stateful handler are replicas whose sessions live each in one process:
// HTTPHandler refuses them unless the host says its balancer routes by session, naming both
// fixes. Before, such replicas started and answered round robin's requests with 404.
func TestStatefulReplicasNeedAffinityOrStatelessness(t *testing.T) {
	reg := runtime.NewRegistry()
	defer func() {
		err, _ := recover().(error)
		require.Error(t, err, "HTTPHandler started stateful replicas without affinity")
		assert.Contains(t, err.Error(), "WithSharedSessions on a stateful handler")
		assert.Contains(t, err.Error(), "add WithStateless()")
		assert.Contains(t, err.Error(), "WithSessionAffinity()")
		assert.Contains(t, err.Error(), "(session affinity)")
	}()
	toolmcp.HTTPHandler(reg, toolmcp.WithSharedSessions())
}

// Over stdio, a request the client cancelled gets no answer (MCP: the receiver should not
// send one), on toolgen's path and on the SDK's (a progress token sends a call there): the
// next line the client reads answers its next request. The SDK alone answers it.
func TestACancelledCallIsNotAnsweredOverStdio(t *testing.T) {
	started := make(chan struct{}, 1)
	reg := runtime.NewRegistry()
	tool := funcTool("wait", func(ctx context.Context, _ funcArgs) runtime.Result {
		started <- struct{}{}
		<-ctx.Done()
		return runtime.ErrorResult(ctx.Err())
	})
	tool.NoTimeout = true
	require.NoError(t, reg.Add(tool))
	for _, path := range []struct{ name, meta string }{{"toolgen", ""}, {"sdk", `,"_meta":{"progressToken":"p"}`}} {
		t.Run(path.name, func(t *testing.T) {
			toServer, fromClient := io.Pipe()
			toClient, fromServer := io.Pipe()
			_, done := toolmcp.ServeLines(t.Context(), reg, toServer, fromServer)
			t.Cleanup(func() { _ = fromClient.Close(); _ = toClient.Close(); <-done })
			lines := bufio.NewScanner(toClient)
			send := func(line string) {
				_, err := io.WriteString(fromClient, line+"\n")
				require.NoError(t, err)
			}
			next := func() map[string]any {
				require.True(t, lines.Scan(), "a line from the server")
				var msg map[string]any
				require.NoError(t, json.Unmarshal(lines.Bytes(), &msg), lines.Text())
				return msg
			}
			send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
			require.Equal(t, float64(1), next()["id"])
			send(`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`)
			send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wait","arguments":{}` + path.meta + `}}`)
			<-started
			send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"the user moved on"}}`)
			time.Sleep(50 * time.Millisecond) // the cancelled call's answer, were it sent, comes first
			send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
			assert.Equal(t, float64(3), next()["id"], "the ping's answer, not the cancelled call's")
		})
	}
}

// A call's id is free once its answer is sent: a client that sends its next request as soon
// as it reads the answer, under the same id, is served beside the SDK as the first was.
func TestStdioFreesAnIDBeforeItsAnswer(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(fixture.WeatherTool()))
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	fastCalls, done := toolmcp.ServeLines(t.Context(), reg, toServer, fromServer)
	t.Cleanup(func() { _ = fromClient.Close(); _ = toClient.Close(); <-done })
	lines := bufio.NewScanner(toClient)
	send := func(line string) {
		_, err := io.WriteString(fromClient, line+"\n")
		require.NoError(t, err)
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	require.True(t, lines.Scan())
	send(`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`)
	const calls = 200
	for range calls {
		send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Oslo","unit":"celsius"}}}`)
		require.True(t, lines.Scan())
		require.Contains(t, lines.Text(), `\"temperature\":21`)
	}
	assert.Equal(t, int64(calls), fastCalls())
}
