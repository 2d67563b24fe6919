package decode

import (
	"encoding/binary"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/go-faster/jx"
)

// State is the decoding of one argument document: the reader, the problems found so far and
// the path of the value being read. Into reads a document against a table with it, and the
// functions of run-time tables (KindFunc values) take it with the value's place. It lives on
// the heap, pooled, so element readers can be passed as function values. The path is a stack
// of segments holding no pointers (a property is the
// index of its name in a Fields table), so descending costs two stores without write
// barriers; its text is only built for a problem.
type State struct {
	d     *Decoder
	ps    Problems
	here  Path      // the current path, as the Read functions take it: rendered from segs
	segs  []segment // segs[:depth] is the current path
	keys  []string  // the property names of map segments, by depth
	depth int
	used  int // keys[:used] may hold names, cleared on release so the pool keeps no input

	// strs holds the bytes of the strings decoded so far, which share it (keep): a few
	// allocations a document instead of one a string. A chunk is never written again once a
	// string was cut from it, and never reused by another document: release drops it.
	strs []byte
	left int // the document's bytes no string has taken yet: what strs may grow to
}

// keep returns b as a string whose bytes live in s.strs, which grows in chunks (doubling, at
// least 256 bytes, never past the document's size) so that a document of many short strings
// costs a few allocations, and one with a single short string no more than a copy of it.
// A string the handler keeps holds its chunk alive, which is at most the document's size.
func (s *State) keep(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if cap(s.strs)-len(s.strs) < len(b) {
		size := min(max(2*cap(s.strs), 256, len(b)), max(s.left, len(b)))
		s.strs = make([]byte, 0, size)
	}
	start := len(s.strs)
	s.strs = append(s.strs, b...)
	s.left -= len(b)
	return unsafe.String(&s.strs[start], len(b))
}

// segment is one level of the path: a property of a Fields table, an item, or a map's
// property (whose name is in State.keys).
type segment struct {
	table int32 // Fields id + 1; 0 for an item; -1 for a map property
	i     int32 // the property's index in the table, or the item's index
}

var states = sync.Pool{New: func() any {
	s := &State{d: jx.GetDecoder(), segs: make([]segment, 32), keys: make([]string, 32)}
	s.here.state = s
	return s
}}

// release ends the decoding of data whose decoder returned err, puts s back in the pool and
// returns the error of the call.
func (s *State) release(data []byte, err error) error {
	if err != nil {
		err = InvalidJSON(data, err)
	} else if err = Finish(s.d); err == nil && s.ps.Len() > 0 {
		err = s.ps.Err()
	}
	if s.ps.Len() > 0 || s.ps.text > 0 {
		s.ps = Problems{} // the problems' list belongs to err now
	}
	s.depth = 0
	if s.used > 0 {
		clear(s.keys[:s.used])
		s.used = 0
	}
	s.d.ResetBytes(nil)
	s.strs, s.left = nil, 0
	states.Put(s)
	return err
}

// Parts returns the reader, the problems and the current path, for code that reads a value
// with the Read functions.
func (s *State) Parts() (*Decoder, *Problems, *Path) { return s.d, &s.ps, &s.here }

// pushSegment descends one level.
func (s *State) pushSegment(seg segment) {
	if s.depth == len(s.segs) {
		s.grow()
	}
	s.segs[s.depth] = seg
	s.depth++
}

// grow makes room for a path deeper than any so far, once per pooled State: rare, so kept out
// of the readers that call it.
//
//go:noinline
func (s *State) grow() {
	s.segs = append(s.segs, make([]segment, len(s.segs))...)
	s.keys = append(s.keys, make([]string, len(s.keys))...)
}

// pushIndex descends into item i.
func (s *State) pushIndex(i int) { s.pushSegment(segment{i: int32(i)}) }

// pushKey descends into a property that is not in a Fields table.
func (s *State) pushKey(key string) {
	s.pushSegment(segment{table: -1})
	s.keys[s.depth-1] = key
	s.used = max(s.used, s.depth)
}

// pop returns to the parent value.
func (s *State) pop() { s.depth-- }

// add records a problem at the current path.
func (s *State) add(message string) { s.ps.Add(&s.here, message) }

// writePath writes the current path as Path.write does.
func (s *State) writePath(b *strings.Builder) {
	for d, seg := range s.segs[:s.depth] {
		switch {
		case seg.table == 0:
			writeSegment(b, "", int(seg.i))
		case seg.table < 0:
			writeSegment(b, s.keys[d], -1)
		default:
			writeSegment(b, fieldTable(seg.table - 1).names[seg.i], -1)
		}
	}
}

// Fields describes the properties of a struct type: their JSON names, in the order of the
// struct's fields, and which are required. Generated code declares one per distinct list,
// shared by every type that has it.
type Fields struct {
	names    []string
	required []int
	mask     uint64 // the required ones of the first 64
	id       int32  // in tables, which path segments refer to
	// slots finds a name's index with one multiplication and one comparison: a perfect hash
	// (nameHash with mult, its top bits) found when the table is made, holding the index or
	// -1. A list it cannot separate (two names of one length with the same first, middle and
	// last bytes) uses byName instead.
	slots  []int32
	mult   uint32
	shift  uint8
	byName map[string]int
	// keys holds each name as sameName compares it, without a call.
	keys []nameKey
}

// tables lists every Fields, so a path segment names a property by two integers. It only
// grows, while packages initialise; a problem's path reads it without a lock.
var (
	tables    atomic.Pointer[[]*Fields]
	tablesAdd sync.Mutex
)

func fieldTable(id int32) *Fields { return (*tables.Load())[id] }

// NewFields describes properties names, of which those at the indexes required must be
// present. It registers the table for the life of the program (paths name a property by its
// table and index): call it once per list, in a package-level declaration.
func NewFields(names []string, required ...int) *Fields {
	f := &Fields{names: names, required: required}
	f.buildIndex()
	for _, i := range required {
		if i < 64 {
			f.mask |= 1 << i
		}
	}
	tablesAdd.Lock()
	var list []*Fields
	if old := tables.Load(); old != nil {
		list = *old
	}
	f.id = int32(len(list))
	list = append(list[:len(list):len(list)], f) // a new array: readers keep the one they loaded
	tables.Store(&list)
	tablesAdd.Unlock()
	return f
}

// nameHash mixes a property name's length and its first, middle and last bytes: enough to
// tell apart the names of almost any struct, and four loads whatever the name's length.
func nameHash(key []byte) uint32 {
	n := len(key)
	if n == 0 {
		return 0
	}
	return uint32(n) ^ uint32(key[0])<<8 ^ uint32(key[n/2])<<16 ^ uint32(key[n-1])<<24
}

// buildIndex builds the lookup of names: a perfect hash when one of the multipliers tried
// separates them in a table of up to 8 slots a name, else a one-slot table sending every
// name to byName.
func (f *Fields) buildIndex() {
	n := len(f.names)
	f.slots, f.shift = []int32{-1}, 32 // no names: every slot empty (a shift by 32 gives 0)
	if n == 0 {
		return
	}
	hashes := make([]uint32, n)
	f.keys = make([]nameKey, n)
	for i, name := range f.names {
		hashes[i] = nameHash([]byte(name))
		f.keys[i] = keyOf(name)
	}
	bits := 1
	for 1<<bits < 2*n {
		bits++
	}
	for ; 1<<bits <= 8*n && bits <= 16; bits++ {
		slots := make([]int32, 1<<bits)
		for try := uint32(0); try < 64; try++ {
			mult := (try*0x9E3779B9 + 0x85EBCA6B) | 1 // odd multipliers, spread
			for j := range slots {
				slots[j] = -1
			}
			ok := true
			for i, h := range hashes {
				j := (h * mult) >> (32 - bits)
				if slots[j] >= 0 {
					ok = false
					break
				}
				slots[j] = int32(i)
			}
			if ok {
				f.slots, f.mult, f.shift = slots, mult, uint8(32-bits)
				return
			}
		}
	}
	f.slots[0] = byNameSlot
	f.byName = make(map[string]int, n)
	for i, name := range f.names {
		if _, dup := f.byName[name]; !dup {
			f.byName[name] = i
		}
	}
}

// byNameSlot in slots sends the lookup to byName.
const byNameSlot = -2

// index returns the index of the property named key, or -1.
func (f *Fields) index(key []byte) int { return f.indexAfter(-1, key) }

// indexAfter is index for a key that is not names[prev+1], the property expected next: models
// leave out optional properties, so it tries the one after that before hashing.
func (f *Fields) indexAfter(prev int, key []byte) int {
	if next := prev + 2; next < len(f.names) && f.sameName(next, key) {
		return next
	}
	i := f.slots[(nameHash(key)*f.mult)>>f.shift]
	if i >= 0 && f.sameName(int(i), key) {
		return int(i)
	}
	if i == byNameSlot {
		return f.indexByName(key)
	}
	return -1
}

// sameName reports whether key is names[i].
func (f *Fields) sameName(i int, key []byte) bool {
	if k := &f.keys[i]; k.short(key) {
		return k.word(key)
	}
	return f.names[i] == string(key)
}

// nameKey is a name of up to 8 bytes as a little-endian word, for a comparison without a
// call: key is a slice of the document (or of the reader's buffer), so when its capacity
// allows, the 8 bytes from its start are loaded and those past its length masked off.
type nameKey struct {
	w, mask uint64
	n       int // the name's length
}

func keyOf(name string) nameKey {
	if len(name) > 8 {
		return nameKey{n: len(name)}
	}
	var b [8]byte
	copy(b[:], name)
	return nameKey{w: binary.LittleEndian.Uint64(b[:]), mask: 1<<(8*uint(len(name))) - 1, n: len(name)}
}

// short reports whether key can be compared with word: false when it cannot be the name, or
// when only a comparison of strings can tell.
func (k *nameKey) short(key []byte) bool {
	return len(key) == k.n && len(key) <= 8 && cap(key) >= 8
}

// word reports whether key, for which short holds, is the name.
func (k *nameKey) word(key []byte) bool {
	return binary.LittleEndian.Uint64(key[:8])&k.mask == k.w
}

func (f *Fields) indexByName(key []byte) int {
	if i, ok := f.byName[string(key)]; ok {
		return i
	}
	return -1
}
