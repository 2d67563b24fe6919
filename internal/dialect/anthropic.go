package dialect

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/internal/jsonpointer"
)

// anthropicStrictKeywords are the keywords strict tool use accepts (the Go SDK's schema
// transform keeps the same list); numeric and length bounds, maxItems and the rest are
// restated in the description.
var anthropicStrictKeywords = set("$ref", "$defs", "type", "anyOf", "allOf", "description", "title",
	"enum", "const", "properties", "additionalProperties", "required", "items", "minItems", "format",
	"pattern", "default")

// anthropicFormats are the string formats strict tool use accepts: OpenAI's plus uri.
var anthropicFormats = set("date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid")

// Strict tool use limits, summed over the strict tools of one request; one tool over them can
// never be sent strict.
const (
	anthropicMaxOptional = 24
	anthropicMaxUnions   = 16
	// anthropicMaxRepeat is where a {n,m} repetition stops being "simple" for the grammar
	// compiler; the documentation says "no large {n,m}" without a number.
	anthropicMaxRepeat = 100
)

// simplePattern reports whether strict tool use takes the pattern as it is: no word
// boundary, backreference or lookaround (RE2 has none of those, but a hand-written schema
// might), and no {n,m} repetition over anthropicMaxRepeat. Scanned by hand: the runtime
// derives variants with this package, and regexp would weigh on every binary.
func simplePattern(p string) bool {
	for i := 0; i < len(p); i++ {
		switch {
		case p[i] == '\\' && i+1 < len(p) && strings.IndexByte("bB123456789", p[i+1]) >= 0:
			return false
		case p[i] == '(' && i+2 < len(p) && p[i+1] == '?' && strings.IndexByte("=!<", p[i+2]) >= 0:
			return false
		}
	}
	for i := 0; i < len(p); i++ {
		if p[i] != '{' {
			continue
		}
		numbers, end := repetition(p[i+1:])
		if end < 0 {
			continue
		}
		for _, num := range numbers {
			if n, err := strconv.Atoi(num); err == nil && n > anthropicMaxRepeat {
				return false
			}
		}
		i += end
	}
	return true
}

// repetition reads the rest of a {n}, {n,} or {n,m} quantifier after its "{": the numbers as
// written (m may be empty) and the index of the closing brace in s, or -1 when s does not
// continue one.
func repetition(s string) (numbers []string, end int) {
	digits := func(from int) int {
		for from < len(s) && s[from] >= '0' && s[from] <= '9' {
			from++
		}
		return from
	}
	n := digits(0)
	if n == 0 || n == len(s) {
		return nil, -1
	}
	if s[n] == '}' {
		return []string{s[:n]}, n + 1
	}
	if s[n] != ',' {
		return nil, -1
	}
	m := digits(n + 1)
	if m == len(s) || s[m] != '}' {
		return nil, -1
	}
	return []string{s[:n], s[n+1 : m]}, m + 1
}

type anthropicConversion struct {
	conversion
	recursive map[string]bool
	why       []string // why strict is impossible, with pointers
	whyPtr    []string
	optional  int
	unions    int
}

func (c *anthropicConversion) cannot(ptr, format string, args ...any) {
	c.why = append(c.why, fmt.Sprintf(format, args...))
	c.whyPtr = append(c.whyPtr, ptr)
}

// convertAnthropicStrict makes the input_schema for strict tool use: additionalProperties
// false on every object, the keywords strict mode refuses restated in the description, and
// optional properties left optional (the 24-optional and 16-union limits make the OpenAI
// rewrite a bad fit). ok is false when strict tool use cannot take the schema (recursion,
// maps, any values, the limits): the tool is then sent non-strict with the canonical schema,
// which is always possible, so that is a note rather than a warning.
func convertAnthropicStrict(root *object) (v Variant, ok bool, findings []Finding) {
	c := &anthropicConversion{conversion: conversion{variant: VariantAnthropicStrict, root: root}, recursive: recursiveRefs(root)}
	doc := clone(root).(*object)
	doc.del("$schema")
	c.node(doc, "")
	if defs := doc.obj("$defs"); defs != nil {
		for _, k := range defs.keys {
			if d := defs.obj(k); d != nil {
				c.node(d, "/$defs/"+jsonpointer.Escape(k))
			}
		}
	}
	if c.optional > anthropicMaxOptional {
		c.cannot("", "%d optional properties, over the limit of %d per request", c.optional, anthropicMaxOptional)
	}
	if c.unions > anthropicMaxUnions {
		c.cannot("", "%d union-typed properties, over the limit of %d per request", c.unions, anthropicMaxUnions)
	}
	if len(c.why) > 0 {
		for i, why := range c.why {
			c.find(c.whyPtr[i], Note, "", "no Anthropic strict variant: %s", why)
		}
		return Variant{}, false, c.findings
	}
	return Variant{Schema: encode(doc), Strict: true, Moved: c.moved}, true, c.findings
}

func (c *anthropicConversion) node(n *object, ptr string) {
	if n.has("oneOf") && !n.has("anyOf") {
		n.set("anyOf", n.vals["oneOf"])
		n.del("oneOf")
	}
	if ref := n.str("$ref"); ref != "" {
		if c.recursive[ref] {
			c.cannot(ptr, "%s is recursive", describePtr(ptr))
		}
	}
	// Strict mode takes allOf, but not beside a $ref, and the canonical schema only uses it for
	// a second pattern: one node is simpler for the grammar compiler either way.
	c.mergeAllOf(n, ptr)
	if f := n.str("format"); f != "" && !anthropicFormats[f] {
		c.restate(n, ptr, "format")
	}
	if p := n.str("pattern"); p != "" && !simplePattern(p) {
		c.restate(n, ptr, "pattern")
	}
	if m := n.vals["minItems"]; m != nil && number(m) != "0" && number(m) != "1" {
		c.restate(n, ptr, "minItems")
	}
	if bad := unsupported(n, anthropicStrictKeywords); len(bad) > 0 {
		c.restate(n, ptr, bad...)
	}
	if acceptsAnything(n) {
		c.cannot(ptr, "%s accepts any JSON value", describePtr(ptr))
		return
	}
	if ap, ok := n.get("additionalProperties"); ok && ap != false {
		c.cannot(ptr, "%s is a map (an object with additionalProperties)", describePtr(ptr))
		return
	}
	if len(types(n)) > 1 || n.has("anyOf") {
		c.unions++
	}
	if slices.Contains(types(n), "object") {
		c.optional += len(optionalProperties(n))
		n.set("additionalProperties", false)
		if props := n.obj("properties"); props != nil {
			for _, k := range props.keys {
				c.node(props.obj(k), ptr+"/properties/"+jsonpointer.Escape(k))
			}
		}
	}
	if items := n.obj("items"); items != nil {
		c.node(items, ptr+"/items")
	}
	for i, b := range n.list("anyOf") {
		if b, ok := b.(*object); ok {
			c.node(b, fmt.Sprintf("%s/anyOf/%d", ptr, i))
		}
	}
}
