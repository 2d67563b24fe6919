package redisstore_test

import (
	"context"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	"github.com/toolgen-go/toolgen/runtime/internal/rawmcp"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/runtime/redisstore"
)

func TestTasksStoreKeepsTasksToTheirOwnerWithinBounds(t *testing.T) {
	store := redisstore.New(startRedis(t).client(t), redisstore.Options{}).Tasks()
	ctx := t.Context()
	now := time.Now().UTC()
	task := func(id, owner string, ttl time.Duration) toolmcp.Task {
		return toolmcp.Task{ID: id, Owner: owner, Status: toolmcp.TaskWorking, Created: now, Updated: now, Beat: now, Expires: now.Add(ttl)}
	}
	require.NoError(t, store.Create(ctx, task("a1", "alice", time.Hour), 1, 3))
	var limit *toolmcp.TaskLimitError
	require.ErrorAs(t, store.Create(ctx, task("a2", "alice", time.Hour), 1, 3), &limit)
	assert.True(t, limit.Owner)
	assert.Error(t, store.Create(ctx, task("a1", "bob", time.Hour), 0, 0), "an id is made once")

	got, err := store.Get(ctx, "alice", "a1")
	require.NoError(t, err)
	assert.Equal(t, "working", got.Status)
	_, err = store.Get(ctx, "bob", "a1")
	assert.ErrorIs(t, err, toolmcp.ErrTaskNotFound, "another owner's task is not found")
	_, err = store.Update(ctx, "bob", "a1", func(t *toolmcp.Task) bool { t.Status = toolmcp.TaskCancelled; return true })
	assert.ErrorIs(t, err, toolmcp.ErrTaskNotFound)

	// A finished task leaves its owner's bound, and stays in the store's.
	done, err := store.Update(ctx, "alice", "a1", func(t *toolmcp.Task) bool {
		t.Status, t.Result, t.Owner = toolmcp.TaskCompleted, []byte(`{"content":[]}`), "mallory"
		return true
	})
	require.NoError(t, err)
	assert.Equal(t, "alice", done.Owner, "Update cannot give a task away")
	assert.JSONEq(t, `{"content":[]}`, string(done.Result))
	require.NoError(t, store.Create(ctx, task("a2", "alice", time.Hour), 1, 3))
	require.NoError(t, store.Create(ctx, task("b1", "bob", 200*time.Millisecond), 1, 3))
	require.ErrorAs(t, store.Create(ctx, task("c1", "carol", time.Hour), 1, 3), &limit)
	assert.False(t, limit.Owner, "the store's bound")

	// An expired task is forgotten, and frees its place.
	time.Sleep(300 * time.Millisecond)
	_, err = store.Get(ctx, "bob", "b1")
	assert.ErrorIs(t, err, toolmcp.ErrTaskNotFound)
	require.NoError(t, store.Create(ctx, task("c1", "carol", time.Hour), 1, 3))
}

// Two replicas share the task store: a task made through one is polled, answered and
// cancelled through the other, and a task whose replica stopped is reported failed.
func TestTasksAcrossReplicas(t *testing.T) {
	srv := startRedis(t)
	store := redisstore.New(srv.client(t), redisstore.Options{}).Tasks()
	limits := toolmcp.TaskLimits{PollInterval: 20 * time.Millisecond}
	release := make(chan struct{})
	var stopped atomic.Bool
	tools := func() []runtime.Tool {
		build := fixture.JSONTool("build", func(ctx context.Context, args map[string]any) runtime.Result {
			select {
			case <-release:
				return runtime.TextResult("built " + args["name"].(string))
			case <-ctx.Done():
				stopped.Store(true)
				return runtime.ErrorResult(ctx.Err())
			}
		})
		build.Task = runtime.TaskOptional
		ask := fixture.JSONTool("confirm", func(ctx context.Context, _ map[string]any) runtime.Result {
			action, _, err := toolmcp.ElicitNamed(ctx, "ok", "Go on?", map[string]any{"type": "object"})
			if err != nil {
				return runtime.ErrorResult(err)
			}
			return runtime.TextResult("answered " + action)
		})
		ask.Task = runtime.TaskOptional
		return []runtime.Tool{build, ask}
	}
	replica := func() *rawmcp.Client {
		reg := runtime.NewRegistry()
		require.NoError(t, reg.Add(tools()...))
		h := toolmcp.HTTPHandler(reg, toolmcp.WithStateless(), toolmcp.WithTaskStore(store), toolmcp.WithTaskLimits(limits))
		s := httptest.NewServer(h)
		t.Cleanup(s.Close)
		return &rawmcp.Client{URL: s.URL, Caps: rawmcp.WithTasks()}
	}
	a, b := replica(), replica()
	call := func(c *rawmcp.Client, method string, params map[string]any) rawmcp.Answer {
		t.Helper()
		ans, err := c.Call(method, params, nil)
		require.NoError(t, err)
		require.Nil(t, ans.Error, "%s", method)
		return ans
	}

	// Made on a, done on a, read on b.
	created := call(a, "tools/call", map[string]any{"name": "build", "arguments": map[string]any{"name": "x"}})
	require.Equal(t, "task", created.Result["resultType"])
	id := created.Result["taskId"].(string)
	assert.Equal(t, "working", call(b, "tasks/get", map[string]any{"taskId": id}).Result["status"], "the task exists for b as soon as a answered")
	close(release)
	done, err := b.Poll(id, 20*time.Millisecond, 10*time.Second)
	require.NoError(t, err)
	assert.Equal(t, "built x", rawmcp.Text(done["result"].(map[string]any)))

	// Asked on a, answered through b.
	created = call(a, "tools/call", map[string]any{"name": "confirm", "arguments": map[string]any{}})
	id = created.Result["taskId"].(string)
	_, err = b.Poll(id, 20*time.Millisecond, 10*time.Second, "input_required")
	require.NoError(t, err)
	call(b, "tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{"ok": map[string]any{"action": "decline"}}})
	done, err = a.Poll(id, 20*time.Millisecond, 10*time.Second)
	require.NoError(t, err)
	assert.Equal(t, "answered decline", rawmcp.Text(done["result"].(map[string]any)))

	// Running on a, cancelled through b: a's run stops.
	release = make(chan struct{}) // read by the handlers when they run
	created = call(a, "tools/call", map[string]any{"name": "build", "arguments": map[string]any{"name": "y"}})
	id = created.Result["taskId"].(string)
	call(b, "tasks/cancel", map[string]any{"taskId": id})
	require.Eventually(t, stopped.Load, 10*time.Second, 20*time.Millisecond, "a saw the cancel made on b")
	assert.Equal(t, "cancelled", call(a, "tasks/get", map[string]any{"taskId": id}).Result["status"])

	// A task whose replica died (its run no longer beats) is failed when read.
	now := time.Now().UTC().Add(-time.Minute)
	require.NoError(t, store.Create(t.Context(), toolmcp.Task{ID: "orphan", Owner: "user:\x00session:", Status: toolmcp.TaskWorking,
		Created: now, Updated: now, Beat: now, Expires: now.Add(time.Hour)}, 0, 0))
	lost := call(b, "tasks/get", map[string]any{"taskId": "orphan"}).Result
	assert.Equal(t, "failed", lost["status"])
	assert.EqualValues(t, -32603, lost["error"].(map[string]any)["code"])
}
