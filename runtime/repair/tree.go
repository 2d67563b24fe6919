package repair

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
)

// value is a JSON value that keeps what a model wrote: the order of keys, duplicate keys and
// the literal text of numbers, so that a repaired document differs from the sent one only
// where a repair changed it.
type value struct {
	kind    kind
	literal string   // number, true, false, null: as written; string: the decoded text
	keys    []string // object
	items   []*value // object values (parallel to keys) or array items
}

type kind byte

const (
	kindString kind = iota + 1
	kindLiteral
	kindObject
	kindArray
)

// maxDepth bounds the nesting parse follows, the registry's default (Limits.MaxArgsDepth): a
// hostile document ("[[[[…") then costs neither a deep stack nor a tree of every level, and
// Annotate, which indents each level, never writes a quadratic amount of text. A deeper
// document is left unrepaired, to the decoder.
const maxDepth = runtime.DefaultMaxArgsDepth

var errTooDeep = errors.New("JSON nested too deeply")

// parse reads one JSON document and nothing after it.
func parse(data []byte) (*value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("text after the JSON value")
	}
	return v, nil
}

func parseValue(dec *json.Decoder, depth int) (*value, error) {
	if depth > maxDepth {
		return nil, errTooDeep
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			v := &value{kind: kindObject}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ := k.(string)
				item, err := parseValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				v.keys = append(v.keys, key)
				v.items = append(v.items, item)
			}
			_, err := dec.Token()
			return v, err
		case '[':
			v := &value{kind: kindArray}
			for dec.More() {
				item, err := parseValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				v.items = append(v.items, item)
			}
			_, err := dec.Token()
			return v, err
		}
		return nil, errors.New("unexpected delimiter")
	case string:
		return &value{kind: kindString, literal: t}, nil
	case json.Number:
		return &value{kind: kindLiteral, literal: string(t)}, nil
	case bool:
		if t {
			return &value{kind: kindLiteral, literal: "true"}, nil
		}
		return &value{kind: kindLiteral, literal: "false"}, nil
	case nil:
		return &value{kind: kindLiteral, literal: "null"}, nil
	}
	return nil, errors.New("unexpected token")
}

// write appends v as compact JSON.
func (v *value) write(b *bytes.Buffer) {
	switch v.kind {
	case kindString:
		writeString(b, v.literal)
	case kindLiteral:
		b.WriteString(v.literal)
	case kindObject:
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			v.items[i].write(b)
		}
		b.WriteByte('}')
	case kindArray:
		b.WriteByte('[')
		for i, item := range v.items {
			if i > 0 {
				b.WriteByte(',')
			}
			item.write(b)
		}
		b.WriteByte(']')
	}
}

func (v *value) bytes() []byte {
	var b bytes.Buffer
	v.write(&b)
	return b.Bytes()
}

// writeString writes s as a JSON string, leaving <, > and & as they are.
func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)       // a string always encodes
	b.Truncate(b.Len() - 1) // the newline Encode adds
}

// isNull reports whether v is the literal null.
func (v *value) isNull() bool { return v.kind == kindLiteral && v.literal == "null" }

// stripFence returns s without a Markdown code fence around it (```json … ```), and whether
// there was one.
func stripFence(s string) (string, bool) {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "```") || !strings.HasSuffix(t, "```") || len(t) < 6 {
		return s, false
	}
	body := t[3 : len(t)-3]
	// The info string (json, JSON, javascript) runs to the end of the first line.
	nl := strings.IndexByte(body, '\n')
	if nl < 0 {
		return s, false
	}
	if info := strings.TrimSpace(body[:nl]); strings.ContainsAny(info, "{[\"") {
		return s, false
	}
	return strings.TrimSpace(body[nl+1:]), true
}

// dropTrailingCommas removes the commas that stand right before a closing } or ] (white
// space between allowed), outside strings, and reports whether it removed any.
func dropTrailingCommas(s string) (string, bool) {
	var b strings.Builder
	inString, escaped, dropped := false, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == ',':
			j := i + 1
			for j < len(s) && strings.IndexByte(" \t\r\n", s[j]) >= 0 {
				j++
			}
			if j < len(s) && (s[j] == '}' || s[j] == ']') {
				dropped = true
				continue
			}
		}
		b.WriteByte(c)
	}
	if !dropped {
		return s, false
	}
	return b.String(), true
}
