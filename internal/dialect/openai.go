package dialect

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/internal/jsonpointer"
)

// openAIKeywords are the keywords OpenAI strict mode accepts (Structured Outputs, "Supported
// schemas"); everything else is restated in the description.
var openAIKeywords = set("type", "enum", "const", "anyOf", "pattern", "format", "multipleOf",
	"maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "minItems", "maxItems",
	"properties", "required", "additionalProperties", "items", "$ref", "$defs", "description", "title")

// openAIFormats are the string formats strict mode accepts.
var openAIFormats = set("date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid")

// OpenAI strict-mode limits (Structured Outputs, "Supported schemas").
const (
	openAIMaxProperties     = 5000
	openAIMaxNesting        = 10
	openAIMaxEnumValues     = 1000
	openAIBigEnum           = 250
	openAIBigEnumChars      = 15000
	openAIMaxSchemaChars    = 120000
	openAIStrictHintMapping = "use a struct, or a slice of {key, value} structs, instead of a map or an any value"
)

// openAIConversion is the OpenAI strict rewrite of one schema.
type openAIConversion struct {
	conversion
	recursive map[string]bool
	// impossible holds why strict mode cannot be used, by pointer; empty when it can.
	impossible []Finding
}

// convertOpenAI makes the strict variant: every optional property required and nullable,
// additionalProperties:false on every object, the unsupported keywords restated, $refs with
// siblings resolved. When strict mode cannot express the schema (a map, an any value, the
// limits), the variant is the canonical schema sent with strict:false, and each reason is a
// warning at the field concerned.
func convertOpenAI(root *object) (Variant, []Finding) {
	c := &openAIConversion{conversion: conversion{variant: VariantOpenAI, root: root}, recursive: recursiveRefs(root)}
	doc := clone(root).(*object)
	doc.del("$schema")
	doc = c.node(doc, "")
	if defs := doc.obj("$defs"); defs != nil {
		for _, k := range defs.keys {
			if d := defs.obj(k); d != nil {
				defs.set(k, c.node(d, "/$defs/"+jsonpointer.Escape(k)))
			}
		}
	}
	c.checkLimits(doc)
	if len(c.impossible) > 0 {
		loose := clone(root).(*object)
		loose.del("$schema")
		return Variant{Schema: encode(loose), Strict: false}, c.impossible
	}
	absent, loops := nullMeansAbsent(root)
	return Variant{Schema: encode(doc), Strict: true, NullMeansAbsent: absent, Loops: loops, Moved: c.moved}, c.findings
}

func (c *openAIConversion) cannot(ptr, format string, args ...any) {
	c.impossible = append(c.impossible, Finding{Variant: c.variant, Pointer: ptr, Severity: Warning,
		Message: "OpenAI strict mode is impossible: " + fmt.Sprintf(format, args...) + "; the tool is sent with strict:false",
		Hint:    openAIStrictHintMapping})
}

// node converts one schema node (already a copy) and returns what replaces it.
func (c *openAIConversion) node(n *object, ptr string) *object {
	if ref := n.str("$ref"); ref != "" && len(n.keys) > 1 {
		n = c.refWithSiblings(n, ref)
	}
	c.mergeAllOf(n, ptr)
	if n.has("oneOf") && !n.has("anyOf") {
		// The canonical schema never writes oneOf; a hand-made one reads as anyOf for a
		// generator, which only needs one branch to hold.
		n.set("anyOf", n.vals["oneOf"])
		n.del("oneOf")
	}
	if f := n.str("format"); f != "" && !openAIFormats[f] {
		c.restate(n, ptr, "format")
	}
	if bad := unsupported(n, openAIKeywords); len(bad) > 0 {
		c.restate(n, ptr, bad...)
	}
	if acceptsAnything(n) {
		c.cannot(ptr, "%s accepts any JSON value, and strict mode needs a type", describePtr(ptr))
		return n
	}
	if ap, ok := n.get("additionalProperties"); ok && ap != false {
		c.cannot(ptr, "%s is a map (an object with additionalProperties), which strict mode cannot describe", describePtr(ptr))
		return n
	}
	if slices.Contains(types(n), "object") {
		c.object(n, ptr)
	}
	if items := n.obj("items"); items != nil {
		n.set("items", c.node(items, ptr+"/items"))
	}
	for i, b := range n.list("anyOf") {
		if b, ok := b.(*object); ok {
			n.list("anyOf")[i] = c.node(b, fmt.Sprintf("%s/anyOf/%d", ptr, i))
		}
	}
	return n
}

// refWithSiblings resolves a $ref that has other keywords beside it, which strict mode
// refuses: a non-recursive target is inlined with the siblings on top (as openai-python
// does); a recursive one, which cannot be inlined, goes into a one-branch anyOf that carries
// the siblings.
func (c *openAIConversion) refWithSiblings(n *object, ref string) *object {
	var out *object
	if target := resolve(c.root, ref); target != nil && !c.recursive[ref] {
		out = clone(target).(*object)
	} else {
		out = newObject()
		ro := newObject()
		ro.set("$ref", ref)
		out.set("anyOf", []any{ro})
	}
	for _, k := range n.keys {
		if k != "$ref" {
			out.set(k, n.vals[k])
		}
	}
	return out
}

// object closes an object and makes every property required, optional ones nullable.
func (c *openAIConversion) object(n *object, ptr string) {
	optional := optionalProperties(n)
	props := n.obj("properties")
	if props == nil {
		props = newObject()
		n.set("properties", props)
	}
	required := make([]any, 0, len(props.keys))
	for _, k := range props.keys {
		child := c.node(props.obj(k), ptr+"/properties/"+jsonpointer.Escape(k))
		if slices.Contains(optional, k) {
			child = nullable(child)
		}
		props.set(k, child)
		required = append(required, k)
	}
	n.set("required", required)
	n.set("additionalProperties", false)
}

// nullable makes n accept null as well (§6.2 step 1): a type gets "null" added (and its enum
// null), anything without a single type list goes into anyOf with {"type":"null"}.
func nullable(n *object) *object {
	if acceptsNull(n) {
		return n
	}
	if t := types(n); len(t) > 0 && !n.has("$ref") && !n.has("anyOf") {
		list := make([]any, 0, len(t)+1)
		for _, s := range t {
			list = append(list, s)
		}
		n.set("type", append(list, "null"))
		if e := n.list("enum"); e != nil {
			n.set("enum", append(e, nil))
		}
		if n.has("const") {
			n.set("enum", []any{n.vals["const"], nil})
			n.del("const")
		}
		return n
	}
	null := newObject()
	null.set("type", "null")
	out := newObject()
	out.set("anyOf", []any{n, null})
	return out
}

// acceptsNull reports whether n's type keywords already let null through.
func acceptsNull(n *object) bool {
	if slices.Contains(types(n), "null") {
		return true
	}
	for _, b := range n.list("anyOf") {
		if b, ok := b.(*object); ok && slices.Equal(types(b), []string{"null"}) && len(b.keys) == 1 {
			return true
		}
	}
	return false
}

// checkLimits applies the strict-mode size limits to the converted document.
func (c *openAIConversion) checkLimits(doc *object) {
	var props, enumValues, chars, depth int
	var bigEnum string
	var walk func(n *object, ptr string, level int)
	walk = func(n *object, ptr string, level int) {
		if n == nil {
			return
		}
		if p := n.obj("properties"); p != nil {
			level++
			depth = max(depth, level)
			props += len(p.keys)
			for _, k := range p.keys {
				chars += utf8.RuneCountInString(k)
			}
		}
		if e := n.list("enum"); e != nil {
			enumValues += len(e)
			strChars := 0
			for _, v := range e {
				if s, ok := v.(string); ok {
					strChars += utf8.RuneCountInString(s)
				}
			}
			chars += strChars
			if len(e) > openAIBigEnum && strChars > openAIBigEnumChars && bigEnum == "" {
				bigEnum = ptr
			}
		}
		if s, ok := n.get("const"); ok {
			if s, ok := s.(string); ok {
				chars += utf8.RuneCountInString(s)
			}
		}
		if p := n.obj("properties"); p != nil {
			for _, k := range p.keys {
				walk(p.obj(k), ptr+"/properties/"+jsonpointer.Escape(k), level)
			}
		}
		walk(n.obj("items"), ptr+"/items", level)
		for i, b := range n.list("anyOf") {
			if b, ok := b.(*object); ok {
				walk(b, fmt.Sprintf("%s/anyOf/%d", ptr, i), level)
			}
		}
	}
	walk(doc, "", 0)
	if defs := doc.obj("$defs"); defs != nil {
		for _, k := range defs.keys {
			chars += utf8.RuneCountInString(k)
			walk(defs.obj(k), "/$defs/"+jsonpointer.Escape(k), 0)
		}
	}
	if props > openAIMaxProperties {
		c.cannot("", "the schema has %d properties, over the limit of %d", props, openAIMaxProperties)
	}
	if depth > openAIMaxNesting {
		c.cannot("", "objects nest %d levels deep, over the limit of %d", depth, openAIMaxNesting)
	}
	if enumValues > openAIMaxEnumValues {
		c.cannot("", "the schema has %d enum values, over the limit of %d", enumValues, openAIMaxEnumValues)
	}
	if bigEnum != "" {
		c.cannot(bigEnum, "a string enum of more than %d values has over %d characters", openAIBigEnum, openAIBigEnumChars)
	}
	if chars > openAIMaxSchemaChars {
		c.cannot("", "property names, definition names and enum values total %d characters, over the limit of %d", chars, openAIMaxSchemaChars)
	}
}

// describePtr names a schema node in a message: "property /a/b", "the arguments".
func describePtr(ptr string) string {
	if ptr == "" {
		return "the arguments"
	}
	var names []string
	parts := strings.Split(ptr, "/")
	for i := 1; i < len(parts); i++ {
		switch parts[i] {
		case "properties", "$defs":
			if i+1 < len(parts) {
				names = append(names, parts[i+1])
				i++
			}
		case "items", "additionalProperties":
			names = append(names, "*")
		case "anyOf", "oneOf", "allOf":
			i++
		}
	}
	if strings.HasPrefix(ptr, "/$defs/") {
		return "type " + strings.Join(names, "/")
	}
	return "property /" + strings.Join(names, "/")
}
