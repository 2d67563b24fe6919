package agreement

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"unicode/utf8"
)

// The corpus is built as a small tree of JSON values rather than Go maps, for three reasons:
// members keep the order they were built in (so documents read like the schema), numbers keep
// the exact text chosen for them ("2.0", "1e2", "-0"), and a string may carry a hand-written
// encoding (escapes) that must reach the decoder byte for byte.

// value is one JSON value of a corpus document.
type value interface {
	encode(b *bytes.Buffer)
}

type jsonNull struct{}

type jsonBool bool

// jsonNumber is the exact JSON text of a number.
type jsonNumber string

// jsonString is a string; raw, when set, is its JSON text (quotes included) written instead
// of the canonical encoding, to exercise escapes.
type jsonString struct {
	s   string
	raw string
}

type jsonArray []value

// jsonObject is an object whose members keep their order.
type jsonObject []member

type member struct {
	key jsonString
	val value
}

func (jsonNull) encode(b *bytes.Buffer) { b.WriteString("null") }

func (v jsonBool) encode(b *bytes.Buffer) { b.WriteString(strconv.FormatBool(bool(v))) }

func (v jsonNumber) encode(b *bytes.Buffer) { b.WriteString(string(v)) }

func (v jsonString) encode(b *bytes.Buffer) {
	if v.raw != "" {
		b.WriteString(v.raw)
		return
	}
	writeQuoted(b, v.s)
}

func (v jsonArray) encode(b *bytes.Buffer) {
	b.WriteByte('[')
	for i, e := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		e.encode(b)
	}
	b.WriteByte(']')
}

func (v jsonObject) encode(b *bytes.Buffer) {
	b.WriteByte('{')
	for i, m := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		m.key.encode(b)
		b.WriteByte(':')
		m.val.encode(b)
	}
	b.WriteByte('}')
}

// writeQuoted writes s as a JSON string: non-ASCII text as UTF-8, as models send it, and only
// what JSON requires escaped.
func writeQuoted(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r < 0x20:
			fmt.Fprintf(b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

// escapedString returns s encoded with every character as a \u escape (surrogate pairs
// beyond the BMP), the same string spelled the hardest way.
func escapedString(s string) jsonString {
	var b bytes.Buffer
	b.WriteByte('"')
	for _, r := range s {
		if r > 0xFFFF {
			r -= 0x10000
			fmt.Fprintf(&b, `\u%04x\u%04x`, 0xD800+(r>>10), 0xDC00+(r&0x3FF))
			continue
		}
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	b.WriteByte('"')
	return jsonString{s: s, raw: b.String()}
}

func str(s string) jsonString { return jsonString{s: s} }

func encodeValue(v value) []byte {
	var b bytes.Buffer
	v.encode(&b)
	return b.Bytes()
}

// without returns a copy of o without the member named key.
func (o jsonObject) without(key string) jsonObject {
	out := make(jsonObject, 0, len(o))
	for _, m := range o {
		if m.key.s != key {
			out = append(out, m)
		}
	}
	return out
}

// has reports whether o has a member named key.
func (o jsonObject) has(key string) bool {
	for _, m := range o {
		if m.key.s == key {
			return true
		}
	}
	return false
}

// with returns a copy of o where the member named key has value v, added at the end when o
// has no such member.
func (o jsonObject) with(key jsonString, v value) jsonObject {
	out := make(jsonObject, 0, len(o)+1)
	replaced := false
	for _, m := range o {
		if m.key.s == key.s {
			out = append(out, member{key, v})
			replaced = true
			continue
		}
		out = append(out, m)
	}
	if !replaced {
		out = append(out, member{key, v})
	}
	return out
}

// fromSchemaValue turns a value found in the schema (an enum member, a default), as
// jsonschema.UnmarshalJSON decoded it, into a corpus value.
func fromSchemaValue(v any) value {
	switch v := v.(type) {
	case nil:
		return jsonNull{}
	case bool:
		return jsonBool(v)
	case json.Number:
		return jsonNumber(v)
	case string:
		return str(v)
	case []any:
		out := make(jsonArray, len(v))
		for i, e := range v {
			out[i] = fromSchemaValue(e)
		}
		return out
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make(jsonObject, 0, len(v))
		for _, k := range keys {
			out = append(out, member{str(k), fromSchemaValue(v[k])})
		}
		return out
	}
	return jsonNull{}
}

// ratText writes an exact rational as a JSON number: an integer, or a decimal when the
// denominator has only the factors 2 and 5 (every value the corpus derives from decimal
// schema bounds), else a 30-digit approximation.
func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	for prec := 1; prec <= 40; prec++ {
		s := r.FloatString(prec)
		back, ok := new(big.Rat).SetString(s)
		if ok && back.Cmp(r) == 0 {
			return s
		}
	}
	return r.FloatString(30)
}

// runeLen counts code points, as JSON Schema measures strings.
func runeLen(s string) int { return utf8.RuneCountInString(s) }
