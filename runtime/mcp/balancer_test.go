package mcp_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// balancer serves backends behind one httputil.ReverseProxy that sends the n-th request
// (from 0) to the backend pick names, appending the client's address to X-Forwarded-For.
func balancer(t *testing.T, pick func(n uint64) int, backends ...string) string {
	var n atomic.Uint64
	targets := make([]*url.URL, len(backends))
	for i, b := range backends {
		u, err := url.Parse(b)
		require.NoError(t, err)
		targets[i] = u
	}
	proxy := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
		pr.SetURL(targets[pick(n.Add(1)-1)%len(targets)])
		pr.SetXForwarded()
	}})
	t.Cleanup(func() {
		proxy.CloseClientConnections()
		proxy.Close()
	})
	return proxy.URL
}

func roundRobin(n uint64) int { return int(n) }

// statefulReplicas starts n stateful replicas, each counting the proxy's clients by the
// address it forwards, at most perClient sessions each.
func statefulReplicas(t *testing.T, n, perClient int) []string {
	limits := toolmcp.SessionLimits{MaxPerClient: perClient, TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}
	urls := make([]string, n)
	for i := range urls {
		urls[i] = handlerURL(t, toolmcp.WithSessionLimits(limits))
	}
	return urls
}

// connectVia connects a go-sdk client, from local address local, through url, speaking
// 2025-11-25 without the standalone stream (whose GET would take a turn of the balancer at a
// time of its own), and fails the test if connecting takes more than ten seconds.
func connectVia(t *testing.T, url, local string) (*mcp.ClientSession, error) {
	transport := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: fromAddress(local, nil), DisableStandaloneSSE: true, MaxRetries: -1}
	start := time.Now()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(t.Context(), transport, legacy)
	require.Less(t, time.Since(start), 10*time.Second, "connecting hung")
	if err == nil {
		t.Cleanup(func() { _ = cs.Close() })
	}
	return cs, err
}

// The words of the 404 that answers a request on a session this replica does not hold.
var sessionNotFoundWords = []string{
	"Session not found: this server holds no MCP session with this Mcp-Session-Id",
	"behind a load balancer every request of a session must reach the replica that opened it",
	"Route by the Mcp-Session-Id header (session affinity)",
	"toolmcp.WithStateless() with toolmcp.WithSharedSessions()",
}

// Stateful replicas behind a balancer that moves a session after its handshake (round robin
// once the client's first two requests went to one replica): the go-sdk client's next call
// fails at once with mcp.ErrSessionMissing, on which a host opens a new session, as it does
// when a session idled out (a JSON-RPC error body would be the call's error instead, the
// dead session kept).
func TestStatefulReplicasSayTheSessionIsElsewhere(t *testing.T) {
	needLoopbackAddresses(t)
	lb := balancer(t, func(n uint64) int { return int(max(n, 1)) - 1 }, statefulReplicas(t, 2, 0)...)
	cs, err := connectVia(t, lb, "127.0.0.2")
	require.NoError(t, err, "initialize and initialized both reach replica 0")
	_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "call_info", Arguments: map[string]any{}})
	require.Error(t, err, "the call reaches replica 1")
	assert.ErrorIs(t, err, mcp.ErrSessionMissing, "the go-sdk's word for a session to open again")
	assert.NotContains(t, err.Error(), "/work", "no host path")
}

// The 404 of a request on a session the server does not hold says, in plain text as the
// go-sdk's own 404 (so that its client reports ErrSessionMissing), what to do, whatever the
// method: what a TypeScript client, curl or a proxy's log shows of it.
func TestAnUnknownSessionIsAnsweredInWords(t *testing.T) {
	url := handlerURL(t)
	for _, c := range []struct{ method, body string }{
		{http.MethodPost, `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`},
		{http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{http.MethodPost, `[{"jsonrpc":"2.0","id":7,"method":"tools/list"}]`},
		{http.MethodGet, ""},
		{http.MethodDelete, ""},
	} {
		t.Run(fmt.Sprint(c.method, " ", c.body), func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), c.method, url, strings.NewReader(c.body))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Session-Id", "ELSEWHERE")
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
			res, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			defer res.Body.Close()
			assert.Equal(t, http.StatusNotFound, res.StatusCode)
			assert.True(t, strings.HasPrefix(res.Header.Get("Content-Type"), "text/plain"), res.Header.Get("Content-Type"))
			body, err := io.ReadAll(res.Body)
			require.NoError(t, err)
			for _, words := range sessionNotFoundWords {
				assert.Contains(t, string(body), words)
			}
			assert.Contains(t, string(body), "idle for 30m0s")
			assert.NotContains(t, string(body), "ELSEWHERE", "the id is not echoed")
		})
	}
}

// Stateful replicas behind round robin: every handshake is split (initialize on one replica,
// initialized on the other), so every connection fails, promptly, and leaves a session
// behind that its client cannot close. Counted by the address the proxy forwards, one
// client's orphans fill its own cap only: another client behind the same proxy still gets
// the session error, not 429. Before, the orphans of all clients filled the proxy's one cap
// and every client got 429.
func TestOrphanedSessionsOfOneClientDoNotBlockAnother(t *testing.T) {
	needLoopbackAddresses(t)
	const perClient = 2
	lb := balancer(t, roundRobin, statefulReplicas(t, 2, perClient)...)
	var tooMany bool
	for range 2*perClient + 1 {
		_, err := connectVia(t, lb, "127.0.0.2")
		require.Error(t, err)
		if strings.Contains(err.Error(), "Too Many Requests") {
			tooMany = true
			continue
		}
		assert.True(t, errors.Is(err, mcp.ErrSessionMissing), "the go-sdk reads no words in the 404 of a notification: %v", err)
	}
	require.True(t, tooMany, "ann's orphans fill her cap on some replica")
	for range 2 {
		_, err := connectVia(t, lb, "127.0.0.3")
		require.Error(t, err)
		assert.NotContains(t, err.Error(), "Too Many Requests", "bob has his own cap")
		assert.ErrorIs(t, err, mcp.ErrSessionMissing)
	}
}
