package runtime_test

import (
	"context"
	"fmt"
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
)

// hungTool is a tool whose handler ignores its ctx and blocks until release is closed, except
// in session "healthy"; started counts the handlers that began.
func hungTool(release <-chan struct{}, started *atomic.Int32) runtime.Tool {
	tool := runTool("hung", func(ctx context.Context) runtime.Result {
		if info, _ := runtime.CallInfoFrom(ctx); info.Session == "healthy" {
			return runtime.TextResult("ok")
		}
		started.Add(1)
		<-release
		return runtime.TextResult("late")
	})
	tool.Timeout = 20 * time.Millisecond
	return tool
}

// invokeConcurrently makes n calls of tool at once, in sessions named by session(i), and
// returns their results.
func invokeConcurrently(reg *runtime.Registry, n int, session func(i int) string) []runtime.Result {
	results := make([]runtime.Result, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			results[i] = reg.Invoke(context.Background(), runtime.Call{Name: "hung", Session: session(i)})
		})
	}
	wg.Wait()
	return results
}

// eventuallyRuns waits until a healthy call of the tool runs again: the hung handlers have
// returned and given their slots back.
func eventuallyRuns(t *testing.T, reg *runtime.Registry, session string) {
	t.Helper()
	require.Eventually(t, func() bool {
		return !reg.Invoke(t.Context(), runtime.Call{Name: "hung", Session: session}).IsError
	}, 10*time.Second, time.Millisecond, "the tool never became available again")
}

func testAbandonBoundUnderConcurrency(t *testing.T, calls int) {
	release := make(chan struct{})
	var started atomic.Int32
	reg := runtime.NewRegistry(runtime.WithLimits(runtime.Limits{MaxAbandoned: 16}))
	require.NoError(t, reg.Add(hungTool(release, &started)))

	results := invokeConcurrently(reg, calls, func(i int) string { return fmt.Sprint("s", i%100) })
	for _, res := range results {
		require.True(t, res.IsError)
		require.Contains(t, []runtime.ErrorKind{runtime.KindTimeout, runtime.KindUnavailable}, res.Kind, res.Text)
	}
	assert.LessOrEqual(t, started.Load(), int32(16), "handlers left running past their timeout")
	close(release)
	eventuallyRuns(t, reg, "healthy")
}

// 400 calls arriving together at a hung tool leave at most Limits.MaxAbandoned handlers behind
// (all 400 started before the first timeout, and 399 were left running).
func TestAbandonBoundHoldsUnderConcurrency(t *testing.T) {
	testAbandonBoundUnderConcurrency(t, 400)
}

// One session's hung calls take at most its share of the tool's slots: another session still
// gets the tool.
func TestAbandonBoundPerSession(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	var started atomic.Int32
	reg := runtime.NewRegistry(runtime.WithLimits(runtime.Limits{MaxAbandoned: 16, MaxAbandonedPerSession: 4}))
	require.NoError(t, reg.Add(hungTool(release, &started)))

	invokeConcurrently(reg, 40, func(int) string { return "greedy" })
	assert.LessOrEqual(t, started.Load(), int32(4))
	res := reg.Invoke(t.Context(), runtime.Call{Name: "hung", Session: "greedy"})
	assert.Equal(t, runtime.KindUnavailable, res.Kind, res.Text)
	assert.Contains(t, res.Text, "this session's earlier calls of it are still running")

	res = reg.Invoke(t.Context(), runtime.Call{Name: "hung", Session: "healthy"})
	assert.False(t, res.IsError, res.Text)
}

// A handler that calls runtime.Goexit ends its call with an internal error and gives its
// slot back: the tool stays available.
func TestGoexitInHandlerFreesItsSlot(t *testing.T) {
	var calls atomic.Int32
	tool := runTool("exits", func(context.Context) runtime.Result {
		if calls.Add(1) == 1 {
			goruntime.Goexit()
		}
		return runtime.TextResult("ok")
	})
	tool.Timeout = time.Minute
	reg := runtime.NewRegistry(runtime.WithLimits(runtime.Limits{MaxAbandoned: 1}))
	require.NoError(t, reg.Add(tool))

	res := reg.Invoke(t.Context(), runtime.Call{Name: "exits"})
	assert.Equal(t, runtime.KindInternal, res.Kind, res.Text)
	assert.Equal(t, "exits failed with an internal error.", res.Text)
	res = reg.Invoke(t.Context(), runtime.Call{Name: "exits"})
	assert.False(t, res.IsError, res.Text)
}
