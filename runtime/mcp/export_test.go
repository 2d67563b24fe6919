package mcp

import (
	"context"
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

// AddToolsTracked is AddTools returning how many registry sessions and MCP connections the
// server still tracks.
func AddToolsTracked(server *mcp.Server, reg *runtime.Registry, tools []runtime.Tool, opts ...Option) (open func() (sessions, conns int)) {
	return addTools(server, reg, tools, opts).sessions.open
}

// ServeLines is ServeStdio over in and out, returning how many calls it served beside the
// SDK so far, and its end.
func ServeLines(ctx context.Context, reg *runtime.Registry, in io.Reader, out io.Writer, opts ...Option) (fastCalls func() int64, done <-chan error) {
	server, served := newServer(reg, opts)
	end := make(chan error, 1)
	go func() { end <- served.serveLines(ctx, server, in, out) }()
	return served.fastCalls.Load, end
}

// AddToolsLingering is AddTools returning how many registry sessions linger on the server.
func AddToolsLingering(server *mcp.Server, reg *runtime.Registry, tools []runtime.Tool, opts ...Option) (lingering func() int) {
	return addTools(server, reg, tools, opts).sessions.lingeringNow
}

// HTTPHandlerLingering is HTTPHandler returning how many registry sessions linger on it.
func HTTPHandlerLingering(reg *runtime.Registry, opts ...Option) (h http.Handler, lingering func() int) {
	h, served := httpHandler(reg, opts)
	return h, served.sessions.lingeringNow
}

// HTTPHandlerCounting is HTTPHandler returning how many calls it served beside the SDK.
func HTTPHandlerCounting(reg *runtime.Registry, opts ...Option) (h http.Handler, fastCalls func() int64) {
	h, served := httpHandler(reg, opts)
	return h, served.fastCalls.Load
}
