package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
)

// TaskExecutor runs the calls that become MCP tasks somewhere durable (runtime/temporal's
// TaskExecutor: a Temporal workflow), instead of a goroutine of the replica that made the
// task, so that a task outlives that replica. The server stores the task (its bounds apply
// as without an executor), then hands it over with Start; whatever runs the call stores how it
// ended in the same TaskStore, with CompleteTask or CancelTask, and tasks/get on any replica
// reads it there.
type TaskExecutor interface {
	// Start begins the run of call for task, once: a second Start of the same task must not
	// run the call again. The call passed its checks (arguments, limits, the repeat guard,
	// approval) on the server. An error fails the task and is the call's answer.
	Start(ctx context.Context, task Task, call runtime.Call) error
	// Cancel stops the run of task: tasks/cancel marked it cancelled in the store already.
	Cancel(ctx context.Context, task Task) error
}

// WithTaskExecutor hands the runs of the server's MCP tasks to e (see TaskExecutor). Tasks
// then never ask their client (input_required): a handler's Ask, Elicit or Sample finds no
// client, as in a call without one.
func WithTaskExecutor(e TaskExecutor) Option {
	return func(c *config) { c.taskExecutor = e }
}

// taskResultJSON is the stored result of a task: the CallToolResult of out, or a tool error
// saying it was dropped when its JSON is over maxBytes (0: DefaultMaxTaskResultBytes).
func taskResultJSON(tool string, out any, maxBytes int) json.RawMessage {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxTaskResultBytes
	}
	data, err := json.Marshal(out)
	if err != nil {
		data, _ = json.Marshal(Result(internalError(tool)))
	}
	if len(data) > maxBytes {
		data, _ = json.Marshal(toolError("%s produced a result of %d bytes, over the %d bytes a task keeps; it was dropped.", tool, len(data), maxBytes))
	}
	return data
}

// CompleteTask stores res, the result of the call of tool that task id of owner ran, as the
// task's result, in the form a server running the task itself stores it (Result's
// CallToolResult; a tool error is a completed task with isError), bounded by the task's
// MaxResultBytes; the task is completed, or cancelled when tasks/cancel asked for it. A
// task that ended already keeps how it ended. It returns the task as stored.
func CompleteTask(ctx context.Context, store TaskStore, owner, id, tool string, res runtime.Result) (Task, error) {
	return endTask(ctx, store, owner, id, func(t *Task) {
		t.Status, t.StatusMessage, t.Result = TaskCompleted, "", taskResultJSON(tool, Result(res), t.MaxResultBytes)
	})
}

// CancelTask marks task id of owner cancelled, unless it ended already, for a run that
// stopped before it had a result. It returns the task as stored.
func CancelTask(ctx context.Context, store TaskStore, owner, id string) (Task, error) {
	return endTask(ctx, store, owner, id, func(t *Task) {})
}

// endTask ends task id of owner with set, or cancelled when tasks/cancel asked (or set left
// it working), unless it ended already.
func endTask(ctx context.Context, store TaskStore, owner, id string, set func(*Task)) (Task, error) {
	t, err := store.Update(ctx, owner, id, func(t *Task) bool {
		if t.Terminal() {
			return false
		}
		set(t)
		if t.CancelRequested || !t.Terminal() {
			t.Status, t.StatusMessage, t.Result, t.Error = TaskCancelled, "Cancelled by the client.", nil, nil
		}
		now := time.Now().UTC()
		t.InputRequests, t.InputResponses, t.Updated, t.Beat = nil, nil, now, now
		return true
	})
	if err != nil {
		return t, fmt.Errorf("mcp: ending task %s: %w", id, err)
	}
	return t, nil
}
