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
	index  int    // >= 0 for an array item; -1 for a property
	state  *State // set on State.here: the path is the State's stack
}

// Key returns the path of property key below p.
func (p *Path) Key(key string) Path { return Path{parent: p, key: key, index: -1} }

// Index returns the path of item i below p.
func (p *Path) Index(i int) Path { return Path{parent: p, index: i} }

// Caps on what a path shows the model: a property name the model invented may be megabytes
// long, and a recursive type may nest thousands of levels.
const (
	maxPathKey  = 64  // bytes of one property name
	maxPathText = 256 // bytes of the whole pointer
)

// String returns the JSON Pointer (RFC 6901): "" for the root, "/items/0/sku" below it. A
// long property name is cut to its first 64 bytes and marked with "…", and a pointer longer
// than 256 bytes keeps its first and last segments around "/…".
func (p *Path) String() string {
	var b strings.Builder
	p.write(&b)
	s := b.String()
	if len(s) <= maxPathText {
		return s
	}
	// The start says where the value is, the end what it is: keep both, whole segments.
	head := s[:maxPathText/2]
	head = head[:strings.LastIndexByte(head, '/')]
	tail := s[len(s)-maxPathText/2:]
	if i := strings.IndexByte(tail, '/'); i >= 0 {
		tail = tail[i:]
	}
	return head + "/…" + tail
}

// write appends the pointer of p, parents first. It copies bytes and never stores a *Path, so
// paths stay on the decoder's stack: storing one anywhere would move every path of every call
// to the heap.
func (p *Path) write(b *strings.Builder) {
	if p == nil {
		return
	}
	if p.state != nil {
		p.state.writePath(b)
		return
	}
	p.parent.write(b)
	writeSegment(b, p.key, p.index)
}

// writeSegment appends "/" and item index, or property key when index < 0.
func writeSegment(b *strings.Builder, key string, index int) {
	b.WriteByte('/')
	if index >= 0 {
		b.WriteString(strconv.Itoa(index))
		return
	}
	if len(key) > maxPathKey {
		b.WriteString(jsonpointer.Escape(cutText(key, maxPathKey)))
		b.WriteString("…")
		return
	}
	b.WriteString(jsonpointer.Escape(key))
}
