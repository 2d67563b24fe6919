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

// FromHints returns the annotations of a tool with hints h. destructiveHint is always sent,
// false unless the tool's directives say destructive: a toolgen tool states its hints, and
// one that needs approval asks for it itself (//tool:confirm), so a client or a mounting
// host that read an absent hint as MCP's default (destructive) would ask the user a second
// time. readOnlyHint and idempotentHint are always present too, false when unset, as the
// SDK's mcp.ToolAnnotations always encodes them. An unset openWorldHint is left out, so the
// client assumes MCP's cautious default (open world). The title travels in the tool
// definition, not here.
func FromHints(h runtime.Hints) *Annotations {
	a := &Annotations{ReadOnlyHint: h.ReadOnly, IdempotentHint: h.Idempotent, DestructiveHint: &h.Destructive}
	if h.OpenWorld {
		a.OpenWorldHint = &h.OpenWorld
	}
	return a
}

// JSON returns the annotations of a tool with hints h as they appear in its tools/list entry.
func JSON(h runtime.Hints) []byte {
	data, _ := json.Marshal(FromHints(h)) // strings and bools always encode
	return data
}
