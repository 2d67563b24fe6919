package temporal_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/testsuite"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	tooltemporal "github.com/toolgen-go/toolgen/runtime/temporal"
)

// taskEnv is a test environment running MCP tasks' workflows, storing their ends in store,
// which holds a working task "t1" of owner "o".
func taskEnv(t *testing.T, store toolmcp.TaskStore, tools ...runtime.Tool) *testsuite.TestWorkflowEnvironment {
	e := env(t, tooltemporal.Options{}, tools...)
	tooltemporal.NewTaskActivities(store).Register(e)
	now := time.Now().UTC()
	require.NoError(t, store.Create(t.Context(), toolmcp.Task{ID: "t1", Owner: "o", Status: toolmcp.TaskWorking,
		Created: now, Updated: now, Beat: now, Expires: now.Add(time.Hour), Durable: true, MaxResultBytes: 1 << 10}, 0, 0))
	return e
}

func runTask(e *testsuite.TestWorkflowEnvironment, tool string, args string) {
	e.ExecuteWorkflow(tooltemporal.TaskWorkflow, tooltemporal.TaskRun{TaskID: "t1", Owner: "o",
		Call: tooltemporal.Call{ID: "c1", Name: tool, Args: json.RawMessage(args)}})
}

func storedTask(t *testing.T, store toolmcp.TaskStore) (toolmcp.Task, map[string]any) {
	task, err := store.Get(t.Context(), "o", "t1")
	require.NoError(t, err)
	var res map[string]any
	if task.Result != nil {
		require.NoError(t, json.Unmarshal(task.Result, &res))
	}
	return task, res
}

func TestTaskWorkflowStoresTheResult(t *testing.T) {
	store := toolmcp.NewMemoryTaskStore()
	e := taskEnv(t, store, jsonTool("build", func(_ context.Context, args map[string]any) runtime.Result {
		return runtime.TextResult("built " + args["name"].(string))
	}))
	runTask(e, "build", `{"name":"q3"}`)
	require.True(t, e.IsWorkflowCompleted())
	require.NoError(t, e.GetWorkflowError())
	task, res := storedTask(t, store)
	assert.Equal(t, toolmcp.TaskCompleted, task.Status)
	want, err := toolmcp.ResultJSON(runtime.TextResult("built q3"))
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(task.Result), "stored as a server running it itself stores it")
	assert.Nil(t, res["isError"])
}

func TestTaskWorkflowStoresAToolFailureAsACompletedToolError(t *testing.T) {
	store := toolmcp.NewMemoryTaskStore()
	tool := jsonTool("build", func(context.Context, map[string]any) runtime.Result {
		return runtime.ErrorResult(runtime.Permanent(errors.New("the build broke")))
	})
	e := taskEnv(t, store, tool)
	runTask(e, "build", `{}`)
	require.True(t, e.IsWorkflowCompleted())
	require.NoError(t, e.GetWorkflowError())
	task, res := storedTask(t, store)
	assert.Equal(t, toolmcp.TaskCompleted, task.Status, "a tool error is a completed task, as without Temporal")
	assert.Equal(t, true, res["isError"])
	assert.Contains(t, string(task.Result), "the build broke")
}

func TestTaskWorkflowCancelledStoresTheTaskCancelled(t *testing.T) {
	store := toolmcp.NewMemoryTaskStore()
	started, ended := make(chan struct{}), make(chan struct{})
	t.Cleanup(func() { close(ended) })
	tool := jsonTool("build", func(ctx context.Context, _ map[string]any) runtime.Result {
		close(started)
		select {
		case <-ctx.Done():
		case <-ended:
		}
		return runtime.TextResult("finished after all")
	})
	tool.Timeout = time.Hour
	e := taskEnv(t, store, tool)
	go func() {
		<-started
		e.CancelWorkflow()
	}()
	runTask(e, "build", `{}`)
	require.True(t, e.IsWorkflowCompleted())
	task, _ := storedTask(t, store)
	assert.Equal(t, toolmcp.TaskCancelled, task.Status)
	assert.Nil(t, task.Result)
}

func TestTaskWorkflowRunsAConfirmToolTheMCPServerApproved(t *testing.T) {
	store := toolmcp.NewMemoryTaskStore()
	var j fixture.Journal
	e := taskEnv(t, store, deployTool(&j))
	runTask(e, "deploy", `{"env":"prod"}`)
	require.True(t, e.IsWorkflowCompleted())
	require.NoError(t, e.GetWorkflowError())
	task, _ := storedTask(t, store)
	assert.Equal(t, toolmcp.TaskCompleted, task.Status)
	assert.Equal(t, 1, j.Count("deploy prod"), "approved on the MCP server before the task was made")
}
