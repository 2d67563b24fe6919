package emit

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/gen/emit/pattern"
	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/runtime/decode"
)

// This file renders decoding as inline code, the way every decoder was written before the
// decoders became calls of runtime/decode helpers (decoder.go). It remains for what the helpers
// cannot take: anonymous struct types, which have no name to give a helper's element decoder,
// and integer keywords an IntRule cannot hold (fractional or out-of-range limits). The code it
// renders reads with the variables d, ps and p (decode.State.Parts); inlined code names its
// locals with a numeric suffix so nested containers never shadow each other.

// lvalue is an assignable place of generated code. get renders a fresh expression for it each
// time (jennifer statements are mutable, so an expression used twice must be built twice);
// ptr names the pointer when the place is *ptr, so that its address renders as ptr, not
// &(*ptr).
type lvalue struct {
	get func() *jen.Statement
	ptr string
}

// place is the lvalue rendered by get.
func place(get func() *jen.Statement) lvalue { return lvalue{get: get} }

// deref is the lvalue *ptr.
func deref(ptr string) lvalue {
	return lvalue{get: func() *jen.Statement { return jen.Parens(jen.Op("*").Id(ptr)) }, ptr: ptr}
}

// addr renders the address of the place.
func (l lvalue) addr() jen.Code {
	if l.ptr != "" {
		return jen.Id(l.ptr)
	}
	return jen.Op("&").Add(l.get())
}

func typeLabel(t *model.Type) string {
	if t.Named != nil {
		return t.Named.Name
	}
	return t.Kind.String()
}

// local returns a fresh suffix for locals of inlined code.
func (g *generator) local() string {
	g.locals++
	return strconv.Itoa(g.locals)
}

// returnIfErr renders `if err := CALL; err != nil { return err }`.
func returnIfErr(call jen.Code) jen.Code {
	return jen.If(jen.Err().Op(":=").Add(call), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
}

// A path is named by a string: "p", the *decode.Path parameter of a decode function, or
// "qN", a decode.Path value local to inlined code. ptr renders it as a *decode.Path.
type pathVar string

func (p pathVar) ptr() jen.Code {
	if p == "p" {
		return jen.Id("p")
	}
	return jen.Op("&").Id(string(p))
}

// call renders a method call on the path: p.Key("x") or q3.Index(i).
func (p pathVar) call(method string, args ...jen.Code) *jen.Statement {
	return jen.Id(string(p)).Dot(method).Call(args...)
}

// expectType renders the check that the next value has JSON type want, recording a problem
// and skipping the value otherwise, then running body.
func expectType(at pathVar, want jen.Code, label string, body []jen.Code) jen.Code {
	return jen.If(jen.Id("d").Dot("Next").Call().Op("!=").Add(want)).Block(
		returnIfErr(jen.Qual(decodePath, "WrongType").Call(jen.Id("d"), jen.Id("ps"), at.ptr(), jen.Lit(label))),
	).Else().Block(body...)
}

// object renders the decoding of a struct value: the property loop, then missing required
// properties and defaults.
func (g *generator) object(t *model.Type, target lvalue, at pathVar, label string) ([]jen.Code, error) {
	n := g.local()
	it, seen := "it"+n, "seen"+n
	known := g.knownProps(t)

	var cases []jen.Code
	for i, f := range t.Fields {
		q := "q" + g.local()
		word, bit := i/64, uint(i%64)
		seenBit := jen.Id(seen).Index(jen.Lit(word)).Op("&").Parens(jen.Lit(1).Op("<<").Lit(int(bit)))
		value, err := g.value(f.Type, &f.Constraints, f.Nullable, g.fieldTarget(target, f), pathVar(q), fmt.Sprintf("%s.%s", label, f.GoName))
		if err != nil {
			return nil, err
		}
		body := []jen.Code{
			jen.If(seenBit.Clone().Op("!=").Lit(0)).Block(
				returnIfErr(jen.Qual(decodePath, "SkipDuplicate").Call(jen.Id("d"), jen.Id("ps"), at.ptr(), jen.Lit(f.JSONName))),
				jen.Continue(),
			),
			jen.Id(seen).Index(jen.Lit(word)).Op("|=").Lit(1).Op("<<").Lit(int(bit)),
		}
		if reportsAt(f.Type) {
			body = append(body, jen.Id(q).Op(":=").Add(at.call("Key", jen.Lit(f.JSONName))))
		}
		body = append(body, value...)
		cases = append(cases, jen.Case(jen.Lit(f.JSONName)).Block(body...))
	}
	cases = append(cases, jen.Default().Block(
		returnIfErr(jen.Qual(decodePath, "SkipUnknown").Call(jen.Id("d"), jen.Id("ps"), at.ptr(), jen.Id(it).Dot("Key").Call(), known)),
	))

	loop := []jen.Code{
		jen.List(jen.Id(it), jen.Err()).Op(":=").Id("d").Dot("ObjIter").Call(),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
	}
	if len(t.Fields) > 0 {
		loop = append(loop, jen.Var().Id(seen).Index(jen.Lit((len(t.Fields)+63)/64)).Uint64())
	}
	loop = append(loop,
		jen.For(jen.Id(it).Dot("Next").Call()).Block(jen.Switch(jen.String().Call(jen.Id(it).Dot("Key").Call())).Block(cases...)),
		jen.If(jen.Err().Op(":=").Id(it).Dot("Err").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
	)
	for i, f := range t.Fields {
		absent := jen.Id(seen).Index(jen.Lit(i / 64)).Op("&").Parens(jen.Lit(1).Op("<<").Lit(i % 64)).Op("==").Lit(0)
		switch {
		case f.Required:
			loop = append(loop, jen.If(absent).Block(jen.Id("ps").Dot("Missing").Call(at.ptr(), jen.Lit(f.JSONName))))
		case f.Constraints.Default != nil:
			def, err := g.defaultValue(f.Type, f.Constraints.Default)
			if err != nil {
				return nil, fmt.Errorf("field %s: %w", f.GoName, err)
			}
			loop = append(loop, jen.If(absent).Block(g.fieldTarget(target, f).get().Op("=").Add(def)))
		}
	}
	return []jen.Code{expectType(at, jen.Qual(decodePath, "Object"), "an object", loop)}, nil
}

// knownProps emits (once per struct type, named or not: an anonymous struct reached through a
// named slice or map type is decoded inline wherever that type is used) the list of property
// names used in "did you mean" hints, and returns a reference to it.
func (g *generator) knownProps(t *model.Type) jen.Code {
	if len(t.Fields) == 0 {
		return jen.Nil()
	}
	var names []jen.Code
	for _, f := range t.Fields {
		names = append(names, jen.Lit(f.JSONName))
	}
	list := jen.Index().String().Values(names...)
	name := "toolgenProps#" // an anonymous struct: named after its names
	if t.Named != nil {
		name = "toolgenProps" + g.typeIdent(t)
	}
	return jen.Id(g.declare(name, "props", render(list), func(name string) jen.Code {
		return jen.Var().Id(name).Op("=").Add(list)
	}))
}

// fieldTarget renders the place of a field, through embedded structs; an embedded pointer is
// allocated on first use, as encoding/json does.
func (g *generator) fieldTarget(base lvalue, f *model.Field) lvalue {
	return place(func() *jen.Statement {
		s := base.get()
		for _, e := range f.Embedded {
			if e.Pointer {
				s = jen.Qual(decodePath, "Alloc").Call(jen.Op("&").Add(s).Dot(e.GoName))
			} else {
				s = s.Dot(e.GoName)
			}
		}
		return s.Dot(f.GoName)
	})
}

// value renders the decoding of one JSON value of type t with constraints c into target.
func (g *generator) value(t *model.Type, c *model.Constraints, nullable bool, target lvalue, at pathVar, label string) ([]jen.Code, error) {
	if c == nil {
		c = &model.Constraints{}
	}
	if t.Kind == model.KindPointer || nullable {
		var inner []jen.Code
		var onNull []jen.Code
		if t.Kind == model.KindPointer {
			ptr := "ptr" + g.local()
			elemTarget := deref(ptr)
			body, err := g.value(t.Elem, c, false, elemTarget, at, label)
			if err != nil {
				return nil, err
			}
			inner = append([]jen.Code{jen.Id(ptr).Op(":=").Qual(decodePath, "Alloc").Call(target.addr())}, body...)
			onNull = []jen.Code{target.get().Op("=").Nil()}
		} else {
			body, err := g.value(t, c, false, target, at, label)
			if err != nil {
				return nil, err
			}
			inner = body
		}
		return []jen.Code{jen.If(jen.Id("d").Dot("Next").Call().Op("==").Qual(decodePath, "Null")).Block(
			append([]jen.Code{returnIfErr(jen.Id("d").Dot("Null").Call())}, onNull...)...,
		).Else().Block(inner...)}, nil
	}

	switch t.Kind {
	case model.KindString:
		if len(t.Enum) > 0 {
			return g.stringEnum(t, c, target, at)
		}
		return g.stringValue(t, c, target, at, "ReadString")
	case model.KindText:
		return g.textValue(t, c, target, at)
	case model.KindBool:
		n := g.local()
		conv, err := g.convert(t, jen.Id("b"+n))
		if err != nil {
			return nil, err
		}
		return []jen.Code{readInto("ReadBool", at, []string{"b" + n, "ok" + n}, nil, target.get().Op("=").Add(conv))}, nil
	case model.KindInt, model.KindUint:
		return g.integer(t, c, target, at)
	case model.KindFloat:
		return g.float(t, c, target, at)
	case model.KindBytes:
		n := g.local()
		conv, err := g.convert(t, jen.Id("b"+n))
		if err != nil {
			return nil, err
		}
		return []jen.Code{readInto("ReadBytes", at, []string{"b" + n, "ok" + n}, nil, target.get().Op("=").Add(conv))}, nil
	case model.KindTime:
		n := g.local()
		return []jen.Code{readInto("ReadTime", at, []string{"t" + n, "ok" + n}, nil, target.get().Op("=").Id("t"+n))}, nil
	case model.KindDuration:
		n := g.local()
		return []jen.Code{readInto("ReadDuration", at, []string{"v" + n, "ok" + n}, nil, target.get().Op("=").Id("v"+n))}, nil
	case model.KindRawJSON, model.KindAny:
		n := g.local()
		read := "ReadRaw"
		if t.Kind == model.KindAny {
			read = "ReadAny"
		}
		return []jen.Code{jen.If(jen.List(jen.Id("v"+n), jen.Err()).Op(":=").Qual(decodePath, read).Call(jen.Id("d")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Err()),
		).Else().Block(target.get().Op("=").Id("v" + n))}, nil
	case model.KindStruct:
		if t.Named != nil {
			name, err := g.structTable(t)
			if err != nil {
				return nil, err
			}
			return []jen.Code{returnIfErr(jen.Qual(decodePath, "WithinStruct").Call(jen.Id("s"), at.ptr(), unsafePointer().Call(target.addr()), jen.Op("&").Id(name)))}, nil
		}
		return g.object(t, target, at, label)
	case model.KindSlice:
		return g.slice(t, c, target, at, label)
	case model.KindArray:
		return g.array(t, c, target, at, label)
	case model.KindMap:
		return g.mapValue(t, c, target, at, label)
	}
	return nil, fmt.Errorf("internal error: no decoder for %s (%s)", label, t.Kind)
}

// reportsAt reports whether the decoding of a value of type t can record a problem, and so
// needs its path: any JSON value is a valid json.RawMessage or any (null included, through a
// pointer), so their decoding declares no path, which Go would reject as unused.
func reportsAt(t *model.Type) bool {
	for t.Kind == model.KindPointer {
		t = t.Elem
	}
	return t.Kind != model.KindRawJSON && t.Kind != model.KindAny
}

// readInto renders `if a, ok, err := decode.READ(d, ps, at); err != nil { return err } else
// if ok { then }`.
func readInto(read string, at pathVar, vars []string, extra []jen.Code, then ...jen.Code) jen.Code {
	var lhs []jen.Code
	for _, v := range vars {
		lhs = append(lhs, jen.Id(v))
	}
	lhs = append(lhs, jen.Err())
	ok := vars[len(vars)-1]
	args := append([]jen.Code{jen.Id("d"), jen.Id("ps"), at.ptr()}, extra...)
	return jen.If(jen.List(lhs...).Op(":=").Qual(decodePath, read).Call(args...), jen.Err().Op("!=").Nil()).Block(
		jen.Return(jen.Err()),
	).Else().If(jen.Id(ok)).Block(then...)
}

// convert renders v converted to t's Go type when t is named (or sized), else v itself.
func (g *generator) convert(t *model.Type, v jen.Code) (jen.Code, error) {
	if t.Named == nil && (t.Kind == model.KindString || t.Kind == model.KindBool || t.Kind == model.KindBytes) {
		return v, nil
	}
	typ, err := g.typeExpr(t)
	if err != nil {
		return nil, err
	}
	return typ.(*jen.Statement).Clone().Call(v), nil
}

func (g *generator) stringValue(t *model.Type, c *model.Constraints, target lvalue, at pathVar, read string) ([]jen.Code, error) {
	n := g.local()
	s := jen.Id("s" + n)
	read, extra, c := readStringMax(read, c)
	checks, err := g.stringChecks(c, "s"+n, at)
	if err != nil {
		return nil, err
	}
	conv, err := g.convert(t, s)
	if err != nil {
		return nil, err
	}
	then := append(checks, target.get().Op("=").Add(conv))
	return []jen.Code{readInto(read, at, []string{"s" + n, "ok" + n}, extra, then...)}, nil
}

// readStringMax moves maxLength into the read, decode.ReadStringMax, which refuses a longer
// string before building it; the other string keywords stay checks on the string read.
func readStringMax(read string, c *model.Constraints) (string, []jen.Code, *model.Constraints) {
	if c.MaxLength == nil || read != "ReadString" {
		return read, nil, c
	}
	rest := *c
	rest.MaxLength = nil
	return "ReadStringMax", []jen.Code{jen.Lit(*c.MaxLength)}, &rest
}

// stringChecks renders the checks of the string keywords on the string variable v.
func (g *generator) stringChecks(c *model.Constraints, v string, at pathVar) ([]jen.Code, error) {
	out := lengthChecks(c, v, at)
	if c.Pattern != "" {
		fn, err := g.patternFunc(c.Pattern)
		if err != nil {
			return nil, err
		}
		out = append(out, jen.If(jen.Op("!").Id(fn).Call(jen.Id(v))).Block(
			jen.Id("ps").Dot("Mismatch").Call(at.ptr(), jen.Lit("a string matching the pattern "+strconv.Quote(c.Pattern)), jen.Id(v))))
	}
	if c.Format != "" {
		fn, describe, ok := formatFunc(c.Format)
		if !ok {
			return nil, fmt.Errorf("internal error: unknown format %q", c.Format)
		}
		out = append(out, jen.If(jen.Op("!").Qual(decodePath, fn).Call(jen.Id(v))).Block(
			jen.Id("ps").Dot("Mismatch").Call(at.ptr(), jen.Lit(describe), jen.Id(v))))
	}
	if len(c.Enum) > 0 {
		var vals []jen.Code
		var shown []string
		for _, lit := range c.Enum {
			var s string
			if err := json.Unmarshal([]byte(lit.JSON), &s); err != nil {
				return nil, fmt.Errorf("internal error: enum value %s of a string", lit.JSON)
			}
			vals = append(vals, jen.Lit(s))
			shown = append(shown, s)
		}
		out = append(out, jen.Switch(jen.Id(v)).Block(
			jen.Case(vals...),
			jen.Default().Block(jen.Id("ps").Dot("NotOneOf").Call(at.ptr(), jen.Lit(decode.QuoteList(shown...)), jen.Qual("strconv", "Quote").Call(jen.Id(v)))),
		))
	}
	return out, nil
}

// lengthChecks renders minLength and maxLength on the string variable v. They count code
// points (decode.RuneCount; an invalid byte counts as one), and a code point is 1 to 4 bytes,
// so a string of b bytes has between ceil(b/4) and b of them: the byte length settles most
// strings, and only those it cannot settle are counted.
//
//   - minLength m can fail only when ceil(b/4) < m, that is b <= 4(m-1) (m = 1: b == 0);
//   - maxLength M can fail only when b > M.
func lengthChecks(c *model.Constraints, v string, at pathVar) []jen.Code {
	min, max := c.MinLength, c.MaxLength
	if min != nil && *min <= 0 {
		min = nil // never fails
	}
	if min == nil && max == nil {
		return nil
	}
	lenV := func() *jen.Statement { return jen.Len(jen.Id(v)) }
	if min != nil && *min == 1 && max == nil {
		// The one string shorter than a code point is the empty one.
		return []jen.Code{jen.If(lenV().Op("==").Lit(0)).Block(
			jen.Id("ps").Dot("Length").Call(at.ptr(), jen.Lit("at least"), jen.Lit(1), jen.Lit(0)))}
	}
	var maybe []jen.Code // the byte lengths for which a check may fail
	always := false      // every byte length may fail: count every string
	if min != nil {
		switch {
		case *min > math.MaxInt32/4: // 4(m-1) might not fit an int on 32-bit platforms
			always = true
		case max != nil && 4*(*min-1) >= *max: // no byte length passes both unseen
			always = true
		case *min == 1:
			maybe = append(maybe, lenV().Op("==").Lit(0))
		default:
			maybe = append(maybe, lenV().Op("<=").Lit(4*(*min-1)))
		}
	}
	if max != nil {
		maybe = append(maybe, lenV().Op(">").Lit(*max))
	}
	n := "n" + v
	body := []jen.Code{jen.Id(n).Op(":=").Qual(decodePath, "RuneCount").Call(jen.Id(v))}
	if min != nil {
		body = append(body, jen.If(jen.Id(n).Op("<").Lit(*min)).Block(
			jen.Id("ps").Dot("Length").Call(at.ptr(), jen.Lit("at least"), jen.Lit(*min), jen.Id(n))))
	}
	if max != nil {
		body = append(body, jen.If(jen.Id(n).Op(">").Lit(*max)).Block(
			jen.Id("ps").Dot("Length").Call(at.ptr(), jen.Lit("at most"), jen.Lit(*max), jen.Id(n))))
	}
	if always {
		return body
	}
	cond := maybe[0]
	if len(maybe) == 2 {
		cond = jen.Add(maybe[0]).Op("||").Add(maybe[1])
	}
	return []jen.Code{jen.If(cond).Block(body...)}
}

// patternFunc emits (once per pattern) a matcher and returns its name.
func (g *generator) patternFunc(expr string) (string, error) {
	if g.patterns == nil {
		g.patterns = map[string]string{}
	}
	if name, ok := g.patterns[expr]; ok {
		return name, nil
	}
	name := g.claim("toolgenPattern#", "pattern\x00"+expr)
	code, _, err := pattern.Func(name, expr)
	if err != nil {
		return "", fmt.Errorf("pattern %q: %w", expr, err)
	}
	g.patterns[expr] = name
	g.patternDecls = append(g.patternDecls, decl{name: name, code: code})
	return name, nil
}

// stringEnum decodes a string enum type: matching the bytes against the constants allocates
// nothing.
func (g *generator) stringEnum(t *model.Type, c *model.Constraints, target lvalue, at pathVar) ([]jen.Code, error) {
	allowed := t.Enum
	if len(c.Enum) > 0 {
		allowed = nil
		for _, lit := range c.Enum {
			var s string
			_ = json.Unmarshal([]byte(lit.JSON), &s)
			for _, ev := range t.Enum {
				if ev.String == s {
					allowed = append(allowed, ev)
				}
			}
		}
	}
	n := g.local()
	b := "b" + n
	var cases []jen.Code
	var shown []string
	seen := map[string]bool{}
	for _, ev := range allowed {
		if seen[ev.String] { // two constants with one value: the first names it
			continue
		}
		seen[ev.String] = true
		shown = append(shown, ev.String)
		cases = append(cases, jen.Case(jen.Lit(ev.String)).Block(target.get().Op("=").Add(g.qual(t.Named.Path, ev.GoName))))
	}
	cases = append(cases, jen.Default().Block(
		jen.Id("ps").Dot("NotOneOf").Call(at.ptr(), jen.Lit(decode.QuoteList(shown...)), jen.Qual("strconv", "Quote").Call(jen.String().Call(jen.Id(b))))))
	rest := *c
	rest.Enum = nil
	checks, err := g.stringChecks(&rest, "s"+n, at)
	if err != nil {
		return nil, err
	}
	var then []jen.Code
	if len(checks) > 0 {
		then = append(then, jen.Id("s"+n).Op(":=").String().Call(jen.Id(b)))
		then = append(then, checks...)
	}
	then = append(then, jen.Switch(jen.String().Call(jen.Id(b))).Block(cases...))
	return []jen.Code{readInto("ReadStringBytes", at, []string{b, "ok" + n}, nil, then...)}, nil
}

// textValue decodes a type implementing encoding.TextUnmarshaler.
func (g *generator) textValue(t *model.Type, c *model.Constraints, target lvalue, at pathVar) ([]jen.Code, error) {
	n := g.local()
	read, extra, rest := readStringMax("ReadString", c)
	checks, err := g.stringChecks(rest, "s"+n, at)
	if err != nil {
		return nil, err
	}
	if len(checks) == 0 && extra == nil {
		return []jen.Code{jen.If(jen.List(jen.Id("_"), jen.Err()).Op(":=").Qual(decodePath, "ReadText").Call(
			jen.Id("d"), jen.Id("ps"), at.ptr(), target.addr()), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))}, nil
	}
	then := append(checks, jen.Qual(decodePath, "ApplyText").Call(jen.Id("ps"), at.ptr(), target.addr(), jen.Id("s"+n)))
	return []jen.Code{readInto(read, at, []string{"s" + n, "ok" + n}, extra, then...)}, nil
}

// intBounds renders the range of an integer kind for ReadInt / ReadUint.
func intBounds(t *model.Type) (min, max jen.Code) {
	suffix := bitsSuffix(t.Bits)
	if t.Kind == model.KindUint {
		return nil, jen.Qual("math", "MaxUint"+suffix)
	}
	return jen.Qual("math", "MinInt"+suffix), jen.Qual("math", "MaxInt"+suffix)
}

func (g *generator) integer(t *model.Type, c *model.Constraints, target lvalue, at pathVar) ([]jen.Code, error) {
	n := g.local()
	v := "n" + n
	min, max := intBounds(t)
	read := jen.Qual(decodePath, "ReadInt").Call(jen.Id("d"), jen.Id("ps"), at.ptr(), min, max)
	format := jen.Qual("strconv", "FormatInt").Call(jen.Id(v), jen.Lit(10))
	if t.Kind == model.KindUint {
		read = jen.Qual(decodePath, "ReadUint").Call(jen.Id("d"), jen.Id("ps"), at.ptr(), max)
		format = jen.Qual("strconv", "FormatUint").Call(jen.Id(v), jen.Lit(10))
	}
	checks := g.numberChecks(c, jen.Id(v), true, t.Kind == model.KindUint, t.Bits, at, format, func() jen.Code {
		return jen.Index().Byte().Call(format)
	})
	var assign []jen.Code
	if len(t.Enum) > 0 {
		allowed := t.Enum
		var cases []jen.Code
		var shown []string
		seen := map[int64]bool{}
		for _, ev := range allowed {
			if seen[ev.Int] {
				continue
			}
			seen[ev.Int] = true
			if !enumAllowed(c, strconv.FormatInt(ev.Int, 10)) {
				continue
			}
			shown = append(shown, strconv.FormatInt(ev.Int, 10))
			cases = append(cases, jen.Case(jen.Lit(ev.Int)).Block(target.get().Op("=").Add(g.qual(t.Named.Path, ev.GoName))))
		}
		cases = append(cases, jen.Default().Block(
			jen.Id("ps").Dot("NotOneOf").Call(at.ptr(), jen.Lit(strings.Join(shown, ", ")), format)))
		assign = append(assign, jen.Switch(jen.Id(v)).Block(cases...))
	} else {
		if len(c.Enum) > 0 {
			var vals []jen.Code
			var shown []string
			for _, lit := range c.Enum {
				vals = append(vals, jen.Id(lit.JSON))
				shown = append(shown, lit.JSON)
			}
			assign = append(assign, jen.Switch(jen.Id(v)).Block(
				jen.Case(vals...),
				jen.Default().Block(jen.Id("ps").Dot("NotOneOf").Call(at.ptr(), jen.Lit(strings.Join(shown, ", ")), format))))
		}
		conv, err := g.convert(t, jen.Id(v))
		if err != nil {
			return nil, err
		}
		assign = append(assign, target.get().Op("=").Add(conv))
	}
	return []jen.Code{jen.If(jen.List(jen.Id(v), jen.Id("ok"+n), jen.Err()).Op(":=").Add(read), jen.Err().Op("!=").Nil()).Block(
		jen.Return(jen.Err()),
	).Else().If(jen.Id("ok" + n)).Block(append(checks, assign...)...)}, nil
}

func enumAllowed(c *model.Constraints, jsonText string) bool {
	if len(c.Enum) == 0 {
		return true
	}
	for _, lit := range c.Enum {
		if lit.JSON == jsonText {
			return true
		}
	}
	return false
}

func (g *generator) float(t *model.Type, c *model.Constraints, target lvalue, at pathVar) ([]jen.Code, error) {
	n := g.local()
	v, raw := "f"+n, "raw"+n
	format := jen.Qual(decodePath, "Shown").Call(jen.Id(raw))
	checks := g.numberChecks(c, jen.Id(v), false, false, t.Bits, at, format, func() jen.Code { return jen.Id(raw) })
	if len(c.Enum) > 0 {
		var vals, shown []string
		for _, lit := range c.Enum {
			vals = append(vals, lit.JSON)
			shown = append(shown, lit.JSON)
		}
		var cases []jen.Code
		for _, v := range vals {
			cases = append(cases, jen.Id(v))
		}
		checks = append(checks, jen.Switch(jen.Id(v)).Block(
			jen.Case(cases...),
			jen.Default().Block(jen.Id("ps").Dot("NotOneOf").Call(at.ptr(), jen.Lit(strings.Join(shown, ", ")), format))))
	}
	rawVar := raw
	if !usesRaw(c) {
		rawVar = "_"
	}
	conv, err := g.convert(t, jen.Id(v))
	if err != nil {
		return nil, err
	}
	then := append(checks, target.get().Op("=").Add(conv))
	return []jen.Code{jen.If(jen.List(jen.Id(v), jen.Id(rawVar), jen.Id("ok"+n), jen.Err()).Op(":=").Qual(decodePath, "ReadFloat").Call(
		jen.Id("d"), jen.Id("ps"), at.ptr(), jen.Lit(t.Bits)), jen.Err().Op("!=").Nil()).Block(
		jen.Return(jen.Err()),
	).Else().If(jen.Id("ok" + n)).Block(then...)}, nil
}

// usesRaw reports whether the float checks need the number's text: for messages of failed
// bounds and for exact multipleOf.
func usesRaw(c *model.Constraints) bool {
	return c.Minimum != nil || c.Maximum != nil || c.ExclusiveMinimum != nil || c.ExclusiveMaximum != nil ||
		c.MultipleOf != nil || len(c.Enum) > 0
}

// numberChecks renders the numeric keywords on v. Integer variables compare with integral
// limits directly; other limits compare in float64.
func (g *generator) numberChecks(c *model.Constraints, v jen.Code, integer, unsigned bool, bits int, at pathVar, got jen.Code, rawText func() jen.Code) []jen.Code {
	var out []jen.Code
	bound := func(limit *model.Number, op, relation string) {
		if limit == nil {
			return
		}
		var cond jen.Code
		switch {
		case !integer:
			// The decimal sent and the float it becomes are both held to the bound: 1e-400 is
			// greater than 0, but the handler would get 0.
			n := g.local()
			sent, held := "sent"+n, "held"+n
			out = append(out, jen.If(
				jen.List(jen.Id(sent), jen.Id(held)).Op(":=").Qual(decodePath, "CompareFloat"+strconv.Itoa(bits)).Call(v, rawText(), goNumber(limit), jen.Lit(limit.Text)),
				jen.Id(sent).Op(op).Lit(0),
			).Block(
				jen.Id("ps").Dot("Bound").Call(at.ptr(), jen.Lit(relation), jen.Lit(limit.Text), got),
			).Else().If(jen.Id(held).Op(op).Lit(0)).Block(
				jen.Id("ps").Dot("Rounded").Call(at.ptr(), jen.Lit(relation), jen.Lit(limit.Text), got, v, jen.Lit(bits)),
			))
			return
		case integralLimit(limit.Text, unsigned):
			cond = jen.Add(v).Op(op).Add(goNumber(limit))
		default:
			cond = jen.Float64().Call(v).Op(op).Add(goNumber(limit))
		}
		out = append(out, jen.If(cond).Block(
			jen.Id("ps").Dot("Bound").Call(at.ptr(), jen.Lit(relation), jen.Lit(limit.Text), got)))
	}
	bound(c.Minimum, "<", "at least")
	bound(c.ExclusiveMinimum, "<=", "greater than")
	bound(c.Maximum, ">", "at most")
	bound(c.ExclusiveMaximum, ">=", "less than")
	if m := c.MultipleOf; m != nil {
		if integer && integralLimit(m.Text, unsigned) {
			out = append(out, jen.If(jen.Add(v).Op("%").Add(goNumber(m)).Op("!=").Lit(0)).Block(
				jen.Id("ps").Dot("Bound").Call(at.ptr(), jen.Lit("a multiple of"), jen.Lit(m.Text), got)))
		} else {
			out = append(out, jen.If(jen.Op("!").Id(g.constant("toolgenMultiple", "MultipleOf", m.Text)).Dot("Divides").Call(rawText())).Block(
				jen.Id("ps").Dot("Bound").Call(at.ptr(), jen.Lit("a multiple of"), jen.Lit(m.Text), got)))
		}
	}
	return out
}

// integralLimit reports whether a numeric keyword can be compared with an integer variable as
// a Go constant: a whole number within the variable's range.
func integralLimit(text string, unsigned bool) bool {
	r, ok := new(big.Rat).SetString(text)
	if !ok || !r.IsInt() {
		return false
	}
	if unsigned {
		return r.Sign() >= 0 && r.Num().IsUint64()
	}
	return r.Num().IsInt64()
}

// goNumber renders a numeric keyword as a Go constant: JSON number syntax is a subset of Go's,
// so the text is written as it was given (10 stays an integer constant, 1e-3 a float one).
func goNumber(n *model.Number) jen.Code { return jen.Id(n.Text) }

func (g *generator) slice(t *model.Type, c *model.Constraints, target lvalue, at pathVar, label string) ([]jen.Code, error) {
	n := g.local()
	it, i, q, e := "it"+n, "i"+n, "q"+n, "e"+n
	elem, err := g.value(t.Elem, c.Items, false, deref(e), pathVar(q), label+"[]")
	if err != nil {
		return nil, err
	}
	var loopBody []jen.Code
	if c.MaxItems != nil {
		// Items past maxItems are counted and skipped, never built: a document of a million
		// items against maxItems=100 allocates a hundred.
		loopBody = append(loopBody, jen.If(jen.Id(i).Op(">=").Lit(*c.MaxItems)).Block(returnIfErr(jen.Id("d").Dot("Skip").Call()), jen.Continue()))
	}
	if reportsAt(t.Elem) {
		loopBody = append(loopBody, jen.Id(q).Op(":=").Add(at.call("Index", jen.Id(i))))
	}
	loopBody = append(loopBody, jen.Id(e).Op(":=").Qual(decodePath, "Grow").Call(target.addr()))
	if c.UniqueItems {
		// An item that failed may hold no value (one of a wrong type stays zero): uniqueness
		// is judged among the others, beside every problem of the items and their number.
		loopBody = append(loopBody, jen.Id("before"+n).Op(":=").Id("ps").Dot("Len").Call())
		loopBody = append(loopBody, elem...)
		loopBody = append(loopBody, jen.If(jen.Id("ps").Dot("Len").Call().Op("!=").Id("before"+n)).Block(jen.Id("failed"+n).Dot("Mark").Call(jen.Id(i))))
	} else {
		loopBody = append(loopBody, elem...)
	}
	body := []jen.Code{
		jen.List(jen.Id(it), jen.Err()).Op(":=").Id("d").Dot("ArrIter").Call(),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		target.get().Op("=").Qual(decodePath, "EmptySlice").Call(target.get()),
	}
	count := jen.Len(target.get())
	if c.MaxItems != nil {
		// The index advances past skipped items too: after the loop it counts the items sent.
		count = jen.Id(i)
		body = append(body,
			jen.Id(i).Op(":=").Lit(0),
			jen.For(jen.Empty(), jen.Id(it).Dot("Next").Call(), jen.Id(i).Op("++")).Block(loopBody...))
	} else {
		body = append(body, jen.For(jen.Id(i).Op(":=").Lit(0), jen.Id(it).Dot("Next").Call(), jen.Id(i).Op("++")).Block(loopBody...))
	}
	body = append(body, jen.If(jen.Err().Op(":=").Id(it).Dot("Err").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
	if c.UniqueItems {
		body = append([]jen.Code{jen.Var().Id("failed"+n).Qual(decodePath, "Failed")}, body...)
	}
	body = append(body, g.countChecks(c.MinItems, c.MaxItems, count, at, "item")...)
	if c.UniqueItems {
		body = append(body, jen.If(jen.List(jen.Id("a"+n), jen.Id("b"+n), jen.Id("dup"+n)).Op(":=").Qual(decodePath, "FindDuplicateExcept").Call(target.get(), jen.Op("&").Id("failed"+n)), jen.Id("dup"+n)).Block(
			jen.Id("ps").Dot("Duplicates").Call(at.ptr(), jen.Id("a"+n), jen.Id("b"+n))))
	}
	return []jen.Code{expectType(at, jen.Qual(decodePath, "Array"), "an array", body)}, nil
}

func (g *generator) countChecks(min, max *int, count jen.Code, at pathVar, noun string) []jen.Code {
	var out []jen.Code
	if min != nil {
		out = append(out, jen.If(jen.Add(count).Op("<").Lit(*min)).Block(
			jen.Id("ps").Dot("Count").Call(at.ptr(), jen.Lit("at least"), jen.Lit(*min), count, jen.Lit(noun))))
	}
	if max != nil {
		out = append(out, jen.If(jen.Add(count).Op(">").Lit(*max)).Block(
			jen.Id("ps").Dot("Count").Call(at.ptr(), jen.Lit("at most"), jen.Lit(*max), count, jen.Lit(noun))))
	}
	return out
}

func (g *generator) array(t *model.Type, c *model.Constraints, target lvalue, at pathVar, label string) ([]jen.Code, error) {
	n := g.local()
	it, i, q := "it"+n, "i"+n, "q"+n
	elem, err := g.value(t.Elem, c.Items, false, place(func() *jen.Statement { return target.get().Index(jen.Id(i)) }), pathVar(q), label+"[]")
	if err != nil {
		return nil, err
	}
	loopBody := []jen.Code{
		jen.If(jen.Id(i).Op(">=").Lit(t.Len)).Block(returnIfErr(jen.Id("d").Dot("Skip").Call()), jen.Continue()),
	}
	if reportsAt(t.Elem) {
		loopBody = append(loopBody, jen.Id(q).Op(":=").Add(at.call("Index", jen.Id(i))))
	}
	loopBody = append(loopBody, elem...)
	body := []jen.Code{
		jen.List(jen.Id(it), jen.Err()).Op(":=").Id("d").Dot("ArrIter").Call(),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Id(i).Op(":=").Lit(0),
		// The index advances at the end of each iteration, skipped extra items included, so
		// after the loop it is the number of items received.
		jen.For(jen.Empty(), jen.Id(it).Dot("Next").Call(), jen.Id(i).Op("++")).Block(loopBody...),
		jen.If(jen.Err().Op(":=").Id(it).Dot("Err").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.If(jen.Id(i).Op("!=").Lit(t.Len)).Block(
			jen.Id("ps").Dot("Count").Call(at.ptr(), jen.Lit("exactly"), jen.Lit(t.Len), jen.Id(i), jen.Lit("item"))),
	}
	return []jen.Code{expectType(at, jen.Qual(decodePath, "Array"), "an array", body)}, nil
}

func (g *generator) mapValue(t *model.Type, c *model.Constraints, target lvalue, at pathVar, label string) ([]jen.Code, error) {
	n := g.local()
	it, k, key, q, e, ok := "it"+n, "k"+n, "key"+n, "q"+n, "e"+n, "ok"+n
	elem, err := g.value(t.Elem, c.Items, false, place(func() *jen.Statement { return jen.Id(e) }), pathVar(q), label+"{}")
	if err != nil {
		return nil, err
	}
	// A string key always converts: the key is k itself, or k converted to the named key type,
	// and there is no ok to test.
	var keyConv jen.Code
	stringKey := t.Key.Kind == model.KindString
	switch t.Key.Kind {
	case model.KindString:
		if t.Key.Named == nil {
			key = k
		} else {
			keyConv = jen.Id(key).Op(":=").Qual(decodePath, "StringKey").Call(target.get(), jen.Id(k))
		}
	case model.KindInt:
		min, max := intBounds(t.Key)
		keyConv = jen.List(jen.Id(key), jen.Id(ok)).Op(":=").Qual(decodePath, "IntKey").Call(target.get(), jen.Id("ps"), pathVar(q).ptr(), jen.Id(k), min, max)
	case model.KindUint:
		_, max := intBounds(t.Key)
		keyConv = jen.List(jen.Id(key), jen.Id(ok)).Op(":=").Qual(decodePath, "UintKey").Call(target.get(), jen.Id("ps"), pathVar(q).ptr(), jen.Id(k), max)
	case model.KindText:
		keyConv = jen.List(jen.Id(key), jen.Id(ok)).Op(":=").Qual(decodePath, "TextKey").Call(target.get(), jen.Id("ps"), pathVar(q).ptr(), jen.Id(k))
	default:
		return nil, fmt.Errorf("internal error: map key kind %s at %s", t.Key.Kind, label)
	}
	dupCond := jen.Id(ok).Op("&&").Id("dup" + n)
	if stringKey {
		dupCond = jen.Id("dup" + n)
	}
	var loopBody []jen.Code
	count := jen.Len(target.get())
	if c.MaxProperties != nil {
		// Properties past maxProperties are counted and skipped, never built.
		count = jen.Id("n" + n)
		loopBody = append(loopBody,
			jen.Id("n"+n).Op("++"),
			jen.If(jen.Id("n"+n).Op(">").Lit(*c.MaxProperties)).Block(returnIfErr(jen.Id("d").Dot("Skip").Call()), jen.Continue()))
	}
	loopBody = append(loopBody,
		jen.Id(k).Op(":=").String().Call(jen.Id(it).Dot("Key").Call()),
		jen.Id(q).Op(":=").Add(at.call("Key", jen.Id(k))),
	)
	if keyConv != nil {
		loopBody = append(loopBody, keyConv)
	}
	loopBody = append(loopBody,
		jen.If(jen.List(jen.Id("_"), jen.Id("dup"+n)).Op(":=").Add(target.get()).Index(jen.Id(key)), dupCond).Block(
			jen.Id("ps").Dot("Duplicate").Call(jen.Op("&").Id(q)),
			returnIfErr(jen.Id("d").Dot("Skip").Call()),
			jen.Continue(),
		),
		jen.Id(e).Op(":=").Qual(decodePath, "MapElem").Call(target.get()),
	)
	loopBody = append(loopBody, elem...)
	store := target.get().Index(jen.Id(key)).Op("=").Id(e)
	if stringKey {
		loopBody = append(loopBody, store)
	} else {
		loopBody = append(loopBody, jen.If(jen.Id(ok)).Block(store))
	}
	body := []jen.Code{
		jen.List(jen.Id(it), jen.Err()).Op(":=").Id("d").Dot("ObjIter").Call(),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		target.get().Op("=").Qual(decodePath, "MakeMap").Call(target.get()),
	}
	if c.MaxProperties != nil {
		body = append(body, jen.Id("n"+n).Op(":=").Lit(0))
	}
	body = append(body,
		jen.For(jen.Id(it).Dot("Next").Call()).Block(loopBody...),
		jen.If(jen.Err().Op(":=").Id(it).Dot("Err").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
	)
	if c.MaxProperties != nil {
		// Duplicates were refused, not counted twice: count what the map holds plus what was skipped.
		body = append(body, jen.If(jen.Id("n"+n).Op("<=").Lit(*c.MaxProperties)).Block(jen.Id("n"+n).Op("=").Len(target.get())))
	}
	body = append(body, g.countChecks(c.MinProperties, c.MaxProperties, count, at, "property")...)
	return []jen.Code{expectType(at, jen.Qual(decodePath, "Object"), "an object", body)}, nil
}

// defaultValue renders the Go value of a default literal for a field of type t.
func (g *generator) defaultValue(t *model.Type, lit *model.Literal) (jen.Code, error) {
	if t.Kind == model.KindPointer {
		inner, err := g.defaultValue(t.Elem, lit)
		if err != nil {
			return nil, err
		}
		return jen.Qual(decodePath, "Ptr").Call(inner), nil
	}
	switch t.Kind {
	case model.KindString:
		var s string
		if err := json.Unmarshal([]byte(lit.JSON), &s); err != nil {
			return nil, fmt.Errorf("default %s is not a string", lit.JSON)
		}
		for _, ev := range t.Enum {
			if ev.String == s {
				return g.qual(t.Named.Path, ev.GoName), nil
			}
		}
		return g.convert(t, jen.Lit(s))
	case model.KindInt, model.KindUint:
		for _, ev := range t.Enum {
			if strconv.FormatInt(ev.Int, 10) == lit.JSON {
				return g.qual(t.Named.Path, ev.GoName), nil
			}
		}
		return g.convert(t, jen.Id(lit.JSON))
	case model.KindFloat:
		return g.convert(t, jen.Id(lit.JSON))
	case model.KindBool:
		return g.convert(t, jen.Id(lit.JSON))
	case model.KindDuration:
		var s string
		if err := json.Unmarshal([]byte(lit.JSON), &s); err != nil {
			return nil, fmt.Errorf("default %s is not a duration string", lit.JSON)
		}
		dur, err := time.ParseDuration(s)
		if err != nil {
			return nil, fmt.Errorf("default %s: %w", lit.JSON, err)
		}
		return durationLit(dur), nil
	case model.KindTime:
		var s string
		if err := json.Unmarshal([]byte(lit.JSON), &s); err != nil {
			return nil, fmt.Errorf("default %s is not a date-time string", lit.JSON)
		}
		if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
			return nil, fmt.Errorf("default %s: %w", lit.JSON, err)
		}
		return jen.Id(g.constant("toolgenTime", "MustTime", s)), nil
	}
	return nil, fmt.Errorf("a default is not supported on a %s field", t.Kind)
}

// constant declares (once per text) a package-level variable holding the value decode.PARSE
// makes of text, and returns its name: generated code parses a multipleOf decimal or a default
// time once, at initialisation, rather than on every call.
func (g *generator) constant(prefix, parse, text string) string {
	key := parse + "\x00" + text
	if name, ok := g.constants[key]; ok {
		return name
	}
	name := g.claim(prefix+"#", key)
	g.constants[key] = name
	g.decodeDecls = append(g.decodeDecls, decl{name: name, code: jen.Var().Id(name).Op("=").Qual(decodePath, parse).Call(jen.Lit(text))})
	return name
}
