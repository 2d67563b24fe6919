package provider

import (
	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/gen/schema"
	"github.com/toolgen-go/toolgen/internal/jsonpointer"
)

// Locate maps a JSON Pointer into a tool's canonical input schema to the source position a
// diagnostic about it should carry: the struct field of the deepest property the pointer
// names, the declaration of a $defs type, else the tool itself. The pointer is followed
// through the model, not the schema, so it works however the schema inlined or referred to
// the type: "properties/NAME" picks a field by JSON name, "items" and "additionalProperties"
// step into an element, "anyOf/N" and "allOf/N" stay on the same type, and "$defs/NAME" picks
// the named type gen/schema named NAME.
func Locate(t *model.Tool, pointer string) model.Position {
	pos, _ := locate(t, pointer)
	return pos
}

// locate is Locate that also returns the last struct field the pointer passes through, or
// nil.
func locate(t *model.Tool, pointer string) (pos model.Position, field *model.Field) {
	if t == nil {
		return model.Position{}, nil
	}
	pos = t.Pos
	typ := t.Args
	if pointer == "" || typ == nil {
		return pos, field
	}
	tokens := jsonpointer.Tokens(pointer)
	for i := 0; i < len(tokens); i++ {
		typ = deref(typ)
		if typ == nil {
			return pos, field
		}
		switch tokens[i] {
		case "properties":
			if i+1 >= len(tokens) {
				return pos, field
			}
			i++
			f := fieldNamed(typ, tokens[i])
			if f == nil {
				return pos, field
			}
			if f.Pos.IsValid() {
				pos = f.Pos
			}
			field = f
			typ = f.Type
		case "items", "additionalProperties":
			typ = typ.Elem
		case "anyOf", "allOf", "oneOf":
			i++ // the branch index: same Go type
		case "$defs":
			if i+1 >= len(tokens) {
				return pos, field
			}
			i++
			typ = schema.InputDefs(t)[tokens[i]]
			if typ != nil && typ.Pos.IsValid() {
				pos = typ.Pos
			}
		default:
			// A keyword ("minLength"): the position of the node that holds it.
			return pos, field
		}
	}
	return pos, field
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
