package schema

import (
	"bytes"
	"encoding/json"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/gen/model"
)

// mode selects the rules that differ between what a tool reads and what it writes.
type mode int

const (
	inputMode  mode = iota // arguments: Field.Required and Field.Nullable decide
	outputMode             // results: what the generated encoder writes decides
)

// maxPointerDepth bounds pointer chains (**T …) so a malformed model cannot loop.
const maxPointerDepth = 16

// builder renders the types of one schema document.
type builder struct {
	mode mode
	// refs holds the $ref of every type rendered once in $defs (or, for the root, "#").
	refs map[*model.Type]string
	// rendering holds the types whose bodies are being rendered; meeting one again means a
	// cycle without a name, which Go source cannot produce, and renders as the empty schema.
	rendering map[*model.Type]bool
}

// document renders root as a whole schema document: $schema, the root's own keywords and the
// $defs its tree needs. null makes the root accept null too (an output that may be nil).
func document(root *model.Type, m mode, null bool) []byte {
	refs, defs := plan(root)
	b := &builder{mode: m, refs: refs, rendering: map[*model.Type]bool{}}
	n := b.body(root)
	// The tool's description describes the root; the args type's doc ("WeatherArgs are the
	// arguments of …") speaks to Go programmers and would repeat it.
	n.description = ""
	if null {
		n = nullable(n)
	}
	n.schema = Draft
	for _, d := range defs {
		n.defs = append(n.defs, property{name: d.name, node: b.body(d.typ)})
	}
	var buf bytes.Buffer
	n.write(&buf)
	return buf.Bytes()
}

// emptyObject is the schema of a tool without arguments.
func emptyObject() *node {
	return &node{types: []string{"object"}, object: true, closed: true}
}

// value renders a use of t: pointers are looked through (their nullability is the caller's
// null), a type in $defs becomes a $ref, anything else is rendered in place.
func (b *builder) value(t *model.Type, null bool) *node {
	for i := 0; t != nil && t.Kind == model.KindPointer && b.refs[t] == "" && i < maxPointerDepth; i++ {
		t = t.Elem
	}
	var n *node
	if ref := b.refs[t]; ref != "" {
		n = &node{ref: ref}
	} else {
		n = b.body(t)
	}
	if null {
		n = nullable(n)
	}
	return n
}

// element renders the element of a slice, array or map (or the root's target): it may be
// null when its own kind can be.
func (b *builder) element(t *model.Type) *node {
	return b.value(t, b.mayBeNull(t))
}

// mayBeNull reports whether a value of type t can be null. Input: only pointers (and fields
// tagged nullable, decided by the caller) accept null. Output: the generated encoder writes a
// nil pointer, slice, map, []byte or json.RawMessage as null, so their schemas must accept it.
func (b *builder) mayBeNull(t *model.Type) bool {
	if t == nil {
		return false
	}
	if b.mode == inputMode {
		return t.Kind == model.KindPointer
	}
	switch t.Kind {
	case model.KindPointer, model.KindSlice, model.KindMap, model.KindBytes, model.KindRawJSON, model.KindAny:
		return true
	}
	return false
}

// body renders the shape of t itself, never a $ref to it.
func (b *builder) body(t *model.Type) *node {
	if t == nil || b.rendering[t] {
		return &node{}
	}
	b.rendering[t] = true
	defer delete(b.rendering, t)

	var n *node
	switch t.Kind {
	case model.KindString:
		n = &node{types: []string{"string"}}
	case model.KindBool:
		n = &node{types: []string{"boolean"}}
	case model.KindInt, model.KindUint:
		n = &node{types: []string{"integer"}}
		if len(t.Enum) == 0 {
			n.minimum, n.maximum = integerBounds(t.Kind, t.Bits)
		}
	case model.KindFloat:
		n = &node{types: []string{"number"}}
	case model.KindStruct:
		n = b.object(t)
	case model.KindSlice:
		n = &node{types: []string{"array"}, items: b.element(t.Elem)}
	case model.KindArray:
		size := max(t.Len, 0)
		n = &node{types: []string{"array"}, items: b.element(t.Elem), minItems: &size, maxItems: &size}
	case model.KindMap:
		n = &node{types: []string{"object"}, additional: b.element(t.Elem)}
		if t.Key != nil {
			switch t.Key.Kind {
			case model.KindInt:
				n.propertyNames = &node{pattern: intKeyPattern}
			case model.KindUint:
				n.propertyNames = &node{pattern: uintKeyPattern}
			}
		}
	case model.KindPointer:
		// Only a named pointer type in $defs gets here (value looks through the others).
		return b.value(t.Elem, true)
	case model.KindBytes:
		n = &node{types: []string{"string"}, contentEncoding: "base64", pattern: Base64Pattern}
	case model.KindTime:
		n = &node{types: []string{"string"}, format: "date-time"}
	case model.KindDuration:
		n = &node{types: []string{"string"}, pattern: DurationPattern, notes: []string{durationNote}}
	case model.KindText:
		n = &node{types: []string{"string"}}
	default: // KindRawJSON, KindAny: any JSON value; KindInvalid likewise rather than a panic
		n = &node{}
	}
	if len(t.Enum) > 0 && (t.Kind == model.KindString || t.Kind == model.KindInt || t.Kind == model.KindUint) {
		for _, v := range t.Enum {
			if v == nil {
				continue
			}
			lit := enumLiteral(t.Kind, v)
			n.enum = append(n.enum, lit)
			n.values = append(n.values, enumNote{literal: lit, doc: constantDoc(v.Doc)})
		}
	}
	// A type's doc describes it where it is inlined and in $defs; a field's own description
	// replaces it. Only structs and enums: other named types are often from the standard
	// library, whose docs speak to Go programmers.
	if t.Named != nil && (t.Kind == model.KindStruct || len(t.Enum) > 0) {
		n.description = strings.TrimSpace(t.Doc)
	}
	return n
}

// object renders a struct: properties and required in field order, nothing else allowed.
func (b *builder) object(t *model.Type) *node {
	n := &node{types: []string{"object"}, object: true, closed: true}
	seen := map[string]bool{}
	for _, f := range t.Fields {
		// encoding/json drops fields whose names clash; the parser reports them. Keep the
		// first, so the document stays valid JSON without duplicate keys.
		if f == nil || seen[f.JSONName] {
			continue
		}
		seen[f.JSONName] = true
		n.properties = append(n.properties, property{name: f.JSONName, node: b.field(f)})
		if b.required(f) {
			n.required = append(n.required, f.JSONName)
		}
	}
	return n
}

// required reports whether a property must be present: in input, as the parser decided; in
// output, when the encoder always writes it (no omitempty, no omitzero).
func (b *builder) required(f *model.Field) bool {
	if b.mode == inputMode {
		return f.Required
	}
	return !f.OmitEmpty && !f.OmitZero
}

// field renders one property: its type, null where allowed, its constraints and description.
func (b *builder) field(f *model.Field) *node {
	null := b.mayBeNull(f.Type)
	if b.mode == inputMode {
		null = null || f.Nullable
	} else if f.OmitEmpty || f.OmitZero {
		// A nil value is left out, never written as null.
		null = false
	}
	n := b.value(f.Type, null)
	constrain(n, &f.Constraints)
	if b.mode == inputMode {
		n.header = f.Header
	}
	if d := strings.TrimSpace(f.Description); d != "" {
		n.description = d
	}
	return n
}

// constrain adds the keywords of c to n, and those of c.Items to n's element (array items or
// map values), one level down per container.
func constrain(n *node, c *model.Constraints) {
	if c == nil || n == nil {
		return
	}
	if c.Minimum != nil && (n.minimum == nil || c.Minimum.Value >= n.minimum.value) {
		n.minimum = tagNumber(c.Minimum)
	}
	if c.Maximum != nil && (n.maximum == nil || c.Maximum.Value <= n.maximum.value) {
		n.maximum = tagNumber(c.Maximum)
	}
	if c.ExclusiveMinimum != nil {
		n.exclusiveMinimum = tagNumber(c.ExclusiveMinimum)
	}
	if c.ExclusiveMaximum != nil {
		n.exclusiveMaximum = tagNumber(c.ExclusiveMaximum)
	}
	if c.MultipleOf != nil {
		n.multipleOf = tagNumber(c.MultipleOf)
	}
	if c.MinLength != nil {
		n.minLength = c.MinLength
	}
	if c.MaxLength != nil {
		n.maxLength = c.MaxLength
	}
	switch {
	case c.Pattern == "" || c.Pattern == n.pattern:
	case n.pattern == "":
		n.pattern = c.Pattern
	default:
		// The type has a pattern of its own (a duration): both must hold, and an object has
		// one "pattern" key, so the tag's goes into allOf.
		n.allOf = append(n.allOf, &node{pattern: c.Pattern})
	}
	if c.Format != "" {
		n.format = c.Format
	}
	if c.MinItems != nil && (n.minItems == nil || *c.MinItems > *n.minItems) {
		n.minItems = c.MinItems
	}
	if c.MaxItems != nil && (n.maxItems == nil || *c.MaxItems < *n.maxItems) {
		n.maxItems = c.MaxItems
	}
	n.uniqueItems = n.uniqueItems || c.UniqueItems
	if c.MinProperties != nil {
		n.minProperties = c.MinProperties
	}
	if c.MaxProperties != nil {
		n.maxProperties = c.MaxProperties
	}
	if len(c.Enum) > 0 {
		n.enum = restrictEnum(n.enum, c.Enum, slices.Contains(n.types, "null"))
	}
	if c.Default != nil {
		n.defaultValue = literal(c.Default.JSON)
	}
	if c.Title != "" {
		n.title = c.Title
	}
	for _, e := range c.Examples {
		n.examples = append(n.examples, literal(e.JSON))
	}
	n.deprecated = n.deprecated || c.Deprecated
	if c.Items != nil {
		switch {
		case n.items != nil:
			constrain(n.items, c.Items)
		case n.additional != nil:
			constrain(n.additional, c.Items)
		}
	}
}

// restrictEnum applies a tag's enum to a node. On an enum type both lists must hold, so the
// result is the tag's values that are also constants, in the tag's order; a node that accepts
// null keeps accepting it.
func restrictEnum(typeEnum []string, tagEnum []model.Literal, null bool) []string {
	// Literals are compared by value through a map key each, so an enum of n values costs n
	// decodings, not n² comparisons (10,000 values took minutes).
	allowed := make(map[any]bool, len(typeEnum))
	for _, t := range typeEnum {
		allowed[literalKey(t)] = true
	}
	seen := make(map[any]bool, len(tagEnum))
	var out []string
	for _, l := range tagEnum {
		lit := literal(l.JSON)
		key := literalKey(lit)
		if len(typeEnum) > 0 && !allowed[key] || seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, lit)
	}
	if null && !slices.Contains(out, "null") {
		out = append(out, "null")
	}
	if len(out) == 0 {
		// No tag value is a constant: nothing validates. Say so rather than dropping the
		// enum, which would accept everything.
		out = []string{}
	}
	return out
}

// rawLiteral is the key of a literal that is not a JSON scalar: only the same text equals it.
type rawLiteral string

// ratKey is the key of a JSON number: its exact value, so that 2^53 and 2^53+1, one float64,
// stay two keys.
type ratKey string

// literalKey is the value of a JSON scalar as a map key, so that "caf\u00e9" and "café" are
// one key, and 1 and 1.0 another.
func literalKey(s string) any {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil || d.More() {
		return rawLiteral(s)
	}
	switch v := v.(type) {
	case json.Number:
		// big.Rat expands an exponent exactly, so a huge one (a typo) keeps its text instead.
		if !hugeExponent(string(v)) {
			if r, ok := new(big.Rat).SetString(string(v)); ok {
				return ratKey(r.RatString())
			}
		}
		return rawLiteral(s)
	case string, bool, nil:
		return v
	}
	return rawLiteral(s)
}

// hugeExponent reports whether a JSON number's exponent is beyond ±1000 (or unreadable).
func hugeExponent(n string) bool {
	i := strings.IndexAny(n, "eE")
	if i < 0 {
		return false
	}
	e, err := strconv.Atoi(strings.TrimPrefix(n[i+1:], "+"))
	return err != nil || e > 1000 || e < -1000
}

func tagNumber(n *model.Number) *number {
	return &number{text: numberText(n.Text, n.Value), value: n.Value}
}

// integerBounds gives the range of an integer kind where it fits a float64 exactly: the full
// range of 8, 16 and 32-bit kinds, and only the minimum 0 of uint and uint64. The 64-bit
// bounds would be rounded by validators that read numbers as float64; the decoder rejects
// overflow anyway.
func integerBounds(k model.Kind, bits int) (lo, hi *number) {
	num := func(v int64) *number { return &number{text: strconv.FormatInt(v, 10), value: float64(v)} }
	switch {
	case k == model.KindInt && (bits == 8 || bits == 16 || bits == 32):
		return num(-1 << (bits - 1)), num(1<<(bits-1) - 1)
	case k == model.KindUint && (bits == 8 || bits == 16 || bits == 32):
		return num(0), num(1<<bits - 1)
	case k == model.KindUint:
		return num(0), nil
	}
	return nil, nil
}

func enumLiteral(k model.Kind, v *model.EnumValue) string {
	if k == model.KindString {
		var buf bytes.Buffer
		WriteString(&buf, v.String)
		return buf.String()
	}
	if k == model.KindUint && v.Int < 0 {
		return strconv.FormatUint(uint64(v.Int), 10)
	}
	return strconv.FormatInt(v.Int, 10)
}

// constantDoc makes a constant's comment fit in parentheses: one line, no final period.
func constantDoc(doc string) string {
	doc = strings.Join(strings.Fields(doc), " ")
	return strings.TrimSuffix(doc, ".")
}
