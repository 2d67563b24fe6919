package otel_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/runtime/mcp/mount"
	toolotel "github.com/toolgen-go/toolgen/runtime/otel"
)

// instrumented returns an Instrumentation recording into tel and a registry it instruments,
// holding tools.
func (tel *telemetry) instrumented(t *testing.T, tools ...runtime.Tool) (*toolotel.Instrumentation, *runtime.Registry) {
	in, err := toolotel.New(toolotel.WithTracerProvider(tel.tracers), toolotel.WithMeterProvider(tel.meters))
	require.NoError(t, err)
	reg := runtime.NewRegistry(in.RegistryOptions(nil)...)
	require.NoError(t, reg.Add(tools...))
	return in, reg
}

// spanNamed returns the one ended span of that name and kind.
func (tel *telemetry) spanNamed(t *testing.T, name string, kind trace.SpanKind) tracetest.SpanStub {
	t.Helper()
	var found []tracetest.SpanStub
	var all []string
	for _, s := range tel.spans.GetSpans() {
		all = append(all, s.Name+"/"+s.SpanKind.String())
		if s.Name == name && s.SpanKind == kind {
			found = append(found, s)
		}
	}
	require.Len(t, found, 1, "one %s span %q among %v", kind, name, all)
	return found[0]
}

// histogram returns the data points of the float64 histogram name.
func (tel *telemetry) histogram(t *testing.T, name string) (metricdata.Histogram[float64], bool) {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, tel.metrics.Collect(context.Background(), &rm))
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name == name {
				h, ok := m.Data.(metricdata.Histogram[float64])
				return h, ok
			}
		}
	}
	return metricdata.Histogram[float64]{}, false
}

// How a client reaches the server in TestServerSpansFollowTheMCPConventions: in memory (the
// go-sdk's path throughout), stateless HTTP (HTTPHandler: tools/call served beside the SDK),
// stateful HTTP (a session id).
const (
	inMemory      = "memory"
	statelessHTTP = "stateless HTTP"
	statefulHTTP  = "stateful HTTP"
)

func connectClient(t *testing.T, reg *runtime.Registry, transport, protocol string, opts ...toolmcp.Option) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil)
	sopts := &mcp.ClientSessionOptions{ProtocolVersion: protocol}
	var tr mcp.Transport
	switch transport {
	case inMemory:
		serverEnd, clientEnd := mcp.NewInMemoryTransports()
		ss, err := toolmcp.NewServer(reg, opts...).Connect(context.Background(), serverEnd, nil)
		require.NoError(t, err)
		t.Cleanup(func() { _ = ss.Close() })
		tr = clientEnd
	default:
		if transport == statelessHTTP {
			opts = append(opts, toolmcp.WithStateless())
		}
		srv := httptest.NewServer(toolmcp.HTTPHandler(reg, opts...))
		t.Cleanup(srv.Close)
		tr = &mcp.StreamableClientTransport{Endpoint: srv.URL}
	}
	cs, err := client.Connect(context.Background(), tr, sopts)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	require.Equal(t, protocol, cs.InitializeResult().ProtocolVersion)
	return cs
}

// Each MCP request is a server span as the MCP conventions name and attribute it, child of
// the client's span (from _meta) and parent of the tool's execute_tool span, and is measured
// in mcp.server.operation.duration; failures carry error.type.
func TestServerSpansFollowTheMCPConventions(t *testing.T) {
	cases := []struct{ transport, protocol string }{
		{inMemory, "2025-11-25"}, {inMemory, "2026-07-28"},
		{statelessHTTP, "2025-11-25"}, {statelessHTTP, "2026-07-28"},
		{statefulHTTP, "2025-11-25"},
	}
	for _, c := range cases {
		t.Run(c.transport+" "+c.protocol, func(t *testing.T) {
			tel := newTelemetry(t)
			in, reg := tel.instrumented(t, tool("get_weather", ok("sunny")),
				tool("broken", func(context.Context) runtime.Result { return runtime.Result{Text: "down", IsError: true} }))
			// WithTraceContext too, as a host may have it already: the server span stays the
			// tool's parent.
			cs := connectClient(t, reg, c.transport, c.protocol, toolmcp.WithRequestObserver(in.ServerObserver()), toolmcp.WithTraceContext(toolotel.ContextFromMeta),
				toolmcp.WithPrompts(tool("brief", ok("Brief me."))))

			_, err := cs.ListTools(context.Background(), nil)
			require.NoError(t, err)
			ctx, agent := tel.tracers.Tracer("agent").Start(context.Background(), "invoke_agent", trace.WithSpanKind(trace.SpanKindClient))
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{}, Meta: toolotel.InjectMeta(ctx, nil)})
			require.NoError(t, err)
			require.False(t, res.IsError)
			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "broken", Arguments: map[string]any{}})
			require.NoError(t, err)
			require.True(t, res.IsError)
			_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}})
			require.Error(t, err)
			_, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "brief"})
			require.NoError(t, err)
			_, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "no_such_prompt"})
			require.Error(t, err)
			agent.End()

			prompt := tel.spanNamed(t, "prompts/get brief", trace.SpanKindServer)
			assert.Equal(t, "brief", attrs(prompt.Attributes)["gen_ai.prompt.name"])
			unknownPrompt := tel.spanNamed(t, "prompts/get", trace.SpanKindServer)
			assert.NotContains(t, attrs(unknownPrompt.Attributes), "gen_ai.prompt.name", "a prompt the server does not serve is not recorded")

			server := tel.spanNamed(t, "tools/call get_weather", trace.SpanKindServer)
			assert.Equal(t, agent.SpanContext().TraceID(), server.SpanContext.TraceID(), "the client's trace continues")
			assert.Equal(t, agent.SpanContext().SpanID(), server.Parent.SpanID(), "the server span's parent is the client's span")
			got := attrs(server.Attributes)
			assert.Equal(t, "tools/call", got["mcp.method.name"])
			assert.Equal(t, "get_weather", got["gen_ai.tool.name"])
			assert.Equal(t, "execute_tool", got["gen_ai.operation.name"])
			assert.Equal(t, c.protocol, got["mcp.protocol.version"])
			assert.NotEmpty(t, got["jsonrpc.request.id"])
			assert.NotContains(t, got, "error.type")
			assert.Equal(t, codes.Unset, server.Status.Code)
			if c.transport == inMemory {
				assert.NotContains(t, got, "network.transport")
			} else {
				assert.Equal(t, "tcp", got["network.transport"])
				assert.Equal(t, "http", got["network.protocol.name"])
			}
			if c.transport == statefulHTTP {
				assert.Equal(t, cs.ID(), got["mcp.session.id"])
			} else {
				assert.NotContains(t, got, "mcp.session.id")
			}

			execute := tel.spanNamed(t, "execute_tool get_weather", trace.SpanKindInternal)
			assert.Equal(t, server.SpanContext.SpanID(), execute.Parent.SpanID(), "execute_tool is a child of the server span")
			assert.Equal(t, got["jsonrpc.request.id"], attrs(execute.Attributes)["gen_ai.tool.call.id"])

			broken := tel.spanNamed(t, "tools/call broken", trace.SpanKindServer)
			assert.Equal(t, "tool_error", attrs(broken.Attributes)["error.type"])
			assert.Equal(t, codes.Error, broken.Status.Code)
			unknown := tel.spanNamed(t, "tools/call", trace.SpanKindServer)
			assert.Equal(t, "-32602", attrs(unknown.Attributes)["error.type"], "a JSON-RPC error is its code")
			assert.Equal(t, "-32602", attrs(unknown.Attributes)["rpc.response.status_code"])
			assert.NotContains(t, attrs(unknown.Attributes), "gen_ai.tool.name", "a tool the server does not list is not recorded")
			tel.spanNamed(t, "tools/list", trace.SpanKindServer)

			h, ok := tel.histogram(t, "mcp.server.operation.duration")
			require.True(t, ok, "the histogram is recorded")
			var calls uint64
			for _, dp := range h.DataPoints {
				assert.Equal(t, []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}, dp.Bounds)
				_, hasID := dp.Attributes.Value("jsonrpc.request.id")
				_, hasSession := dp.Attributes.Value("mcp.session.id")
				assert.False(t, hasID || hasSession, "no unbounded attribute on the metric")
				if v, _ := dp.Attributes.Value("gen_ai.tool.name"); v.AsString() == "get_weather" {
					calls += dp.Count
					method, _ := dp.Attributes.Value("mcp.method.name")
					assert.Equal(t, "tools/call", method.AsString())
				}
			}
			assert.EqualValues(t, 1, calls, "the call measured once")
		})
	}
}

// A mount's requests are client spans whose trace context reaches the mounted server in
// _meta: the host's execute_tool span, the mount's client span, the server's span and its
// execute_tool span are one trace, each the parent of the next, and the client's duration is
// measured in mcp.client.operation.duration.
func TestMountClientSpansReachTheServer(t *testing.T) {
	for _, transport := range []string{inMemory, statelessHTTP} {
		t.Run(transport, func(t *testing.T) {
			tel := newTelemetry(t)
			in, backend := tel.instrumented(t, tool("get_weather", ok("sunny")))
			server := mount.Server{Name: "weather"}
			observe := toolmcp.WithRequestObserver(in.ServerObserver())
			if transport == inMemory {
				sdkServer := toolmcp.NewServer(backend, observe)
				server.Dial = func(ctx context.Context) (mcp.Transport, error) {
					serverEnd, clientEnd := mcp.NewInMemoryTransports()
					if _, err := sdkServer.Connect(ctx, serverEnd, nil); err != nil {
						return nil, err
					}
					return clientEnd, nil
				}
			} else {
				srv := httptest.NewServer(toolmcp.HTTPHandler(backend, observe, toolmcp.WithStateless()))
				t.Cleanup(srv.Close)
				server.URL = srv.URL
			}
			host := runtime.NewRegistry(in.RegistryOptions(nil)...)
			m, err := mount.Mount(context.Background(), host, server, mount.Options{Observer: in.ClientObserver()})
			require.NoError(t, err)
			t.Cleanup(func() { _ = m.Close() })

			res := host.Invoke(context.Background(), runtime.Call{ID: "c1", Name: "weather_get_weather", Args: []byte(`{}`)})
			require.False(t, res.IsError, res.Text)

			hostTool := tel.spanNamed(t, "execute_tool weather_get_weather", trace.SpanKindInternal)
			client := tel.spanNamed(t, "tools/call get_weather", trace.SpanKindClient)
			serverSpan := tel.spanNamed(t, "tools/call get_weather", trace.SpanKindServer)
			backendTool := tel.spanNamed(t, "execute_tool get_weather", trace.SpanKindInternal)
			traceID := hostTool.SpanContext.TraceID()
			for _, s := range []tracetest.SpanStub{client, serverSpan, backendTool} {
				assert.Equal(t, traceID, s.SpanContext.TraceID(), "%s is in the host's trace", s.Name)
			}
			assert.Equal(t, hostTool.SpanContext.SpanID(), client.Parent.SpanID())
			assert.Equal(t, client.SpanContext.SpanID(), serverSpan.Parent.SpanID(), "the traceparent in _meta")
			assert.True(t, serverSpan.Parent.IsRemote())
			assert.Equal(t, serverSpan.SpanContext.SpanID(), backendTool.Parent.SpanID())
			got := attrs(client.Attributes)
			assert.Equal(t, "tools/call", got["mcp.method.name"])
			assert.Equal(t, "get_weather", got["gen_ai.tool.name"])
			assert.NotEmpty(t, got["mcp.protocol.version"])
			if transport == statelessHTTP {
				assert.Equal(t, "tcp", got["network.transport"])
			}
			tel.spanNamed(t, "tools/list", trace.SpanKindClient)

			h, ok := tel.histogram(t, "mcp.client.operation.duration")
			require.True(t, ok, "the client histogram is recorded")
			var calls uint64
			for _, dp := range h.DataPoints {
				if v, _ := dp.Attributes.Value("mcp.method.name"); v.AsString() == "tools/call" {
					calls += dp.Count
				}
			}
			assert.EqualValues(t, 1, calls)
		})
	}
}

// The span the ctx held when the request arrived (an HTTP server span, from otelhttp) is a
// link of the MCP server span, not its parent: the client's span from _meta is.
func TestServerSpanLinksTheAmbientSpan(t *testing.T) {
	tel := newTelemetry(t)
	in, reg := tel.instrumented(t, tool("get_weather", ok("sunny")))
	h := toolmcp.HTTPHandler(reg, toolmcp.WithStateless(), toolmcp.WithRequestObserver(in.ServerObserver()))
	var httpSpans []trace.SpanContext
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, span := tel.tracers.Tracer("http").Start(r.Context(), "POST /mcp", trace.WithSpanKind(trace.SpanKindServer))
		defer span.End()
		mu.Lock()
		httpSpans = append(httpSpans, span.SpanContext())
		mu.Unlock()
		h.ServeHTTP(w, r.WithContext(ctx))
	}))
	t.Cleanup(srv.Close)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })

	ctx, agent := tel.tracers.Tracer("agent").Start(context.Background(), "invoke_agent")
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{}, Meta: toolotel.InjectMeta(ctx, nil)})
	agent.End()
	require.NoError(t, err)

	server := tel.spanNamed(t, "tools/call get_weather", trace.SpanKindServer)
	assert.Equal(t, agent.SpanContext().SpanID(), server.Parent.SpanID())
	require.Len(t, server.Links, 1)
	mu.Lock()
	defer mu.Unlock()
	assert.Contains(t, httpSpans, server.Links[0].SpanContext, "the HTTP request's span is linked")
}
