package mcp_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/rawmcp"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// fakeExecutor records the tasks handed to it, as a durable executor would receive them.
type fakeExecutor struct {
	mu        sync.Mutex
	started   []toolmcp.Task
	calls     []runtime.Call
	cancelled []string
}

func (f *fakeExecutor) Start(_ context.Context, task toolmcp.Task, call runtime.Call) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.started, f.calls = append(f.started, task), append(f.calls, call)
	return nil
}

func (f *fakeExecutor) Cancel(_ context.Context, task toolmcp.Task) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cancelled = append(f.cancelled, task.ID)
	return nil
}

func TestATaskExecutorRunsTheTaskAndAnotherReplicaReadsItsResult(t *testing.T) {
	ran := make(chan struct{}, 1)
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(taskTool("build", runtime.TaskOptional, func(context.Context, funcArgs) runtime.Result {
		ran <- struct{}{}
		return runtime.TextResult("ran here")
	})))
	store := toolmcp.NewMemoryTaskStore()
	exec := &fakeExecutor{}
	limits := toolmcp.TaskLimits{PollInterval: poll, MaxResultBytes: 200}
	c := taskServer(t, reg, rawmcp.WithTasks(), toolmcp.WithTaskStore(store), toolmcp.WithTaskExecutor(exec), toolmcp.WithTaskLimits(limits))
	other := taskServer(t, reg, rawmcp.WithTasks(), toolmcp.WithTaskStore(store), toolmcp.WithTaskLimits(limits))

	created := call(t, c, "tools/call", map[string]any{"name": "build", "arguments": map[string]any{"name": "q3"}})
	require.Nil(t, created.Error)
	id := created.Result["taskId"].(string)
	assert.Equal(t, "working", created.Result["status"])
	select {
	case <-ran:
		t.Fatal("the handler ran on the server; the executor should run it")
	case <-time.After(50 * time.Millisecond):
	}
	exec.mu.Lock()
	require.Len(t, exec.started, 1)
	task, handed := exec.started[0], exec.calls[0]
	exec.mu.Unlock()
	assert.Equal(t, id, task.ID)
	assert.True(t, task.Durable)
	assert.Equal(t, 200, task.MaxResultBytes)
	assert.Equal(t, "build", handed.Name)
	assert.JSONEq(t, `{"name":"q3"}`, string(handed.Args))

	// Long past when a local run would be reported lost, the task is still working.
	_, err := store.Update(t.Context(), task.Owner, id, func(tk *toolmcp.Task) bool {
		tk.Beat = tk.Beat.Add(-time.Hour)
		return true
	})
	require.NoError(t, err)
	working := call(t, other, "tasks/get", map[string]any{"taskId": id})
	assert.Equal(t, "working", working.Result["status"], "a durable task has no beat to lose")

	_, err = toolmcp.CompleteTask(t.Context(), store, task.Owner, id, "build", runtime.TextResult("built q3"))
	require.NoError(t, err)
	done := call(t, other, "tasks/get", map[string]any{"taskId": id})
	assert.Equal(t, "completed", done.Result["status"])
	assert.Equal(t, "built q3", rawmcp.Text(done.Result["result"].(map[string]any)))

	// The result cap of the server that made the task holds where the result is stored.
	created = call(t, c, "tools/call", map[string]any{"name": "build", "arguments": map[string]any{"name": "big"}})
	id = created.Result["taskId"].(string)
	_, err = toolmcp.CompleteTask(t.Context(), store, task.Owner, id, "build", runtime.TextResult(strings.Repeat("x", 500)))
	require.NoError(t, err)
	done = call(t, other, "tasks/get", map[string]any{"taskId": id})
	res := done.Result["result"].(map[string]any)
	assert.Equal(t, true, res["isError"])
	assert.Contains(t, rawmcp.Text(res), "over the 200 bytes a task keeps")

	// tasks/cancel reaches the executor, and a late result does not undo it.
	created = call(t, c, "tools/call", map[string]any{"name": "build", "arguments": map[string]any{"name": "c"}})
	id = created.Result["taskId"].(string)
	ack := call(t, c, "tasks/cancel", map[string]any{"taskId": id})
	require.Nil(t, ack.Error)
	exec.mu.Lock()
	assert.Equal(t, []string{id}, exec.cancelled)
	exec.mu.Unlock()
	_, err = toolmcp.CompleteTask(t.Context(), store, task.Owner, id, "build", runtime.TextResult("too late"))
	require.NoError(t, err)
	got := call(t, other, "tasks/get", map[string]any{"taskId": id})
	assert.Equal(t, "cancelled", got.Result["status"])
	assert.NotContains(t, got.Result, "result")
}
