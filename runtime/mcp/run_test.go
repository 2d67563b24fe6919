package mcp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// runTool answers with the RunInfo its handler sees.
func runTool() runtime.Tool {
	return funcTool("run_info", func(ctx context.Context, _ funcArgs) runtime.Result {
		info, _ := runtime.CallInfoFrom(ctx)
		out, _ := json.Marshal(info.Run)
		return runtime.TextResult(string(out))
	})
}

// A tools/call's _meta under MetaRun reaches the handler's CallInfo.Run, on every protocol,
// transport and path; an unfit one (a wrong type, an unknown member, a text too long) is
// ignored as a whole and the call still runs.
func TestServedCallsCarryTheRun(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(runTool()))
	eachServing(t, reg, nil, func(t *testing.T, s serving, cs *mcp.ClientSession) {
		call := func(run any) string {
			params := &mcp.CallToolParams{Name: "run_info", Arguments: map[string]any{}}
			if run != nil {
				params.Meta = mcp.Meta{toolmcp.MetaRun: run}
			}
			res, err := cs.CallTool(t.Context(), params)
			require.NoError(t, err)
			require.False(t, res.IsError)
			return res.Content[0].(*mcp.TextContent).Text
		}
		got := call(map[string]any{"run_id": "run-1", "agent_id": "planner", "model": "claude-x", "turn": 3, "input_tokens": 120, "output_tokens": 7})
		assert.JSONEq(t, `{"RunID":"run-1","AgentID":"planner","Model":"claude-x","Turn":3,"InputTokens":120,"OutputTokens":7}`, got)
		zero := `{"RunID":"","AgentID":"","Model":"","Turn":0,"InputTokens":0,"OutputTokens":0}`
		assert.JSONEq(t, zero, call(nil))
		for _, bad := range []any{
			"run-1",
			map[string]any{"run_id": 7},
			map[string]any{"run_id": "r", "secret": "x"},
			map[string]any{"model": strings.Repeat("m", runtime.MaxRunText+1)},
			map[string]any{"agent_id": "a\x1b[31m"},
			map[string]any{"turn": -1},
			map[string]any{"input_tokens": 1.5},
		} {
			assert.JSONEq(t, zero, call(bad), "%v", bad)
		}
	})
}

func TestRunMetaRoundTrips(t *testing.T) {
	run := &runtime.RunInfo{RunID: "r", AgentID: "a", Model: "m", Turn: 2, InputTokens: 5, OutputTokens: 6}
	data, err := json.Marshal(map[string]any{toolmcp.MetaRun: toolmcp.RunMeta(run)})
	require.NoError(t, err)
	var meta map[string]any
	require.NoError(t, json.Unmarshal(data, &meta))
	assert.Equal(t, run, toolmcp.RunFromMeta(meta))
	assert.Nil(t, toolmcp.RunMeta(&runtime.RunInfo{}))
	assert.Nil(t, toolmcp.RunFromMeta(nil))
}
