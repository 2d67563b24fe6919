package emit

import (
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/runtime/decode"
)

// The decoder emitted for an argument type reads the JSON once, front to back: a wrong JSON
// type is recorded and skipped, a failed keyword is recorded, and decoding goes on; only
// malformed JSON returns early. The work is done by runtime/decode helpers, so the generated
// code is a list of calls. Each named struct type gets one function (shared by every use, and
// the only way to decode recursive types) that switches on the name of each property read and
// calls the helper of its Go type with a rule: a package-level value holding its keywords
// (decode.StringRule, IntRule, FloatRule; an enum type's values), declared once per distinct
// set of keywords and shared by every field that has it. Slices, maps and pointers take the
// decoder of their element as a function: a struct decoder, or a one-line wrapper
// (toolgenValueN) shared by every element of the same type and keywords.
//
// Inside generated functions s is the *decode.State: the reader, the problems and the path of
// the value being read. What the helpers cannot take (anonymous structs, integer limits an
// IntRule cannot hold) is rendered as inline code (decoder_inline.go).

// structParam is the struct a decode function fills, *v: its fields are selected as v.Field.
var structParam = lvalue{get: func() *jen.Statement { return jen.Id("v") }, ptr: "v"}

// stateParam is the parameter every generated decode function takes first.
func stateParam() jen.Code { return jen.Id("s").Op("*").Qual(decodePath, "State") }

// argsDecode returns the call that decodes and validates a JSON document of arguments of
// type t in one pass, decode.Args(data, args, toolgenDecodeX), queueing t's decoder. Bind's
// Decode function makes it directly: no entry point per args type, so a tool costs one
// function less.
func (g *generator) argsDecode(t *model.Type, data, args jen.Code) (jen.Code, error) {
	inner, err := g.structDecoder(t)
	if err != nil {
		return nil, err
	}
	return jen.Qual(decodePath, "Args").Call(data, args, jen.Id(inner)), nil
}

// structDecoder returns the name of the decode function of a named struct type,
// func(s *decode.State, v *T) error, queueing its emission the first time.
func (g *generator) structDecoder(t *model.Type) (string, error) {
	name := "toolgenDecode" + g.typeIdent(t)
	if g.decoders[t] {
		return name, nil
	}
	g.decoders[t] = true
	typ, err := g.typeExpr(t)
	if err != nil {
		return "", err
	}
	g.pending = append(g.pending, func() error {
		g.locals = 0
		body, err := g.objectBody(t)
		if err != nil {
			return err
		}
		code := jen.Commentf("%s decodes one %s value.", name, typeLabel(t)).Line().
			Func().Id(name).Params(stateParam(), jen.Id("v").Op("*").Add(typ)).Error().Block(body...)
		g.decodeDecls = append(g.decodeDecls, decl{name: name, code: code})
		return nil
	})
	return name, nil
}

// objectBody renders the decoding of a named struct into *v: a switch on the name of each
// property read, then the defaults of absent properties; decode.ObjectReader records
// unknown, repeated and missing properties.
func (g *generator) objectBody(t *model.Type) ([]jen.Code, error) {
	body := []jen.Code{jen.Var().Id("o").Qual(decodePath, "ObjectReader")}
	var cases []jen.Code
	for i, f := range t.Fields {
		stmts, err := g.valueStmts(f.Type, &f.Constraints, f.Nullable, g.fieldTarget(structParam, f), fmt.Sprintf("%s.%s", typeLabel(t), f.GoName),
			func(call jen.Code) jen.Code { return jen.Id("o").Dot("Err").Op("=").Add(call) })
		if err != nil {
			return nil, err
		}
		// Fresh is Take's usual case, inlined; Take handles the rest (a repeat, a wide struct).
		take := jen.Id("o").Dot("Fresh").Call(jen.Lit(i)).Op("||").Id("o").Dot("Take").Call(jen.Lit(i))
		cases = append(cases, jen.Case(jen.Lit(f.JSONName)).Block(jen.If(take).Block(stmts...)))
	}
	cases = append(cases, jen.Default().Block(jen.Id("o").Dot("Unknown").Call()))
	body = append(body, jen.For(jen.Id("o").Dot("Open").Call(jen.Id("s"), jen.Id(g.fieldsTable(t))), jen.Id("o").Dot("Next").Call(), jen.Empty()).Block(
		jen.Switch(jen.String().Call(jen.Id("o").Dot("Key").Call())).Block(cases...)))
	for i, f := range t.Fields {
		if f.Required || f.Constraints.Default == nil {
			continue
		}
		def, err := g.defaultValue(f.Type, f.Constraints.Default)
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", f.GoName, err)
		}
		body = append(body, jen.If(jen.Id("o").Dot("Absent").Call(jen.Lit(i))).Block(g.fieldTarget(structParam, f).get().Op("=").Add(def)))
	}
	return append(body, jen.Return(jen.Id("o").Dot("Close").Call())), nil
}

// fieldsTable declares (once per distinct list) the property names of a struct type and which
// are required, and returns the name of the *decode.Fields.
func (g *generator) fieldsTable(t *model.Type) string {
	var names []jen.Code
	var key strings.Builder
	args := []jen.Code{nil}
	for i, f := range t.Fields {
		names = append(names, jen.Lit(f.JSONName))
		key.WriteString(strconv.Quote(f.JSONName))
		if f.Required {
			args = append(args, jen.Lit(i))
			fmt.Fprintf(&key, "!")
		}
		key.WriteString(",")
	}
	args[0] = jen.Index().String().Values(names...)
	return g.declare("toolgenFields"+g.typeIdent(t), "fields", key.String(), func(name string) jen.Code {
		return jen.Var().Id(name).Op("=").Qual(decodePath, "NewFields").Call(args...)
	})
}

// declare emits (once per kind and key) a package-level declaration made by code and returns
// its name: name itself, or, for a name ending in "#", what precedes the "#" followed by a
// number counting the declarations of that prefix (toolgenString1, toolgenString2, …).
func (g *generator) declare(name, kind, key string, code func(name string) jen.Code) string {
	k := "declare\x00" + kind + "\x00" + key
	if n, ok := g.constants[k]; ok {
		return n
	}
	if prefix, ok := strings.CutSuffix(name, "#"); ok {
		g.constantCount[prefix]++
		name = prefix + strconv.Itoa(g.constantCount[prefix])
	}
	g.constants[k] = name
	g.decodeDecls = append(g.decodeDecls, decl{name: name, code: code(name)})
	return name
}

// render is the Go text of code, to compare generated values.
func render(code jen.Code) string { return fmt.Sprintf("%#v", jen.Null().Add(code)) }

// valueStmts renders the decoding of one value of type t with constraints c into target at
// the state's path: use(call) for a helper call (an expression of type error), or inline code
// when no helper takes the value.
func (g *generator) valueStmts(t *model.Type, c *model.Constraints, nullable bool, target lvalue, label string, use func(jen.Code) jen.Code) ([]jen.Code, error) {
	call, ok, err := g.valueCall(t, c, nullable, target)
	if err != nil {
		return nil, err
	}
	if ok {
		return []jen.Code{use(call)}, nil
	}
	inline, err := g.value(t, c, nullable, target, "p", label)
	if err != nil {
		return nil, err
	}
	parts := jen.List(jen.Id("d"), jen.Id("ps"), jen.Id("p")).Op(":=").Id("s").Dot("Parts").Call()
	return append([]jen.Code{parts}, inline...), nil
}

// valueCall renders the helper call decoding a value of type t with constraints c into
// target; ok is false when the value needs inline code.
func (g *generator) valueCall(t *model.Type, c *model.Constraints, nullable bool, target lvalue) (call jen.Code, ok bool, err error) {
	if c == nil {
		c = &model.Constraints{}
	}
	helper := func(fn string, args ...jen.Code) jen.Code {
		return jen.Qual(decodePath, fn).Call(append([]jen.Code{jen.Id("s"), target.addr()}, args...)...)
	}
	if t.Kind == model.KindPointer || nullable {
		elemType, fn := t, "Nullable"
		if t.Kind == model.KindPointer {
			elemType, fn = t.Elem, "Pointer"
		}
		elem, ok, err := g.elemFunc(elemType, c)
		if !ok || err != nil {
			return nil, false, err
		}
		return helper(fn, elem), true, nil
	}
	switch t.Kind {
	case model.KindString:
		rule, err := g.stringRule(t, c, len(t.Enum) > 0)
		return helper("Str", rule), err == nil, err
	case model.KindText:
		rule, err := g.stringRule(t, c, false)
		return helper("Text", rule), err == nil, err
	case model.KindInt, model.KindUint:
		rule, ok := g.intRule(t, c)
		if !ok {
			return nil, false, nil
		}
		fn := "Int"
		if t.Kind == model.KindUint {
			fn = "Uint"
		}
		return helper(fn, rule), true, nil
	case model.KindFloat:
		return helper("Float", g.floatRule(c)), true, nil
	case model.KindBool:
		return helper("Boolean"), true, nil
	case model.KindBytes:
		return helper("Bytes"), true, nil
	case model.KindTime:
		return helper("Time"), true, nil
	case model.KindDuration:
		return helper("Duration"), true, nil
	case model.KindRawJSON:
		return helper("Raw"), true, nil
	case model.KindAny:
		return helper("Any"), true, nil
	case model.KindStruct:
		if t.Named == nil {
			return nil, false, nil
		}
		name, err := g.structDecoder(t)
		return jen.Id(name).Call(jen.Id("s"), target.addr()), err == nil, err
	case model.KindSlice, model.KindArray, model.KindMap:
		elem, ok, err := g.elemFunc(t.Elem, c.Items)
		if !ok || err != nil {
			return nil, false, err
		}
		switch t.Kind {
		case model.KindArray:
			return jen.Qual(decodePath, "ArrayOf").Call(jen.Id("s"), target.get().Op("[:]"), elem), true, nil
		case model.KindSlice:
			fn := "Slice"
			if c.UniqueItems {
				fn = "UniqueSlice"
			}
			min, max := countLimits(c.MinItems, c.MaxItems)
			return helper(fn, min, max, elem), true, nil
		}
		key, err := g.keyFunc(t.Key)
		if err != nil {
			return nil, false, err
		}
		min, max := countLimits(c.MinProperties, c.MaxProperties)
		return helper("Map", min, max, key, elem), true, nil
	}
	return nil, false, fmt.Errorf("internal error: no decoder for %s", t.Kind)
}

// countLimits renders minItems/maxItems (or the properties') as the helpers take them: 0 and
// -1 when absent.
func countLimits(min, max *int) (jen.Code, jen.Code) {
	lo, hi := 0, -1
	if min != nil {
		lo = *min
	}
	if max != nil {
		hi = *max
	}
	return jen.Lit(lo), jen.Lit(hi)
}

// elemFunc returns the decoder of an element of type t with constraints c, a function
// func(*decode.State, *T) error: a struct decoder, or a wrapper shared by every element of
// the same type and constraints. ok is false when t cannot be spelled (an anonymous struct),
// so the container needs inline code.
func (g *generator) elemFunc(t *model.Type, c *model.Constraints) (jen.Code, bool, error) {
	if t.Kind == model.KindStruct && t.Named != nil {
		name, err := g.structDecoder(t)
		return jen.Id(name), err == nil, err
	}
	typ, err := g.typeExpr(t)
	if err != nil {
		return nil, false, nil // an anonymous struct, or a container of one
	}
	saved := g.locals
	g.locals = 0
	body, err := g.valueStmts(t, c, false, deref("v"), typeLabel(t), func(call jen.Code) jen.Code { return jen.Return(call) })
	g.locals = saved
	if err != nil {
		return nil, false, err
	}
	if len(body) > 1 { // inline code returns only its errors
		body = append(body, jen.Return(jen.Nil()))
	}
	key := render(typ) + "\x00" + render(jen.Block(body...))
	name := g.declare("toolgenValue#", "value", key, func(name string) jen.Code {
		return jen.Commentf("%s decodes one %s value.", name, typeLabel(t)).Line().
			Func().Id(name).Params(stateParam(), jen.Id("v").Op("*").Add(typ)).Error().Block(body...)
	})
	return jen.Id(name), true, nil
}

// keyFunc renders the converter of a map's property names to its key type.
func (g *generator) keyFunc(t *model.Type) (jen.Code, error) {
	typ, err := g.typeExpr(t)
	if err != nil {
		return nil, err
	}
	fn := map[model.Kind]string{model.KindString: "KeyString", model.KindInt: "KeyInt", model.KindUint: "KeyUint", model.KindText: "KeyText"}[t.Kind]
	if fn == "" {
		return nil, fmt.Errorf("internal error: map key kind %s", t.Kind)
	}
	return jen.Qual(decodePath, fn).Types(typ), nil
}

// rule declares (once per distinct value) a rule variable of type decode.TYPE with the given
// fields and returns its address, or nil when no field is set.
func (g *generator) rule(prefix, typ string, fields jen.Dict) jen.Code {
	if len(fields) == 0 {
		return jen.Nil()
	}
	// One line, keys sorted: a rule reads like a tag, and equal rules render equal.
	var names []string
	byName := map[string]jen.Code{}
	for k, v := range fields {
		name := render(k)
		names = append(names, name)
		byName[name] = v
	}
	sort.Strings(names)
	var items []jen.Code
	for _, n := range names {
		items = append(items, jen.Id(n).Op(":").Add(byName[n]))
	}
	lit := jen.Qual(decodePath, typ).Values(items...)
	name := g.declare(prefix, "rule", render(lit), func(name string) jen.Code {
		return jen.Var().Id(name).Op("=").Add(lit)
	})
	return jen.Op("&").Id(name)
}

// stringRule renders the decode.StringRule of a string or text value. enumType is set for a
// string enum type, whose constants are its enum and whose maxLength is counted on the string
// read rather than refused before it is built.
func (g *generator) stringRule(t *model.Type, c *model.Constraints, enumType bool) (jen.Code, error) {
	f := jen.Dict{}
	if c.MinLength != nil && *c.MinLength > 0 {
		f[jen.Id("MinLength")] = jen.Lit(*c.MinLength)
	}
	if c.MaxLength != nil {
		f[jen.Id("MaxLength")] = jen.Lit(*c.MaxLength)
		f[jen.Id("HasMaxLength")] = jen.True()
		if enumType {
			f[jen.Id("LateMax")] = jen.True()
		}
	}
	if c.Pattern != "" {
		fn, err := g.patternFunc(c.Pattern)
		if err != nil {
			return nil, err
		}
		f[jen.Id("Pattern")] = jen.Id(fn)
		f[jen.Id("PatternText")] = jen.Lit(c.Pattern)
	}
	if c.Format != "" {
		fn, _, ok := formatFunc(c.Format)
		if !ok {
			return nil, fmt.Errorf("internal error: unknown format %q", c.Format)
		}
		f[jen.Id("Format")] = jen.Qual(decodePath, fn)
		f[jen.Id("FormatName")] = jen.Lit(c.Format)
	}
	var values []string
	switch {
	case enumType:
		values = enumStrings(t, c)
	case len(c.Enum) > 0:
		for _, lit := range c.Enum {
			var s string
			if err := json.Unmarshal([]byte(lit.JSON), &s); err != nil {
				return nil, fmt.Errorf("internal error: enum value %s of a string", lit.JSON)
			}
			values = append(values, s)
		}
	}
	if enumType || len(c.Enum) > 0 {
		var lits []jen.Code
		for _, v := range values {
			lits = append(lits, jen.Lit(v))
		}
		f[jen.Id("Enum")] = jen.Qual(decodePath, "NewEnum").Call(lits...)
	}
	prefix := "toolgenString#"
	if enumType && len(f) == 1 && len(c.Enum) == 0 {
		prefix = "toolgenEnum" + g.typeIdent(t)
	}
	return g.rule(prefix, "StringRule", f), nil
}

// enumStrings lists the values a string enum type accepts: its constants, restricted to an
// enum keyword when there is one, each value once (two constants with one value: the first
// names it).
func enumStrings(t *model.Type, c *model.Constraints) []string {
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
	var values []string
	seen := map[string]bool{}
	for _, ev := range allowed {
		if !seen[ev.String] {
			seen[ev.String] = true
			values = append(values, ev.String)
		}
	}
	return values
}

// intRule renders the decode.IntRule of an integer value; ok is false when a keyword does
// not fit one (a limit that is fractional, beyond int64, or negative for an unsigned type),
// and the value needs inline code.
func (g *generator) intRule(t *model.Type, c *model.Constraints) (jen.Code, bool) {
	unsigned := t.Kind == model.KindUint
	whole := func(text string) (int64, bool) {
		r, ok := new(big.Rat).SetString(text)
		if !ok || !r.IsInt() || !r.Num().IsInt64() {
			return 0, false
		}
		n := r.Num().Int64()
		return n, !unsigned || n >= 0
	}
	f := jen.Dict{}
	ok := true
	limit := func(n *model.Number, field string) {
		if n == nil {
			return
		}
		v, fits := whole(n.Text)
		if !fits || (field == "MultipleOf" && v == 0) {
			ok = false
			return
		}
		f[jen.Id(field)] = jen.Id(strconv.FormatInt(v, 10))
		f[jen.Id(field+"Text")] = jen.Lit(n.Text)
	}
	limit(c.Minimum, "Min")
	limit(c.ExclusiveMinimum, "ExclusiveMin")
	limit(c.Maximum, "Max")
	limit(c.ExclusiveMaximum, "ExclusiveMax")
	limit(c.MultipleOf, "MultipleOf")
	var values []jen.Code
	var shown []string
	if len(t.Enum) > 0 {
		seen := map[int64]bool{}
		for _, ev := range t.Enum {
			text := strconv.FormatInt(ev.Int, 10)
			if seen[ev.Int] || !enumAllowed(c, text) {
				continue
			}
			seen[ev.Int] = true
			values = append(values, jen.Id(text))
			shown = append(shown, text)
		}
		ok = ok && len(values) > 0 && (!unsigned || !slicesHasNegative(t.Enum))
	} else {
		for _, lit := range c.Enum {
			v, fits := whole(lit.JSON)
			ok = ok && fits
			values = append(values, jen.Id(strconv.FormatInt(v, 10)))
			shown = append(shown, lit.JSON)
		}
	}
	if !ok {
		return nil, false
	}
	if len(shown) > 0 {
		f[jen.Id("Enum")] = jen.Index().Int64().Values(values...)
		f[jen.Id("EnumText")] = jen.Lit(strings.Join(shown, ", "))
	}
	prefix := "toolgenInt#"
	if len(t.Enum) > 0 && len(c.Enum) == 0 && len(f) == 2 {
		prefix = "toolgenEnum" + g.typeIdent(t)
	}
	return g.rule(prefix, "IntRule", f), true
}

func slicesHasNegative(enum []*model.EnumValue) bool {
	for _, ev := range enum {
		if ev.Int < 0 {
			return true
		}
	}
	return false
}

// floatRule renders the decode.FloatRule of a float value.
func (g *generator) floatRule(c *model.Constraints) jen.Code {
	f := jen.Dict{}
	limit := func(n *model.Number, field string) {
		if n != nil {
			f[jen.Id(field)] = goNumber(n)
			f[jen.Id(field+"Text")] = jen.Lit(n.Text)
		}
	}
	limit(c.Minimum, "Min")
	limit(c.ExclusiveMinimum, "ExclusiveMin")
	limit(c.Maximum, "Max")
	limit(c.ExclusiveMaximum, "ExclusiveMax")
	if m := c.MultipleOf; m != nil {
		f[jen.Id("MultipleOf")] = jen.Id(g.constant("toolgenMultiple", "MultipleOf", m.Text))
		f[jen.Id("MultipleOfText")] = jen.Lit(m.Text)
	}
	if len(c.Enum) > 0 {
		var values []jen.Code
		var shown []string
		for _, lit := range c.Enum {
			values = append(values, jen.Id(lit.JSON))
			shown = append(shown, lit.JSON)
		}
		f[jen.Id("Enum")] = jen.Index().Float64().Values(values...)
		f[jen.Id("EnumText")] = jen.Lit(strings.Join(shown, ", "))
	}
	return g.rule("toolgenFloat#", "FloatRule", f)
}

// formatFunc maps a format name to its checker in runtime/decode and the phrase messages use,
// both read from runtime/decode's format registry.
func formatFunc(format string) (fn, describe string, ok bool) {
	_, describe, ok = decode.FormatFunc(format)
	if !ok {
		return "", "", false
	}
	fn, ok = decode.FormatChecker(format)
	return fn, describe, ok
}
