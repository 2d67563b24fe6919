package emit

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/gen/model"
)

// The encoder emitted for a structured result writes exactly what the output schema
// describes, with encoding/json's conventions for names, omitempty, omitzero, nil slices and
// maps (null) and map key order, but toolgen's for time.Duration ("1h30m"). Inside generated
// functions w is the *encode.Writer.

// encodeValue renders the encoding of the value expression v of type t. v is evaluated once
// per use, so callers pass a variable, an index or a field selector, never a call. Generated
// encoders only ever see addressable values (locals, fields through pointers, slice items),
// so named structs are passed to their encoder by pointer without a copy.
func (g *generator) encodeValue(t *model.Type, v jen.Code) ([]jen.Code, error) {
	return g.encodeValueOf(t, v, false)
}

// encodeValueOf is encodeValue; nonNil tells that the caller has checked that v is not nil (a
// field behind its omitempty or omitzero guard), so no null branch is written for it.
func (g *generator) encodeValueOf(t *model.Type, v jen.Code, nonNil bool) ([]jen.Code, error) {
	// asIs converts v to the writer's parameter type unless it already has it.
	asIs := func(kind model.Kind, bits int, typ *jen.Statement) jen.Code {
		if t.Named == nil && t.Kind == kind && t.Bits == bits {
			return v
		}
		return typ.Call(v)
	}
	w := func(method string, args ...jen.Code) jen.Code { return jen.Id("w").Dot(method).Call(args...) }
	ifNil := func(body ...jen.Code) []jen.Code {
		if nonNil {
			return body
		}
		return []jen.Code{jen.If(jen.Add(v).Op("==").Nil()).Block(w("Null")).Else().Block(body...)}
	}
	switch t.Kind {
	case model.KindPointer:
		if nonNil {
			if t.Elem.Kind == model.KindStruct && t.Elem.Named != nil {
				name, err := g.structEncoder(t.Elem)
				if err != nil {
					return nil, err
				}
				return []jen.Code{jen.Id(name).Call(jen.Id("w"), v)}, nil
			}
			return g.encodeValue(t.Elem, jen.Parens(jen.Op("*").Add(v)))
		}
		n := g.local()
		if t.Elem.Kind == model.KindStruct && t.Elem.Named != nil {
			// The struct's encoder takes the pointer itself.
			name, err := g.structEncoder(t.Elem)
			if err != nil {
				return nil, err
			}
			return []jen.Code{jen.If(jen.Id("p"+n).Op(":=").Add(v), jen.Id("p"+n).Op("==").Nil()).Block(w("Null")).Else().Block(
				jen.Id(name).Call(jen.Id("w"), jen.Id("p"+n)))}, nil
		}
		inner, err := g.encodeValue(t.Elem, jen.Parens(jen.Op("*").Id("p"+n)))
		if err != nil {
			return nil, err
		}
		return []jen.Code{jen.If(jen.Id("p"+n).Op(":=").Add(v), jen.Id("p"+n).Op("==").Nil()).Block(w("Null")).Else().Block(inner...)}, nil
	case model.KindString:
		return []jen.Code{w("String", asIs(model.KindString, 0, jen.String()))}, nil
	case model.KindBool:
		return []jen.Code{w("Bool", asIs(model.KindBool, 0, jen.Bool()))}, nil
	case model.KindInt:
		return []jen.Code{w("Int", asIs(model.KindInt, 64, jen.Int64()))}, nil
	case model.KindUint:
		return []jen.Code{w("Uint", asIs(model.KindUint, 64, jen.Uint64()))}, nil
	case model.KindFloat:
		return []jen.Code{w("Float", asIs(model.KindFloat, 64, jen.Float64()), jen.Lit(t.Bits))}, nil
	case model.KindBytes:
		return ifNil(w("Bytes64", v)), nil
	case model.KindTime:
		return []jen.Code{w("Time", v)}, nil
	case model.KindDuration:
		return []jen.Code{w("Duration", v)}, nil
	case model.KindRawJSON:
		return []jen.Code{w("Raw", v)}, nil
	case model.KindAny:
		return []jen.Code{w("Any", v)}, nil
	case model.KindText:
		if !t.TextMarshal {
			// Only unmarshalling is customised: write it as encoding/json would.
			return []jen.Code{w("Any", v)}, nil
		}
		n := g.local()
		return []jen.Code{jen.Id("x" + n).Op(":=").Add(v), w("Text", jen.Op("&").Id("x"+n))}, nil
	case model.KindStruct:
		if t.Named != nil {
			name, err := g.structEncoder(t)
			if err != nil {
				return nil, err
			}
			return []jen.Code{jen.Id(name).Call(jen.Id("w"), jen.Op("&").Add(v))}, nil
		}
		return g.encodeObject(t, v)
	case model.KindSlice, model.KindArray:
		n := g.local()
		elem, err := g.encodeValue(t.Elem, jen.Add(v).Index(jen.Id("i"+n)))
		if err != nil {
			return nil, err
		}
		loop := []jen.Code{
			w("ArrStart"),
			jen.For(jen.Id("i" + n).Op(":=").Range().Add(v)).Block(elem...),
			w("ArrEnd"),
		}
		if t.Kind == model.KindArray {
			return loop, nil
		}
		return ifNil(loop...), nil
	case model.KindMap:
		n := g.local()
		k, e := "k"+n, "e"+n
		elem, err := g.encodeValue(t.Elem, jen.Id(e))
		if err != nil {
			return nil, err
		}
		var loop jen.Code
		switch t.Key.Kind {
		case model.KindString:
			body := append([]jen.Code{w("Field", jen.String().Call(jen.Id(k))), jen.Id(e).Op(":=").Add(v).Index(jen.Id(k))}, elem...)
			loop = jen.For(jen.List(jen.Id("_"), jen.Id(k)).Op(":=").Range().Qual(toolimplPath, "SortedStringKeys").Call(v)).Block(body...)
		default:
			sorted := map[model.Kind]string{model.KindInt: "SortedIntKeys", model.KindUint: "SortedUintKeys", model.KindText: "SortedTextKeys"}[t.Key.Kind]
			args := []jen.Code{v}
			if t.Key.Kind == model.KindText {
				args = []jen.Code{jen.Id("w"), v}
			}
			body := append([]jen.Code{w("Field", jen.Id(k).Dot("Name")), jen.Id(e).Op(":=").Add(v).Index(jen.Id(k).Dot("Key"))}, elem...)
			loop = jen.For(jen.List(jen.Id("_"), jen.Id(k)).Op(":=").Range().Qual(toolimplPath, sorted).Call(args...)).Block(body...)
		}
		return ifNil(w("ObjStart"), loop, w("ObjEnd")), nil
	}
	return nil, fmt.Errorf("internal error: no encoder for %s", t.Kind)
}

// structEncoder returns the name of the encode function of a named struct type, queueing its
// emission the first time.
func (g *generator) structEncoder(t *model.Type) (string, error) {
	name := "toolgenEncode" + g.typeIdent(t)
	if g.encoders[name] {
		return name, nil
	}
	g.encoders[name] = true
	typ, err := g.typeExpr(t)
	if err != nil {
		return "", err
	}
	g.pending = append(g.pending, func() error {
		body, err := g.encodeObject(t, jen.Id("v"))
		if err != nil {
			return err
		}
		code := jen.Commentf("%s writes v as the output schema of %s describes it.", name, typeLabel(t)).Line().
			Func().Id(name).Params(jen.Id("w").Op("*").Qual(toolimplPath, "Writer"), jen.Id("v").Op("*").Add(typ)).Block(body...)
		g.encodeDecls = append(g.encodeDecls, decl{name: name, code: code})
		return nil
	})
	return name, nil
}

// encodeObject writes the fields of a struct value v, honouring omitempty and omitzero, and
// leaving out promoted fields behind a nil embedded pointer as encoding/json does.
func (g *generator) encodeObject(t *model.Type, v jen.Code) ([]jen.Code, error) {
	out := []jen.Code{jen.Id("w").Dot("ObjStart").Call()}
	for _, f := range t.Fields {
		access := jen.Add(v)
		var guards []jen.Code
		for _, e := range f.Embedded {
			access = access.Clone().Dot(e.GoName)
			if e.Pointer {
				guards = append(guards, access.Clone().Op("!=").Nil())
			}
		}
		field := access.Clone().Dot(f.GoName)
		omit, nonNil := g.omitCondition(f, field)
		value, err := g.encodeValueOf(f.Type, field, nonNil)
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", f.GoName, err)
		}
		write := append([]jen.Code{jen.Id("w").Dot("Key").Call(jen.Lit(memberKey(f.JSONName)))}, value...)
		if omit != nil {
			guards = append(guards, omit)
		}
		if len(guards) == 0 {
			out = append(out, write...)
			continue
		}
		cond := guards[0]
		for _, gc := range guards[1:] {
			cond = jen.Add(cond).Op("&&").Add(gc)
		}
		out = append(out, jen.If(cond).Block(write...))
	}
	return append(out, jen.Id("w").Dot("ObjEnd").Call()), nil
}

// omitCondition renders the condition under which an omitempty or omitzero field is written,
// or nil when it always is, as encoding/json decides: omitempty leaves out false, 0, "", nil
// pointers and interfaces, and empty slices, maps and arrays (never a struct); omitzero leaves
// out what IsZero() reports when the type has that method, and the zero value otherwise. With
// both, either leaves the field out. nonNil reports that the condition implies v != nil.
func (g *generator) omitCondition(f *model.Field, v *jen.Statement) (cond jen.Code, nonNil bool) {
	var conds []jen.Code
	if f.OmitEmpty {
		if c := emptyCondition(f.Type, v); c != nil {
			conds = append(conds, c)
		}
	}
	if f.OmitZero {
		c := g.zeroCondition(f.Type, v)
		switch {
		case len(conds) == 0:
			conds = append(conds, c)
		case fmt.Sprintf("%#v", c) == fmt.Sprintf("%#v", conds[0]):
			// The two agree (scalars without an IsZero method): written once.
		case f.Type.Kind == model.KindPointer:
			conds = []jen.Code{c} // v != nil && !v.IsZero() implies v != nil
		case !f.Type.IsZeroMethod && (f.Type.Kind == model.KindSlice || f.Type.Kind == model.KindMap ||
			f.Type.Kind == model.KindBytes || f.Type.Kind == model.KindRawJSON):
			// len(v) != 0 implies v != nil.
		default:
			conds = append(conds, c)
		}
	}
	if len(conds) == 0 {
		return nil, false
	}
	cond = conds[0]
	if len(conds) == 2 {
		cond = jen.Add(conds[0]).Op("&&").Add(conds[1])
	}
	switch f.Type.Kind {
	case model.KindPointer:
		nonNil = true // v != nil, alone or before && !v.IsZero()
	case model.KindSlice, model.KindMap, model.KindBytes:
		// len(v) != 0 and v != nil exclude nil; the IsZero method of a named slice or map
		// alone does not.
		nonNil = f.OmitEmpty || !f.Type.IsZeroMethod
	}
	return cond, nonNil
}

// emptyCondition renders `v is not empty` for omitempty, or nil when v never is.
func emptyCondition(t *model.Type, v *jen.Statement) jen.Code {
	switch t.Kind {
	case model.KindString:
		return jen.Add(v.Clone()).Op("!=").Lit("")
	case model.KindBool:
		return v.Clone()
	case model.KindInt, model.KindUint, model.KindFloat, model.KindDuration:
		return jen.Add(v.Clone()).Op("!=").Lit(0)
	case model.KindPointer, model.KindAny:
		return jen.Add(v.Clone()).Op("!=").Nil()
	case model.KindSlice, model.KindMap, model.KindBytes, model.KindRawJSON, model.KindArray:
		return jen.Len(v.Clone()).Op("!=").Lit(0)
	}
	return nil
}

// zeroCondition renders `v is not zero` for omitzero: !v.IsZero() when the type has the
// method, else a comparison with the zero value; reflection (encode.IsZero) only for a type
// that == cannot compare.
func (g *generator) zeroCondition(t *model.Type, v *jen.Statement) jen.Code {
	if t.IsZeroMethod || t.Kind == model.KindTime {
		return jen.Op("!").Add(v.Clone()).Dot("IsZero").Call()
	}
	switch t.Kind {
	case model.KindString, model.KindBool, model.KindInt, model.KindUint, model.KindFloat, model.KindDuration:
		return emptyCondition(t, v) // for scalars, zero and empty are the same
	case model.KindPointer:
		// encoding/json: a nil pointer, or one whose IsZero (of *T, so of T too) says so.
		if e := t.Elem; e.IsZeroMethod || e.Kind == model.KindTime {
			return jen.Add(v.Clone()).Op("!=").Nil().Op("&&").Op("!").Add(v.Clone()).Dot("IsZero").Call()
		}
		return jen.Add(v.Clone()).Op("!=").Nil()
	case model.KindAny, model.KindSlice, model.KindMap, model.KindBytes, model.KindRawJSON:
		return jen.Add(v.Clone()).Op("!=").Nil()
	}
	if !t.Comparable {
		return jen.Op("!").Qual(toolimplPath, "IsZero").Call(v.Clone())
	}
	// == with the zero value is what reflect.Value.IsZero computes for a comparable type. A
	// named struct or an array is spelled as a composite literal; other types (unnamed
	// structs, which cannot be spelled, and TextMarshalers of any shape) go through a generic
	// helper, which neither boxes nor reflects.
	if t.Kind == model.KindStruct && t.Named != nil || t.Kind == model.KindArray {
		if typ, err := g.typeExpr(t); err == nil {
			return jen.Add(v.Clone()).Op("!=").Parens(jen.Add(typ).Values())
		}
	}
	return jen.Op("!").Qual(toolimplPath, "IsZeroValue").Call(v.Clone())
}

// memberKey is an object member's name as the JSON text written before its value, quoted
// and escaped as runtime/encode escapes strings, with its colon: what Writer.Key takes, so
// that a result's names cost no escaping at run time.
func memberKey(name string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(name) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n") + ":"
}

// local returns a fresh suffix for the locals of generated encoding code, so that nested
// containers never shadow each other.
func (g *generator) local() string {
	g.locals++
	return strconv.Itoa(g.locals)
}
