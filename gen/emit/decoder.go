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

// The decoder emitted for an argument type is a table, not code: runtime/decode reads the
// JSON once, front to back, against it (decode.Into). A wrong JSON type is recorded and
// skipped, a failed keyword is recorded, and decoding goes on; only malformed JSON returns
// early. Each named struct type gets a decode.Struct (toolgenStructX) listing, per property,
// the field's offset and a decode.Value saying how to read it: its kind and a rule holding
// its keywords (decode.StringRule, IntRule, FloatRule), each declared once per distinct set
// and shared by every field that has it. Slices, maps, pointers and text types name their Go
// type with a generic of size zero (&decode.SliceOf[E]{}, …), which allocates them. Tables are
// composite literals the linker lays out, so a tool adds data to a binary rather than code.
//
// Every argument type has a table: an unnamed struct type through an alias that spells it
// (decodeType), a field promoted through embedded pointers through a KindEmbedded value per
// pointer, integer keywords as the whole numbers that decide the same values (intRule). The
// only generated functions are defaults and pattern matchers (defaults.go).

// unsafePointer renders unsafe.Pointer.
func unsafePointer() *jen.Statement { return jen.Qual("unsafe", "Pointer") }

// argsTable returns &toolgenStructX, the table of the arguments type t, for the binding.
func (g *generator) argsTable(t *model.Type) (jen.Code, error) {
	name, err := g.structTable(t)
	if err != nil {
		return nil, err
	}
	return jen.Op("&").Id(name), nil
}

// structTable returns the name of the decode.Struct of a named struct type, queueing its
// emission the first time.
func (g *generator) structTable(t *model.Type) (string, error) {
	typ, err := g.decodeType(t)
	if err != nil {
		return "", err
	}
	name := "toolgenStruct" + g.typeIdent(t)
	if t.Named == nil {
		name = "toolgenStruct" + strings.TrimPrefix(render(typ), "toolgen") // after its spelling: toolgenStructAnon_3f9a1c2e
	}
	if g.decoders[name] {
		return name, nil
	}
	g.decoders[name] = true
	g.pending = append(g.pending, func() error {
		lit, err := g.structLit(t)
		if err != nil {
			return err
		}
		code := jen.Commentf("%s is how to decode a %s.", name, typeLabel(t)).Line()
		if g.recursive(t) {
			// The table refers to itself through its values: Go would refuse the declaration
			// as an initialisation cycle, so it is filled in by init.
			code.Var().Id(name).Qual(toolimplPath, "Struct").Line().Line().
				Func().Id("init").Params().Block(jen.Id(name).Op("=").Add(lit))
		} else {
			code.Var().Id(name).Op("=").Add(lit)
		}
		g.decodeDecls = append(g.decodeDecls, decl{name: name, code: code})
		return nil
	})
	return name, nil
}

// structLit renders the decode.Struct of a named struct type: a member per field, in the
// order of its fields table, and the members with a default.
func (g *generator) structLit(t *model.Type) (jen.Code, error) {
	typ, err := g.decodeType(t)
	if err != nil {
		return nil, err
	}
	var members, defaults []jen.Code
	for i, f := range t.Fields {
		label := fmt.Sprintf("%s.%s", typeLabel(t), f.GoName)
		g.field = label
		value, direct, err := g.memberValue(f)
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", label, err)
		}
		m := jen.Dict{jen.Id("Value"): value, jen.Id("Offset"): memberOffset(typ, f)}
		if !f.Required && f.Constraints.Default != nil && !zeroDefault(f.Type, f.Constraints.Default) {
			fn, err := g.defaultFunc(f, direct)
			if err != nil {
				return nil, fmt.Errorf("field %s: %w", f.GoName, err)
			}
			m[jen.Id("Default")] = jen.Id(fn)
			defaults = append(defaults, jen.Lit(i))
		}
		members = append(members, jen.Values(m))
		g.field = ""
	}
	fields := jen.Dict{jen.Id("Fields"): jen.Id(g.fieldsTable(t))}
	if len(members) > 0 {
		fields[jen.Id("Members")] = jen.Index().Qual(toolimplPath, "Member").Values(members...)
	}
	if len(defaults) > 0 {
		fields[jen.Id("Defaults")] = jen.Index().Int().Values(defaults...)
	}
	return jen.Qual(toolimplPath, "Struct").Values(fields), nil
}

// zeroDefault reports whether a default is the zero value of its type (0, "", false): the
// arguments a table decodes into start as zero, so such a default needs no function.
func zeroDefault(t *model.Type, lit *model.Literal) bool {
	switch t.Kind {
	case model.KindString:
		return lit.JSON == `""`
	case model.KindInt, model.KindUint, model.KindFloat:
		f, err := strconv.ParseFloat(lit.JSON, 64)
		return err == nil && f == 0
	case model.KindBool:
		return lit.JSON == "false"
	}
	return false
}

// memberValue renders the value of field f of the struct type t. direct reports that it
// reads the field itself, at its offset; otherwise the field is promoted through embedded
// pointers, the member's offset is the first one's and the value a KindEmbedded per pointer,
// which allocates it on first use as encoding/json does and reads on at the field's offset in
// the struct it points to.
func (g *generator) memberValue(f *model.Field) (value jen.Code, direct bool, err error) {
	value, err = g.valueTable(f.Type, &f.Constraints, f.Nullable)
	if err != nil {
		return nil, false, err
	}
	pointers := embeddedPointers(f)
	for j := len(pointers) - 1; j >= 0; j-- {
		e := f.Embedded[pointers[j]]
		typ, err := g.typeExpr(e.Type)
		if err != nil {
			return nil, false, err
		}
		next := f.GoName
		if j+1 < len(pointers) {
			next = f.Embedded[pointers[j+1]].GoName
		}
		value = g.valueVar("toolgenValueEmbedded#", jen.Dict{
			jen.Id("Kind"):   jen.Qual(toolimplPath, "KindEmbedded"),
			jen.Id("Go"):     jen.Op("&").Qual(toolimplPath, "PointerOf").Types(typ).Values(),
			jen.Id("Offset"): jen.Qual("unsafe", "Offsetof").Call(jen.Add(typ).Values().Dot(next)),
			jen.Id("Elem"):   value,
		})
	}
	return value, len(pointers) == 0, nil
}

// embeddedPointers lists the indexes in f.Embedded of the embedded pointers f is reached
// through.
func embeddedPointers(f *model.Field) []int {
	var out []int
	for i, e := range f.Embedded {
		if e.Pointer {
			out = append(out, i)
		}
	}
	return out
}

// memberOffset renders the offset of field f's member in the struct type typ: the field's,
// or that of the first embedded pointer it is reached through. A field promoted through
// embedded values is selected by its own name, whose offset Go counts from the outer struct.
func memberOffset(typ jen.Code, f *model.Field) jen.Code {
	name := f.GoName
	if pointers := embeddedPointers(f); len(pointers) > 0 {
		name = f.Embedded[pointers[0]].GoName
	}
	return jen.Qual("unsafe", "Offsetof").Call(jen.Add(typ).Values().Dot(name))
}

// defaultFunc declares (once per distinct body) the function giving field f its default, and
// returns its name: func(p unsafe.Pointer) setting the field at p, or, when the member is not
// direct, the field reached through the embedded pointer at p, allocated when nil.
func (g *generator) defaultFunc(f *model.Field, direct bool) (string, error) {
	def, err := g.defaultValue(f.Type, f.Constraints.Default)
	if err != nil {
		return "", err
	}
	var body jen.Code
	if direct {
		typ, err := g.decodeType(f.Type)
		if err != nil {
			return "", err
		}
		body = jen.Op("*").Parens(jen.Op("*").Add(typ)).Call(jen.Id("p")).Op("=").Add(def)
	} else {
		first := embeddedPointers(f)[0]
		typ, err := g.typeExpr(f.Embedded[first].Type)
		if err != nil {
			return "", err
		}
		v := jen.Qual(toolimplPath, "Alloc").Call(jen.Parens(jen.Op("**").Add(typ)).Call(jen.Id("p")))
		for _, e := range f.Embedded[first+1:] {
			if e.Pointer {
				v = jen.Qual(toolimplPath, "Alloc").Call(jen.Op("&").Add(v).Dot(e.GoName))
			} else {
				v = v.Dot(e.GoName)
			}
		}
		body = v.Dot(f.GoName).Op("=").Add(def)
	}
	return g.declare("toolgenDefault#", "default", render(body), func(name string) jen.Code {
		return jen.Commentf("%s sets the default %s.", name, f.Constraints.Default.JSON).Line().
			Func().Id(name).Params(jen.Id("p").Add(unsafePointer())).Block(body)
	}), nil
}

// recursive reports whether the named struct type t contains itself, through any path of
// fields and elements.
func (g *generator) recursive(t *model.Type) bool {
	seen := map[*model.Type]bool{}
	var reaches func(u *model.Type) bool
	reaches = func(u *model.Type) bool {
		if u == nil {
			return false
		}
		if u == t {
			return true
		}
		if seen[u] {
			return false
		}
		seen[u] = true
		for _, f := range u.Fields {
			if reaches(f.Type) {
				return true
			}
		}
		return reaches(u.Elem) || reaches(u.Key)
	}
	for _, f := range t.Fields {
		if reaches(f.Type) {
			return true
		}
	}
	return false
}

// fieldsTable declares (once per distinct list) the property names of a struct type and which
// are required, and returns the name of the *decode.Fields: named after the type, or after the
// type whose name sorts first of those with the same list (planIdents).
func (g *generator) fieldsTable(t *model.Type) string {
	var names []jen.Code
	args := []jen.Code{nil}
	for i, f := range t.Fields {
		names = append(names, jen.Lit(f.JSONName))
		if f.Required {
			args = append(args, jen.Lit(i))
		}
	}
	args[0] = jen.Index().String().Values(names...)
	key := fieldsKey(t)
	owner, ok := g.fieldsOwner[key]
	if !ok {
		owner = g.typeIdent(t)
	}
	return g.declare("toolgenFields"+owner, "fields", key, func(name string) jen.Code {
		return jen.Var().Id(name).Op("=").Qual(toolimplPath, "NewFields").Call(args...)
	})
}

// fieldsKey is the text of a struct type's property list: its names, and which are required.
func fieldsKey(t *model.Type) string {
	var key strings.Builder
	for _, f := range t.Fields {
		key.WriteString(strconv.Quote(f.JSONName))
		if f.Required {
			key.WriteString("!")
		}
		key.WriteString(",")
	}
	return key.String()
}

// declare emits (once per kind and key) a package-level declaration made by code and returns
// its name, which claim derives from name and key: name itself, or, for a name ending in "#",
// the prefix with a hash of key (toolgenString_3f9a1c2e).
func (g *generator) declare(name, kind, key string, code func(name string) jen.Code) string {
	k := "declare\x00" + kind + "\x00" + key
	if !strings.HasSuffix(name, "#") {
		// A name of its own (a type's enum): declared once per name, even when another
		// type's is equal, so that neither takes its name from the other.
		k += "\x00" + name
	}
	if n, ok := g.constants[k]; ok {
		g.use(n)
		return n
	}
	name = g.claim(name, k)
	g.constants[k] = name
	g.use(name)
	g.decodeDecls = append(g.decodeDecls, decl{name: name, code: code(name)})
	return name
}

// render is the Go text of code, to compare generated values.
func render(code jen.Code) string { return fmt.Sprintf("%#v", jen.Null().Add(code)) }

// valueVar declares (once per distinct value) a decode.Value with the given fields, named name
// (see declare), and returns its address.
func (g *generator) valueVar(name string, fields jen.Dict) jen.Code {
	lit := jen.Qual(toolimplPath, "Value").Values(fields)
	name = g.declare(name, "value", render(lit), func(name string) jen.Code {
		return jen.Var().Id(name).Op("=").Add(lit)
	})
	return jen.Op("&").Id(name)
}

// valueTable renders the address of the decode.Value reading a value of type t with
// constraints c.
func (g *generator) valueTable(t *model.Type, c *model.Constraints, nullable bool) (jen.Code, error) {
	if c == nil {
		c = &model.Constraints{}
	}
	kind := func(k string) jen.Code { return jen.Qual(toolimplPath, k) }
	f := jen.Dict{}
	// The value's name says what it reads: its kind alone for a plain one, shared by every
	// field of that kind (toolgenValueString); with the name of its rule, which with the kind
	// says all it holds (toolgenValueString_3f9a1c2e for the rule toolgenString_3f9a1c2e,
	// toolgenValueEnumUnit for toolgenEnumUnit); else with a hash of what it holds.
	name := ""
	named := func(what, rule string) {
		name = "toolgenValue" + what
		switch {
		case strings.HasPrefix(rule, "toolgenEnum"):
			name = "toolgenValue" + strings.TrimPrefix(rule, "toolgen") // an enum type has one kind
		case rule != "":
			name += rule[strings.LastIndexByte(rule, '_'):]
		}
	}
	if nullable && t.Kind != model.KindPointer {
		elem, err := g.valueTable(t, c, false)
		if err != nil {
			return nil, err
		}
		return g.valueVar("toolgenValueNullable#", jen.Dict{jen.Id("Kind"): kind("KindNullable"), jen.Id("Elem"): elem}), nil
	}
	// goType sets a KindGo value reading the Go type named by generic[types...], whose items
	// (or pointee) elem reads.
	goType := func(generic string, elem jen.Code, types ...jen.Code) {
		f[jen.Id("Kind")] = kind("KindGo")
		f[jen.Id("Go")] = jen.Op("&").Qual(toolimplPath, generic).Types(types...).Values()
		if elem != nil {
			f[jen.Id("Elem")] = elem
		}
	}
	switch t.Kind {
	case model.KindPointer, model.KindSlice, model.KindArray, model.KindMap:
		items := c
		if t.Kind != model.KindPointer {
			items = c.Items
		}
		elem, err := g.valueTable(t.Elem, items, false)
		if err != nil {
			return nil, err
		}
		elemType, err := g.decodeType(t.Elem)
		if err != nil {
			return nil, err
		}
		name = "toolgenValue" + map[model.Kind]string{model.KindPointer: "Pointer", model.KindArray: "Array", model.KindSlice: "Slice", model.KindMap: "Map"}[t.Kind] + "#"
		switch t.Kind {
		case model.KindPointer:
			goType("PointerOf", elem, elemType)
		case model.KindArray:
			goType("ArrayOf", elem, elemType)
			f[jen.Id("Min")] = jen.Lit(t.Len)
		case model.KindSlice:
			generic := "SliceOf"
			if c.UniqueItems {
				generic = "UniqueSliceOf"
			}
			goType(generic, elem, elemType)
			f[jen.Id("Min")], f[jen.Id("Max")] = countLimits(c.MinItems, c.MaxItems)
		case model.KindMap:
			keyType, err := g.decodeType(t.Key)
			if err != nil {
				return nil, err
			}
			switch t.Key.Kind {
			case model.KindString:
				goType("MapOf", elem, keyType, elemType)
			case model.KindInt:
				goType("IntMapOf", elem, keyType, elemType)
			case model.KindUint:
				goType("UintMapOf", elem, keyType, elemType)
			case model.KindText:
				goType("TextMapOf", elem, keyType, jen.Op("*").Add(keyType), elemType)
			default:
				return nil, fmt.Errorf("internal error: map key kind %s", t.Key.Kind)
			}
			f[jen.Id("Min")], f[jen.Id("Max")] = countLimits(c.MinProperties, c.MaxProperties)
		}
	case model.KindString:
		rule, err := g.stringRule(t, c, len(t.Enum) > 0)
		if err != nil {
			return nil, err
		}
		f[jen.Id("Kind")] = kind("KindString")
		setRule(f, "Str", rule)
		named("String", rule)
	case model.KindText:
		rule, err := g.stringRule(t, c, false)
		if err != nil {
			return nil, err
		}
		typ, err := g.typeExpr(t)
		if err != nil {
			return nil, err
		}
		goType("TextOf", nil, typ, jen.Op("*").Add(typ))
		setRule(f, "Str", rule)
		named("Text"+g.typeIdent(t), rule)
	case model.KindInt, model.KindUint:
		rule, err := g.intRule(t, c)
		if err != nil {
			return nil, err
		}
		f[jen.Id("Kind")] = kind(map[model.Kind]string{model.KindInt: "KindInt", model.KindUint: "KindUint"}[t.Kind])
		f[jen.Id("Size")] = intSize(t)
		setRule(f, "Int", rule)
		named(map[model.Kind]string{model.KindInt: "Int", model.KindUint: "Uint"}[t.Kind]+bitsSuffix(t.Bits), rule)
	case model.KindFloat:
		f[jen.Id("Kind")] = kind("KindFloat")
		f[jen.Id("Size")] = jen.Lit(t.Bits / 8)
		rule := g.floatRule(c)
		setRule(f, "Float", rule)
		named(fmt.Sprintf("Float%d", t.Bits), rule)
	case model.KindBool, model.KindBytes, model.KindTime, model.KindDuration, model.KindRawJSON, model.KindAny:
		k := map[model.Kind]string{model.KindBool: "Bool", model.KindBytes: "Bytes",
			model.KindTime: "Time", model.KindDuration: "Duration", model.KindRawJSON: "Raw", model.KindAny: "Any"}[t.Kind]
		f[jen.Id("Kind")] = kind("Kind" + k)
		named(k, "")
	case model.KindStruct:
		table, err := g.structTable(t)
		if err != nil {
			return nil, err
		}
		f[jen.Id("Kind")] = kind("KindStruct")
		f[jen.Id("Struct")] = jen.Op("&").Id(table)
		named(strings.TrimPrefix(table, "toolgen"), "")
	default:
		return nil, fmt.Errorf("internal error: no decoder for %s", t.Kind)
	}
	return g.valueVar(name, f), nil
}

// decodeType renders the Go type of t as typeExpr does, and an unnamed struct type, which
// typeExpr refuses, as an alias declared for it (toolgenAnon_3f9a1c2e = struct{…}, every field
// with its tag, so that the alias is identical to the type).
func (g *generator) decodeType(t *model.Type) (jen.Code, error) {
	if t.Named != nil {
		return g.typeExpr(t)
	}
	switch t.Kind {
	case model.KindStruct:
		if t.Shape == nil {
			return nil, fmt.Errorf("an unnamed struct type with a field generated code cannot spell (an unexported name of another package, or a function, channel or interface type) cannot be decoded; declare a named type for it")
		}
		spelled := g.goTypeExpr(t.Shape, nil)
		name := g.declare("toolgenAnon#", "alias", render(spelled), func(name string) jen.Code {
			return jen.Commentf("%s is an unnamed struct type of the arguments, named for its decoder table.", name).Line().
				Type().Id(name).Op("=").Add(spelled)
		})
		return jen.Id(name), nil
	case model.KindSlice, model.KindArray, model.KindMap, model.KindPointer:
		elem, err := g.decodeType(t.Elem)
		if err != nil {
			return nil, err
		}
		switch t.Kind {
		case model.KindSlice:
			return jen.Index().Add(elem), nil
		case model.KindArray:
			return jen.Index(jen.Lit(t.Len)).Add(elem), nil
		case model.KindPointer:
			return jen.Op("*").Add(elem), nil
		}
		key, err := g.decodeType(t.Key)
		if err != nil {
			return nil, err
		}
		return jen.Map(key).Add(elem), nil
	}
	return g.typeExpr(t)
}

// setRule sets a value's rule field to the address of the rule named rule, unless there is
// none (no keywords).
func setRule(f jen.Dict, field string, rule string) {
	if rule != "" {
		f[jen.Id(field)] = jen.Op("&").Id(rule)
	}
}

// intSize renders the size in bytes of an integer type: int and uint are sized by the
// platform, so by unsafe.Sizeof, a constant.
func intSize(t *model.Type) jen.Code {
	if t.Bits != 0 {
		return jen.Lit(t.Bits / 8)
	}
	zero := jen.Int().Call(jen.Lit(0))
	if t.Kind == model.KindUint {
		zero = jen.Uint().Call(jen.Lit(0))
	}
	return jen.Uint8().Call(jen.Qual("unsafe", "Sizeof").Call(zero))
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

// rule declares (once per distinct value) a rule variable of type decode.TYPE with the given
// fields and returns its name, or "" (no rule) when no field is set.
func (g *generator) rule(prefix, typ string, fields jen.Dict) string {
	if len(fields) == 0 {
		return ""
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
	lit := jen.Qual(toolimplPath, typ).Values(items...)
	return g.declare(prefix, "rule", render(lit), func(name string) jen.Code {
		return jen.Var().Id(name).Op("=").Add(lit)
	})
}

// stringRule renders the decode.StringRule of a string or text value. enumType is set for a
// string enum type, whose constants are its enum and whose maxLength is counted on the string
// read rather than refused before it is built.
func (g *generator) stringRule(t *model.Type, c *model.Constraints, enumType bool) (string, error) {
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
			return "", err
		}
		f[jen.Id("Pattern")] = jen.Id(fn)
		f[jen.Id("PatternText")] = jen.Lit(c.Pattern)
	}
	if c.Format != "" {
		fn, _, ok := formatFunc(c.Format)
		if !ok {
			return "", fmt.Errorf("internal error: unknown format %q", c.Format)
		}
		f[jen.Id("Format")] = jen.Qual(toolimplPath, fn)
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
				return "", fmt.Errorf("internal error: enum value %s of a string", lit.JSON)
			}
			values = append(values, s)
		}
	}
	if enumType || len(c.Enum) > 0 {
		var lits []jen.Code
		for _, v := range values {
			lits = append(lits, jen.Lit(v))
		}
		f[jen.Id("Enum")] = jen.Qual(toolimplPath, "NewEnum").Call(lits...)
	}
	prefix := "toolgenString#"
	if enumType && len(f) == 1 && len(c.Enum) == 0 {
		// The enum of a type: named after the type, kept apart from any other type's.
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

// intRule renders the decode.IntRule of an integer value. A limit that is not a whole number
// of the type's range (0.5 on an int, 1e30, -1 on a uint) is held as the whole number that
// decides the same values: an integer is at least 0.5 when it is at least 1, a multiple of
// 1.5 when it is one of 3; one no value can fail is left out, and the message still shows
// the keyword as written. An unsigned rule holds its numbers as the bits of their uint64
// (18446744073709551614 is int64 -2), which is what decode converts them back to. A keyword
// no value of the type can meet is refused by the parser (model.IntegerKeywordNoValue): a
// table cannot say "never".
func (g *generator) intRule(t *model.Type, c *model.Constraints) (string, error) {
	unsigned := t.Kind == model.KindUint
	lo, hi := model.IntegerRange(unsigned)
	// stored renders n (within [lo, hi]) as the int64 the rule holds.
	stored := func(n *big.Int) jen.Code {
		if unsigned {
			return jen.Id(strconv.FormatInt(int64(n.Uint64()), 10))
		}
		return jen.Id(n.String())
	}
	if keyword, text, ok := model.IntegerKeywordNoValue(unsigned, c); ok {
		// The parser reports it at the field first.
		return "", fmt.Errorf("internal error: %s=%s leaves no value of %s", keyword, text, typeLabel(t))
	}
	f := jen.Dict{}
	// limit holds bound n of the relation given by lower (a minimum) and exclusive, as the
	// whole number k it is met by exactly when n is.
	limit := func(n *model.Number, field, keyword string, lower, exclusive bool) {
		if n == nil {
			return
		}
		k, always, _ := model.IntegerBound(unsigned, n.Text, lower, exclusive)
		r, _ := new(big.Rat).SetString(n.Text) // the annotations package checked the number grammar
		if always && !(r.IsInt() && k.Cmp(lo) >= 0 && k.Cmp(hi) <= 0) {
			return // a whole number of the range stays, as it always did
		}
		f[jen.Id(field)] = stored(k)
		f[jen.Id(field+"Text")] = jen.Lit(n.Text)
	}
	limit(c.Minimum, "Min", "minimum", true, false)
	limit(c.ExclusiveMinimum, "ExclusiveMin", "exclusiveMinimum", true, true)
	limit(c.Maximum, "Max", "maximum", false, false)
	limit(c.ExclusiveMaximum, "ExclusiveMax", "exclusiveMaximum", false, true)
	if m := c.MultipleOf; m != nil {
		// An integer is a multiple of p/q (in lowest terms) exactly when it is one of p.
		r, _ := new(big.Rat).SetString(m.Text)
		f[jen.Id("MultipleOf")] = stored(r.Num())
		f[jen.Id("MultipleOfText")] = jen.Lit(m.Text)
	}
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
			values = append(values, stored(big.NewInt(ev.Int)))
			shown = append(shown, text)
		}
		if len(values) == 0 {
			return "", fmt.Errorf("internal error: the enum leaves no constant of %s", typeLabel(t))
		}
	} else {
		for _, lit := range c.Enum {
			// A value that is no whole number of the range is shown but never matches.
			if r, ok := new(big.Rat).SetString(lit.JSON); ok && r.IsInt() && r.Num().Cmp(lo) >= 0 && r.Num().Cmp(hi) <= 0 {
				values = append(values, stored(r.Num()))
			}
			shown = append(shown, lit.JSON)
		}
	}
	if len(shown) > 0 {
		f[jen.Id("Enum")] = jen.Index().Int64().Values(values...)
		f[jen.Id("EnumText")] = jen.Lit(strings.Join(shown, ", "))
	}
	prefix := "toolgenInt#"
	if len(t.Enum) > 0 && len(c.Enum) == 0 && len(f) == 2 {
		prefix = "toolgenEnum" + g.typeIdent(t)
	}
	return g.rule(prefix, "IntRule", f), nil
}

// floatRule renders the decode.FloatRule of a float value.
func (g *generator) floatRule(c *model.Constraints) string {
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
