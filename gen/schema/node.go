package schema

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/internal/dialect"
)

// node is one schema object. Each keyword has its own field, so the key order of the output is
// fixed by write, never by map iteration. Empty fields are left out of the output.
type node struct {
	schema      string // $schema, on the root only
	ref         string // $ref, already escaped for a URI fragment
	title       string
	description string
	// notes are sentences the type itself contributes ("Go duration, e.g. …"); they follow the
	// description, which a field's own text replaces.
	notes  []string
	values []enumNote // comments of the enum type's constants, for the "Values:" sentence

	types           []string // one type writes "type":"t", more write an array
	enum            []string // JSON literals
	format          string
	contentEncoding string
	pattern         string

	minimum, exclusiveMinimum, maximum, exclusiveMaximum, multipleOf *number

	minLength, maxLength         *int
	minItems, maxItems           *int
	uniqueItems                  bool
	minProperties, maxProperties *int

	propertyNames *node
	object        bool       // write "properties" even when there are none
	properties    []property // in field order
	required      []string   // in field order
	// closed writes "additionalProperties":false; additional writes a schema instead.
	closed     bool
	additional *node
	items      *node
	anyOf      []*node
	allOf      []*node

	defaultValue string // a JSON literal
	examples     []string
	deprecated   bool
	header       string // x-mcp-header (tool:"header=NAME")

	defs []property // $defs, sorted by name
}

type property struct {
	name string
	node *node
}

// number is a numeric keyword: text is written verbatim, value orders bounds.
type number struct {
	text  string
	value float64
}

// enumNote is one constant of an enum type: its JSON literal and its comment.
type enumNote struct {
	literal string
	doc     string
}

// acceptsAnything reports whether n constrains nothing but annotations (any, json.RawMessage).
func (n *node) acceptsAnything() bool {
	return n.ref == "" && len(n.types) == 0 && len(n.anyOf) == 0 && len(n.allOf) == 0 &&
		n.enum == nil && n.pattern == "" && !n.object
}

// acceptsNull reports whether null already validates against n's type keywords.
func (n *node) acceptsNull() bool {
	if n.acceptsAnything() || slices.Contains(n.types, "null") {
		return true
	}
	for _, alt := range n.anyOf {
		if slices.Equal(alt.types, []string{"null"}) {
			return true
		}
	}
	return false
}

// nullable returns n changed to accept null as well. A single-typed schema gets "null" added
// to its type (and to its enum); a $ref, or a schema without a single type, is wrapped in
// anyOf with {"type":"null"} because adding a type there would change what else it accepts.
func nullable(n *node) *node {
	if n.acceptsNull() {
		return n
	}
	if n.ref == "" && len(n.types) == 1 {
		n.types = append(n.types, "null")
		if n.enum != nil {
			n.enum = append(n.enum, "null")
		}
		return n
	}
	return &node{anyOf: []*node{n, {types: []string{"null"}}}}
}

// fullDescription joins the description and the notes the type contributes, each sentence
// ending with a period so that the joined text reads as prose.
func (n *node) fullDescription() string {
	parts := make([]string, 0, 2+len(n.notes))
	if d := strings.TrimSpace(n.description); d != "" {
		parts = append(parts, d)
	}
	parts = append(parts, n.notes...)
	if s := valuesSentence(n.values, n.enum); s != "" {
		parts = append(parts, s)
	}
	for i := range len(parts) - 1 {
		if !strings.HasSuffix(parts[i], ".") && !strings.HasSuffix(parts[i], "!") &&
			!strings.HasSuffix(parts[i], "?") && !strings.HasSuffix(parts[i], ":") {
			parts[i] += "."
		}
	}
	return strings.Join(parts, " ")
}

// valuesSentence describes the enum constants that are still allowed and have a comment:
// `Values: "celsius" (degrees Celsius), "fahrenheit".` It is empty when no allowed constant
// has a comment, since the enum keyword already lists the bare values.
func valuesSentence(values []enumNote, allowed []string) string {
	var b strings.Builder
	commented := false
	for _, v := range values {
		if !slices.Contains(allowed, v.literal) {
			continue
		}
		if b.Len() == 0 {
			b.WriteString("Values: ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(v.literal)
		if v.doc != "" {
			commented = true
			b.WriteString(" (")
			b.WriteString(v.doc)
			b.WriteString(")")
		}
	}
	if !commented {
		return ""
	}
	b.WriteString(".")
	return b.String()
}

// write appends n as compact JSON, keys in the documented order.
func (n *node) write(buf *bytes.Buffer) {
	w := objectWriter{buf: buf}
	buf.WriteByte('{')
	if n.schema != "" {
		w.key("$schema")
		WriteString(buf, n.schema)
	}
	if n.ref != "" {
		w.key("$ref")
		WriteString(buf, n.ref)
	}
	if n.title != "" {
		w.key("title")
		WriteString(buf, n.title)
	}
	if d := n.fullDescription(); d != "" {
		w.key("description")
		WriteString(buf, d)
	}
	switch len(n.types) {
	case 0:
	case 1:
		w.key("type")
		WriteString(buf, n.types[0])
	default:
		w.key("type")
		writeList(buf, n.types, WriteString)
	}
	if n.enum != nil { // an empty enum, which nothing matches, is written too
		w.key("enum")
		writeList(buf, n.enum, writeRaw)
	}
	if n.format != "" {
		w.key("format")
		WriteString(buf, n.format)
	}
	if n.contentEncoding != "" {
		w.key("contentEncoding")
		WriteString(buf, n.contentEncoding)
	}
	if n.pattern != "" {
		w.key("pattern")
		WriteString(buf, n.pattern)
	}
	w.number("minimum", n.minimum)
	w.number("exclusiveMinimum", n.exclusiveMinimum)
	w.number("maximum", n.maximum)
	w.number("exclusiveMaximum", n.exclusiveMaximum)
	w.number("multipleOf", n.multipleOf)
	w.count("minLength", n.minLength)
	w.count("maxLength", n.maxLength)
	w.count("minItems", n.minItems)
	w.count("maxItems", n.maxItems)
	if n.uniqueItems {
		w.key("uniqueItems")
		buf.WriteString("true")
	}
	w.count("minProperties", n.minProperties)
	w.count("maxProperties", n.maxProperties)
	if n.propertyNames != nil {
		w.key("propertyNames")
		n.propertyNames.write(buf)
	}
	if n.object || len(n.properties) > 0 {
		w.key("properties")
		writeProperties(buf, n.properties)
	}
	if len(n.required) > 0 {
		w.key("required")
		writeList(buf, n.required, WriteString)
	}
	if n.closed {
		w.key("additionalProperties")
		buf.WriteString("false")
	} else if n.additional != nil {
		w.key("additionalProperties")
		n.additional.write(buf)
	}
	if n.items != nil {
		w.key("items")
		n.items.write(buf)
	}
	if len(n.anyOf) > 0 {
		w.key("anyOf")
		writeList(buf, n.anyOf, func(buf *bytes.Buffer, n *node) { n.write(buf) })
	}
	if len(n.allOf) > 0 {
		w.key("allOf")
		writeList(buf, n.allOf, func(buf *bytes.Buffer, n *node) { n.write(buf) })
	}
	if n.defaultValue != "" {
		w.key("default")
		buf.WriteString(n.defaultValue)
	}
	if len(n.examples) > 0 {
		w.key("examples")
		writeList(buf, n.examples, writeRaw)
	}
	if n.deprecated {
		w.key("deprecated")
		buf.WriteString("true")
	}
	if n.header != "" {
		w.key("x-mcp-header")
		WriteString(buf, n.header)
	}
	if len(n.defs) > 0 {
		w.key("$defs")
		writeProperties(buf, n.defs)
	}
	buf.WriteByte('}')
}

// objectWriter writes the keys of one JSON object, with commas between members.
type objectWriter struct {
	buf     *bytes.Buffer
	written bool
}

func (w *objectWriter) key(k string) {
	if w.written {
		w.buf.WriteByte(',')
	}
	w.written = true
	WriteString(w.buf, k)
	w.buf.WriteByte(':')
}

func (w *objectWriter) number(k string, n *number) {
	if n != nil {
		w.key(k)
		w.buf.WriteString(n.text)
	}
}

func (w *objectWriter) count(k string, v *int) {
	if v != nil {
		w.key(k)
		w.buf.WriteString(strconv.Itoa(*v))
	}
}

func writeProperties(buf *bytes.Buffer, props []property) {
	w := objectWriter{buf: buf}
	buf.WriteByte('{')
	for _, p := range props {
		w.key(p.name)
		p.node.write(buf)
	}
	buf.WriteByte('}')
}

func writeList[T any](buf *bytes.Buffer, list []T, each func(*bytes.Buffer, T)) {
	buf.WriteByte('[')
	for i, v := range list {
		if i > 0 {
			buf.WriteByte(',')
		}
		each(buf, v)
	}
	buf.WriteByte(']')
}

func writeRaw(buf *bytes.Buffer, literal string) { buf.WriteString(literal) }

// WriteString writes s as a JSON string. Unlike encoding/json it leaves <, > and & alone, so
// descriptions stay readable to the model; invalid UTF-8 becomes U+FFFD, as in encoding/json.
// The provider dialects (internal/dialect) write the strings of converted schemas the same way.
func WriteString(buf *bytes.Buffer, s string) { dialect.WriteString(buf, s) }

// literal returns a tag literal as compact JSON. The parser hands over valid JSON; text that is
// not (a hand-built model) is written as a JSON string rather than breaking the document.
func literal(text string) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(text)); err != nil {
		buf.Reset()
		WriteString(&buf, text)
	}
	return buf.String()
}

// numberText returns the text of a numeric keyword: as written when it is a JSON number, else
// the value formatted, so a malformed model cannot produce a malformed document.
func numberText(text string, value float64) string {
	if text != "" && (text[0] == '-' || text[0] >= '0' && text[0] <= '9') && json.Valid([]byte(text)) {
		return text
	}
	return strconv.FormatFloat(value, 'g', -1, 64)
}
