package variant

import (
	"bytes"
	"errors"
	"strings"
)

// dropNulls is Restore for the common variant, OpenAI strict mode: nulls to remove, no renames
// and no loops. It works on the JSON text: a first pass finds whether any property listed in
// absent holds null, and when none does the arguments are returned as they are, without a
// copy; otherwise a second pass writes the document once without those members. general
// reports that it cannot decide (a key with escapes, which only the general restorer compares
// as decoded text), and the caller must use the general restorer.
func dropNulls(args []byte, absent []string) (out []byte, general bool, err error) {
	w := nullWalker{src: args, absent: absent}
	if err := w.document(); err != nil {
		return args, err == errTooDeepForFast, err
	}
	if w.general || !w.found {
		return args, w.general, nil
	}
	w = nullWalker{src: args, absent: absent, out: make([]byte, 0, len(args))}
	if err := w.document(); err != nil {
		return args, false, err
	}
	return w.out, false, nil
}

var (
	errRestoreSyntax  = errors.New("invalid JSON in the arguments")
	errTooDeepForFast = errors.New("deeper than the fast path keeps")
	// errDroppedDuplicate refuses to restore an object in which a null to drop has a
	// duplicate key: dropping it would hide the duplicate ({"unit":null,"unit":"kelvin"})
	// from the decoder, which refuses duplicates on every other path.
	errDroppedDuplicate = errors.New("a property given twice in the arguments")
)

// fastDepth is the nesting the fast path follows; deeper arguments (rare in tool calls) go to
// the general restorer, whose limit is maxRestoreDepth.
const fastDepth = 64

// nullWalker walks JSON text keeping the path of the value it is in, as spans of the text: a
// property name, or an array item (matched by "*" in a pattern).
type nullWalker struct {
	src    []byte
	i      int
	absent []string
	path   [fastDepth]pathSegment
	depth  int

	out     []byte // the document without the dropped members; nil in the first pass
	found   bool   // a member to drop was seen
	general bool   // a key has escapes: leave the decision to the general restorer
}

type pathSegment struct{ start, end int } // start < 0: an array item

func (w *nullWalker) emit(b []byte) {
	if w.out != nil {
		w.out = append(w.out, b...)
	}
}

func (w *nullWalker) emitByte(c byte) {
	if w.out != nil {
		w.out = append(w.out, c)
	}
}

func (w *nullWalker) space() {
	for w.i < len(w.src) {
		switch w.src[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

func (w *nullWalker) document() error {
	if err := w.value(); err != nil {
		return err
	}
	w.space()
	if w.i != len(w.src) {
		return errRestoreSyntax
	}
	return nil
}

func (w *nullWalker) value() error {
	w.space()
	if w.i >= len(w.src) {
		return errRestoreSyntax
	}
	switch w.src[w.i] {
	case '{':
		return w.object()
	case '[':
		return w.array()
	case '"':
		start := w.i
		if err := w.skipString(); err != nil {
			return err
		}
		w.emit(w.src[start:w.i])
		return nil
	}
	start := w.i
	for w.i < len(w.src) && isLiteralByte(w.src[w.i]) {
		w.i++
	}
	if start == w.i {
		return errRestoreSyntax
	}
	w.emit(w.src[start:w.i])
	return nil
}

// isLiteralByte reports the bytes of numbers, true, false and null. The generated decoder
// checks the literals themselves; this walker only needs to find where they end.
func isLiteralByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'E'
}

func (w *nullWalker) skipString() error {
	w.i++ // the opening quote
	for w.i < len(w.src) {
		switch w.src[w.i] {
		case '\\':
			w.i += 2
		case '"':
			w.i++
			return nil
		default:
			w.i++
		}
	}
	return errRestoreSyntax
}

func (w *nullWalker) push(seg pathSegment) error {
	if w.depth == len(w.path) {
		return errTooDeepForFast
	}
	w.path[w.depth] = seg
	w.depth++
	return nil
}

func (w *nullWalker) object() error {
	start := w.i
	var droppedBuf [4]pathSegment
	dropped := droppedBuf[:0] // keys of the members dropped from this object
	w.i++
	w.emitByte('{')
	w.space()
	if w.i < len(w.src) && w.src[w.i] == '}' {
		w.i++
		w.emitByte('}')
		return nil
	}
	wrote := false
	for {
		w.space()
		if w.i >= len(w.src) || w.src[w.i] != '"' {
			return errRestoreSyntax
		}
		keyStart := w.i
		if err := w.skipString(); err != nil {
			return err
		}
		keyEnd := w.i
		if bytes.IndexByte(w.src[keyStart:keyEnd], '\\') >= 0 {
			w.general = true
		}
		w.space()
		if w.i >= len(w.src) || w.src[w.i] != ':' {
			return errRestoreSyntax
		}
		w.i++
		w.space()
		if err := w.push(pathSegment{keyStart + 1, keyEnd - 1}); err != nil {
			return err
		}
		if w.nullHere() && w.matches() {
			w.found = true
			w.i += len("null")
			dropped = append(dropped, pathSegment{keyStart, keyEnd})
		} else {
			if wrote {
				w.emitByte(',')
			}
			w.emit(w.src[keyStart:keyEnd])
			w.emitByte(':')
			if err := w.value(); err != nil {
				return err
			}
			wrote = true
		}
		w.depth--
		w.space()
		if w.i >= len(w.src) {
			return errRestoreSyntax
		}
		c := w.src[w.i]
		w.i++
		switch c {
		case '}':
			w.emitByte('}')
			if len(dropped) > 0 && w.duplicates(start, dropped) {
				return errDroppedDuplicate
			}
			return nil
		case ',':
		default:
			return errRestoreSyntax
		}
	}
}

// duplicates reports whether a dropped key appears more than once among the keys of the
// object at src[start:w.i]. Drops happen only at the places the patterns name, so objects
// read again are few and shallow.
func (w *nullWalker) duplicates(start int, dropped []pathSegment) bool {
	var countsBuf [4]int
	counts := countsBuf[:0]
	for range dropped {
		counts = append(counts, 0)
	}
	r := nullWalker{src: w.src[:w.i], i: start + 1}
	for {
		r.space()
		if r.i >= len(r.src) || r.src[r.i] != '"' {
			break
		}
		keyStart := r.i
		if r.skipString() != nil {
			break
		}
		key := r.src[keyStart:r.i]
		for i, d := range dropped {
			if bytes.Equal(key, w.src[d.start:d.end]) {
				if counts[i]++; counts[i] > 1 {
					return true
				}
			}
		}
		r.space()
		r.i++ // the colon
		if r.value() != nil {
			break
		}
		r.space()
		r.i++ // the comma or the closing brace
	}
	return false
}

func (w *nullWalker) array() error {
	w.i++
	w.emitByte('[')
	w.space()
	if w.i < len(w.src) && w.src[w.i] == ']' {
		w.i++
		w.emitByte(']')
		return nil
	}
	if err := w.push(pathSegment{start: -1}); err != nil {
		return err
	}
	for first := true; ; first = false {
		if !first {
			w.emitByte(',')
		}
		if err := w.value(); err != nil {
			return err
		}
		w.space()
		if w.i >= len(w.src) {
			return errRestoreSyntax
		}
		c := w.src[w.i]
		w.i++
		switch c {
		case ']':
			w.depth--
			w.emitByte(']')
			return nil
		case ',':
		default:
			return errRestoreSyntax
		}
	}
}

// nullHere reports whether the value at the read position is the literal null.
func (w *nullWalker) nullHere() bool {
	rest := w.src[w.i:]
	return bytes.HasPrefix(rest, []byte("null")) && (len(rest) == 4 || !isLiteralByte(rest[4]))
}

// matches reports whether the current path is one of the absent patterns: "/a/*/b" matches
// property a, any item, property b.
func (w *nullWalker) matches() bool {
	for _, pattern := range w.absent {
		if w.matchPattern(pattern) {
			return true
		}
	}
	return false
}

func (w *nullWalker) matchPattern(pattern string) bool {
	for d := 0; d < w.depth; d++ {
		if len(pattern) == 0 || pattern[0] != '/' {
			return false
		}
		pattern = pattern[1:]
		seg := pattern
		if j := strings.IndexByte(pattern, '/'); j >= 0 {
			seg, pattern = pattern[:j], pattern[j:]
		} else {
			pattern = ""
		}
		s := w.path[d]
		if s.start < 0 {
			if seg != "*" {
				return false
			}
		} else if seg != string(w.src[s.start:s.end]) { // compared without allocating
			return false
		}
	}
	return pattern == ""
}
