package decode

import (
	"strconv"
	"strings"
)

// Path is a JSON Pointer under construction. Each level is a value on the decoder's stack that
// points at its parent, so descending into a property costs nothing until a problem needs the
// text. The nil *Path is the document root.
type Path struct {
	parent *Path
	key    string
	index  int // >= 0 for an array item; -1 for a property
}

// Key returns the path of property key below p.
func (p *Path) Key(key string) Path { return Path{parent: p, key: key, index: -1} }

// Index returns the path of item i below p.
func (p *Path) Index(i int) Path { return Path{parent: p, index: i} }

// String returns the JSON Pointer (RFC 6901): "" for the root, "/items/0/sku" below it.
func (p *Path) String() string {
	if p == nil {
		return ""
	}
	var segs [16]*Path
	levels := segs[:0]
	for q := p; q != nil; q = q.parent {
		levels = append(levels, q)
	}
	var b strings.Builder
	for i := len(levels) - 1; i >= 0; i-- {
		q := levels[i]
		b.WriteByte('/')
		if q.index >= 0 {
			b.WriteString(strconv.Itoa(q.index))
			continue
		}
		// RFC 6901: "~" is written "~0" and "/" is written "~1".
		for j := 0; j < len(q.key); j++ {
			switch c := q.key[j]; c {
			case '~':
				b.WriteString("~0")
			case '/':
				b.WriteString("~1")
			default:
				b.WriteByte(c)
			}
		}
	}
	return b.String()
}
