package emit

import (
	"strings"

	"github.com/toolgen-go/toolgen/gen/model"
)

// What a handler is served as decides the generated function that returns it: Tools() for
// tools, Prompts() for //tool:prompt, Resources() for //tool:resource (runtime/mcp serves the
// last two with WithPrompts and WithResources).
var serveKinds = []model.ServeKind{model.ServeTool, model.ServePrompt, model.ServeResource}

// serveNoun names the generated function of a kind ("Tools", "Prompts", "Resources") and,
// with "toolgen" before it, its data.
func serveNoun(k model.ServeKind) string {
	switch k {
	case model.ServePrompt:
		return "Prompts"
	case model.ServeResource:
		return "Resources"
	}
	return "Tools"
}

// bindingsVar names the bindings of a kind's plain funcs; tools keep the name they always had.
func bindingsVar(k model.ServeKind) string {
	if k == model.ServeTool {
		return "toolgenBindings"
	}
	return "toolgen" + strings.TrimSuffix(serveNoun(k), "s") + "Bindings"
}

// servedAs returns the tools of one kind, in order.
func servedAs(tools []*model.Tool, k model.ServeKind) []*model.Tool {
	var out []*model.Tool
	for _, t := range tools {
		if t.Serve == k {
			out = append(out, t)
		}
	}
	return out
}

// Metadata keys of a resource; runtime/mcp's MetaURI and MetaMIMEType.
const (
	metaURI      = "mcp.uri"
	metaMIMEType = "mcp.mimeType"
)

// metadata returns a tool's //tool:meta pairs and, for a resource, its URI and MIME type.
func metadata(t *model.Tool) []model.Meta {
	meta := t.Meta
	if t.Serve == model.ServeResource {
		meta = append(meta[:len(meta):len(meta)], model.Meta{Key: metaURI, Value: t.ResourceURI})
		if t.ResourceMIME != "" {
			meta = append(meta, model.Meta{Key: metaMIMEType, Value: t.ResourceMIME})
		}
	}
	return meta
}
