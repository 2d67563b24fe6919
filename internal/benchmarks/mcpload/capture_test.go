package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sent is one request as a server receives it: over HTTP its method, headers and body (the
// session id's value left out: it differs from session to session), over stdio its line.
type sent struct {
	Method string
	Header http.Header
	Body   string
}

// recorder serves HTTP requests with next, keeping what each was.
type recorder struct {
	next http.Handler
	mu   sync.Mutex
	got  []sent
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	h := r.Header.Clone()
	if h.Get("Mcp-Session-Id") != "" {
		h.Set("Mcp-Session-Id", "(session)")
	}
	rec.mu.Lock()
	rec.got = append(rec.got, sent{r.Method, h, string(body)})
	rec.mu.Unlock()
	rec.next.ServeHTTP(w, r)
}

// goSDKCalls connects a go-sdk client on protocol ("": its default) with transport and makes
// the load's two calls, valid and invalid.
func goSDKCalls(t *testing.T, transport mcp.Transport, protocol string) {
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "mcpload", Version: "1"}, nil)
	cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
	require.NoError(t, err)
	for _, args := range [][]byte{validArgs, invalidArgs} {
		var m map[string]any
		require.NoError(t, json.Unmarshal(args, &m))
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: m})
		require.NoError(t, err)
	}
	// Close sends a DELETE to a stateful server, which the load client never does: it is not
	// compared.
	require.NoError(t, cs.Close())
}

// loadCalls makes the same calls with the load client's callers.
func loadCalls(t *testing.T, c *child, transport, protocol string) {
	cs, err := callers(c, transport, protocol, 1)
	require.NoError(t, err)
	for _, args := range [][]byte{validArgs, invalidArgs} {
		_, err := cs[0].call(args)
		require.NoError(t, err)
	}
}

// The load client sends, byte for byte and header for header, what a go-sdk v1.8.0 client
// sends on each protocol and transport: the handshake (initialize and
// notifications/initialized on 2025-11-25, server/discover on 2026-07-28) and the calls. The
// go-sdk client's default is 2026-07-28 over stateless HTTP and stdio; over stateful HTTP a
// go-sdk server refuses it (its server/discover lists no 2026-07-28), and the client falls
// back to initialize on 2025-11-25, while mcp-go serves it.
func TestLoadClientSendsAsTheGoSDK(t *testing.T) {
	httpCases := []struct {
		transport, server, protocol, sdkProtocol string
	}{
		{"stateless", "toolgen", protocol20251125, protocol20251125},
		{"stateless", "toolgen", protocol20260728, protocol20260728},
		{"stateless", "toolgen", protocol20260728, ""}, // the go-sdk client's default
		{"stateful", "toolgen", protocol20251125, protocol20251125},
		{"stateful", "mcpgo", protocol20260728, ""},
	}
	for _, tc := range httpCases {
		t.Run(tc.transport+"/"+tc.server+"/"+tc.protocol+"/sdk-"+tc.sdkProtocol, func(t *testing.T) {
			build := goServers[tc.server]
			record := func(do func(url string)) []sent {
				h, _ := build(tc.transport == "stateless")
				rec := &recorder{next: h}
				srv := httptest.NewServer(rec)
				defer srv.Close()
				do(srv.URL)
				var out []sent
				for _, s := range rec.got {
					if s.Method != http.MethodDelete {
						out = append(out, s)
					}
				}
				return out
			}
			sdk := record(func(url string) {
				// The load client opens no standalone stream for the server's messages: it would
				// sit idle.
				goSDKCalls(t, &mcp.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true}, tc.sdkProtocol)
			})
			load := record(func(url string) { loadCalls(t, &child{url: url}, tc.transport, tc.protocol) })
			require.NotEmpty(t, sdk)
			assert.Equal(t, sdk, load)
		})
	}
	for _, tc := range []struct{ protocol, sdkProtocol string }{
		{protocol20251125, protocol20251125},
		{protocol20260728, protocol20260728},
		{protocol20260728, ""},
	} {
		t.Run("stdio/"+tc.protocol+"/sdk-"+tc.sdkProtocol, func(t *testing.T) {
			sdk := recordStdio(t, func(in io.Writer, out *bufio.Reader, tr mcp.Transport) {
				goSDKCalls(t, tr, tc.sdkProtocol)
			})
			load := recordStdio(t, func(in io.Writer, out *bufio.Reader, _ mcp.Transport) {
				loadCalls(t, &child{in: nopWriteCloser{in}, out: out}, "stdio", tc.protocol)
			})
			require.NotEmpty(t, sdk)
			assert.Equal(t, sdk, load)
		})
	}
}

// recordStdio runs the go-sdk server of get_weather over pipes and gives do the client's ends
// (as a writer and reader, and as a go-sdk transport); it returns the lines the server read.
func recordStdio(t *testing.T, do func(in io.Writer, out *bufio.Reader, tr mcp.Transport)) []sent {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	serverIn, clientOut := io.Pipe()
	clientIn, serverOut := io.Pipe()
	var (
		mu  sync.Mutex
		got []sent
	)
	lines, linesOut := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(lines)
		for sc.Scan() {
			mu.Lock()
			got = append(got, sent{Body: sc.Text()})
			mu.Unlock()
		}
	}()
	go func() {
		_ = gosdkMCPServer().Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(io.TeeReader(serverIn, linesOut)), Writer: serverOut})
	}()
	do(clientOut, bufio.NewReader(clientIn), &mcp.IOTransport{Reader: clientIn, Writer: clientOut})
	_ = clientOut.Close()
	_ = linesOut.Close()
	<-done
	mu.Lock()
	defer mu.Unlock()
	return got
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
