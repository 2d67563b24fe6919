package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/toolgen-go/toolgen/internal/jsonpointer"
)

// node is a JSON value with the order of its object members kept: struct fields follow the
// order of a schema's properties, which encoding/json's maps would lose.
type node struct {
	kind    nodeKind
	members []member // object
	items   []*node  // array
	str     string   // string
	num     json.Number
	boolean bool
	src     []byte // the value's bytes in the document (a slice of it, not a copy)
}

type nodeKind int

const (
	kindNull nodeKind = iota
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

func (k nodeKind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

type member struct {
	key   string
	value *node
}

// get returns the member named key of an object, or nil.
func (n *node) get(key string) *node {
	if n == nil || n.kind != kindObject {
		return nil
	}
	for _, m := range n.members {
		if m.key == key {
			return m.value
		}
	}
	return nil
}

// errTooDeep is returned by parseJSON past MaxJSONDepth.
var errTooDeep = fmt.Errorf("nested deeper than %d levels", MaxJSONDepth)

// parseJSON reads one JSON document into a tree, refusing nesting past MaxJSONDepth before it
// is built (encoding/json's token reader streams, so a deep document costs no stack).
func parseJSON(data []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := parseValue(dec, data, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("more than one JSON value")
	}
	return n, nil
}

func parseValue(dec *json.Decoder, data []byte, depth int) (*node, error) {
	start := dec.InputOffset()
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	n, err := parseToken(dec, data, tok, depth)
	if err != nil {
		return nil, err
	}
	n.src = bytes.TrimLeft(data[start:dec.InputOffset()], " \t\r\n,:")
	return n, nil
}

func parseToken(dec *json.Decoder, data []byte, tok json.Token, depth int) (*node, error) {
	switch t := tok.(type) {
	case nil:
		return &node{kind: kindNull}, nil
	case bool:
		return &node{kind: kindBool, boolean: t}, nil
	case json.Number:
		return &node{kind: kindNumber, num: t}, nil
	case string:
		return &node{kind: kindString, str: t}, nil
	case json.Delim:
		if depth >= MaxJSONDepth {
			return nil, errTooDeep
		}
		n := &node{kind: kindArray}
		if t == '{' {
			n.kind = kindObject
		}
		for dec.More() {
			var key string
			if n.kind == kindObject {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key = k.(string)
			}
			v, err := parseValue(dec, data, depth+1)
			if err != nil {
				return nil, err
			}
			if n.kind == kindObject {
				n.members = append(n.members, member{key, v})
			} else {
				n.items = append(n.items, v)
			}
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
		return n, nil
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}

// compact returns the value's JSON without insignificant space, to compare two values.
func (n *node) compact() string {
	var b bytes.Buffer
	if json.Compact(&b, n.src) != nil {
		return string(n.src)
	}
	return b.String()
}

// pointerTo appends a token to a JSON Pointer.
func pointerTo(ptr string, tok string) string {
	return ptr + "/" + jsonpointer.Escape(tok)
}

func pointerIndex(ptr string, i int) string { return ptr + "/" + strconv.Itoa(i) }
