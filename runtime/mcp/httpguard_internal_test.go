package mcp

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
)

// gateServer serves a stateful HTTPHandler with limits whose gate reads the time from clock,
// with a tool "wait" that runs until release is closed, telling started when it has begun.
func gateServer(t *testing.T, limits SessionLimits, clock *atomic.Int64) (url string, g *sessionGate, started chan struct{}, release chan struct{}) {
	started, release = make(chan struct{}, 1), make(chan struct{})
	reg := fixture.NewRegistry(fixture.JSONTool("wait", func(ctx context.Context, _ map[string]any) runtime.Result {
		started <- struct{}{}
		select {
		case <-release:
		case <-ctx.Done():
		}
		return runtime.Result{Text: "released"}
	}))
	h, ok := HTTPHandler(reg, WithSessionLimits(limits)).(*guard)
	require.True(t, ok)
	g = h.sessions
	g.clock = func() time.Duration { return time.Duration(clock.Load()) }
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	return srv.URL, g, started, release
}

// gatePost posts body on session (none: "") and returns the status and the session id the
// answer names.
func gatePost(t *testing.T, url, session, body string) (status int, id string) {
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set(sessionIDHeader, session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, res.Body)
	return res.StatusCode, res.Header.Get(sessionIDHeader)
}

func gateOpen(t *testing.T, url string) string {
	status, id := gatePost(t, url, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	require.Equal(t, http.StatusOK, status)
	require.NotEmpty(t, id)
	status, _ = gatePost(t, url, id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	require.Equal(t, http.StatusAccepted, status)
	return id
}

// held reports whether the gate counts session id.
func (g *sessionGate) held(id string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.open[id] != nil
}

// requests is how many requests are in progress on session id.
func (g *sessionGate) requests(id string) int32 {
	g.mu.Lock()
	l := g.open[id]
	g.mu.Unlock()
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.active
}

// The sweeper closes a session idle for the limit, and not one with a request in progress,
// however long ago that began; the busy one idles from its request's end.
func TestSweeperClosesIdleSessionsNotBusyOnes(t *testing.T) {
	const idle = time.Hour // the sweeper's own ticks (every minute) do not come during the test
	var clock atomic.Int64
	url, g, started, release := gateServer(t, SessionLimits{Idle: idle}, &clock)
	busy := gateOpen(t, url)
	answered := make(chan int, 1)
	go func() {
		status, _ := gatePost(t, url, busy, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wait","arguments":{}}}`)
		answered <- status
	}()
	<-started
	clock.Add(int64(time.Minute))
	quiet := gateOpen(t, url)

	clock.Add(int64(idle - time.Second))
	assert.True(t, g.sweep(), "both open: the sweeper goes on")
	assert.True(t, g.held(quiet), "idle for less than the limit")

	clock.Add(int64(2 * time.Second))
	assert.True(t, g.sweep(), "the busy session is left: the sweeper goes on")
	assert.False(t, g.held(quiet), "idle past the limit: closed")
	status, _ := gatePost(t, url, quiet, `{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	assert.Equal(t, http.StatusNotFound, status, "the SDK closed it too")
	assert.True(t, g.held(busy), "a request in progress keeps it open")

	close(release)
	require.Equal(t, http.StatusOK, <-answered)
	// The answer reaches the client just before the request ends on the server.
	require.Eventually(t, func() bool { return g.requests(busy) == 0 }, 30*time.Second, time.Millisecond)
	clock.Add(int64(idle - time.Second))
	assert.True(t, g.sweep())
	assert.True(t, g.held(busy), "it idles from its request's end")
	clock.Add(int64(2 * time.Second))
	assert.False(t, g.sweep(), "none left: the sweeper stops")
	assert.False(t, g.held(busy))
	g.mu.Lock()
	sweeping := g.sweeping
	g.mu.Unlock()
	assert.False(t, sweeping, "the next session to open starts it again")

	again := gateOpen(t, url)
	g.mu.Lock()
	sweeping = g.sweeping
	g.mu.Unlock()
	assert.True(t, sweeping)
	assert.True(t, g.held(again))
}

// A session the server closed itself, which the gate did not see end, is forgotten when a
// bound is reached, and its place goes to a new one; one opened since the look began is not.
func TestGateForgetsSessionsTheServerClosed(t *testing.T) {
	var clock atomic.Int64
	url, g, _, _ := gateServer(t, SessionLimits{Max: 1}, &clock)
	first := gateOpen(t, url)
	for ss := range g.server.Sessions() {
		if ss.ID() == first {
			require.NoError(t, ss.Close())
		}
	}
	assert.True(t, g.held(first), "the gate has not seen it end")
	clock.Add(1)
	second := gateOpen(t, url)
	assert.False(t, g.held(first), "forgotten when the bound was reached")
	assert.True(t, g.held(second))

	g.reconcile()
	assert.True(t, g.held(second), "open: kept")
	g.mu.Lock()
	g.open["opened-after-the-listing"] = &liveSession{owner: g.open[second].owner, idleSince: g.clock()}
	g.perClient[g.open[second].owner.Value().client]++
	g.mu.Unlock()
	g.reconcile()
	assert.True(t, g.held("opened-after-the-listing"), "not in the listing, but counted since it began: kept until the next look")
	clock.Add(1)
	g.reconcile()
	assert.False(t, g.held("opened-after-the-listing"))
}
