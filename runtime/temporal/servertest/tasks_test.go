package servertest

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	"github.com/toolgen-go/toolgen/runtime/internal/rawmcp"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	tooltemporal "github.com/toolgen-go/toolgen/runtime/temporal"
)

// buildTool is a //tool:task tool retried once (a worker that dies mid-call is retried on
// another), handled by run.
func buildTool(run func(ctx context.Context, args map[string]any) runtime.Result) runtime.Tool {
	t := fixture.JSONTool("build", run)
	t.Task = runtime.TaskOptional
	t.Retry = runtime.RetryPolicy{Max: 2, Delay: 10 * time.Millisecond}
	return t
}

// taskWorker is startWorker with the activity storing MCP tasks' ends in store.
func taskWorker(t *testing.T, c client.Client, store toolmcp.TaskStore, tool runtime.Tool) worker.Worker {
	t.Helper()
	acts, err := tooltemporal.NewActivities([]runtime.Tool{tool})
	require.NoError(t, err)
	w := worker.New(c, taskQueue, worker.Options{})
	acts.Register(w)
	tooltemporal.NewWorkflows([]runtime.Tool{tool}, tooltemporal.Options{Heartbeat: 2 * time.Second}).Register(w)
	tooltemporal.NewTaskActivities(store).Register(w)
	require.NoError(t, w.Start())
	return w
}

// An MCP tools/call made a task through one replica, whose executor is Temporal's, outlives
// that replica: its HTTP server and worker stop while the call runs, another worker runs the
// call again, and tasks/get through another replica returns the task completed with its
// result.
func TestAnMCPTaskOutlivesTheReplicaThatMadeIt(t *testing.T) {
	_, ts, _ := server(t)
	store := toolmcp.NewMemoryTaskStore()
	dial := func() client.Client {
		c, err := client.Dial(client.Options{HostPort: ts.GetFrontendHostPort(), Namespace: ts.GetDefaultNamespace(), Logger: quiet})
		require.NoError(t, err)
		return c
	}

	// Replica A: its MCP server hands tasks to Temporal; its worker's call hangs until it dies.
	started := make(chan struct{}, 1)
	hung := buildTool(func(ctx context.Context, _ map[string]any) runtime.Result {
		started <- struct{}{}
		<-ctx.Done()
		return runtime.ErrorResult(ctx.Err())
	})
	ranOnServer := make(chan struct{}, 1)
	served := buildTool(func(context.Context, map[string]any) runtime.Result {
		ranOnServer <- struct{}{}
		return runtime.TextResult("ran on the MCP server")
	})
	regA := runtime.NewRegistry()
	require.NoError(t, regA.Add(served))
	cA := dial()
	wA := taskWorker(t, cA, store, hung)
	limits := toolmcp.WithTaskLimits(toolmcp.TaskLimits{PollInterval: 20 * time.Millisecond})
	srvA := httptest.NewServer(toolmcp.HTTPHandler(regA, toolmcp.WithStateless(), toolmcp.WithTaskStore(store), limits,
		toolmcp.WithTaskExecutor(tooltemporal.NewTaskExecutor(cA, taskQueue))))
	a := &rawmcp.Client{URL: srvA.URL, Caps: rawmcp.WithTasks()}

	created, err := a.Call("tools/call", map[string]any{"name": "build", "arguments": map[string]any{"name": "q3"}}, nil)
	require.NoError(t, err)
	require.Nil(t, created.Error)
	require.Equal(t, "task", created.Result["resultType"])
	id := created.Result["taskId"].(string)
	select {
	case <-started:
	case <-time.After(time.Minute):
		require.FailNow(t, "the call never started on replica A's worker")
	}

	// Replica A dies mid-call: its HTTP server and its worker.
	srvA.Close()
	wA.Stop()
	cA.Close()

	// Replica B: a worker that finishes the call, and an MCP server on the same task store.
	cB := dial()
	t.Cleanup(cB.Close)
	ok := buildTool(func(_ context.Context, args map[string]any) runtime.Result {
		return runtime.TextResult("built " + args["name"].(string))
	})
	wB := taskWorker(t, cB, store, ok)
	t.Cleanup(wB.Stop)
	regB := runtime.NewRegistry()
	require.NoError(t, regB.Add(served))
	srvB := httptest.NewServer(toolmcp.HTTPHandler(regB, toolmcp.WithStateless(), toolmcp.WithTaskStore(store), limits))
	t.Cleanup(srvB.Close)
	b := &rawmcp.Client{URL: srvB.URL, Caps: rawmcp.WithTasks()}

	done, err := b.Poll(id, 50*time.Millisecond, 2*time.Minute)
	require.NoError(t, err)
	assert.Equal(t, "completed", done["status"])
	assert.Equal(t, "built q3", rawmcp.Text(done["result"].(map[string]any)))
	select {
	case <-ranOnServer:
		assert.Fail(t, "the handler ran on the MCP server, not on Temporal")
	default:
	}
}
