package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
)

// closeArgs are decoded as toolgen's generated decoders decode: into a struct whose optional
// fields are omitempty and have zero defaults (default=” and default=false), so the Go value
// marshals without them while the schema's canonical form has them.
type closeArgs struct {
	ID     int    `json:"id"`
	Reason string `json:"reason,omitempty"`
	Force  bool   `json:"force,omitempty"`
}

type closeCall struct {
	args closeArgs
	runs *atomic.Int32
	ran  *[]closeArgs
	mu   *sync.Mutex
}

func (c closeCall) Args() any { return &c.args }
func (c closeCall) Run(context.Context) runtime.Result {
	c.runs.Add(1)
	c.mu.Lock()
	*c.ran = append(*c.ran, c.args)
	c.mu.Unlock()
	return runtime.TextResult(fmt.Sprintf("closed #%d", c.args.ID))
}

// closeIssueTool is a //tool:confirm tool with optional fields whose defaults are zero values.
func closeIssueTool(runs *atomic.Int32, ran *[]closeArgs, mu *sync.Mutex) runtime.Tool {
	return runtime.Tool{
		Name:          "close_issue",
		Description:   "Closes an issue.",
		InputSchema:   json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer"},"reason":{"type":"string","default":""},"force":{"type":"boolean","default":false}},"required":["id"],"additionalProperties":false}`),
		Permission:    runtime.PermissionConfirm,
		ConfirmReason: "closes the issue for everyone",
		Bind: func(_ context.Context, raw []byte) (runtime.BoundCall, error) {
			var a closeArgs
			dec := json.NewDecoder(strings.NewReader(string(raw)))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&a); err != nil {
				return nil, &runtime.ArgsError{Problems: []runtime.Problem{{Message: err.Error()}}}
			}
			return closeCall{args: a, runs: runs, ran: ran, mu: mu}, nil
		},
	}
}

// TestApprovalIsExact: what the user is shown, what an answer is checked against and what
// runs are one canonical value (defaults applied), on every protocol and transport, whether
// optional fields are left out, sent as zero, sent as their default or in another key order.
// An approved call runs once, a declined one never runs and says the user declined.
func TestApprovalIsExact(t *testing.T) {
	var runs atomic.Int32
	var ran []closeArgs
	var mu sync.Mutex
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(closeIssueTool(&runs, &ran, &mu)))
	var asked []string
	var answer *mcp.ElicitResult
	copts := &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, req.Params.Message)
		return answer, nil
	}}
	eachServing(t, reg, copts, func(t *testing.T, s serving, cs *mcp.ClientSession) {
		if !s.reachesClient() {
			t.Skip("no way to ask the user: fails closed (TestApprovalByElicitation)")
		}
		for _, args := range []map[string]any{
			{"id": 7},
			{"id": 7, "reason": "", "force": false},
			{"force": false, "id": 7},
			{"reason": "", "id": 7.0},
		} {
			runs.Store(0)
			mu.Lock()
			asked, ran, answer = nil, nil, &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}
			mu.Unlock()
			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "close_issue", Arguments: args})
			require.NoError(t, err)
			require.False(t, res.IsError, "%v: %s", args, res.Content[0].(*mcp.TextContent).Text)
			assert.Equal(t, "closed #7", res.Content[0].(*mcp.TextContent).Text)
			assert.EqualValues(t, 1, runs.Load(), "%v: approved, runs once", args)
			require.Len(t, asked, 1)
			assert.Contains(t, asked[0], `Arguments: {"force":false,"id":7,"reason":""}`, "the user sees the defaults that apply")

			mu.Lock()
			asked, answer = nil, &mcp.ElicitResult{Action: "decline"}
			mu.Unlock()
			res, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "close_issue", Arguments: args})
			require.NoError(t, err)
			require.True(t, res.IsError)
			text := res.Content[0].(*mcp.TextContent).Text
			assert.Contains(t, text, "declined", "%v", args)
			assert.NotContains(t, text, "differ")
			assert.EqualValues(t, 1, runs.Load(), "%v: declined, does not run", args)
		}
	})
}
