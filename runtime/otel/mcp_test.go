package otel_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	toolotel "github.com/toolgen-go/toolgen/runtime/otel"
)

// A client's trace continues into the server's tool span over a real MCP session: the client
// writes its trace context into the request's _meta, runtime/mcp reads it back
// (WithTraceContext).
func TestTraceContinuesOverMCP(t *testing.T) {
	tel := newTelemetry(t)
	reg := tel.registry(t, nil, nil, tool("get_weather", ok("sunny")))

	server := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "1"}, nil)
	toolmcp.AddTools(server, reg, nil, toolmcp.WithTraceContext(toolotel.ContextFromMeta))
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ss, err := server.Connect(context.Background(), serverEnd, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil).Connect(context.Background(), clientEnd, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })

	ctx, span := tel.tracers.Tracer("agent").Start(context.Background(), "tools/call get_weather")
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{}, Meta: toolotel.InjectMeta(ctx, nil)})
	span.End()
	require.NoError(t, err)
	require.False(t, res.IsError)

	spans := tel.toolSpans()
	require.Len(t, spans, 1)
	assert.Equal(t, span.SpanContext().TraceID(), spans[0].SpanContext.TraceID(), "one trace from the client into the tool")
	assert.Equal(t, span.SpanContext().SpanID(), spans[0].Parent.SpanID())
	assert.NotEmpty(t, attrs(spans[0].Attributes)["gen_ai.tool.call.id"], "the JSON-RPC id, read from the traced ctx")
}
