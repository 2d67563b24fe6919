package disclosure

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/internal/jsonpointer"
)

// Parameter is one top-level argument of a tool, read from its input schema: what a model
// needs to write the argument without seeing the schema itself.
type Parameter struct {
	Name string `json:"name"`
	// Types lists the JSON types the value may take ("string", "integer", "null", …), after
	// following $ref and anyOf/oneOf; empty means any JSON value.
	Types []string `json:"types,omitempty"`
	// Type renders Types for a reader: "integer or null", "array of string",
	// "string (date-time)", "any".
	Type        string `json:"type"`
	Required    bool   `json:"required"`
	Description string `json:"description,omitempty"`
	// Default is the JSON of the schema's default, or nil.
	Default json.RawMessage `json:"default,omitempty"`
	// Enum lists the allowed values as JSON, or nil when any value of the types is allowed.
	Enum []json.RawMessage `json:"enum,omitempty"`
	// Structured reports a value with inner structure (an object, or an array of arrays or
	// objects): writing it needs the parameter's schema, not just its type.
	Structured bool `json:"structured,omitempty"`
	// Schema is the parameter's schema as the tool declares it.
	Schema json.RawMessage `json:"schema"`
}

// maxDepth bounds how many $ref, anyOf and items levels the reader follows, so a recursive
// schema ("$ref": "#") cannot send it round forever.
const maxDepth = 16

// Parameters lists the top-level parameters of a JSON Schema (2020-12, as toolgen writes input
// schemas) in the order of its "properties". An empty schema has no parameters. It fails only
// when the schema is not a JSON object or its parts have the wrong JSON types.
func Parameters(schema json.RawMessage) ([]Parameter, error) {
	if len(bytes.TrimSpace(schema)) == 0 {
		return nil, nil
	}
	r, err := newSchemaReader(schema)
	if err != nil {
		return nil, err
	}
	root := r.root
	var required []string
	if raw, ok := root["required"]; ok {
		if err := json.Unmarshal(raw, &required); err != nil {
			return nil, fmt.Errorf("disclosure: input schema: required: %w", err)
		}
	}
	names, props, err := orderedObject(root["properties"])
	if err != nil {
		return nil, fmt.Errorf("disclosure: input schema: properties: %w", err)
	}
	out := make([]Parameter, 0, len(names))
	for _, name := range names {
		raw := props[name]
		p := Parameter{
			Name:     name,
			Required: slices.Contains(required, name),
			Schema:   compact(raw),
		}
		p.Types = r.types(raw, 0)
		p.Type = r.typeName(raw, 0)
		p.Structured = r.structured(raw, 0)
		p.Description = r.description(raw, 0)
		p.Default = r.keyword(raw, "default", 0)
		p.Enum = r.enum(raw, 0)
		out = append(out, p)
	}
	return out, nil
}

// schemaReader answers questions about the subschemas of one root schema, resolving local
// $refs against it.
type schemaReader struct {
	root map[string]json.RawMessage
	raw  json.RawMessage
	defs map[string]json.RawMessage
}

func newSchemaReader(schema json.RawMessage) (*schemaReader, error) {
	r := &schemaReader{raw: schema}
	if err := json.Unmarshal(schema, &r.root); err != nil || r.root == nil {
		return nil, fmt.Errorf("disclosure: input schema is not a JSON object")
	}
	if raw, ok := r.root["$defs"]; ok {
		if err := json.Unmarshal(raw, &r.defs); err != nil {
			return nil, fmt.Errorf("disclosure: input schema: $defs: %w", err)
		}
	}
	return r, nil
}

// object decodes a subschema; a boolean schema or anything malformed reads as no keywords.
func object(raw json.RawMessage) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m
}

// resolve returns the schema a local $ref points to: "#" or "#/$defs/NAME".
func (r *schemaReader) resolve(s map[string]json.RawMessage) (json.RawMessage, bool) {
	var ref string
	if json.Unmarshal(s["$ref"], &ref) != nil {
		return nil, false
	}
	if ref == "#" {
		return r.raw, true
	}
	name, ok := jsonpointer.DefName(ref)
	if !ok {
		return nil, false
	}
	def, ok := r.defs[name]
	return def, ok
}

// branches returns the subschemas of anyOf or oneOf.
func branches(s map[string]json.RawMessage) []json.RawMessage {
	for _, key := range []string{"anyOf", "oneOf"} {
		var list []json.RawMessage
		if json.Unmarshal(s[key], &list) == nil && len(list) > 0 {
			return list
		}
	}
	return nil
}

// types lists the JSON types a subschema accepts, nil for any.
func (r *schemaReader) types(raw json.RawMessage, depth int) []string {
	s := object(raw)
	if s == nil || depth > maxDepth {
		return nil
	}
	if t, ok := s["type"]; ok {
		var one string
		if json.Unmarshal(t, &one) == nil {
			return []string{one}
		}
		var many []string
		if json.Unmarshal(t, &many) == nil {
			return many
		}
		return nil
	}
	if target, ok := r.resolve(s); ok {
		return r.types(target, depth+1)
	}
	if list := branches(s); list != nil {
		var out []string
		for _, b := range list {
			bt := r.types(b, depth+1)
			if bt == nil {
				return nil // one branch accepts anything, so the union does
			}
			for _, t := range bt {
				if !slices.Contains(out, t) {
					out = append(out, t)
				}
			}
		}
		return out
	}
	var values []json.RawMessage
	if c, ok := s["const"]; ok {
		values = []json.RawMessage{c}
	} else if json.Unmarshal(s["enum"], &values) != nil {
		return nil
	}
	var out []string
	for _, v := range values {
		if t := jsonType(v); t != "" && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// jsonType names the JSON type of a value; whole numbers count as integers.
func jsonType(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return ""
	}
	switch v[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	if bytes.ContainsAny(v, ".eE") {
		return "number"
	}
	return "integer"
}

// items returns the item schema of an array subschema, following $ref and anyOf branches to
// the first array.
func (r *schemaReader) items(raw json.RawMessage, depth int) json.RawMessage {
	s := object(raw)
	if s == nil || depth > maxDepth {
		return nil
	}
	if it, ok := s["items"]; ok {
		return it
	}
	if target, ok := r.resolve(s); ok {
		return r.items(target, depth+1)
	}
	for _, b := range branches(s) {
		if it := r.items(b, depth+1); it != nil {
			return it
		}
	}
	return nil
}

// typeName renders the types of a subschema for a reader: "array of string or null".
func (r *schemaReader) typeName(raw json.RawMessage, depth int) string {
	ts := r.types(raw, depth)
	if len(ts) == 0 {
		return "any"
	}
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t
		if t == "string" {
			// The format is the part of a string's type a model most needs: "2024-05-01" is a
			// date, "May 1st" is not.
			var format string
			if json.Unmarshal(r.keyword(raw, "format", depth), &format) == nil && format != "" {
				parts[i] = "string (" + format + ")"
			}
		}
		if t == "array" && depth < 4 {
			if it := r.items(raw, depth); it != nil {
				parts[i] = "array of " + r.typeName(it, depth+1)
			}
		}
	}
	return strings.Join(parts, " or ")
}

// structured reports whether a value of the subschema has inner structure.
func (r *schemaReader) structured(raw json.RawMessage, depth int) bool {
	ts := r.types(raw, depth)
	if slices.Contains(ts, "object") {
		return true
	}
	if slices.Contains(ts, "array") {
		it := r.items(raw, depth)
		its := r.types(it, depth+1)
		return slices.Contains(its, "object") || slices.Contains(its, "array")
	}
	return false
}

// keyword returns the compact JSON of a keyword of the subschema, or of the schema its $ref
// points to.
func (r *schemaReader) keyword(raw json.RawMessage, key string, depth int) json.RawMessage {
	s := object(raw)
	if s == nil || depth > maxDepth {
		return nil
	}
	if v, ok := s[key]; ok {
		return compact(v)
	}
	if target, ok := r.resolve(s); ok {
		return r.keyword(target, key, depth+1)
	}
	return nil
}

// description returns the subschema's description, else that of what its $ref points to.
func (r *schemaReader) description(raw json.RawMessage, depth int) string {
	var d string
	if v := r.keyword(raw, "description", depth); v != nil {
		_ = json.Unmarshal(v, &d)
	}
	return d
}

// enum returns the allowed values of the subschema: its enum or const, or those of its $ref
// or of its anyOf branches when every branch is an enum, const or null.
func (r *schemaReader) enum(raw json.RawMessage, depth int) []json.RawMessage {
	s := object(raw)
	if s == nil || depth > maxDepth {
		return nil
	}
	var values []json.RawMessage
	if json.Unmarshal(s["enum"], &values) == nil && values != nil {
		for i := range values {
			values[i] = compact(values[i])
		}
		return values
	}
	if c, ok := s["const"]; ok {
		return []json.RawMessage{compact(c)}
	}
	if target, ok := r.resolve(s); ok {
		return r.enum(target, depth+1)
	}
	list := branches(s)
	if list == nil {
		return nil
	}
	var out []json.RawMessage
	for _, b := range list {
		vs := r.enum(b, depth+1)
		if vs == nil {
			if ts := r.types(b, depth+1); len(ts) == 1 && ts[0] == "null" {
				vs = []json.RawMessage{json.RawMessage("null")}
			} else {
				return nil
			}
		}
		out = append(out, vs...)
	}
	return out
}

// orderedObject decodes a JSON object keeping the order of its keys, which carries meaning in
// a schema's properties (the order the author wrote them, and the order models fill them).
func orderedObject(raw json.RawMessage) ([]string, map[string]json.RawMessage, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, err
	}
	if tok != json.Delim('{') {
		return nil, nil, fmt.Errorf("not a JSON object")
	}
	var names []string
	values := make(map[string]json.RawMessage)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		name, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		if _, dup := values[name]; !dup {
			names = append(names, name)
		}
		values[name] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, err
	}
	return names, values, nil
}

// compact returns raw without insignificant white space; invalid JSON is returned as is.
func compact(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}
