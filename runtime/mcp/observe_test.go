package mcp_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// observed is one request a recordingObserver saw, and how it ended.
type observed struct {
	info    toolmcp.RequestInfo
	outcome toolmcp.RequestOutcome
	ended   int
}

// recordingObserver records every request and puts its number into the ctx it returns, so a
// handler can tell whether it runs under the observer's ctx.
type recordingObserver struct {
	mu   sync.Mutex
	seen []*observed
}

type observedKey struct{}

func (o *recordingObserver) observe(ctx context.Context, r *toolmcp.RequestInfo) (context.Context, func(toolmcp.RequestOutcome)) {
	o.mu.Lock()
	defer o.mu.Unlock()
	rec := &observed{info: *r}
	o.seen = append(o.seen, rec)
	return context.WithValue(ctx, observedKey{}, rec), func(out toolmcp.RequestOutcome) {
		o.mu.Lock()
		defer o.mu.Unlock()
		rec.outcome = out
		rec.ended++
	}
}

// calls returns the tools/call requests seen.
func (o *recordingObserver) calls() []observed {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []observed
	for _, rec := range o.seen {
		if rec.info.Method == "tools/call" {
			out = append(out, *rec)
		}
	}
	return out
}

func (o *recordingObserver) methods() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []string
	for _, rec := range o.seen {
		out = append(out, rec.info.Method)
	}
	return out
}

// Every request is observed once, on the go-sdk's path and on toolgen's beside it, with what
// the conventions' attributes need, and the handler runs under the ctx the observer returned.
func TestRequestObserverSeesEveryRequestOnce(t *testing.T) {
	reg := runtime.NewRegistry()
	underObserver := func(ctx context.Context, _ funcArgs) runtime.Result {
		if _, ok := ctx.Value(observedKey{}).(*observed); !ok {
			return runtime.Result{Text: "not under the observer's ctx", IsError: true}
		}
		return runtime.TextResult("observed")
	}
	require.NoError(t, reg.Add(
		funcTool("probe", underObserver),
		funcTool("broken", func(context.Context, funcArgs) runtime.Result { return runtime.Result{Text: "no", IsError: true} }),
	))
	for _, s := range servings() {
		t.Run(s.String(), func(t *testing.T) {
			obs := &recordingObserver{}
			cs := s.connect(t, reg, nil, toolmcp.WithRequestObserver(obs.observe))
			_, err := cs.ListTools(t.Context(), nil)
			require.NoError(t, err)
			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "probe", Arguments: map[string]any{}})
			require.NoError(t, err)
			require.False(t, res.IsError, "%v", res.Content)
			res, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "broken", Arguments: map[string]any{}})
			require.NoError(t, err)
			require.True(t, res.IsError)
			_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "secret_tool_name", Arguments: map[string]any{}})
			require.Error(t, err, "an unknown tool is a protocol error")

			assert.Contains(t, obs.methods(), "tools/list")
			calls := obs.calls()
			require.Len(t, calls, 3, "each call observed once: %v", obs.methods())
			wantTransport := ""
			switch {
			case s.transport == statefulHTTP || s.transport == statelessHTTP:
				wantTransport = "http"
			case s.transport == stdioTransport && s.toolgen:
				wantTransport = "stdio"
			}
			for i, tool := range []string{"probe", "broken", ""} {
				c := calls[i]
				assert.Equal(t, tool, c.info.Tool, "a tool the server does not list is not named")
				assert.NotEmpty(t, c.info.ID)
				assert.Equal(t, s.protocol, c.info.Protocol)
				assert.Equal(t, wantTransport, c.info.Transport)
				assert.Equal(t, s.transport == statefulHTTP, c.info.Session != "", "a session id only with a session")
				assert.Equal(t, 1, c.ended, "ended once")
			}
			assert.Equal(t, cs.ID(), calls[0].info.Session)
			assert.NoError(t, calls[0].outcome.Err)
			assert.False(t, calls[0].outcome.ToolError)
			assert.True(t, calls[1].outcome.ToolError)
			var wire *jsonrpc.Error
			require.True(t, errors.As(calls[2].outcome.Err, &wire), "%v", calls[2].outcome.Err)
			assert.EqualValues(t, jsonrpc.CodeInvalidParams, wire.Code)
		})
	}
}
