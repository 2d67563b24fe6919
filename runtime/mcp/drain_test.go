package mcp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// A draining handler finishes the call in progress and refuses new requests with a 503 that
// says when to retry; Wait returns once the call is done.
func TestADrainFinishesCallsAndRefusesNewOnes(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	reg := fixture.NewRegistry(fixture.JSONTool("slow", func(context.Context, map[string]any) runtime.Result {
		close(started)
		<-release
		return runtime.TextResult("finished")
	}))
	for _, stateless := range []bool{true, false} {
		if !stateless {
			started, release = make(chan struct{}), make(chan struct{})
		}
		drain := &toolmcp.Drain{RetryAfter: 2 * time.Second}
		opts := []toolmcp.Option{toolmcp.WithDrain(drain)}
		if stateless {
			opts = append(opts, toolmcp.WithStateless())
		}
		srv := httptest.NewServer(toolmcp.HTTPHandler(reg, opts...))
		t.Cleanup(srv.Close)
		cs := httpClientWith(t, srv.URL, nil, nil, nil)

		done := make(chan string)
		go func() {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "slow"})
			if err != nil {
				done <- err.Error()
				return
			}
			done <- res.Content[0].(*mcp.TextContent).Text
		}()
		<-started
		require.False(t, drain.Draining())
		drain.Begin()
		assert.True(t, drain.Draining())

		res, body := postHTTP(t, srv.URL, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, nil)
		assert.Equal(t, http.StatusServiceUnavailable, res.StatusCode)
		assert.Equal(t, "2", res.Header.Get("Retry-After"))
		assert.Contains(t, string(body), "shutting down")

		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		assert.ErrorIs(t, drain.Wait(ctx), context.DeadlineExceeded, "a call is still running")
		cancel()
		close(release)
		assert.Equal(t, "finished", <-done, "the call in progress ran to its end")
		require.NoError(t, drain.Wait(context.Background()))
	}
}
