package mcp

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

// AddToolsTracked is AddTools returning how many registry sessions and MCP connections the
// server still tracks.
func AddToolsTracked(server *mcp.Server, reg *runtime.Registry, tools []runtime.Tool, opts ...Option) (open func() (sessions, conns int)) {
	return addTools(server, reg, tools, opts).sessions.open
}
