package otel

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// The names of the OpenTelemetry semantic conventions for MCP (development status, now in
// the GenAI conventions' repository) this package records.
const (
	AttrMCPMethod          = "mcp.method.name"
	AttrMCPSession         = "mcp.session.id"
	AttrMCPProtocol        = "mcp.protocol.version"
	AttrMCPResourceURI     = "mcp.resource.uri"
	AttrPromptName         = "gen_ai.prompt.name"
	AttrJSONRPCRequestID   = "jsonrpc.request.id"
	AttrRPCStatusCode      = "rpc.response.status_code" // the JSON-RPC error code
	AttrNetworkTransport   = "network.transport"        // tcp (HTTP) or pipe (stdio)
	AttrNetworkProtocol    = "network.protocol.name"    // http
	MetricServerOperation  = "mcp.server.operation.duration"
	MetricClientOperation  = "mcp.client.operation.duration"
	ErrorTypeToolError     = "tool_error" // error.type of a tools/call result with isError
	ErrorTypeOther         = "_OTHER"     // error.type of an error without a JSON-RPC code
	operationMethodUnknown = "_OTHER"     // mcp.method.name of a method not in mcpMethods
)

// operationBuckets are the bucket boundaries the MCP conventions advise for the operation
// duration histograms, in seconds.
var operationBuckets = []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}

// mcpMethods are the methods recorded by name: the conventions' well-known values and what
// 2026-07-28 adds. Another method (a client's invention) is recorded as _OTHER, so that a
// client cannot grow the span names and metric series without bound.
var mcpMethods = map[string]bool{
	"completion/complete": true, "elicitation/create": true, "initialize": true, "logging/setLevel": true,
	"notifications/cancelled": true, "notifications/initialized": true, "notifications/message": true,
	"notifications/progress": true, "notifications/prompts/list_changed": true,
	"notifications/resources/list_changed": true, "notifications/resources/updated": true,
	"notifications/roots/list_changed": true, "notifications/tools/list_changed": true, "ping": true,
	"prompts/get": true, "prompts/list": true, "resources/list": true, "resources/read": true,
	"resources/subscribe": true, "resources/templates/list": true, "resources/unsubscribe": true,
	"roots/list": true, "sampling/createMessage": true, "tools/call": true, "tools/list": true,
	"server/discover": true, "subscriptions/listen": true,
}

// ServerObserver returns the observer for runtime/mcp's WithRequestObserver that records each
// MCP request the server receives as the MCP conventions' server span and in the
// mcp.server.operation.duration histogram.
//
//	in, _ := toolotel.New()
//	reg := runtime.NewRegistry(in.RegistryOptions(nil)...)
//	h := toolmcp.HTTPHandler(reg, toolmcp.WithRequestObserver(in.ServerObserver()))
//
// The span, kind server, is named "{mcp.method.name} {tool}" ("tools/call get_weather"),
// "{mcp.method.name} {prompt}" (prompts/get, with gen_ai.prompt.name), or the method alone;
// its parent is the client's span from params._meta (traceparent), linked to the span the
// ctx held before (an HTTP server span), and it is the parent of the call's execute_tool
// span. Its attributes: mcp.method.name, jsonrpc.request.id, mcp.session.id,
// mcp.protocol.version, gen_ai.tool.name and gen_ai.operation.name (execute_tool) for a
// tools/call, mcp.resource.uri, network.transport and network.protocol.name; on failure
// error.type (the JSON-RPC error code, or tool_error for a result with isError),
// rpc.response.status_code and status Error. The histogram has neither the id nor the
// session nor the resource URI, which would make its series unbounded.
func (in *Instrumentation) ServerObserver() toolmcp.RequestObserver {
	return func(ctx context.Context, r *toolmcp.RequestInfo) (context.Context, func(toolmcp.RequestOutcome)) {
		ambient := trace.SpanContextFromContext(ctx)
		ctx = ContextFromMeta(ctx, r.Meta)
		opts := []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindServer)}
		if ambient.IsValid() && !ambient.Equal(trace.SpanContextFromContext(ctx)) {
			opts = append(opts, trace.WithLinks(trace.Link{SpanContext: ambient}))
		}
		return in.startOperation(ctx, r, in.serverOperation, opts)
	}
}

// ClientObserver returns the observer for runtime/mcp/mount's Options.Observer that records
// each request the mount sends as the MCP conventions' client span (kind client, named and
// attributed as ServerObserver's, without jsonrpc.request.id, which is given after it runs)
// and in the mcp.client.operation.duration histogram, and writes the span's trace context
// into the request's params._meta (traceparent, tracestate, baggage), so that a server
// following the conventions continues the trace.
func (in *Instrumentation) ClientObserver() toolmcp.RequestObserver {
	return func(ctx context.Context, r *toolmcp.RequestInfo) (context.Context, func(toolmcp.RequestOutcome)) {
		ctx, end := in.startOperation(ctx, r, in.clientOperation, []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindClient)})
		if r.Meta != nil {
			metaPropagator.Inject(ctx, MetaCarrier(r.Meta))
		}
		return ctx, end
	}
}

// startOperation starts the span of request r and returns the function that ends it and
// records its duration in histogram.
func (in *Instrumentation) startOperation(ctx context.Context, r *toolmcp.RequestInfo, histogram metric.Float64Histogram, opts []trace.SpanStartOption) (context.Context, func(toolmcp.RequestOutcome)) {
	start := time.Now()
	method := r.Method
	if !mcpMethods[method] {
		method = operationMethodUnknown
	}
	name := method
	measured := []attribute.KeyValue{attribute.String(AttrMCPMethod, method)}
	switch {
	case r.Tool != "":
		name += " " + r.Tool
		measured = append(measured, attribute.String(AttrToolName, r.Tool), attribute.String(AttrOperationName, "execute_tool"))
	case r.Prompt != "":
		name += " " + r.Prompt
		measured = append(measured, attribute.String(AttrPromptName, r.Prompt))
	}
	if r.Protocol != "" {
		measured = append(measured, attribute.String(AttrMCPProtocol, r.Protocol))
	}
	switch r.Transport {
	case "http":
		measured = append(measured, attribute.String(AttrNetworkTransport, "tcp"), attribute.String(AttrNetworkProtocol, "http"))
	case "stdio":
		measured = append(measured, attribute.String(AttrNetworkTransport, "pipe"))
	}
	spanAttrs := measured[:len(measured):len(measured)]
	if r.ID != "" {
		spanAttrs = append(spanAttrs, attribute.String(AttrJSONRPCRequestID, r.ID))
	}
	if r.Session != "" {
		spanAttrs = append(spanAttrs, attribute.String(AttrMCPSession, r.Session))
	}
	if r.ResourceURI != "" {
		spanAttrs = append(spanAttrs, attribute.String(AttrMCPResourceURI, r.ResourceURI))
	}
	ctx, span := in.tracer.Start(ctx, name, append(opts, trace.WithAttributes(spanAttrs...))...)
	return ctx, func(out toolmcp.RequestOutcome) {
		if kind, code, message := failure(out); kind != "" {
			failed := []attribute.KeyValue{attribute.String(AttrErrorType, kind)}
			if code != "" {
				failed = append(failed, attribute.String(AttrRPCStatusCode, code))
			}
			span.SetAttributes(failed...)
			span.SetStatus(codes.Error, message)
			measured = append(measured, failed...)
		}
		span.End()
		histogram.Record(ctx, time.Since(start).Seconds(), metric.WithAttributes(measured...))
	}
}

// failure is the error.type, JSON-RPC code and status description of a failed request; kind
// is "" for one that succeeded.
func failure(out toolmcp.RequestOutcome) (kind, code, message string) {
	var wire *jsonrpc.Error
	switch {
	case errors.As(out.Err, &wire):
		code = strconv.FormatInt(wire.Code, 10)
		return code, code, wire.Message
	case errors.Is(out.Err, context.DeadlineExceeded):
		return "timeout", "", out.Err.Error()
	case errors.Is(out.Err, context.Canceled):
		return "cancelled", "", out.Err.Error()
	case out.Err != nil:
		return ErrorTypeOther, "", out.Err.Error()
	case out.ToolError:
		return ErrorTypeToolError, "", ""
	}
	return "", "", ""
}
