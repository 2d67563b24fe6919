package dialect

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/internal/jsonpointer"
)

// geminiParametersKeywords are the fields of Gemini's Schema (an OpenAPI 3.0 subset), the
// only ones `parameters` may hold.
var geminiParametersKeywords = set("type", "format", "title", "description", "nullable", "enum",
	"properties", "required", "propertyOrdering", "items", "minItems", "maxItems", "minLength",
	"maxLength", "pattern", "minimum", "maximum", "minProperties", "maxProperties", "anyOf",
	"default", "example")

// geminiParametersFormats are the string formats Schema documents (besides int32/int64 and
// float/double, which the canonical schema never writes).
var geminiParametersFormats = set("enum", "date-time")

// geminiJSONSchemaKeywords are the keywords `parametersJsonSchema` accepts (documented for the
// sister field responseJsonSchema).
var geminiJSONSchemaKeywords = set("$id", "$defs", "$ref", "$anchor", "type", "format", "title",
	"description", "enum", "items", "prefixItems", "minItems", "maxItems", "minimum", "maximum",
	"anyOf", "oneOf", "properties", "additionalProperties", "required", "propertyOrdering")

// geminiRecursionDepth is how often `parameters`, which has no $ref, inlines one recursive
// type inside itself before it cuts the recursion.
const geminiRecursionDepth = 3

type geminiConversion struct {
	conversion
	recursive map[string]bool
}

// convertGeminiParameters makes the `parameters` variant: every $ref inlined (recursion cut at
// geminiRecursionDepth, with a warning), null as "nullable", enums as strings with format
// "enum", const as a one-value enum, allOf merged, maps reduced to objects (with a warning),
// property names Gemini rejects renamed, everything else Schema lacks restated.
func convertGeminiParameters(root *object) (Variant, []Finding) {
	c := &geminiConversion{conversion: conversion{variant: VariantGeminiParameters, root: root}, recursive: recursiveRefs(root)}
	doc := clone(root).(*object)
	doc.del("$schema")
	doc.del("$defs")
	doc = c.parametersNode(doc, "", nil)
	renames, loops := renamesOf(root)
	return Variant{Schema: encode(doc), Renames: renames, Loops: loopsFor(renames, loops), Moved: c.moved}, c.findings
}

// loopsFor keeps the loops only when there is something for them to repeat.
func loopsFor(renames []Rename, loops []Loop) []Loop {
	if len(renames) == 0 {
		return nil
	}
	return loops
}

func (c *geminiConversion) parametersNode(n *object, ptr string, inlining []string) *object {
	nullable := false
	// Unwrap what Schema cannot say: $refs (inlined), a null branch of anyOf (nullable), a
	// one-branch anyOf (merged). Each step may uncover the next, a bounded number of times.
	for range 8 {
		if n.has("oneOf") && !n.has("anyOf") {
			n.set("anyOf", n.vals["oneOf"])
			n.del("oneOf")
		}
		if branches := n.list("anyOf"); branches != nil {
			var kept []any
			for _, b := range branches {
				if b, ok := b.(*object); ok && slices.Equal(types(b), []string{"null"}) && len(b.keys) == 1 {
					nullable = true
					continue
				}
				kept = append(kept, b)
			}
			if len(kept) == 1 {
				n.del("anyOf")
				if b, ok := kept[0].(*object); ok {
					mergeUnder(n, b)
				}
				continue
			}
			n.set("anyOf", kept)
		}
		ref := n.str("$ref")
		if ref == "" {
			break
		}
		n.del("$ref")
		target := resolve(c.root, ref)
		if target == nil {
			c.find(ptr, Warning, "", "Gemini parameters: $ref %q does not resolve; the value is described as any JSON value", ref)
			break
		}
		depth := 0
		for _, r := range inlining {
			if r == ref {
				depth++
			}
		}
		if depth >= geminiRecursionDepth {
			c.find(ptr, Warning, "runtime/gemini sends parametersJsonSchema (variant.GeminiJSONSchema), which keeps the recursion; this concerns hosts that send parameters",
				"Gemini parameters cannot refer to a type: %s is described %d levels deep and cut there", typeName(ref), geminiRecursionDepth)
			if t := types(target); len(t) > 0 {
				n.set("type", t[0])
			}
			appendNote(n, "nested further than the schema describes")
			break
		}
		inlining = append(inlining, ref)
		body := clone(target).(*object)
		body.del("$schema") // "#": the root, whose $defs are inlined where used
		body.del("$defs")
		mergeUnder(n, body)
	}
	c.mergeAllOf(n, ptr)

	if t := types(n); len(t) > 1 || slices.Contains(t, "null") {
		var rest []string
		for _, s := range t {
			if s == "null" {
				nullable = true
			} else {
				rest = append(rest, s)
			}
		}
		switch len(rest) {
		case 0:
			n.del("type")
		case 1:
			n.set("type", rest[0])
		default:
			n.del("type")
			var branches []any
			for _, s := range rest {
				b := newObject()
				b.set("type", s)
				branches = append(branches, b)
			}
			n.set("anyOf", branches)
		}
	}
	if v, ok := n.get("const"); ok {
		n.set("enum", []any{v})
		n.del("const")
	}
	if e, ok := n.get("enum"); ok {
		list, _ := e.([]any)
		strs := []any{}
		for _, v := range list {
			switch v := v.(type) {
			case nil:
				nullable = true
			case string:
				strs = append(strs, v)
			default:
				// Schema's enum holds strings only; the model writes the value as the type says.
				strs = append(strs, literal(v))
			}
		}
		if f := n.str("format"); f != "" && f != "enum" {
			c.restate(n, ptr, "format")
		}
		n.set("enum", strs)
		n.set("format", "enum")
	}
	if ap, ok := n.get("additionalProperties"); ok {
		if ap != false {
			c.find(ptr, Warning, "runtime/gemini sends parametersJsonSchema (variant.GeminiJSONSchema), which keeps maps; this concerns hosts that send parameters",
				"Gemini parameters cannot describe a map: %s is sent as an object without properties", describePtr(ptr))
			c.restate(n, ptr, "additionalProperties")
		} else {
			// Gemini only writes declared properties: closing the object says nothing more.
			n.del("additionalProperties")
		}
	}
	if f := n.str("format"); f != "" && !geminiParametersFormats[f] {
		c.restate(n, ptr, "format")
	}
	if ex := n.list("examples"); len(ex) > 0 {
		n.set("example", ex[0])
		if len(ex) == 1 {
			n.del("examples")
		}
	}
	if bad := unsupported(n, geminiParametersKeywords); len(bad) > 0 {
		c.restate(n, ptr, bad...)
	}
	if props := n.obj("properties"); props != nil {
		c.renameProperties(n, props, ptr, func(child *object, cptr string) *object {
			return c.parametersNode(child, cptr, inlining)
		})
		if len(n.obj("properties").keys) > 1 {
			order := make([]any, 0, len(n.obj("properties").keys))
			for _, k := range n.obj("properties").keys {
				order = append(order, k)
			}
			n.set("propertyOrdering", order)
		}
	}
	if items := n.obj("items"); items != nil {
		n.set("items", c.parametersNode(items, ptr+"/items", inlining))
	}
	for i, b := range n.list("anyOf") {
		if b, ok := b.(*object); ok {
			n.list("anyOf")[i] = c.parametersNode(b, fmt.Sprintf("%s/anyOf/%d", ptr, i), inlining)
		}
	}
	if nullable {
		n.set("nullable", true)
	}
	return n
}

// mergeUnder adds the keywords of src that n lacks: n's own (a field's description, its
// constraints) win over the referred type's.
func mergeUnder(n, src *object) {
	for _, k := range src.keys {
		if !n.has(k) {
			n.set(k, src.vals[k])
		}
	}
}

// renameProperties converts each property with convert and renames the ones Gemini rejects,
// in "properties" and "required" alike; geminiRenames records the same names in Renames.
func (c *geminiConversion) renameProperties(n, props *object, ptr string, convert func(*object, string) *object) {
	renamed := geminiRenames(props.keys)
	out := newObject()
	for _, k := range props.keys {
		child := props.obj(k)
		if child != nil {
			child = convert(child, ptr+"/properties/"+jsonpointer.Escape(k))
		}
		name := k
		if to, ok := renamed[k]; ok {
			name = to
			c.find(ptr+"/properties/"+jsonpointer.Escape(k), Note, "", "%s: property %q is sent as %q (Gemini property names must match %s)", c.variant, k, to, geminiNameRule)
		}
		if child == nil {
			out.set(name, props.vals[k])
		} else {
			out.set(name, child)
		}
	}
	n.set("properties", out)
	if req := n.list("required"); req != nil {
		for i, r := range req {
			if s, ok := r.(string); ok {
				if to, ok := renamed[s]; ok {
					req[i] = to
				}
			}
		}
	}
}

// convertGeminiJSONSchema makes the `parametersJsonSchema` variant: JSON Schema limited to the
// documented keywords. $refs stay (with only $-keywords beside them: a $ref with siblings goes
// into a one-branch anyOf that carries them), a nullable enum becomes anyOf of the enum and
// null (enum values are strings and numbers only), allOf is merged, names are renamed as in
// `parameters`, and everything else is restated.
func convertGeminiJSONSchema(root *object) (Variant, []Finding) {
	c := &geminiConversion{conversion: conversion{variant: VariantGeminiJSONSchema, root: root}, recursive: recursiveRefs(root)}
	doc := clone(root).(*object)
	doc.del("$schema")
	doc = c.jsonSchemaNode(doc, "")
	if defs := doc.obj("$defs"); defs != nil {
		for _, k := range defs.keys {
			if d := defs.obj(k); d != nil {
				defs.set(k, c.jsonSchemaNode(d, "/$defs/"+jsonpointer.Escape(k)))
			}
		}
	}
	c.requiredCycles(root)
	renames, loops := renamesOf(root)
	return Variant{Schema: encode(doc), Renames: renames, Loops: loopsFor(renames, loops), Moved: c.moved}, c.findings
}

func (c *geminiConversion) jsonSchemaNode(n *object, ptr string) *object {
	if ref := n.str("$ref"); ref != "" {
		var siblings []string
		for _, k := range n.keys {
			if !strings.HasPrefix(k, "$") {
				siblings = append(siblings, k)
			}
		}
		if len(siblings) == 0 {
			return n
		}
		out := newObject()
		ro := newObject()
		for _, k := range n.keys {
			if strings.HasPrefix(k, "$") {
				ro.set(k, n.vals[k])
			} else {
				out.set(k, n.vals[k])
			}
		}
		out.set("anyOf", []any{ro})
		n = out
	}
	c.mergeAllOf(n, ptr)
	if v, ok := n.get("const"); ok {
		n.set("enum", []any{v})
		n.del("const")
	}
	if e := n.list("enum"); e != nil {
		for _, v := range e {
			if _, ok := v.(bool); ok {
				c.restate(n, ptr, "enum")
				break
			}
		}
	}
	if e := n.list("enum"); e != nil && slices.Contains(e, nil) {
		n = splitNullableEnum(n)
	}
	if bad := unsupported(n, geminiJSONSchemaKeywords); len(bad) > 0 {
		c.restate(n, ptr, bad...)
	}
	if props := n.obj("properties"); props != nil {
		c.renameProperties(n, props, ptr, func(child *object, cptr string) *object { return c.jsonSchemaNode(child, cptr) })
	}
	if items := n.obj("items"); items != nil {
		n.set("items", c.jsonSchemaNode(items, ptr+"/items"))
	}
	if ap := n.obj("additionalProperties"); ap != nil {
		n.set("additionalProperties", c.jsonSchemaNode(ap, ptr+"/additionalProperties"))
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		for i, b := range n.list(kw) {
			if b, ok := b.(*object); ok {
				n.list(kw)[i] = c.jsonSchemaNode(b, fmt.Sprintf("%s/%s/%d", ptr, kw, i))
			}
		}
	}
	return n
}

// splitNullableEnum turns {"type":["T","null"],"enum":[…,null]} into
// {"anyOf":[{"type":"T","enum":[…]},{"type":"null"}]}, the annotations staying outside.
func splitNullableEnum(n *object) *object {
	inner, out := newObject(), newObject()
	for _, k := range n.keys {
		switch k {
		case "title", "description", "default", "examples", "deprecated":
			out.set(k, n.vals[k])
		default:
			inner.set(k, n.vals[k])
		}
	}
	var vals []any
	for _, v := range inner.list("enum") {
		if v != nil {
			vals = append(vals, v)
		}
	}
	inner.set("enum", vals)
	var rest []any
	for _, t := range types(inner) {
		if t != "null" {
			rest = append(rest, t)
		}
	}
	switch len(rest) {
	case 0:
		inner.del("type")
	case 1:
		inner.set("type", rest[0])
	default:
		inner.set("type", rest)
	}
	null := newObject()
	null.set("type", "null")
	out.set("anyOf", []any{inner, null})
	return out
}

// requiredCycles warns about recursion through required, non-null properties only: Gemini
// unrolls cycles "to a limited degree" and allows them only within non-required properties.
func (c *geminiConversion) requiredCycles(root *object) {
	// forced returns the $refs a valid value of n must contain: through required properties
	// whose schema is a $ref (or an object with such properties), never through null or
	// items, which an empty array satisfies.
	type edge struct{ ref, ptr string }
	var forced func(n *object, ptr string, out *[]edge)
	forced = func(n *object, ptr string, out *[]edge) {
		if n == nil {
			return
		}
		if r := n.str("$ref"); r != "" {
			*out = append(*out, edge{r, ptr})
			return
		}
		props := n.obj("properties")
		if props == nil {
			return
		}
		for _, r := range n.list("required") {
			if k, ok := r.(string); ok {
				forced(props.obj(k), ptr+"/properties/"+jsonpointer.Escape(k), out)
			}
		}
	}
	edges := map[string][]edge{}
	rootOnly := clone(root).(*object)
	rootOnly.del("$defs")
	var es []edge
	forced(rootOnly, "", &es)
	edges["#"] = es
	if defs := root.obj("$defs"); defs != nil {
		for _, k := range defs.keys {
			var es []edge
			forced(defs.obj(k), "/$defs/"+jsonpointer.Escape(k), &es)
			edges[jsonpointer.DefRef(k)] = es
		}
	}
	starts := make([]string, 0, len(edges))
	for k := range edges {
		starts = append(starts, k)
	}
	slices.Sort(starts)
	for _, start := range starts {
		seen := map[string]bool{}
		stack := slices.Clone(edges[start])
		for len(stack) > 0 {
			e := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if e.ref == start {
				c.find(e.ptr, Warning, "make the recursive property optional (a pointer without tool:\"required\")",
					"Gemini allows recursion only through optional properties, and %s recurses through required ones", typeName(start))
				break
			}
			if !seen[e.ref] {
				seen[e.ref] = true
				stack = append(stack, edges[e.ref]...)
			}
		}
	}
}

// typeName names the type a local $ref refers to, for messages.
func typeName(ref string) string {
	if ref == "#" {
		return "the arguments type"
	}
	return "type " + strings.TrimPrefix(refPointer(ref), "/$defs/")
}
