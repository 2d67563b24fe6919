// Package mcptool builds the MCP tool annotations toolgen derives from a tool's hints, without
// the MCP SDK: runtime/mcp sends them and toolgen -explain shows them, both from here, so what
// -explain shows is what a client receives.
package mcptool

import (
	"encoding/json"

	"github.com/toolgen-go/toolgen/runtime"
)

// Annotations are MCP tool annotations with the fields, JSON names and omissions of the MCP Go
// SDK's mcp.ToolAnnotations, which runtime/mcp fills from them.
type Annotations struct {
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  bool   `json:"idempotentHint"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
	ReadOnlyHint    bool   `json:"readOnlyHint"`
	Title           string `json:"title,omitempty"`
}

// FromHints returns the annotations of a tool with hints h, or nil for a tool without hints,
// which then sends none and leaves the client to MCP's defaults. A tool with any hint sends
// all four, the false ones too: MCP's defaults for destructiveHint and openWorldHint are true,
// which a tool that states its hints does not mean. The title travels in the tool definition,
// not here.
func FromHints(h runtime.Hints) *Annotations {
	if h == (runtime.Hints{}) {
		return nil
	}
	return &Annotations{
		ReadOnlyHint:    h.ReadOnly,
		IdempotentHint:  h.Idempotent,
		DestructiveHint: &h.Destructive,
		OpenWorldHint:   &h.OpenWorld,
	}
}

// JSON returns the annotations of a tool with hints h as they appear in its tools/list entry,
// or nil when it has none.
func JSON(h runtime.Hints) []byte {
	a := FromHints(h)
	if a == nil {
		return nil
	}
	data, _ := json.Marshal(a) // strings and bools always encode
	return data
}
