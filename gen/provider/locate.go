package provider

import (
	"strings"

	"github.com/toolgen-go/toolgen/gen/model"
)

// Locate maps a JSON Pointer into a tool's canonical input schema to the source position a
// diagnostic about it should carry: the struct field of the deepest property the pointer
// names, the declaration of a $defs type, else the tool itself. The pointer is followed
// through the model, not the schema, so it works however the schema inlined or referred to
// the type: "properties/NAME" picks a field by JSON name, "items" and "additionalProperties"
// step into an element, "anyOf/N" and "allOf/N" stay on the same type, and "$defs/NAME" picks
// the named type whose $defs name NAME is.
func Locate(t *model.Tool, pointer string) model.Position {
	if t == nil {
		return model.Position{}
	}
	pos := t.Pos
	typ := t.Args
	if pointer == "" || typ == nil {
		return pos
	}
	tokens := strings.Split(strings.TrimPrefix(pointer, "/"), "/")
	for i := 0; i < len(tokens); i++ {
		typ = deref(typ)
		if typ == nil {
			return pos
		}
		switch tokens[i] {
		case "properties":
			if i+1 >= len(tokens) {
				return pos
			}
			i++
			f := fieldNamed(typ, unescapeToken(tokens[i]))
			if f == nil {
				return pos
			}
			if f.Pos.IsValid() {
				pos = f.Pos
			}
			typ = f.Type
		case "items", "additionalProperties":
			typ = typ.Elem
		case "anyOf", "allOf", "oneOf":
			i++ // the branch index: same Go type
		case "$defs":
			if i+1 >= len(tokens) {
				return pos
			}
			i++
			typ = namedType(t.Args, unescapeToken(tokens[i]))
			if typ != nil && typ.Pos.IsValid() {
				pos = typ.Pos
			}
		default:
			// A keyword ("minLength"): the position of the node that holds it.
			return pos
		}
	}
	return pos
}

func deref(t *model.Type) *model.Type {
	for i := 0; t != nil && t.Kind == model.KindPointer && i < 16; i++ {
		t = t.Elem
	}
	return t
}

func fieldNamed(t *model.Type, name string) *model.Field {
	if t.Kind != model.KindStruct {
		return nil
	}
	for _, f := range t.Fields {
		if f != nil && f.JSONName == name {
			return f
		}
	}
	return nil
}

// namedType finds the type reachable from root whose $defs name is name. gen/schema names a
// definition after the Go type, qualified by package ("units.Unit", "example.com.a.units.Unit")
// when names clash, with type arguments appended for generics ("PageItem"): an exact or
// qualified match wins over a generic prefix match, the longest prefix over shorter ones.
func namedType(root *model.Type, name string) *model.Type {
	var best *model.Type
	bestScore := 0
	seen := map[*model.Type]bool{}
	var walk func(t *model.Type)
	walk = func(t *model.Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		if t.Named != nil {
			n := t.Named.Name
			score := 0
			switch {
			case name == n || strings.HasSuffix(name, "."+n):
				score = 1000 + len(n)
			case len(t.Named.TypeArgs) > 0 && strings.HasPrefix(name, n):
				score = len(n)
			}
			if score > bestScore {
				best, bestScore = t, score
			}
		}
		walk(t.Elem)
		walk(t.Key)
		for _, f := range t.Fields {
			if f != nil {
				walk(f.Type)
			}
		}
	}
	walk(root)
	return best
}

func unescapeToken(s string) string {
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
}
