package mcp_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// The protocol matrix: a behaviour test written once with eachServing runs on every protocol
// revision the go-sdk's client speaks and toolgen serves differently (2025-06-18, before
// structured tool output's wider use and elicitation's URL mode; 2025-11-25, the last with
// server-to-client requests; 2026-07-28, input-required results and per-request _meta), over
// every transport (in memory, stdio, stateful and stateless streamable HTTP), on both server
// paths: the go-sdk's alone (NewServer's mcp.Server on the SDK's transports), and toolgen's own (ServeStdio's
// lines and HTTPHandler, which answer the calls they can beside the SDK).
var revisions = []string{"2025-06-18", "2025-11-25", "2026-07-28"}

// Transports.
const (
	inMemoryTransport = "memory"
	stdioTransport    = "stdio"
	statefulHTTP      = "stateful HTTP"
	statelessHTTP     = "stateless HTTP"
)

// serving is one way a client reaches the server.
type serving struct {
	protocol  string // the revision the client asks for
	transport string
	toolgen   bool // toolgen's server path (ServeLines, HTTPHandler); else the go-sdk's alone
}

func (s serving) String() string {
	path := "sdk"
	if s.toolgen {
		path = "toolgen"
	}
	return s.transport + " " + s.protocol + " " + path
}

// reachesClient reports whether the server can ask the client anything during a call
// (elicitation, sampling, approval) and route its cancellation: everywhere but stateless
// HTTP before 2026-07-28, which has neither a session nor input-required results.
func (s serving) reachesClient() bool {
	return s.transport != statelessHTTP || s.protocol >= "2026-07-28"
}

// servings lists the matrix. The go-sdk serves stateful HTTP up to 2025-11-25 only (it refuses
// 2026-07-28 there), and in memory there is only its own path.
func servings() []serving {
	var all []serving
	for _, p := range revisions {
		for _, tr := range []string{inMemoryTransport, stdioTransport, statefulHTTP, statelessHTTP} {
			if tr == statefulHTTP && p >= "2026-07-28" {
				continue
			}
			all = append(all, serving{p, tr, false})
			if tr != inMemoryTransport {
				all = append(all, serving{p, tr, true})
			}
		}
	}
	return all
}

// eachServing runs run as a subtest for every serving, with a client (options copts) on
// reg served with opts.
func eachServing(t *testing.T, reg *runtime.Registry, copts *mcp.ClientOptions, run func(t *testing.T, s serving, cs *mcp.ClientSession), opts ...toolmcp.Option) {
	for _, s := range servings() {
		t.Run(s.String(), func(t *testing.T) { run(t, s, s.connect(t, reg, copts, opts...)) })
	}
}

// connect serves reg the way s says and connects a client with copts to it.
func (s serving) connect(t *testing.T, reg *runtime.Registry, copts *mcp.ClientOptions, opts ...toolmcp.Option) *mcp.ClientSession {
	t.Helper()
	sopts := &mcp.ClientSessionOptions{ProtocolVersion: s.protocol}
	sdkServer := func() *mcp.Server { return toolmcp.NewServer(reg, opts...) }
	var cs *mcp.ClientSession
	switch {
	case s.transport == inMemoryTransport:
		cs = connectInMemory(t, sdkServer(), copts, sopts)
	case s.transport == stdioTransport && s.toolgen:
		cs, _ = stdioClient(t, reg, copts, sopts, opts...)
	case s.transport == stdioTransport:
		toServer, fromClient := io.Pipe()
		toClient, fromServer := io.Pipe()
		ss, err := sdkServer().Connect(t.Context(), &mcp.IOTransport{Reader: toServer, Writer: fromServer}, nil)
		require.NoError(t, err)
		t.Cleanup(func() { _ = ss.Close() })
		cs, err = mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, copts).Connect(t.Context(), &mcp.IOTransport{Reader: toClient, Writer: fromClient}, sopts)
		require.NoError(t, err)
		t.Cleanup(func() { _ = toServer.Close(); _ = cs.Close(); _ = fromClient.Close(); _ = toClient.Close() }) // see stdioClient
	case s.toolgen:
		if s.transport == statelessHTTP {
			opts = append(opts[:len(opts):len(opts)], toolmcp.WithStateless())
		}
		h, _ := toolmcp.HTTPHandlerCounting(reg, opts...)
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		cs = httpClientWith(t, srv.URL, nil, copts, sopts)
	default:
		server := sdkServer()
		srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
			&mcp.StreamableHTTPOptions{Stateless: s.transport == statelessHTTP, PropagateRequestCancellation: true}))
		t.Cleanup(srv.Close)
		cs = httpClientWith(t, srv.URL, nil, copts, sopts)
	}
	require.Equal(t, s.protocol, cs.InitializeResult().ProtocolVersion, "%s: the protocol negotiated", s)
	return cs
}

// The matrix holds what it says: each serving negotiates its protocol (connect checks), and
// toolgen's path answers calls beside the SDK where it can, so the SDK path is not all that is
// tested.
func TestMatrixServesEveryWay(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(callInfoTool()))
	names := map[string]bool{}
	for _, s := range servings() {
		names[s.String()] = true
	}
	require.Len(t, names, len(servings()))
	for _, want := range []string{"stdio 2026-07-28 toolgen", "stateless HTTP 2026-07-28 sdk", "stateful HTTP 2025-06-18 toolgen", "memory 2025-11-25 sdk"} {
		require.True(t, names[want], "%s is in the matrix: %v", want, names)
	}
	for _, s := range servings() {
		if !s.toolgen {
			continue
		}
		t.Run(s.String(), func(t *testing.T) {
			sopts := &mcp.ClientSessionOptions{ProtocolVersion: s.protocol}
			var cs *mcp.ClientSession
			var fastCalls func() int64
			if s.transport == stdioTransport {
				cs, fastCalls = stdioClient(t, reg, nil, sopts)
			} else {
				var opts []toolmcp.Option
				if s.transport == statelessHTTP {
					opts = append(opts, toolmcp.WithStateless())
				}
				var h http.Handler
				h, fastCalls = toolmcp.HTTPHandlerCounting(reg, opts...)
				srv := httptest.NewServer(h)
				t.Cleanup(srv.Close)
				cs = httpClientWith(t, srv.URL, nil, nil, sopts)
			}
			callInfoOver(t, cs)
			require.EqualValues(t, 1, fastCalls(), "served beside the SDK")
		})
	}
}
