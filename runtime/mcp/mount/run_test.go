package mount_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/runtime/mcp/mount"
)

// runCall answers with the RunInfo its handler sees.
type runCall struct{}

func (runCall) Args() any { return nil }
func (runCall) Run(ctx context.Context) runtime.Result {
	info, _ := runtime.CallInfoFrom(ctx)
	out, _ := json.Marshal(info.Run)
	return runtime.TextResult(string(out))
}

// The host's Call.Run goes with the mounted call, in its _meta, to the server's handler.
func TestMountSendsTheRun(t *testing.T) {
	backend := runtime.NewRegistry()
	require.NoError(t, backend.Add(runtime.Tool{
		Name: "run_info", Description: "Says the run.",
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Bind:        func(context.Context, []byte) (runtime.BoundCall, error) { return runCall{}, nil },
	}))
	host := runtime.NewRegistry()
	m, err := mount.Mount(t.Context(), host, mount.Server{Name: "remote", Dial: dialer(toolmcp.NewServer(backend))}, mount.Options{Logger: quiet})
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })

	run := &runtime.RunInfo{RunID: "run-9", AgentID: "coder", Model: "gpt-x", Turn: 2, InputTokens: 40, OutputTokens: 3}
	res := host.Invoke(t.Context(), runtime.Call{Name: "remote_run_info", Args: []byte(`{}`), Run: run})
	require.False(t, res.IsError, res.Text)
	var got runtime.RunInfo
	require.NoError(t, json.Unmarshal([]byte(res.Text), &got))
	assert.Equal(t, *run, got)

	res = host.Invoke(t.Context(), runtime.Call{Name: "remote_run_info", Args: []byte(`{}`)})
	require.False(t, res.IsError, res.Text)
	require.NoError(t, json.Unmarshal([]byte(res.Text), &got))
	assert.Zero(t, got)
}
