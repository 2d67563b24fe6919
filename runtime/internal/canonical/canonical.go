// Package canonical writes the canonical form of a call's arguments, the form approvals, the
// approver's view and the repeated-call guard are bound to. It is built from the JSON the
// model sent, after the tool's decoder accepted it, never from the decoded Go value:
// encoding/json marshals a TextUnmarshaler without MarshalText, or a type with only
// unexported fields, as {}, so two different calls would look the same. The form:
//
//   - object members sorted by their canonical key bytes (members with equal keys, which a
//     hand-written Bind may accept, keep their order); no whitespace;
//   - strings with escapes decoded and written back one way: \" \\ \b \f \n \r \t, \u00XX for
//     other control characters, a lone surrogate as \uXXXX in lower case, every other
//     character (and any byte that is not UTF-8) as it came;
//   - numbers as their exact decimal value: no leading or trailing zeros, plain up to 21
//     digits, else d.ddde±N; -0 stays -0 (it decodes to a different float); a literal whose
//     exponent has more than 9 digits is kept as it came;
//   - the defaults of the tool's input schema added for absent properties, as the decoder
//     applies them, so a call that relies on a default and one that spells it out are the
//     same call, and the approver sees the value that will be used.
//
// Two documents with the same canonical form decode to the same arguments; the converse is
// not promised (1 and 1.0 are one form, 0.1 and 0.10000000000000000001 two).
package canonical

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

var errCanonicalSyntax = errors.New("the arguments are not valid JSON")

// JSON returns the canonical form of doc, with defaults added where d says (nil: none).
func JSON(doc []byte, d *Defaults) ([]byte, error) {
	c := canonicalizer{src: doc, out: make([]byte, 0, len(doc)+16)}
	if err := c.value(d, 0); err != nil {
		return nil, err
	}
	c.space()
	if c.i != len(c.src) {
		return nil, errCanonicalSyntax
	}
	return c.out, nil
}

type canonicalizer struct {
	src     []byte
	i       int
	out     []byte
	scratch []byte // the members of the object being sorted
	moved   int    // bytes moved by sorting so far
}

// maxCanonicalWork bounds the bytes sorting may move, beyond 8 times the document's size.
const maxCanonicalWork = 1 << 20

var errCanonicalWork = errors.New("the arguments nest too many objects too deeply to be compared")

func (c *canonicalizer) space() {
	for c.i < len(c.src) {
		switch c.src[c.i] {
		case ' ', '\t', '\n', '\r':
			c.i++
		default:
			return
		}
	}
}

// maxCanonicalDepth bounds the nesting the canonicalizer follows, so hostile input cannot
// exhaust the stack: the JSON reader's own limit, which the decoder has already held.
const maxCanonicalDepth = 10000

func (c *canonicalizer) value(d *Defaults, depth int) error {
	if depth > maxCanonicalDepth {
		return errors.New("the arguments are nested too deeply")
	}
	c.space()
	if c.i >= len(c.src) {
		return errCanonicalSyntax
	}
	switch b := c.src[c.i]; {
	case b == '{':
		return c.object(d, depth)
	case b == '[':
		return c.array(d, depth)
	case b == '"':
		return c.str()
	case b == '-' || b >= '0' && b <= '9':
		return c.number()
	}
	for _, lit := range []string{"true", "false", "null"} {
		if bytes.HasPrefix(c.src[c.i:], []byte(lit)) {
			c.i += len(lit)
			c.out = append(c.out, lit...)
			return nil
		}
	}
	return errCanonicalSyntax
}

// member is one object member written to out: its key at out[start:colon], its value after.
type member struct{ start, colon, end int }

func (c *canonicalizer) object(d *Defaults, depth int) error {
	c.i++
	c.out = append(c.out, '{')
	base := len(c.out)
	var members []member
	c.space()
	if c.i < len(c.src) && c.src[c.i] == '}' {
		c.i++
	} else {
		for {
			c.space()
			if c.i >= len(c.src) || c.src[c.i] != '"' {
				return errCanonicalSyntax
			}
			m := member{start: len(c.out)}
			if err := c.str(); err != nil {
				return err
			}
			m.colon = len(c.out)
			c.space()
			if c.i >= len(c.src) || c.src[c.i] != ':' {
				return errCanonicalSyntax
			}
			c.i++
			c.out = append(c.out, ':')
			if err := c.value(d.member(c.out[m.start:m.colon]), depth+1); err != nil {
				return err
			}
			m.end = len(c.out)
			members = append(members, m)
			c.space()
			if c.i >= len(c.src) {
				return errCanonicalSyntax
			}
			sep := c.src[c.i]
			c.i++
			if sep == '}' {
				break
			}
			if sep != ',' {
				return errCanonicalSyntax
			}
		}
	}
	if d != nil {
		for _, def := range d.defaults {
			if !slices.ContainsFunc(members, func(m member) bool { return string(c.out[m.start:m.colon]) == def.key }) {
				m := member{start: len(c.out)}
				c.out = append(c.out, def.key...)
				m.colon = len(c.out)
				c.out = append(c.out, ':')
				c.out = append(c.out, def.value...)
				m.end = len(c.out)
				members = append(members, m)
			}
		}
	}
	if len(members) > 1 {
		// Sorting moves the members' bytes: bounded in all, so that deep nesting of unsorted
		// objects cannot make the work grow with depth × size without end.
		c.moved += len(c.out) - base
		if c.moved > maxCanonicalWork+8*len(c.src) {
			return errCanonicalWork
		}
		c.scratch = append(c.scratch[:0], c.out[base:]...)
		region := c.scratch
		key := func(m member) []byte { return region[m.start-base : m.colon-base] }
		slices.SortStableFunc(members, func(a, b member) int { return bytes.Compare(key(a), key(b)) })
		c.out = c.out[:base]
		for i, m := range members {
			if i > 0 {
				c.out = append(c.out, ',')
			}
			c.out = append(c.out, region[m.start-base:m.end-base]...)
		}
	}
	c.out = append(c.out, '}')
	return nil
}

func (c *canonicalizer) array(d *Defaults, depth int) error {
	c.i++
	c.out = append(c.out, '[')
	c.space()
	if c.i < len(c.src) && c.src[c.i] == ']' {
		c.i++
		c.out = append(c.out, ']')
		return nil
	}
	var items *Defaults
	if d != nil {
		items = d.items
	}
	for first := true; ; first = false {
		if !first {
			c.out = append(c.out, ',')
		}
		if err := c.value(items, depth+1); err != nil {
			return err
		}
		c.space()
		if c.i >= len(c.src) {
			return errCanonicalSyntax
		}
		sep := c.src[c.i]
		c.i++
		switch sep {
		case ']':
			c.out = append(c.out, ']')
			return nil
		case ',':
		default:
			return errCanonicalSyntax
		}
	}
}

// str writes the string at the read position in its canonical spelling.
func (c *canonicalizer) str() error {
	c.i++ // the opening quote
	c.out = append(c.out, '"')
	for c.i < len(c.src) {
		b := c.src[c.i]
		switch {
		case b == '"':
			c.i++
			c.out = append(c.out, '"')
			return nil
		case b < 0x20:
			return errCanonicalSyntax
		case b != '\\':
			c.out = append(c.out, b)
			c.i++
			continue
		}
		if c.i+1 >= len(c.src) {
			return errCanonicalSyntax
		}
		esc := c.src[c.i+1]
		c.i += 2
		switch esc {
		case '"', '\\', '/':
			c.writeRune(rune(esc))
		case 'b':
			c.writeRune('\b')
		case 'f':
			c.writeRune('\f')
		case 'n':
			c.writeRune('\n')
		case 'r':
			c.writeRune('\r')
		case 't':
			c.writeRune('\t')
		case 'u':
			r, ok := c.hex4()
			if !ok {
				return errCanonicalSyntax
			}
			if r >= 0xD800 && r < 0xDC00 && c.i+1 < len(c.src) && c.src[c.i] == '\\' && c.src[c.i+1] == 'u' {
				save := c.i
				c.i += 2
				if lo, ok := c.hex4(); ok && lo >= 0xDC00 && lo < 0xE000 {
					c.writeRune((r-0xD800)<<10 + (lo - 0xDC00) + 0x10000)
					continue
				}
				c.i = save
			}
			if r >= 0xD800 && r < 0xE000 {
				c.out = append(c.out, `\u`...)
				c.out = appendHex4(c.out, r)
				continue
			}
			c.writeRune(r)
		default:
			return errCanonicalSyntax
		}
	}
	return errCanonicalSyntax
}

func (c *canonicalizer) hex4() (rune, bool) {
	if c.i+4 > len(c.src) {
		return 0, false
	}
	var r rune
	for _, h := range c.src[c.i : c.i+4] {
		r <<= 4
		switch {
		case h >= '0' && h <= '9':
			r |= rune(h - '0')
		case h >= 'a' && h <= 'f':
			r |= rune(h - 'a' + 10)
		case h >= 'A' && h <= 'F':
			r |= rune(h - 'A' + 10)
		default:
			return 0, false
		}
	}
	c.i += 4
	return r, true
}

func appendHex4(out []byte, r rune) []byte {
	const digits = "0123456789abcdef"
	return append(out, digits[r>>12&15], digits[r>>8&15], digits[r>>4&15], digits[r&15])
}

// writeRune writes a decoded character in its canonical spelling.
func (c *canonicalizer) writeRune(r rune) {
	switch r {
	case '"':
		c.out = append(c.out, `\"`...)
	case '\\':
		c.out = append(c.out, `\\`...)
	case '\b':
		c.out = append(c.out, `\b`...)
	case '\f':
		c.out = append(c.out, `\f`...)
	case '\n':
		c.out = append(c.out, `\n`...)
	case '\r':
		c.out = append(c.out, `\r`...)
	case '\t':
		c.out = append(c.out, `\t`...)
	default:
		if r < 0x20 {
			c.out = append(c.out, `\u`...)
			c.out = appendHex4(c.out, r)
			return
		}
		c.out = utf8.AppendRune(c.out, r)
	}
}

// number writes the number at the read position as its exact decimal value.
func (c *canonicalizer) number() error {
	start := c.i
	if c.src[c.i] == '-' {
		c.i++
	}
	intStart := c.i
	c.digits()
	if c.i == intStart || c.src[intStart] == '0' && c.i-intStart > 1 {
		return errCanonicalSyntax
	}
	intEnd, fracStart, fracEnd := c.i, c.i, c.i
	if c.i < len(c.src) && c.src[c.i] == '.' {
		c.i++
		fracStart = c.i
		c.digits()
		if c.i == fracStart {
			return errCanonicalSyntax
		}
		fracEnd = c.i
	}
	expStart, expEnd := c.i, c.i
	if c.i < len(c.src) && (c.src[c.i] == 'e' || c.src[c.i] == 'E') {
		c.i++
		expStart = c.i
		if c.i < len(c.src) && (c.src[c.i] == '+' || c.src[c.i] == '-') {
			c.i++
		}
		d := c.i
		c.digits()
		if c.i == d {
			return errCanonicalSyntax
		}
		expEnd = c.i
	}
	c.out = appendCanonicalNumber(c.out, c.src[start:c.i], c.src[start] == '-',
		c.src[intStart:intEnd], c.src[fracStart:fracEnd], c.src[expStart:expEnd])
	return nil
}

func (c *canonicalizer) digits() {
	for c.i < len(c.src) && c.src[c.i] >= '0' && c.src[c.i] <= '9' {
		c.i++
	}
}

// maxPlainDigits is the longest number written without an exponent, as JavaScript does.
const maxPlainDigits = 21

// appendCanonicalNumber appends the exact decimal value of a valid literal, given in parts.
func appendCanonicalNumber(out, literal []byte, neg bool, intPart, frac, expText []byte) []byte {
	exp := 0
	if len(expText) > 0 {
		sign := 1
		switch expText[0] {
		case '-':
			sign, expText = -1, expText[1:]
		case '+':
			expText = expText[1:]
		}
		expText = bytes.TrimLeft(expText, "0")
		if len(expText) > 9 {
			return append(out, literal...) // an absurd exponent: keep the text it came as
		}
		for _, d := range expText {
			exp = exp*10 + int(d-'0')
		}
		exp *= sign
	}
	// The value is digits × 10^exp, with digits free of leading and trailing zeros.
	digits := strings.TrimLeft(string(intPart)+string(frac), "0")
	exp -= len(frac)
	trimmed := strings.TrimRight(digits, "0")
	exp += len(digits) - len(trimmed)
	digits = trimmed
	if neg {
		out = append(out, '-')
	}
	if digits == "" {
		return append(out, '0')
	}
	point := len(digits) + exp // digits before the decimal point
	switch {
	case exp >= 0 && point <= maxPlainDigits:
		out = append(out, digits...)
		for range exp {
			out = append(out, '0')
		}
	case exp < 0 && point > 0:
		out = append(out, digits[:point]...)
		out = append(out, '.')
		out = append(out, digits[point:]...)
	case exp < 0 && point > -6:
		out = append(out, "0."...)
		for range -point {
			out = append(out, '0')
		}
		out = append(out, digits...)
	default:
		out = append(out, digits[0])
		if len(digits) > 1 {
			out = append(out, '.')
			out = append(out, digits[1:]...)
		}
		out = append(out, 'e')
		e := point - 1
		if e >= 0 {
			out = append(out, '+')
		}
		out = strconv.AppendInt(out, int64(e), 10)
	}
	return out
}

// Defaults is what the canonical form needs of a tool's input schema: the defaults of the
// properties of each object, and where nested objects are.
type Defaults struct {
	props      map[string]*Defaults // by the canonical key literal ("\"name\"")
	defaults   []defaultMember
	items      *Defaults // of an array's items
	additional *Defaults // of a map's values
}

type defaultMember struct{ key, value string } // both canonical JSON

// member returns the defaults below the property whose canonical key literal is key.
func (d *Defaults) member(key []byte) *Defaults {
	if d == nil {
		return nil
	}
	if p, ok := d.props[string(key)]; ok {
		return p
	}
	return d.additional
}

// schemaNode is the part of a JSON Schema the defaults are read from.
type schemaNode struct {
	Ref                  string                 `json:"$ref"`
	Defs                 map[string]*schemaNode `json:"$defs"`
	Properties           map[string]*schemaNode `json:"properties"`
	Items                *schemaNode            `json:"items"`
	AdditionalProperties json.RawMessage        `json:"additionalProperties"`
	AnyOf                []*schemaNode          `json:"anyOf"`
	OneOf                []*schemaNode          `json:"oneOf"`
	Default              json.RawMessage        `json:"default"`
}

// DefaultsOf reads the defaults of an input schema. A schema it cannot read has none: the
// canonical form is then the document as the model sent it, canonicalized.
func DefaultsOf(schema []byte) *Defaults {
	if len(schema) == 0 {
		return nil
	}
	var root schemaNode
	if json.Unmarshal(schema, &root) != nil {
		return nil
	}
	b := defaultsBuilder{defs: root.Defs, done: map[*schemaNode]*Defaults{}}
	return b.build(&root, 0)
}

type defaultsBuilder struct {
	defs map[string]*schemaNode
	done map[*schemaNode]*Defaults // built already, so recursive schemas end
}

func (b *defaultsBuilder) build(n *schemaNode, depth int) *Defaults {
	if n == nil || depth > 64 {
		return nil
	}
	if name, ok := strings.CutPrefix(n.Ref, "#/$defs/"); ok {
		return b.build(b.defs[name], depth+1)
	}
	for _, alt := range append(slices.Clone(n.AnyOf), n.OneOf...) {
		// The first alternative that describes some structure ({"type":"null"} does not).
		if d := b.build(alt, depth+1); d != nil && (len(d.props) > 0 || d.items != nil || d.additional != nil) {
			return d
		}
	}
	if d, ok := b.done[n]; ok {
		return d
	}
	d := &Defaults{props: map[string]*Defaults{}}
	b.done[n] = d
	names := make([]string, 0, len(n.Properties))
	for name := range n.Properties {
		names = append(names, name)
	}
	slices.Sort(names) // a stable order of defaults, whatever the map's
	for _, name := range names {
		p := n.Properties[name]
		key, err := JSON(mustMarshal(name), nil)
		if err != nil {
			continue
		}
		d.props[string(key)] = b.build(p, depth+1)
		if len(p.Default) > 0 {
			if v, err := JSON(p.Default, nil); err == nil {
				d.defaults = append(d.defaults, defaultMember{key: string(key), value: string(v)})
			}
		}
	}
	d.items = b.build(n.Items, depth+1)
	if len(n.AdditionalProperties) > 0 && n.AdditionalProperties[0] == '{' {
		var ap schemaNode
		if json.Unmarshal(n.AdditionalProperties, &ap) == nil {
			d.additional = b.build(&ap, depth+1)
		}
	}
	return d
}

func mustMarshal(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

// Form returns the canonical form function of a tool whose input schema is inputSchema, for
// argument documents the tool's decoder accepted. runtime/schematool hands its handlers what
// it returns, so a handler sees exactly what an approver saw. Empty arguments and null are
// {}, as Registry.Invoke reads them.
func Form(inputSchema []byte) func(args []byte) ([]byte, error) {
	d := DefaultsOf(inputSchema)
	return func(args []byte) ([]byte, error) { return JSON(Normalize(args), d) }
}

// Normalize turns the ways models say "no arguments" (nothing, whitespace, null) into {}, so
// a tool without required arguments accepts them.
func Normalize(args []byte) []byte {
	if len(args) > 0 && args[0] == '{' {
		return args // an object, as models nearly always send: neither empty nor null
	}
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return []byte("{}")
	}
	return args
}
