package mcp_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/rawmcp"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// The MCP tasks extension, spoken by a hand-written JSON-RPC client (no Go SDK speaks it):
// over stateless HTTP and stdio, a //tool:task call becomes a task, polled with tasks/get,
// answered with tasks/update, stopped with tasks/cancel, bounded and kept to its owner.

const poll = 10 * time.Millisecond

// taskTool is funcTool running as a task (//tool:task).
func taskTool(name string, mode runtime.TaskMode, fn func(ctx context.Context, args funcArgs) runtime.Result) runtime.Tool {
	t := funcTool(name, fn)
	t.Task = mode
	return t
}

// gate is a tool's handler held until the test opens it.
type gate struct {
	open    chan struct{}
	started chan struct{}
	stopped atomic.Value // the ctx error the handler saw, when it stopped early
}

func newGate() *gate { return &gate{open: make(chan struct{}), started: make(chan struct{}, 8)} }

func (g *gate) run(ctx context.Context, args funcArgs) runtime.Result {
	g.started <- struct{}{}
	select {
	case <-g.open:
		return runtime.TextResult("built " + args["name"].(string))
	case <-ctx.Done():
		g.stopped.Store(ctx.Err())
		return runtime.ErrorResult(ctx.Err())
	}
}

// taskServer serves reg over stateless HTTP and returns a client declaring caps.
func taskServer(t *testing.T, reg *runtime.Registry, caps map[string]any, opts ...toolmcp.Option) *rawmcp.Client {
	t.Helper()
	opts = append([]toolmcp.Option{toolmcp.WithStateless(), toolmcp.WithTaskLimits(toolmcp.TaskLimits{PollInterval: poll})}, opts...)
	srv := httptest.NewServer(toolmcp.HTTPHandler(reg, opts...))
	t.Cleanup(srv.Close)
	return &rawmcp.Client{URL: srv.URL, Caps: caps}
}

func call(t *testing.T, c *rawmcp.Client, method string, params map[string]any) rawmcp.Answer {
	t.Helper()
	a, err := c.Call(method, params, nil)
	require.NoError(t, err)
	return a
}

func TestTaskRunsInTheBackgroundAndTasksGetReturnsItsResult(t *testing.T) {
	g := newGate()
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(taskTool("build", runtime.TaskOptional, g.run),
		taskTool("fail", runtime.TaskOptional, func(context.Context, funcArgs) runtime.Result {
			return runtime.Result{Text: "the build broke", IsError: true}
		})))
	c := taskServer(t, reg, rawmcp.WithTasks())

	discover := call(t, c, "server/discover", map[string]any{})
	require.Nil(t, discover.Error)
	assert.Contains(t, discover.Result["capabilities"].(map[string]any)["extensions"], rawmcp.TasksExtension, "the extension is advertised")

	created := call(t, c, "tools/call", map[string]any{"name": "build", "arguments": map[string]any{"name": "q3"}})
	require.Nil(t, created.Error)
	r := created.Result
	assert.Equal(t, "task", r["resultType"])
	assert.Equal(t, "working", r["status"])
	id, _ := r["taskId"].(string)
	require.Len(t, id, 26, "128 random bits")
	assert.EqualValues(t, toolmcp.DefaultTaskTTL.Milliseconds(), r["ttlMs"])
	assert.EqualValues(t, poll.Milliseconds(), r["pollIntervalMs"])
	assert.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`, r["createdAt"])
	for _, absent := range []string{"content", "result", "requestState", "task"} {
		assert.NotContains(t, r, absent)
	}
	<-g.started

	working := call(t, c, "tasks/get", map[string]any{"taskId": id})
	require.Nil(t, working.Error)
	assert.Equal(t, "complete", working.Result["resultType"])
	assert.Equal(t, "working", working.Result["status"])
	assert.NotContains(t, working.Result, "result")

	close(g.open)
	done, err := c.Poll(id, poll, 10*time.Second)
	require.NoError(t, err)
	assert.Equal(t, "completed", done["status"])
	assert.Equal(t, "built q3", rawmcp.Text(done["result"].(map[string]any)))

	// A tool error is a completed task with isError, not a failed one.
	created = call(t, c, "tools/call", map[string]any{"name": "fail", "arguments": map[string]any{}})
	done, err = c.Poll(created.Result["taskId"].(string), poll, 10*time.Second)
	require.NoError(t, err)
	assert.Equal(t, "completed", done["status"])
	assert.Equal(t, true, done["result"].(map[string]any)["isError"])
	assert.Equal(t, "the build broke", rawmcp.Text(done["result"].(map[string]any)))
}

func TestTaskToolWithoutTheExtension(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(
		taskTool("quick", runtime.TaskOptional, func(context.Context, funcArgs) runtime.Result { return runtime.TextResult("done") }),
		taskTool("only_task", runtime.TaskRequired, func(context.Context, funcArgs) runtime.Result { return runtime.TextResult("ran") })))
	c := taskServer(t, reg, map[string]any{})

	sync := call(t, c, "tools/call", map[string]any{"name": "quick", "arguments": map[string]any{}})
	require.Nil(t, sync.Error)
	assert.Equal(t, "complete", sync.Result["resultType"], "a client that did not declare the extension gets the result")
	assert.Equal(t, "done", rawmcp.Text(sync.Result))
	assert.NotContains(t, sync.Result, "taskId")

	refused := call(t, c, "tools/call", map[string]any{"name": "only_task", "arguments": map[string]any{}})
	require.NotNil(t, refused.Error)
	assert.EqualValues(t, -32021, refused.Error.Code)
	assert.Equal(t, http.StatusBadRequest, refused.Status)
	assert.JSONEq(t, `{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`, string(refused.Error.Data))

	for _, m := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		a := call(t, c, m, map[string]any{"taskId": "x", "inputResponses": map[string]any{}})
		require.NotNil(t, a.Error, m)
		assert.EqualValues(t, -32021, a.Error.Code, m)
	}

	// Served by the go-sdk alone (NewServer), where tasks/get cannot be answered, the tool
	// stays synchronous, the extension unadvertised.
	server := toolmcp.NewServer(reg)
	cs := connectInMemory(t, server, nil, nil)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "quick", Arguments: map[string]any{}})
	require.NoError(t, err)
	assert.Equal(t, "done", res.Content[0].(*mcp.TextContent).Text)
	_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "only_task", Arguments: map[string]any{}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "runs only as an MCP task")
}

func TestTasksGetRefusesUnknownIDsAndMismatchedHeaders(t *testing.T) {
	g := newGate()
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(taskTool("build", runtime.TaskOptional, g.run)))
	c := taskServer(t, reg, rawmcp.WithTasks())

	unknown := call(t, c, "tasks/get", map[string]any{"taskId": "no-such-task"})
	require.NotNil(t, unknown.Error)
	assert.EqualValues(t, -32602, unknown.Error.Code)
	assert.Equal(t, "Failed to retrieve task: Task not found", unknown.Error.Message)

	created := call(t, c, "tools/call", map[string]any{"name": "build", "arguments": map[string]any{"name": "x"}})
	id := created.Result["taskId"].(string)
	wrong := "another-task"
	a, err := c.Call("tasks/get", map[string]any{"taskId": id}, map[string]*string{"Mcp-Name": &wrong})
	require.NoError(t, err)
	require.NotNil(t, a.Error)
	assert.EqualValues(t, -32020, a.Error.Code)
	assert.Equal(t, http.StatusBadRequest, a.Status)

	a = call(t, c, "tasks/get", map[string]any{"taskId": id, "_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": "2099-01-01"}})
	require.NotNil(t, a.Error, "a _meta naming another protocol than the header")
	assert.EqualValues(t, -32602, a.Error.Code)
	assert.Equal(t, http.StatusBadRequest, a.Status)

	// tasks/cancel of an ended task is acknowledged; tasks/update of one not asking, too.
	close(g.open)
	_, err = c.Poll(id, poll, 10*time.Second)
	require.NoError(t, err)
	for _, m := range []string{"tasks/cancel", "tasks/update"} {
		ack := call(t, c, m, map[string]any{"taskId": id, "inputResponses": map[string]any{"k": map[string]any{}}})
		require.Nil(t, ack.Error, m)
		assert.Equal(t, "complete", ack.Result["resultType"])
		assert.NotContains(t, ack.Result, "status")
	}
	done := call(t, c, "tasks/get", map[string]any{"taskId": id})
	assert.Equal(t, "completed", done.Result["status"])
}

func TestTasksCancelStopsTheRun(t *testing.T) {
	g := newGate()
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(taskTool("build", runtime.TaskOptional, g.run)))
	c := taskServer(t, reg, rawmcp.WithTasks())

	created := call(t, c, "tools/call", map[string]any{"name": "build", "arguments": map[string]any{"name": "x"}})
	id := created.Result["taskId"].(string)
	<-g.started
	ack := call(t, c, "tasks/cancel", map[string]any{"taskId": id})
	require.Nil(t, ack.Error)
	assert.Equal(t, map[string]any{"resultType": "complete"}, withoutMeta(ack.Result))

	got := call(t, c, "tasks/get", map[string]any{"taskId": id})
	assert.Equal(t, "cancelled", got.Result["status"])
	require.Eventually(t, func() bool { return g.stopped.Load() != nil }, 10*time.Second, poll, "the handler's ctx was cancelled")
	assert.ErrorIs(t, g.stopped.Load().(error), context.Canceled)
	time.Sleep(5 * poll)
	got = call(t, c, "tasks/get", map[string]any{"taskId": id})
	assert.Equal(t, "cancelled", got.Result["status"], "the run's end does not overwrite the cancellation")
	assert.NotContains(t, got.Result, "result")
}

func withoutMeta(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if k != "_meta" {
			out[k] = v
		}
	}
	return out
}

func TestTaskBounds(t *testing.T) {
	g := newGate()
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(taskTool("build", runtime.TaskOptional, g.run),
		taskTool("big", runtime.TaskOptional, func(context.Context, funcArgs) runtime.Result {
			return runtime.TextResult(strings.Repeat("x", 4000))
		})))
	tokens := map[string]string{"a": "alice", "b": "bob", "c": "carol"}
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if user, ok := tokens[token]; ok {
			return &auth.TokenInfo{UserID: user, Expiration: time.Now().Add(time.Hour)}, nil
		}
		return nil, auth.ErrInvalidToken
	}
	c := taskServer(t, reg, rawmcp.WithTasks(), toolmcp.WithBearerAuth(verify, nil),
		toolmcp.WithTaskLimits(toolmcp.TaskLimits{MaxPerOwner: 1, MaxTotal: 2, MaxResultBytes: 2000, TTL: 300 * time.Millisecond, PollInterval: poll}))
	as := func(token string) *rawmcp.Client {
		return &rawmcp.Client{URL: c.URL, Caps: c.Caps, Header: http.Header{"Authorization": {"Bearer " + token}}}
	}
	alice, bob, carol := as("a"), as("b"), as("c")

	first := call(t, alice, "tools/call", map[string]any{"name": "build", "arguments": map[string]any{"name": "1"}})
	require.Equal(t, "task", first.Result["resultType"])
	<-g.started
	second := call(t, alice, "tools/call", map[string]any{"name": "build", "arguments": map[string]any{"name": "2"}})
	assert.Equal(t, true, second.Result["isError"], "past the caller's bound: a tool error, unrun")
	assert.Equal(t, "build was not run: this caller already has 1 unfinished tasks, the server's limit; wait for one to finish, or cancel one with tasks/cancel, then call again",
		rawmcp.Text(second.Result))
	assert.Len(t, g.started, 0, "the refused call did not run")

	// Bob's task fits, and its result is over the size a task keeps; finished, it counts
	// against the store's bound until it expires, not against bob's.
	big := call(t, bob, "tools/call", map[string]any{"name": "big", "arguments": map[string]any{}})
	done, err := bob.Poll(big.Result["taskId"].(string), poll, 10*time.Second)
	require.NoError(t, err)
	assert.Equal(t, true, done["result"].(map[string]any)["isError"])
	assert.Contains(t, rawmcp.Text(done["result"].(map[string]any)), "big produced a result of")
	assert.Contains(t, rawmcp.Text(done["result"].(map[string]any)), "over the 2000 bytes a task keeps")

	third := call(t, carol, "tools/call", map[string]any{"name": "build", "arguments": map[string]any{"name": "3"}})
	assert.Equal(t, "build was not run: the server holds 2 tasks, its limit; call again later", rawmcp.Text(third.Result))

	// The TTL ends the run and forgets the task, which frees its place.
	require.Eventually(t, func() bool { return g.stopped.Load() != nil }, 10*time.Second, poll, "the run was cancelled at its TTL")
	require.Eventually(t, func() bool {
		a := call(t, alice, "tasks/get", map[string]any{"taskId": first.Result["taskId"]})
		return a.Error != nil && a.Error.Code == -32602
	}, 10*time.Second, poll)
	again := call(t, alice, "tools/call", map[string]any{"name": "big", "arguments": map[string]any{}})
	assert.Equal(t, "task", again.Result["resultType"])
}

func TestTaskBelongsToItsCaller(t *testing.T) {
	g := newGate()
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(taskTool("build", runtime.TaskOptional, g.run)))
	c := taskServer(t, reg, rawmcp.WithTasks(), toolmcp.WithSessionKey(toolmcp.SessionFromHeader("X-Conversation")))
	in := func(conversation string) *rawmcp.Client {
		return &rawmcp.Client{URL: c.URL, Caps: c.Caps, Header: http.Header{"X-Conversation": {conversation}}}
	}
	mine, theirs := in("mine"), in("theirs")

	created := call(t, mine, "tools/call", map[string]any{"name": "build", "arguments": map[string]any{"name": "x"}})
	id := created.Result["taskId"].(string)
	<-g.started
	unknown := call(t, theirs, "tasks/get", map[string]any{"taskId": "no-such-task"})
	for _, m := range []string{"tasks/get", "tasks/cancel", "tasks/update"} {
		other := call(t, theirs, m, map[string]any{"taskId": id, "inputResponses": map[string]any{}})
		require.NotNil(t, other.Error, m)
		assert.Equal(t, unknown.Error, other.Error, "%s: another session's task looks like no task at all", m)
	}
	assert.Equal(t, "working", call(t, mine, "tasks/get", map[string]any{"taskId": id}).Result["status"], "the cancel from elsewhere did nothing")
	close(g.open)
	done, err := mine.Poll(id, poll, 10*time.Second)
	require.NoError(t, err)
	assert.Equal(t, "completed", done["status"])
}

func TestTaskAsksThroughTasksUpdate(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(
		taskTool("delete_file", runtime.TaskOptional, func(ctx context.Context, args funcArgs) runtime.Result {
			action, content, err := toolmcp.ElicitNamed(ctx, "confirm", "Delete "+args["filename"].(string)+"?",
				map[string]any{"type": "object", "properties": map[string]any{"confirm": map[string]any{"type": "boolean"}}})
			if err != nil {
				return runtime.ErrorResult(err)
			}
			if action != "accept" || content["confirm"] != true {
				return runtime.TextResult("kept")
			}
			return runtime.TextResult("deleted")
		}),
		taskTool("two_questions", runtime.TaskOptional, func(ctx context.Context, _ funcArgs) runtime.Result {
			schema := map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}
			answers, err := toolmcp.Ask(ctx, toolmcp.ElicitInput("first", "First?", schema), toolmcp.ElicitInput("second", "Second?", schema))
			if err != nil {
				return runtime.ErrorResult(err)
			}
			data, _ := json.Marshal(answers)
			return runtime.TextResult(string(data))
		})))
	c := taskServer(t, reg, rawmcp.WithTasks())

	created := call(t, c, "tools/call", map[string]any{"name": "delete_file", "arguments": map[string]any{"filename": "a.txt"}})
	id := created.Result["taskId"].(string)
	asking, err := c.Poll(id, poll, 10*time.Second, "input_required")
	require.NoError(t, err)
	reqs := asking["inputRequests"].(map[string]any)
	require.Contains(t, reqs, "confirm")
	assert.Equal(t, "elicitation/create", reqs["confirm"].(map[string]any)["method"])
	assert.NotContains(t, asking, "requestState")

	ack := call(t, c, "tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{
		"confirm": map[string]any{"action": "accept", "content": map[string]any{"confirm": true}},
		"unknown": map[string]any{"ignored": true},
	}})
	require.Nil(t, ack.Error)
	done, err := c.Poll(id, poll, 10*time.Second)
	require.NoError(t, err)
	assert.Equal(t, "deleted", rawmcp.Text(done["result"].(map[string]any)))

	// Two questions at once, answered one at a time: the task waits for both.
	created = call(t, c, "tools/call", map[string]any{"name": "two_questions", "arguments": map[string]any{}})
	id = created.Result["taskId"].(string)
	asking, err = c.Poll(id, poll, 10*time.Second, "input_required")
	require.NoError(t, err)
	require.Len(t, asking["inputRequests"], 2)
	call(t, c, "tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{"first": map[string]any{"action": "accept", "content": map[string]any{"name": "one"}}}})
	partial := call(t, c, "tasks/get", map[string]any{"taskId": id}).Result
	assert.Equal(t, "input_required", partial["status"])
	assert.Equal(t, []string{"second"}, keys(partial["inputRequests"].(map[string]any)), "the answered question is gone")
	call(t, c, "tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{"second": map[string]any{"action": "accept", "content": map[string]any{"name": "two"}}}})
	done, err = c.Poll(id, poll, 10*time.Second)
	require.NoError(t, err)
	text := rawmcp.Text(done["result"].(map[string]any))
	assert.Contains(t, text, `"first":{"action":"accept","content":{"name":"one"}}`)
	assert.Contains(t, text, `"second":{"action":"accept","content":{"name":"two"}}`)
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// An approval (//tool:confirm) is asked before the task exists, as an input-required result
// of the tools/call; the approved call becomes the task, and runs once.
func TestTaskApprovalIsSettledBeforeTheTask(t *testing.T) {
	var runs atomic.Int32
	tool := taskTool("deploy", runtime.TaskOptional, func(context.Context, funcArgs) runtime.Result {
		runs.Add(1)
		return runtime.TextResult("deployed")
	})
	tool.Permission, tool.ConfirmReason = runtime.PermissionConfirm, "Deploys to production."
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(tool))
	c := taskServer(t, reg, rawmcp.WithTasks())

	asked := call(t, c, "tools/call", map[string]any{"name": "deploy", "arguments": map[string]any{}})
	require.Nil(t, asked.Error)
	assert.Equal(t, "input_required", asked.Result["resultType"])
	assert.NotContains(t, asked.Result, "taskId")
	reqs := asked.Result["inputRequests"].(map[string]any)
	var key string
	for k := range reqs {
		key = k
	}
	created := call(t, c, "tools/call", map[string]any{"name": "deploy", "arguments": map[string]any{},
		"requestState":   asked.Result["requestState"],
		"inputResponses": map[string]any{key: map[string]any{"action": "accept", "content": map[string]any{"approve": true}}}})
	require.Nil(t, created.Error)
	require.Equal(t, "task", created.Result["resultType"], "%v", created.Result)
	assert.NotContains(t, created.Result, "requestState")
	done, err := c.Poll(created.Result["taskId"].(string), poll, 10*time.Second)
	require.NoError(t, err)
	assert.Equal(t, "deployed", rawmcp.Text(done["result"].(map[string]any)))
	assert.EqualValues(t, 1, runs.Load())
}

// A task whose server stopped showing it alive is reported failed, not working forever.
func TestTaskOfAStoppedServerFails(t *testing.T) {
	store := toolmcp.NewMemoryTaskStore()
	now := time.Now().UTC()
	owner := "user:\x00session:"
	require.NoError(t, store.Create(t.Context(), toolmcp.Task{ID: "orphan", Owner: owner, Status: toolmcp.TaskWorking,
		Created: now.Add(-time.Minute), Updated: now.Add(-time.Minute), Beat: now.Add(-time.Minute), Expires: now.Add(time.Hour)}, 0, 0))
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(taskTool("build", runtime.TaskOptional, newGate().run)))
	c := taskServer(t, reg, rawmcp.WithTasks(), toolmcp.WithTaskStore(store))

	got := call(t, c, "tasks/get", map[string]any{"taskId": "orphan"})
	require.Nil(t, got.Error)
	assert.Equal(t, "failed", got.Result["status"])
	failure := got.Result["error"].(map[string]any)
	assert.EqualValues(t, -32603, failure["code"])
	assert.Contains(t, failure["message"], "the server running this task stopped before it ended")
}

// A protocol error of the run (the handler needs a capability the client did not declare)
// fails the task with that error.
func TestTaskFailsWithTheRunsProtocolError(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(taskTool("roots", runtime.TaskOptional, func(ctx context.Context, _ funcArgs) runtime.Result {
		_, err := toolmcp.ListRoots(ctx)
		return runtime.ErrorResult(err)
	})))
	c := taskServer(t, reg, rawmcp.WithTasks())
	created := call(t, c, "tools/call", map[string]any{"name": "roots", "arguments": map[string]any{}})
	done, err := c.Poll(created.Result["taskId"].(string), poll, 10*time.Second)
	require.NoError(t, err)
	assert.Equal(t, "failed", done["status"])
	assert.NotContains(t, done, "result")
	assert.EqualValues(t, -32021, done["error"].(map[string]any)["code"])
}

func TestTaskOverStdio(t *testing.T) {
	g := newGate()
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(taskTool("build", runtime.TaskOptional, g.run)))
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	_, done := toolmcp.ServeLines(t.Context(), reg, toServer, fromServer, toolmcp.WithTaskLimits(toolmcp.TaskLimits{PollInterval: poll}))
	t.Cleanup(func() { _ = toServer.Close(); _ = toClient.Close(); <-done })
	c := &rawmcp.Client{Lines: fromClient, Caps: rawmcp.WithTasks()}
	c.Replies(toClient)

	created := call(t, c, "tools/call", map[string]any{"name": "build", "arguments": map[string]any{"name": "s"}})
	require.Nil(t, created.Error)
	require.Equal(t, "task", created.Result["resultType"])
	close(g.open)
	result, err := c.Poll(created.Result["taskId"].(string), poll, 10*time.Second)
	require.NoError(t, err)
	assert.Equal(t, "built s", rawmcp.Text(result["result"].(map[string]any)))
	unknown := call(t, c, "tasks/get", map[string]any{"taskId": "nope"})
	require.NotNil(t, unknown.Error)
	assert.EqualValues(t, -32602, unknown.Error.Code)
}

// A client that does not declare the extension (the go-sdk's, on every protocol, transport
// and path) gets a //tool:task tool's result synchronously, and a required one's refusal.
func TestTaskToolsAreSynchronousForClientsWithoutTheExtension(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(
		taskTool("quick", runtime.TaskOptional, func(context.Context, funcArgs) runtime.Result { return runtime.TextResult("done") }),
		taskTool("only_task", runtime.TaskRequired, func(context.Context, funcArgs) runtime.Result { return runtime.TextResult("ran") })))
	eachServing(t, reg, nil, func(t *testing.T, s serving, cs *mcp.ClientSession) {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "quick", Arguments: map[string]any{}})
		require.NoError(t, err)
		require.False(t, res.IsError)
		assert.Equal(t, "done", res.Content[0].(*mcp.TextContent).Text)
		_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "only_task", Arguments: map[string]any{}})
		require.Error(t, err, "a protocol error, nothing ran")
		assert.Contains(t, err.Error(), "only_task runs only as an MCP task")
	})
}

// What the handler reports with runtime.Progress becomes the task's statusMessage.
func TestTaskProgressIsItsStatusMessage(t *testing.T) {
	g := newGate()
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(taskTool("build", runtime.TaskOptional, func(ctx context.Context, args funcArgs) runtime.Result {
		runtime.Progress(ctx, 1, 3, "compiling")
		return g.run(ctx, args)
	})))
	c := taskServer(t, reg, rawmcp.WithTasks())
	created := call(t, c, "tools/call", map[string]any{"name": "build", "arguments": map[string]any{"name": "p"}})
	id := created.Result["taskId"].(string)
	require.Eventually(t, func() bool {
		return call(t, c, "tasks/get", map[string]any{"taskId": id}).Result["statusMessage"] == "1/3: compiling"
	}, 10*time.Second, poll)
	close(g.open)
	done, err := c.Poll(id, poll, 10*time.Second)
	require.NoError(t, err)
	assert.Equal(t, "built p", rawmcp.Text(done["result"].(map[string]any)))
}

// A stdio connection's tasks cannot be reached once it closes (their owner is that
// connection): their runs stop with it, rather than running, unread, until their TTL.
func TestTasksEndWithTheirStdioConnection(t *testing.T) {
	g := newGate()
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(taskTool("build", runtime.TaskOptional, g.run)))
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	_, done := toolmcp.ServeLines(context.Background(), reg, toServer, fromServer, toolmcp.WithTaskLimits(toolmcp.TaskLimits{PollInterval: poll}))
	t.Cleanup(func() { _ = toClient.Close() })
	c := &rawmcp.Client{Lines: fromClient, Caps: rawmcp.WithTasks()}
	c.Replies(toClient)

	created := call(t, c, "tools/call", map[string]any{"name": "build", "arguments": map[string]any{"name": "s"}})
	require.Equal(t, "task", created.Result["resultType"])
	<-g.started
	require.NoError(t, fromClient.Close())
	require.NoError(t, <-done)
	require.Eventually(t, func() bool { return g.stopped.Load() != nil }, 10*time.Second, poll, "the run was cancelled when the connection closed")
	assert.ErrorIs(t, g.stopped.Load().(error), context.Canceled)
}
