package dialect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"
)

// The converters work on a small ordered JSON tree rather than map[string]any: OpenAI fills
// arguments in the order of the schema's keys, and generated code must be deterministic, so
// key order is kept from the canonical schema. Values are nil, bool, json.Number (number text
// kept as written), string, []any and *object.

// object is a JSON object whose keys keep their order.
type object struct {
	keys []string
	vals map[string]any
}

func newObject() *object { return &object{vals: map[string]any{}} }

func (o *object) get(k string) (any, bool) {
	v, ok := o.vals[k]
	return v, ok
}

func (o *object) has(k string) bool {
	_, ok := o.vals[k]
	return ok
}

// set replaces the value of k in place, or appends k.
func (o *object) set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *object) del(k string) {
	if _, ok := o.vals[k]; !ok {
		return
	}
	delete(o.vals, k)
	for i, key := range o.keys {
		if key == k {
			o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
			break
		}
	}
}

// str returns the string value of k, or "".
func (o *object) str(k string) string {
	s, _ := o.vals[k].(string)
	return s
}

// obj returns the object value of k, or nil.
func (o *object) obj(k string) *object {
	v, _ := o.vals[k].(*object)
	return v
}

// list returns the array value of k, or nil.
func (o *object) list(k string) []any {
	v, _ := o.vals[k].([]any)
	return v
}

// clone copies v deeply, so converters never share nodes with the canonical tree.
func clone(v any) any {
	switch v := v.(type) {
	case *object:
		c := &object{keys: append([]string(nil), v.keys...), vals: make(map[string]any, len(v.vals))}
		for k, val := range v.vals {
			c.vals[k] = clone(val)
		}
		return c
	case []any:
		c := make([]any, len(v))
		for i, val := range v {
			c[i] = clone(val)
		}
		return c
	}
	return v
}

// parse reads one JSON document into the ordered tree.
func parse(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("text after the JSON value")
	}
	return v, nil
}

func parseValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok := tok.(type) {
	case json.Delim:
		switch tok {
		case '{':
			o := newObject()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				o.set(k, v)
			}
			_, err := dec.Token()
			return o, err
		case '[':
			list := []any{}
			for dec.More() {
				v, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			_, err := dec.Token()
			return list, err
		}
		return nil, fmt.Errorf("unexpected %v", tok)
	default:
		return tok, nil
	}
}

// encode writes v as compact JSON.
func encode(v any) []byte {
	var buf bytes.Buffer
	write(&buf, v)
	return buf.Bytes()
}

func write(buf *bytes.Buffer, v any) {
	switch v := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		if v {
			buf.WriteString("true")
		} else {
			buf.WriteString("false")
		}
	case json.Number:
		buf.WriteString(v.String())
	case string:
		WriteString(buf, v)
	case []any:
		buf.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				buf.WriteByte(',')
			}
			write(buf, e)
		}
		buf.WriteByte(']')
	case *object:
		buf.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			WriteString(buf, k)
			buf.WriteByte(':')
			write(buf, v.vals[k])
		}
		buf.WriteByte('}')
	default:
		// Only the types parse produces reach here; anything else is written as null rather
		// than breaking the document.
		buf.WriteString("null")
	}
}

// literal renders a JSON value for a description: compact, strings quoted.
func literal(v any) string { return string(encode(v)) }

// types returns the "type" keyword of n as a list (a single type or a type array).
func types(n *object) []string {
	switch t := n.vals["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, e := range t {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// WriteString writes s as a JSON string. Unlike encoding/json it leaves <, > and & alone, so
// descriptions stay readable to the model; invalid UTF-8 becomes U+FFFD, as in encoding/json.
func WriteString(buf *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	buf.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				buf.WriteByte('\\')
				buf.WriteByte(c)
			case c == '\n':
				buf.WriteString(`\n`)
			case c == '\r':
				buf.WriteString(`\r`)
			case c == '\t':
				buf.WriteString(`\t`)
			case c < 0x20 || c == 0x7f:
				buf.WriteString(`\u00`)
				buf.WriteByte(hex[c>>4])
				buf.WriteByte(hex[c&0xf])
			default:
				buf.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			buf.WriteString(`\ufffd`)
		case r == '\u2028' || r == '\u2029':
			// Valid JSON, but not valid JavaScript source: escape as encoding/json does.
			buf.WriteString(`\u202`)
			buf.WriteByte(hex[r&0xf])
		default:
			buf.WriteString(s[i : i+size])
		}
		i += size
	}
	buf.WriteByte('"')
}
