package mcp

import (
	"context"
	"net/http"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// RequestInfo is what a RequestObserver learns of one MCP request or notification. On a
// server every field but Meta's trace keys comes from the client, within the bounds below; on
// a client (runtime/mcp/mount's Options.Observer) it is what is about to be sent.
type RequestInfo struct {
	// Method is the JSON-RPC method ("tools/call", "tools/list", "notifications/initialized").
	// A server passes on what the client sent (HTTPHandler refuses methods over
	// MaxMethodLength first): an observer that keys metrics by it should map methods it does
	// not know to one value.
	Method string
	// ID is the JSON-RPC id as text (a string's text, a number's digits); "" for a
	// notification, and on a client, where the id is given after the observer ran.
	ID string
	// Tool is the tool a tools/call names, and only when this server lists it (on a client:
	// the tool the mount calls), so that a client cannot make it an unbounded value.
	Tool string
	// Prompt is the prompt a prompts/get names, when this server serves it (WithPrompts).
	Prompt string
	// ResourceURI is the URI of resources/read, resources/subscribe and
	// resources/unsubscribe, when it is at most MaxResourceURIBytes.
	ResourceURI string
	// Session is the MCP session id (Mcp-Session-Id over stateful HTTP); "" without one
	// (stdio, in memory, stateless HTTP).
	Session string
	// Protocol is the MCP protocol version of the request: its Mcp-Protocol-Version header,
	// else the session's (initialize, or a 2026-07-28 request's _meta); "" when unknown.
	Protocol string
	// Transport is "http" (streamable HTTP), "stdio" (ServeStdio, or a mount's Command), or
	// "" (in memory, a transport of the host's own).
	Transport string
	// Meta is the request's params._meta. On a server it is the client's: read it (trace
	// context), do not change it. On a client the observer may add to it (a traceparent),
	// and what it adds is sent.
	Meta map[string]any
}

// RequestOutcome is how a request ended, as a RequestObserver's end function is told.
type RequestOutcome struct {
	// Err is the protocol error answered (a *jsonrpc.Error carries its code), or the error
	// that kept a client from an answer (a timeout, a closed connection); nil otherwise.
	Err error
	// ToolError is a tools/call answered with a result whose isError is set.
	ToolError bool
}

// RequestObserver observes each MCP request: it is called when the request is received (on a
// client: when it is sent) with the ctx it will be handled under, and returns the ctx to
// handle it with (a span's, whose children the tool call's spans become) and a function
// called, once, with how it ended (nil: no call). runtime/otel's ServerObserver and
// ClientObserver are ones; one for logging:
//
//	func(ctx context.Context, r *toolmcp.RequestInfo) (context.Context, func(toolmcp.RequestOutcome)) {
//		start := time.Now()
//		return ctx, func(o toolmcp.RequestOutcome) {
//			slog.InfoContext(ctx, "mcp", "method", r.Method, "tool", r.Tool, "took", time.Since(start), "err", o.Err)
//		}
//	}
//
// It is called concurrently, from the goroutine that handles the request.
type RequestObserver func(ctx context.Context, r *RequestInfo) (context.Context, func(RequestOutcome))

// WithRequestObserver observes every request the server receives: on the go-sdk's path (a
// receiving middleware of the server AddTools, NewServer, ServeStdio or HTTPHandler serve
// on, so prompts, resources, tools/list and notifications too) and the tools/calls served
// beside it (HTTPHandler, ServeStdio), each once. The ctx the observer returns is the one
// the request is handled with, WithTraceContext's extraction applied first. A Handler alone
// sees no request but its calls, and is not observed.
func WithRequestObserver(o RequestObserver) Option {
	return func(c *config) { c.observer = o }
}

// tracedKey marks a ctx to which WithTraceContext's extraction was applied already (by the
// observing middleware), so that the tool handler does not apply it again over the
// observer's span.
type tracedKey struct{}

// observeRequests is the receiving middleware of WithRequestObserver.
func (s *served) observeRequests(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		info := s.requestInfo(ctx, method, req)
		if s.traceCtx != nil {
			ctx = context.WithValue(s.traceCtx(ctx, info.Meta), tracedKey{}, true)
		}
		ctx, done := s.observer(ctx, info)
		res, err := next(ctx, method, req)
		if done != nil {
			out := RequestOutcome{Err: err}
			if r, ok := res.(*mcp.CallToolResult); ok && r != nil {
				out.ToolError = r.IsError
			}
			done(out)
		}
		return res, err
	}
}

// requestInfo describes a request the go-sdk received.
func (s *served) requestInfo(ctx context.Context, method string, req mcp.Request) *RequestInfo {
	info := &RequestInfo{Method: method, ID: requestID(ctx), Transport: s.transport}
	var header http.Header
	if extra := req.GetExtra(); extra != nil && extra.Header != nil {
		header, info.Transport = extra.Header, "http"
	}
	if params := req.GetParams(); !nilParams(params) {
		info.Meta = params.GetMeta()
		switch p := params.(type) {
		case *mcp.CallToolParamsRaw:
			if s.lists(p.Name) {
				info.Tool = p.Name
			}
		case *mcp.GetPromptParams:
			if s.prompts != nil && s.prompts.serves(p.Name) {
				info.Prompt = p.Name
			}
		case *mcp.ReadResourceParams:
			info.ResourceURI = boundedURI(p.URI)
		case *mcp.SubscribeParams:
			info.ResourceURI = boundedURI(p.URI)
		case *mcp.UnsubscribeParams:
			info.ResourceURI = boundedURI(p.URI)
		}
	}
	ss, _ := req.GetSession().(*mcp.ServerSession)
	if ss != nil {
		info.Session = ss.ID()
	}
	info.Protocol = protocolOf(header, ss, info.Meta)
	return info
}

// observedCall describes a tools/call served beside the SDK (fastcall.go, stdio.go), from
// client, whose JSON-RPC id is id.
func (s *served) observedCall(req *mcp.CallToolRequest, id string, client peer) *RequestInfo {
	info := &RequestInfo{Method: "tools/call", ID: id, Tool: req.Params.Name, Transport: s.transport, Meta: req.Params.Meta}
	var header http.Header
	if req.Extra != nil && req.Extra.Header != nil {
		header, info.Transport = req.Extra.Header, "http"
	}
	if req.Session != nil {
		info.Session = req.Session.ID()
	}
	info.Protocol = protocolOf(header, req.Session, info.Meta)
	if info.Protocol == "" {
		info.Protocol = client.protocol
	}
	return info
}

// nilParams reports whether a request's params are absent (a nil interface or pointer).
func nilParams(p mcp.Params) bool {
	if p == nil {
		return true
	}
	v := reflect.ValueOf(p)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

func boundedURI(uri string) string {
	if len(uri) > MaxResourceURIBytes {
		return ""
	}
	return uri
}

// protocolOf is a request's protocol version: its Mcp-Protocol-Version header, which the
// SDK (and the calls served beside it) accept only for a version the server speaks, else the
// session's, else a 2026-07-28 request's _meta.
func protocolOf(header http.Header, ss *mcp.ServerSession, meta map[string]any) string {
	if v := header.Get("Mcp-Protocol-Version"); v != "" && len(v) <= len("2006-01-02") {
		return v
	}
	if ss != nil {
		if p := ss.InitializeParams(); p != nil && p.ProtocolVersion != "" {
			return p.ProtocolVersion
		}
	}
	if v, ok := meta["io.modelcontextprotocol/protocolVersion"].(string); ok && len(v) <= len("2006-01-02") {
		return v
	}
	return ""
}
