package check

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/gen/diag"
	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/gen/schema"
)

// checkHeaders checks the fields of t tagged header=NAME (routable headers, the input schema's
// x-mcp-header): each is a top-level argument, no two share a name (header names ignore
// case), and the go-sdk reads every one from the emitted schema as it is written. The field's
// own type and the name's syntax were checked by the parser. nested records the nested fields
// already reported, which tools share.
func checkHeaders(t *model.Tool, nested map[*model.Field]bool, diags *diag.List) {
	fields := args(t)
	var headed []*model.Field
	first := map[string]*model.Field{}
	for _, f := range fields {
		if f.Header == "" {
			continue
		}
		headed = append(headed, f)
		key := strings.ToLower(f.Header)
		if g := first[key]; g != nil {
			diags.Errorf(f.HeaderPos, "header %s of field %s repeats the header of field %s", f.Header, f.GoName, g.GoName).
				WithHint("%s already mirrors %s into Mcp-Param-%s; header names ignore case, so give each field its own", g.HeaderPos, g.GoName, g.Header)
			continue
		}
		first[key] = f
	}
	seen := map[*model.Type]bool{}
	for _, f := range fields {
		reportNestedHeaders(f.Type, seen, nested, diags)
	}
	if len(headed) > 0 {
		checkHeaderSchema(t, headed, diags)
	}
}

// args returns the top-level fields of t's arguments: the properties of its input schema.
func args(t *model.Tool) []*model.Field {
	a := t.Args
	for a != nil && a.Kind == model.KindPointer {
		a = a.Elem
	}
	if a == nil || a.Kind != model.KindStruct {
		return nil
	}
	return a.Fields
}

// reportNestedHeaders reports the header fields inside t (below the top level of a tool's
// arguments): the schema of a nested struct may be a $defs entry, where clients and the go-sdk
// look for no x-mcp-header.
func reportNestedHeaders(t *model.Type, seen map[*model.Type]bool, reported map[*model.Field]bool, diags *diag.List) {
	for t != nil && !seen[t] {
		seen[t] = true
		switch t.Kind {
		case model.KindPointer, model.KindSlice, model.KindArray, model.KindMap:
			t = t.Elem
			continue
		case model.KindStruct:
			for _, f := range t.Fields {
				if f.Header != "" && !reported[f] {
					reported[f] = true
					diags.Errorf(f.HeaderPos, "header %s of field %s: only a top-level argument is mirrored into a header", f.Header, f.GoName).
						WithHint("move the field into the tool's arguments struct")
				}
				reportNestedHeaders(f.Type, seen, reported, diags)
			}
		}
		return
	}
}

// sdkProperty is what the go-sdk (v1.8.0, streamable_headers.go) reads of an input schema to
// find x-mcp-header annotations: when "type" anywhere under properties is not one string, it
// reads none of the tool's.
type sdkProperty struct {
	Type       string                 `json:"type"`
	XMCPHeader json.RawMessage        `json:"x-mcp-header,omitempty"`
	Properties map[string]sdkProperty `json:"properties,omitempty"`
}

// checkHeaderSchema reads the emitted input schema of t as the go-sdk does and reports a
// header field the SDK would not mirror or check, or would refuse (AddTool panics on an
// x-mcp-header whose property is not a string, integer or boolean).
func checkHeaderSchema(t *model.Tool, headed []*model.Field, diags *diag.List) {
	doc := schema.Input(t)
	var root sdkProperty
	if err := json.Unmarshal(doc, &root); err != nil {
		prop := severalTypes(doc)
		field := "that field"
		for _, f := range args(t) {
			if f.JSONName == prop {
				field = "field " + f.GoName
			}
		}
		diags.Errorf(headed[0].HeaderPos, "header %s of field %s would be ignored: property %s of the tool's input schema has several types, and the go-sdk then reads no x-mcp-header of the tool", headed[0].Header, headed[0].GoName, prop).
			WithHint("make %s a plain type (omitempty keeps it optional) rather than a pointer or nullable", field)
		return
	}
	for _, f := range headed {
		p, ok := root.Properties[f.JSONName]
		if !ok {
			continue
		}
		if !slices.Contains([]string{"string", "integer", "boolean"}, p.Type) {
			diags.Errorf(f.HeaderPos, "header %s of field %s: its property's schema has no single type string, integer or boolean, which x-mcp-header needs", f.Header, f.GoName).
				WithHint("a type whose schema goes under $defs is written as a $ref; use a plain string, integer or boolean field")
		}
	}
}

// severalTypes names the first property under properties (a dotted path) whose "type" is not
// one string, or "?" when none is found.
func severalTypes(doc []byte) string {
	var walk func(props map[string]json.RawMessage, prefix string) string
	walk = func(props map[string]json.RawMessage, prefix string) string {
		names := make([]string, 0, len(props))
		for name := range props {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			var p struct {
				Type       json.RawMessage            `json:"type"`
				Properties map[string]json.RawMessage `json:"properties"`
			}
			if json.Unmarshal(props[name], &p) != nil {
				continue
			}
			var s string
			if len(p.Type) > 0 && json.Unmarshal(p.Type, &s) != nil {
				return prefix + name
			}
			if found := walk(p.Properties, prefix+name+"."); found != "" {
				return found
			}
		}
		return ""
	}
	var root struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(doc, &root) == nil {
		if p := walk(root.Properties, ""); p != "" {
			return p
		}
	}
	return "?"
}
