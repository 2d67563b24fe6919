package decode

import (
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/internal/jsonpointer"
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
	var b strings.Builder
	p.write(&b)
	return b.String()
}

// write appends the pointer of p, parents first. It copies bytes and never stores a *Path, so
// paths stay on the decoder's stack: storing one anywhere would move every path of every call
// to the heap.
func (p *Path) write(b *strings.Builder) {
	if p == nil {
		return
	}
	p.parent.write(b)
	b.WriteByte('/')
	if p.index >= 0 {
		b.WriteString(strconv.Itoa(p.index))
		return
	}
	b.WriteString(jsonpointer.Escape(p.key))
}
