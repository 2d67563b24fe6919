package runtime_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
)

// The host's RunInfo reaches the handler (CallInfo.Run) and every event of the call.
func TestRunInfoReachesHandlersAndObservers(t *testing.T) {
	var mu sync.Mutex
	var seen []*runtime.RunInfo
	reg := runtime.NewRegistry(runtime.WithObserver(func(_ context.Context, e runtime.Event) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, e.Run)
	}))
	var got runtime.RunInfo
	require.NoError(t, reg.Add(runTool("who", func(ctx context.Context) runtime.Result {
		info, ok := runtime.CallInfoFrom(ctx)
		require.True(t, ok)
		got = info.Run
		return runtime.TextResult("ok")
	})))
	run := &runtime.RunInfo{RunID: "run-1", AgentID: "planner", Model: "claude-x", Turn: 3, InputTokens: 120, OutputTokens: 7}
	res := reg.Invoke(t.Context(), runtime.Call{Name: "who", Run: run})
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, *run, got)
	require.NotEmpty(t, seen)
	for _, r := range seen {
		assert.Same(t, run, r)
	}

	res = reg.Invoke(t.Context(), runtime.Call{Name: "who"})
	require.False(t, res.IsError, res.Text)
	assert.Zero(t, got, "a call without a Run has none")
}

func TestRunInfoWith(t *testing.T) {
	fromAdapter := &runtime.RunInfo{Model: "gpt-x", InputTokens: 10, OutputTokens: 2}
	host := &runtime.RunInfo{RunID: "r", AgentID: "a", Turn: 2, Model: "ignored"}
	assert.Equal(t, runtime.RunInfo{RunID: "r", AgentID: "a", Model: "gpt-x", Turn: 2, InputTokens: 10, OutputTokens: 2}, *fromAdapter.With(host))
	assert.Same(t, host, (*runtime.RunInfo)(nil).With(host))
	assert.Nil(t, (*runtime.RunInfo)(nil).With(nil))
}

func TestRunInfoCheck(t *testing.T) {
	require.NoError(t, (&runtime.RunInfo{RunID: "run-1", Model: "claude-x", Turn: 1}).Check())
	require.NoError(t, (*runtime.RunInfo)(nil).Check())
	err := (&runtime.RunInfo{RunID: strings.Repeat("x", runtime.MaxRunText+1), AgentID: "a\nb", Model: "\xff", Turn: -1}).Check()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "run_id is over 256 bytes")
	assert.Contains(t, err.Error(), "agent_id holds a control character")
	assert.Contains(t, err.Error(), "model holds a control character or is not UTF-8")
	assert.Contains(t, err.Error(), "cannot be negative")
}
