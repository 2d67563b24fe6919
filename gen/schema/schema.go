package schema

import (
	"bytes"
	"encoding/json"

	"github.com/toolgen-go/toolgen/gen/model"
)

// Input returns the canonical input schema of a tool as compact, deterministic JSON: the
// object schema of its args struct, with "$schema" first. A tool without arguments gets the
// empty object schema {"type":"object","properties":{},"additionalProperties":false}.
func Input(t *model.Tool) []byte {
	if t == nil || t.Args == nil {
		n := emptyObject()
		n.schema = Draft
		var buf bytes.Buffer
		n.write(&buf)
		return buf.Bytes()
	}
	// The parser gives the struct itself even for func(ctx, args *T); a pointer here would
	// still describe the same object, and null arguments are never accepted.
	return document(throughPointers(t.Args), inputMode, false)
}

// InputDefs maps the name of each $defs entry of Input(t) to the named type it renders, so
// that a JSON Pointer into the schema ("/$defs/units.Unit") leads back to the Go declaration.
func InputDefs(t *model.Tool) map[string]*model.Type {
	if t == nil || t.Args == nil {
		return nil
	}
	_, defs := plan(throughPointers(t.Args))
	out := make(map[string]*model.Type, len(defs))
	for _, d := range defs {
		out[d.name] = d.typ
	}
	return out
}

// Output returns the schema of a tool's structured result (t.Result != nil), else nil. It
// describes what the generated encoder writes: see the package documentation for the rules.
func Output(t *model.Tool) []byte {
	if t == nil || t.Result == nil {
		return nil
	}
	root := throughPointers(t.Result)
	b := builder{mode: outputMode}
	// A *R result may be nil, and a slice or map result may be nil too: both are written null.
	null := root != t.Result || b.mayBeNull(root)
	return document(root, outputMode, null)
}

// Indent returns schema pretty-printed with two-space indentation and a final newline, as
// `toolgen -schemas DIR` writes it. Key order is kept. Bytes that are not JSON come back
// unchanged (plus the newline), so a caller never loses them.
func Indent(schema []byte) []byte {
	var buf bytes.Buffer
	if err := json.Indent(&buf, schema, "", "  "); err != nil {
		buf.Reset()
		buf.Write(bytes.TrimRight(schema, "\n"))
	}
	buf.WriteByte('\n')
	return buf.Bytes()
}

func throughPointers(t *model.Type) *model.Type {
	for i := 0; t != nil && t.Kind == model.KindPointer && t.Elem != nil && i < maxPointerDepth; i++ {
		t = t.Elem
	}
	return t
}
