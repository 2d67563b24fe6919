package otel

import (
	"context"

	"go.opentelemetry.io/otel/propagation"
)

// metaPropagator reads and writes W3C trace context (traceparent, tracestate) and baggage,
// the keys the MCP semantic conventions put in a request's params._meta.
var metaPropagator = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})

// MetaCarrier adapts an MCP request's params._meta to a propagation.TextMapCarrier. Only
// string values are read; others are ignored.
type MetaCarrier map[string]any

// Get returns the string value under key, or "".
func (m MetaCarrier) Get(key string) string {
	s, _ := m[key].(string)
	return s
}

// Set stores value under key.
func (m MetaCarrier) Set(key, value string) { m[key] = value }

// Keys returns the keys of the carrier.
func (m MetaCarrier) Keys() []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

// ContextFromMeta returns ctx carrying the trace context of an MCP request's params._meta
// (traceparent and tracestate, as the MCP semantic conventions place them, and baggage), so
// the server's span of the call continues the client's trace. Without a valid traceparent it
// returns ctx unchanged. The values come from the client: a malformed one is ignored, and a
// client can only choose the parent of the server's spans (and, with a parent-based sampler,
// whether they are sampled).
func ContextFromMeta(ctx context.Context, meta map[string]any) context.Context {
	if len(meta) == 0 {
		return ctx
	}
	return metaPropagator.Extract(ctx, MetaCarrier(meta))
}

// InjectMeta writes the trace context of ctx into meta (an MCP request's params._meta), for
// clients calling a server that uses ContextFromMeta. It returns meta, allocated when nil and
// there is something to write.
func InjectMeta(ctx context.Context, meta map[string]any) map[string]any {
	carrier := MetaCarrier(meta)
	if carrier == nil {
		carrier = MetaCarrier{}
	}
	metaPropagator.Inject(ctx, carrier)
	if len(carrier) == 0 {
		return meta
	}
	return carrier
}
