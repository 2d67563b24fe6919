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
// which then sends none and leaves the client to MCP's defaults. A tool sends only the hints
// its directives set: an unset destructiveHint or openWorldHint is left out, so the client
// assumes MCP's cautious defaults (true) rather than being told the tool is harmless or
// closed. readOnlyHint and idempotentHint are always present, false when unset, because the
// SDK's mcp.ToolAnnotations always encodes them; false is their MCP default, so the client
// reads the same as if they were absent. The title travels in the tool definition, not here.
func FromHints(h runtime.Hints) *Annotations {
	if h == (runtime.Hints{}) {
		return nil
	}
	a := &Annotations{ReadOnlyHint: h.ReadOnly, IdempotentHint: h.Idempotent}
	if h.Destructive {
		a.DestructiveHint = &h.Destructive
	}
	if h.OpenWorld {
		a.OpenWorldHint = &h.OpenWorld
	}
	return a
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
