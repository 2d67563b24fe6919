package repair

import (
	"encoding/json"
	"slices"
	"strconv"
	"sync"

	"github.com/toolgen-go/toolgen/internal/jsonpointer"
)

// schema is a node of a tool's input schema with its document, for following $ref.
type schema struct {
	root any
	node map[string]any
}

// schemas caches parsed input schemas: they are fixed when the code is generated.
var schemas sync.Map // string → any

func rootSchema(raw json.RawMessage) (schema, bool) {
	key := string(raw)
	root, ok := schemas.Load(key)
	if !ok {
		var doc any
		if json.Unmarshal(raw, &doc) != nil {
			return schema{}, false
		}
		root, _ = schemas.LoadOrStore(key, doc)
	}
	m, ok := root.(map[string]any)
	if !ok {
		return schema{}, false
	}
	return schema{root: root, node: m}.resolve(), true
}

// resolve follows $ref (a bounded number of times: a cycle of references leads nowhere).
func (s schema) resolve() schema {
	for range 32 {
		ref, ok := s.node["$ref"].(string)
		if !ok {
			return s
		}
		ptr, ok := jsonpointer.RefPointer(ref)
		if !ok {
			return schema{root: s.root}
		}
		var at any = s.root
		for _, tok := range jsonpointer.Tokens(ptr) {
			m, ok := at.(map[string]any)
			if !ok {
				return schema{root: s.root}
			}
			at = m[tok]
		}
		m, ok := at.(map[string]any)
		if !ok {
			return schema{root: s.root}
		}
		s.node = m
	}
	return schema{root: s.root}
}

func (s schema) sub(v any) schema {
	m, _ := v.(map[string]any)
	return schema{root: s.root, node: m}.resolve()
}

// branches returns the alternatives of an anyOf or oneOf, or s alone.
func (s schema) branches() []schema {
	for _, k := range []string{"anyOf", "oneOf"} {
		if list, ok := s.node[k].([]any); ok {
			out := make([]schema, 0, len(list))
			for _, b := range list {
				out = append(out, s.sub(b))
			}
			return out
		}
	}
	return []schema{s}
}

// types returns the JSON types s allows, over its branches; nil means any value (no type
// keyword, or a schema this package cannot read), which is never repaired.
func (s schema) types() []string {
	var out []string
	for _, b := range s.branches() {
		switch t := b.node["type"].(type) {
		case string:
			out = append(out, t)
		case []any:
			for _, x := range t {
				if name, ok := x.(string); ok {
					out = append(out, name)
				}
			}
		default:
			return nil
		}
	}
	return out
}

func (s schema) allows(t string) bool {
	ts := s.types()
	return slices.Contains(ts, t) || t == "integer" && slices.Contains(ts, "number")
}

// only returns the single branch of s of type t; ok is false when none or several allow it,
// since the value could then be meant for either.
func (s schema) only(t string) (schema, bool) {
	var found schema
	n := 0
	for _, b := range s.branches() {
		if b.allows(t) {
			found = b
			n++
		}
	}
	return found, n == 1
}

// property returns the schema of the object member key, ok false when the object does not
// define it; declared is false for a member of a map (additionalProperties).
func (s schema) property(key string) (sub schema, declared, ok bool) {
	if props, ok := s.node["properties"].(map[string]any); ok {
		if p, ok := props[key]; ok {
			return s.sub(p), true, true
		}
	}
	if ap, ok := s.node["additionalProperties"].(map[string]any); ok {
		return s.sub(ap), false, true
	}
	return schema{}, false, false
}

func (s schema) required(key string) bool {
	list, _ := s.node["required"].([]any)
	return slices.Contains(list, any(key))
}

// item returns the schema of array item i.
func (s schema) item(i int) (schema, bool) {
	if prefix, ok := s.node["prefixItems"].([]any); ok && i < len(prefix) {
		return s.sub(prefix[i]), true
	}
	if items, ok := s.node["items"].(map[string]any); ok {
		return s.sub(items), true
	}
	return schema{}, false
}

// at returns the schema of the value at a JSON Pointer of the arguments, following objects
// and arrays; ok is false where the schema does not say.
func (s schema) at(pointer string) (schema, bool) {
	for _, tok := range jsonpointer.Tokens(pointer) {
		if obj, ok := s.only("object"); ok {
			if s, _, ok = obj.property(tok); ok {
				continue
			}
		}
		arr, ok := s.only("array")
		i, err := strconv.Atoi(tok)
		if !ok || err != nil {
			return schema{}, false
		}
		if s, ok = arr.item(i); !ok {
			return schema{}, false
		}
	}
	return s, s.node != nil
}
