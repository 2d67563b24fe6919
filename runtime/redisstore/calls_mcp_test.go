package redisstore_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/runtime/redisstore"
)

// loseAnswers passes requests to the replicas, but throws away the answer to the first
// tools/call of each armed round: the replica ran the call and died before its answer left.
type loseAnswers struct {
	next  http.RoundTripper
	armed atomic.Int32
}

func (l *loseAnswers) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, err
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	res, err := l.next.RoundTrip(req)
	if err != nil || !bytes.Contains(body, []byte(`"tools/call"`)) || l.armed.Add(-1) < 0 {
		return res, err
	}
	_, _ = io.Copy(io.Discard, res.Body)
	_ = res.Body.Close()
	return nil, errors.New("the replica died before it answered")
}

// addHeaders sets headers on every request.
type addHeaders map[string]string

func (h addHeaders) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, v := range h {
		req.Header.Set(k, v)
	}
	return http.DefaultTransport.RoundTrip(req)
}

// Over stateless MCP, two replicas behind a round-robin proxy: a call whose answer was lost
// is retried by the client with the same idempotency key (in _meta, or the Idempotency-Key
// header), lands on the other replica, and gets the first result; the tool ran once.
func TestARetriedMCPCallRunsOnce(t *testing.T) {
	redisSrv := startRedis(t)
	store := redisstore.New(redisSrv.client(t), redisstore.Options{})
	var charges atomic.Int64
	chargeTool := jsonTool("charge", func(_ context.Context, args map[string]any) runtime.Result {
		return runtime.TextResult(fmt.Sprintf("charged %v, charge #%d", args["amount"], charges.Add(1)))
	})
	replicas := []*replica{newReplica(t, store, nil, chargeTool), newReplica(t, store, nil, chargeTool)}
	rr := &roundRobin{backends: []string{replicas[0].srv.URL, replicas[1].srv.URL}}
	lose := &loseAnswers{next: rr}
	lb := httptest.NewServer(&httputil.ReverseProxy{
		Rewrite:   func(pr *httputil.ProxyRequest) { pr.Out.URL.Scheme, pr.Out.URL.Host = "http", "backend" },
		Transport: lose,
		ErrorLog:  log.New(io.Discard, "", 0),
	})
	t.Cleanup(lb.Close)
	runs := func() int64 { return replicas[0].runs.Load() + replicas[1].runs.Load() }

	alice := connect(t, lb.URL, "alice")
	params := &mcp.CallToolParams{Name: "charge", Arguments: map[string]any{"amount": 5},
		Meta: mcp.Meta{toolmcp.IdempotencyKeyMeta: "7d5c9a52-3f7e-4d0c-9b1e-1c2d3e4f5a6b"}}
	lose.armed.Store(1)
	_, err := alice.CallTool(context.Background(), params)
	require.Error(t, err, "the answer was lost")
	require.Equal(t, int64(1), runs(), "the call ran before its answer was lost")
	ranOn := 0
	if replicas[1].runs.Load() == 1 {
		ranOn = 1
	}
	before := served(rr, replicas[1-ranOn])
	res, err := alice.CallTool(context.Background(), params)
	require.NoError(t, err)
	require.False(t, res.IsError)
	assert.Equal(t, "charged 5, charge #1", res.Content[0].(*mcp.TextContent).Text)
	assert.Equal(t, int64(1), runs(), "the retry ran nothing")
	assert.Equal(t, before+1, served(rr, replicas[1-ranOn]), "the retry went to the other replica")

	// The same with the key in the Idempotency-Key header.
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil)
	bob, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint:             lb.URL,
		HTTPClient:           &http.Client{Transport: addHeaders{conversationHeader: "bob", toolmcp.IdempotencyKeyHeader: "b0b-charge-1"}},
		DisableStandaloneSSE: true,
		MaxRetries:           -1,
	}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = bob.Close() })
	lose.armed.Store(1)
	_, err = bob.CallTool(context.Background(), &mcp.CallToolParams{Name: "charge", Arguments: map[string]any{"amount": 9}})
	require.Error(t, err)
	res, err = bob.CallTool(context.Background(), &mcp.CallToolParams{Name: "charge", Arguments: map[string]any{"amount": 9}})
	require.NoError(t, err)
	assert.Equal(t, "charged 9, charge #2", res.Content[0].(*mcp.TextContent).Text)
	assert.Equal(t, int64(2), runs())

	// Bob's key is his: alice sending it runs her own call.
	params.Meta = mcp.Meta{toolmcp.IdempotencyKeyMeta: "b0b-charge-1"}
	res, err = alice.CallTool(context.Background(), params)
	require.NoError(t, err)
	assert.Equal(t, "charged 5, charge #3", res.Content[0].(*mcp.TextContent).Text)
}

// served is how many requests the balancer sent to r.
func served(rr *roundRobin, r *replica) int64 {
	n, ok := rr.served.Load(r.srv.URL)
	if !ok {
		return 0
	}
	return n.(*atomic.Int64).Load()
}
