package client

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/toolgen-go/toolgen/internal/jsonpointer"
)

// newType declares a named type, within MaxTypes.
func (b *builder) newType(t *Type) bool {
	if len(b.pkg.Types) >= MaxTypes {
		b.problems.errorf(t.Pointer, "the listing needs more than %d named types", MaxTypes)
		return false
	}
	t.Origin = b.docName
	rel := strings.TrimPrefix(t.Pointer, b.docPtr)
	if rel != "" {
		t.Origin += ", at " + rel
	}
	switch toks := jsonpointer.Tokens(rel); {
	case len(toks) == 0:
		t.root = true
	case len(toks) == 2 && (toks[0] == "$defs" || toks[0] == "definitions"):
		t.def = toks[1]
	case len(toks) >= 2 && toks[len(toks)-2] == "properties":
		t.prop = toks[len(toks)-1]
	}
	b.pkg.Types = append(b.pkg.Types, t)
	return true
}

// object types an object schema: a struct when it has properties (named hint), a map when it
// has only additionalProperties, map[string]json.RawMessage when it has neither.
func (b *builder) object(n *node, ptr, hint string, depth int, defKey string) GoType {
	props := n.get("properties")
	ap := n.get("additionalProperties")
	apPtr := pointerTo(ptr, "additionalProperties")
	if props != nil && props.kind != kindObject {
		b.problems.errorf(pointerTo(ptr, "properties"), "properties must be an object, not %s", props.kind)
		return GoType{}
	}
	if ap != nil && ap.kind != kindObject && ap.kind != kindBool {
		b.problems.errorf(apPtr, "additionalProperties must be a schema, not %s", ap.kind)
		return GoType{}
	}
	if props == nil || len(props.members) == 0 {
		switch {
		case n.get("patternProperties") != nil:
			b.problems.warnf(pointerTo(ptr, "patternProperties"), "patternProperties are not typed; map[string]json.RawMessage")
			return mapOf(GoType{})
		case ap == nil || ap.kind == kindBool && ap.boolean:
			return mapOf(GoType{})
		case ap.kind == kindObject:
			return mapOf(b.schema(ap, apPtr, hint+"Value", depth+1))
		}
		// additionalProperties false and no properties: only {} is valid, an empty struct.
	}
	if props != nil && len(props.members) > MaxProperties {
		b.problems.errorf(pointerTo(ptr, "properties"), "the object has %d properties, over the limit of %d", len(props.members), MaxProperties)
		return GoType{}
	}
	var members []member
	if props != nil {
		members = props.members
	}
	for _, m := range members {
		if !validTag(m.key) {
			b.problems.warnf(pointerTo(pointerTo(ptr, "properties"), m.key),
				"property name %q cannot be written in an encoding/json struct tag; the object is typed map[string]json.RawMessage", m.key)
			return mapOf(GoType{})
		}
	}
	t := &Type{Name: b.claimType(hint, ptr), Kind: StructType, Doc: description(n), Pointer: ptr}
	if !b.newType(t) {
		return GoType{}
	}
	if n == b.doc {
		b.root = t
	}
	if defKey != "" {
		b.defs[defKey] = t
	}
	required := b.required(n, ptr)
	fields := newNamespace()
	for _, m := range members {
		fptr := pointerTo(pointerTo(ptr, "properties"), m.key)
		if !b.checkName(fptr, "property name", m.key) {
			continue
		}
		name, takenBy := fields.claim(goName(m.key), fptr)
		if takenBy != "" {
			b.problems.warnf(fptr, "field name %s is taken by the property at %s; named %s", goName(m.key), takenBy, name)
		}
		ft := b.schema(m.value, fptr, t.Name+goName(m.key), depth+1)
		_, req := required[m.key]
		delete(required, m.key)
		switch {
		case ft.Kind == KindNamed && ft.Named == t:
			ft = ptrTo(ft) // a struct that holds itself holds a pointer to itself
		case !req && (ft.isStruct() || zeroIsNotAbsent(m.value, ft) || b.output && !ft.nilable()):
			// An optional property is a pointer where its zero value would say something
			// else than "absent": a struct (omitempty never leaves one out), an argument
			// whose default is not its zero value, and any result property, whose absence
			// the caller must be able to tell from a zero.
			ft = ptrTo(ft)
		}
		f := &Field{Name: name, JSON: m.key, Doc: description(m.value), Type: ft, OmitEmpty: !req}
		if ft.Kind == KindRaw && !isAny(m.value) {
			f.Doc = joinDoc(f.Doc, "Not typed by toolgen -client (see its warning); the JSON as it is.")
		}
		t.Fields = append(t.Fields, f)
	}
	for _, name := range sortedKeys(required) {
		b.problems.warnf(required[name], "required property %q is not among the properties; the client cannot set it", name)
	}
	if ap != nil && !(ap.kind == kindBool && !ap.boolean) {
		t.Doc = joinDoc(t.Doc, "Properties other than these fields are not kept.")
	}
	return named(t)
}

// required reads "required": the names, each with its pointer.
func (b *builder) required(n *node, ptr string) map[string]string {
	out := map[string]string{}
	r := n.get("required")
	if r == nil {
		return out
	}
	rptr := pointerTo(ptr, "required")
	if r.kind != kindArray {
		b.problems.errorf(rptr, "required must be an array of property names, not %s", r.kind)
		return out
	}
	for i, it := range r.items {
		if it.kind != kindString {
			b.problems.errorf(pointerIndex(rptr, i), "required must list property names (strings), not %s", it.kind)
			continue
		}
		out[it.str] = pointerIndex(rptr, i)
	}
	return out
}

// isAny reports whether a schema is {} or true: any JSON value, typed json.RawMessage by
// design rather than as a fallback.
func isAny(n *node) bool {
	if n.kind == kindBool {
		return n.boolean
	}
	return validationOnly(n) && n.get("not") == nil
}

// validTag reports whether encoding/json accepts name as a struct tag's key (its isValidTag):
// any other name would make encoding/json use the Go field name instead, silently.
func validTag(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range name {
		if !strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c) && !unicode.IsLetter(c) && !unicode.IsDigit(c) {
			return false
		}
	}
	return true
}

// zeroIsNotAbsent reports whether leaving out an optional property's Go zero value would send
// something other than what the caller set: the schema has a default that is not the zero
// value, and the zero value is valid (a bool defaulting to true, an integer defaulting to 5
// whose 0 is allowed). Such a field is a pointer, so that false or 0 is sent when set.
func zeroIsNotAbsent(n *node, t GoType) bool {
	def := n.get("default")
	if def == nil {
		return false
	}
	switch t.Kind {
	case KindBool:
		return def.kind == kindBool && def.boolean
	case KindInt, KindFloat:
		if def.kind != kindNumber {
			return false
		}
		if v, err := strconv.ParseFloat(string(def.num), 64); err != nil || v == 0 {
			return false
		}
		return numberAllowsZero(n)
	case KindString:
		if def.kind != kindString || def.str == "" {
			return false
		}
		if m := n.get("minLength"); m != nil && m.kind == kindNumber && string(m.num) != "0" {
			return false
		}
		if p := n.get("pattern"); p != nil && p.kind == kindString {
			re, err := regexp.Compile(p.str)
			return err != nil || re.MatchString("")
		}
		return true
	case KindNamed:
		if t.Named.Kind != EnumType || def.kind != kindString || def.str == "" {
			return false
		}
		for _, v := range t.Named.Values {
			if v.Value == "" {
				return true
			}
		}
	}
	return false
}

// numberAllowsZero reports whether 0 is within a number schema's bounds.
func numberAllowsZero(n *node) bool {
	bound := func(key string) (float64, bool) {
		v := n.get(key)
		if v == nil || v.kind != kindNumber {
			return 0, false
		}
		f, err := strconv.ParseFloat(string(v.num), 64)
		return f, err == nil
	}
	if v, ok := bound("minimum"); ok && v > 0 {
		return false
	}
	if v, ok := bound("exclusiveMinimum"); ok && v >= 0 {
		return false
	}
	if v, ok := bound("maximum"); ok && v < 0 {
		return false
	}
	if v, ok := bound("exclusiveMaximum"); ok && v <= 0 {
		return false
	}
	return true
}

// array types an array schema as a slice of its items' type.
func (b *builder) array(n *node, ptr, hint string, depth int) GoType {
	if n.get("prefixItems") != nil {
		b.problems.warnf(pointerTo(ptr, "prefixItems"), "a tuple (prefixItems) is not typed; []json.RawMessage")
		return sliceOf(GoType{})
	}
	items := n.get("items")
	switch {
	case items == nil:
		return sliceOf(GoType{})
	case items.kind == kindArray:
		b.problems.warnf(pointerTo(ptr, "items"), "a tuple (items as an array) is not typed; []json.RawMessage")
		return sliceOf(GoType{})
	}
	return sliceOf(b.schema(items, pointerTo(ptr, "items"), hint+"Item", depth+1))
}

// enum types an enum: a named string type with a constant per value when every value is a
// string, else the values' common type (the description lists them).
func (b *builder) enum(n, e *node, types []string, ptr, hint string) (GoType, bool) {
	if e.kind != kindArray || len(e.items) == 0 {
		b.problems.errorf(ptr, "enum must be a non-empty array")
		return GoType{}, false
	}
	if len(e.items) > MaxEnumValues {
		b.problems.errorf(ptr, "the enum has %d values, over the limit of %d", len(e.items), MaxEnumValues)
		return GoType{}, false
	}
	null := false
	kinds := map[string]bool{}
	for _, v := range e.items {
		if v.kind == kindNull {
			null = true
			continue
		}
		kinds[jsonType(v)] = true
	}
	if kinds["integer"] && kinds["number"] {
		delete(kinds, "integer")
	}
	if len(kinds) != 1 {
		b.problems.warnf(ptr, "an enum of values of several types is not typed; json.RawMessage")
		return GoType{}, false
	}
	switch {
	case kinds["string"] && (len(types) == 0 || len(types) == 1 && types[0] == "string"):
	case kinds["integer"] || kinds["number"] || kinds["boolean"]:
		base := map[string]Kind{"integer": KindInt, "number": KindFloat, "boolean": KindBool}
		for k := range kinds {
			if len(types) == 1 && types[0] == "number" {
				k = "number"
			}
			return GoType{Kind: base[k]}, null
		}
	default:
		b.problems.warnf(ptr, "an enum of %s values is not typed; json.RawMessage", jsonType(e.items[0]))
		return GoType{}, false
	}
	schemaPtr := strings.TrimSuffix(ptr, "/enum")
	t := &Type{Name: b.claimType(hint, schemaPtr), Kind: EnumType, Doc: description(n), Pointer: schemaPtr}
	if !b.newType(t) {
		return GoType{}, false
	}
	for i, v := range e.items {
		if v.kind != kindString {
			continue
		}
		vptr := pointerIndex(ptr, i)
		if !b.checkName(vptr, "enum value", v.str) {
			continue
		}
		suffix := "Empty"
		if v.str != "" {
			suffix = goSuffix(v.str)
		}
		t.Values = append(t.Values, &EnumValue{Name: b.claimType(t.Name+suffix, vptr), Value: v.str})
	}
	return named(t), null
}

func joinDoc(doc, note string) string {
	if doc == "" {
		return note
	}
	return doc + "\n\n" + note
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
