package mcp

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/internal/mcptool"
	"github.com/toolgen-go/toolgen/runtime"
)

// emptyInput is the schema of a tool without arguments, as the spec recommends.
var emptyInput = json.RawMessage(`{"type":"object","additionalProperties":false}`)

// definition is a tool as tools/list lists it.
type definition struct {
	Name         string               `json:"name"`
	Title        string               `json:"title,omitempty"`
	Description  string               `json:"description,omitempty"`
	InputSchema  json.RawMessage      `json:"inputSchema"`
	OutputSchema json.RawMessage      `json:"outputSchema,omitempty"`
	Annotations  *mcp.ToolAnnotations `json:"annotations,omitempty"`
	Icons        []mcp.Icon           `json:"icons,omitempty"`
}

func define(t runtime.Tool) definition {
	d := definition{Name: t.Name, Title: t.Title, Description: t.ModelDescription(), InputSchema: t.InputSchema}
	if len(d.InputSchema) == 0 {
		d.InputSchema = emptyInput
	}
	if objectSchema(t.OutputSchema) {
		d.OutputSchema = t.OutputSchema
	}
	d.Icons = icons(t.Icons)
	a := mcptool.FromHints(t.Hints)
	d.Annotations = &mcp.ToolAnnotations{
		DestructiveHint: a.DestructiveHint,
		IdempotentHint:  a.IdempotentHint,
		OpenWorldHint:   a.OpenWorldHint,
		ReadOnlyHint:    a.ReadOnlyHint,
		Title:           a.Title,
	}
	return d
}

// icons returns a tool's icons as MCP lists them, for its tool, prompt or resource.
func icons(in []runtime.Icon) []mcp.Icon {
	var out []mcp.Icon
	for _, ic := range in {
		out = append(out, mcp.Icon{Source: ic.Src, MIMEType: ic.MIMEType, Sizes: ic.Sizes, Theme: mcp.IconTheme(ic.Theme)})
	}
	return out
}

// objectSchema reports whether a schema's root is an object: the only output schema MCP
// (2025-11-25) allows. Other results are sent as text only.
func objectSchema(schema json.RawMessage) bool {
	var root struct {
		Type any `json:"type"`
	}
	return len(schema) > 0 && json.Unmarshal(schema, &root) == nil && root.Type == "object"
}

// Tools returns tools as MCP tool definitions, for mcp.Server.AddTool or a tools/list result.
func Tools(tools []runtime.Tool) []*mcp.Tool {
	out := make([]*mcp.Tool, 0, len(tools))
	for _, t := range tools {
		d := define(t)
		mt := &mcp.Tool{Name: d.Name, Title: d.Title, Description: d.Description, InputSchema: d.InputSchema, Annotations: d.Annotations, Icons: d.Icons}
		if d.OutputSchema != nil {
			mt.OutputSchema = d.OutputSchema
		}
		out = append(out, mt)
	}
	return out
}

// ToolsJSON returns the "tools" array of a tools/list result.
func ToolsJSON(tools []runtime.Tool) ([]byte, error) {
	defs := make([]definition, len(tools))
	for i, t := range tools {
		defs[i] = define(t)
	}
	return json.Marshal(defs)
}

// CallFromParams returns the call a tools/call request makes. MCP has no call id; requestID,
// if the host has one (the JSON-RPC id), is used as Call.ID. Call.Run is what the request's
// _meta says of the run under MetaRun (RunFromMeta), when it is fit.
func CallFromParams(params *mcp.CallToolParamsRaw, requestID string) runtime.Call {
	if params == nil {
		return runtime.Call{ID: requestID}
	}
	return runtime.Call{ID: requestID, Name: params.Name, Args: params.Arguments, Run: RunFromMeta(params.Meta)}
}

// ParseCall returns the call of tools/call params given as wire JSON:
// {"name","arguments"?,"_meta"?}, with Call.Run as CallFromParams reads it.
func ParseCall(params []byte, requestID string) (runtime.Call, error) {
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Meta      map[string]any  `json:"_meta"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return runtime.Call{}, fmt.Errorf("mcp: parsing tools/call params: %w", err)
	}
	if p.Name == "" {
		return runtime.Call{}, errors.New("mcp: tools/call params have no tool name")
	}
	return runtime.Call{ID: requestID, Name: p.Name, Args: p.Arguments, Run: RunFromMeta(p.Meta)}, nil
}

// structured returns a result's structured JSON when it can be structuredContent: an object.
// Result.Structured is JSON (the runtime drops it when it cuts a result to its size cap), so
// its first non-space byte tells an object, without parsing the rest.
func structured(res runtime.Result) json.RawMessage {
	if res.IsError {
		return nil
	}
	for _, c := range res.Structured {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '{':
			return res.Structured
		}
		return nil
	}
	return nil
}

// Result returns res as a CallToolResult: the text as text content (none for an effect-only
// result, or for a result of parts alone), its parts natively (image, audio, resource_link,
// embedded resource), a structured object also as structuredContent, and isError on failure.
func Result(res runtime.Result) *mcp.CallToolResult {
	out := &mcp.CallToolResult{Content: []mcp.Content{}, IsError: res.IsError}
	if !res.EffectOnly() && (res.Text != "" || len(res.Parts) == 0) {
		out.Content = append(out.Content, &mcp.TextContent{Text: res.Text})
	}
	for _, p := range res.Parts {
		if c := content(p); c != nil {
			out.Content = append(out.Content, c)
		}
	}
	if s := structured(res); s != nil {
		out.StructuredContent = s
	}
	if denied, ok := errors.AsType[*runtime.DeniedError](res.Err); ok && res.Kind == runtime.KindDenied {
		out.Meta = mcp.Meta{MetaDenied: map[string]any{"by": denied.By, "reason": denied.Reason}}
	}
	return out
}

// MetaDenied is the _meta key of a result whose call was denied approval: its value is an
// object with who decided ("by") and why ("reason"), so that a client that mounts the server
// (runtime/mcp/mount) can tell the model of the denial under the name the model called.
const MetaDenied = "io.toolgen/denied"

// content returns a part as MCP content, or nil for a part of an unknown kind.
func content(p runtime.Part) mcp.Content {
	switch p.Kind {
	case runtime.PartImage:
		return &mcp.ImageContent{Data: p.Data, MIMEType: p.MIMEType}
	case runtime.PartAudio:
		return &mcp.AudioContent{Data: p.Data, MIMEType: p.MIMEType}
	case runtime.PartResourceLink:
		link := &mcp.ResourceLink{URI: p.URI, Name: p.Name, Title: p.Title, Description: p.Description, MIMEType: p.MIMEType}
		if link.Name == "" {
			link.Name = p.URI // required by the schema
		}
		if p.Size > 0 {
			size := p.Size
			link.Size = &size
		}
		return link
	case runtime.PartResource:
		rc := &mcp.ResourceContents{URI: p.URI, MIMEType: p.MIMEType, Text: p.Text}
		if p.Text == "" {
			rc.Blob = p.Data
		}
		return &mcp.EmbeddedResource{Resource: rc}
	}
	return nil
}

// ResultJSON returns Result as wire JSON:
// {"content":[{"type":"text","text"},…],"structuredContent"?,"isError"?}.
func ResultJSON(res runtime.Result) ([]byte, error) {
	return json.Marshal(Result(res))
}
