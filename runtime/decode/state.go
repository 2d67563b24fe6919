package decode

import (
	"encoding/binary"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/go-faster/jx"
)

// State is the decoding of one argument document: the reader, the problems found so far and
// the path of the value being read. Into reads a document against a table with it, and the
// functions generated code still holds (KindFunc values) take it with the value's place. It
// lives on the heap, pooled, so element readers can be passed as function values. The path is a stack of segments holding no pointers (a property is the
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

// release ends the decoding whose decoder returned err, puts s back in the pool and returns
// the error of the call.
func (s *State) release(err error) error {
	if err != nil {
		err = SyntaxError(err)
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

// grow makes room for a path deeper than any so far, once per pooled State.
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
	// words holds each name of up to 8 bytes as a little-endian word, so sameName compares
	// it without a call.
	words []uint64
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

// objectReader reads the properties of one JSON object against Fields, for State.object:
// Next moves to each property, Take descends into a known one (recording and skipping a
// repeated one), Unknown records and skips any other, and Close records the required
// properties that were missing. object asks Fresh first: the usual case, inlined, where Take
// is a call.
type objectReader struct {
	s *State
	f *Fields
	// unseen has the bits of properties 0-63 not read yet (all of them when the value is not
	// an object, so Absent and Close find nothing to do): Take's test is one AND, and a shift
	// past 63 gives no bit, which sends properties from 64 on to the slow path.
	unseen uint64
	it     jx.ObjIter
	more   []uint64 // properties from 64 on that were read, for the rare struct that has them
	open   bool     // the value is an object, being read
	base   int      // the depth of the object's path: Next returns to it
	// Err is the first malformed-JSON error; once set, Next returns -1 and Close returns it.
	Err error
}

// Open starts reading an object at the State's path; a value of another type is recorded
// and skipped, and the object then has no properties.
func (o *objectReader) Open(s *State, f *Fields) {
	o.s, o.f, o.base = s, f, s.depth
	if s.depth == len(s.segs) {
		s.grow()
	}
	// Take writes only the index of this segment: the table is the same for every property.
	s.segs[s.depth] = segment{table: f.id + 1}
	if s.d.Next() != jx.Object {
		o.Err = WrongType(s.d, &s.ps, &s.here, "an object")
		return
	}
	o.it, o.Err = s.d.ObjIter()
	o.open = o.Err == nil
	if !o.open {
		return
	}
	o.unseen = ^uint64(0)
	if len(f.names) > 64 {
		o.more = make([]uint64, (len(f.names)-1)/64)
	}
}

// Next moves to the next property, whose name is Key; false at the end of the object or
// after an error.
func (o *objectReader) Next() bool {
	o.s.depth = o.base
	return o.open && o.Err == nil && o.it.Next()
}

// Key is the name of the current property.
func (o *objectReader) Key() []byte { return o.it.Key() }

// Take descends into property i, the current one, and reports whether to read its value:
// false when the property was seen before, in which case it is recorded and skipped.
func (o *objectReader) Take(i int) bool { return o.Fresh(i) || o.take(i) }

// Fresh is Take's usual case, inlined: it descends into property i and reports true when i is
// one of the first 64 and was not read yet; otherwise it does nothing and reports false, and
// Take, called next, handles the property.
func (o *objectReader) Fresh(i int) bool {
	if bit := uint64(1) << uint(i); o.unseen&bit != 0 {
		o.unseen ^= bit
		o.s.segs[o.base].i = int32(i)
		o.s.depth = o.base + 1
		return true
	}
	return false
}

func (o *objectReader) take(i int) bool {
	if o.mark(i) {
		o.Err = SkipDuplicate(o.s.d, &o.s.ps, &o.s.here, o.f.names[i])
		return false
	}
	o.s.pushSegment(segment{table: o.f.id + 1, i: int32(i)})
	return true
}

// Unknown records and skips the current property, which the struct does not have.
func (o *objectReader) Unknown() {
	o.Err = SkipUnknown(o.s.d, &o.s.ps, &o.s.here, o.it.Key(), o.f.names)
}

// mark records property i as read and reports whether it had been already.
func (o *objectReader) mark(i int) bool {
	if i < 64 {
		bit := uint64(1) << i
		dup := o.unseen&bit == 0
		o.unseen &^= bit
		return dup
	}
	word, bit := &o.more[i/64-1], uint64(1)<<(i%64)
	dup := *word&bit != 0
	*word |= bit
	return dup
}

func (o *objectReader) has(i int) bool {
	if i < 64 {
		return o.unseen&(1<<i) == 0
	}
	return o.more == nil || o.more[i/64-1]&(1<<(i%64)) != 0 // more is nil when not an object
}

// Absent reports whether the object was read and property i was not in it: the place for
// its default.
func (o *objectReader) Absent(i int) bool { return o.Err == nil && !o.has(i) }

// Close ends the object, recording the required properties it lacks; it returns the first
// malformed-JSON error.
func (o *objectReader) Close() error {
	// Inlined when every required property of a narrow struct was read: one AND.
	if o.Err == nil && o.unseen&o.f.mask == 0 && o.more == nil {
		return o.it.Err() // a malformed document: its problems do not matter
	}
	return o.close()
}

func (o *objectReader) close() error {
	if o.Err != nil {
		return o.Err
	}
	for _, i := range o.f.required {
		if !o.has(i) {
			o.s.ps.Missing(&o.s.here, o.f.names[i])
		}
	}
	return o.it.Err()
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
	f.words = make([]uint64, n)
	for i, name := range f.names {
		hashes[i] = nameHash([]byte(name))
		if len(name) <= 8 {
			var b [8]byte
			copy(b[:], name)
			f.words[i] = binary.LittleEndian.Uint64(b[:])
		}
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

// index returns the index of the property named key, or -1. Small enough to be inlined.
func (f *Fields) index(key []byte) int {
	i := f.slots[(nameHash(key)*f.mult)>>f.shift]
	if i >= 0 && f.sameName(int(i), key) {
		return int(i)
	}
	if i == byNameSlot {
		return f.indexByName(key)
	}
	return -1
}

// sameName reports whether key is names[i]. A name of up to 8 bytes is compared as one word:
// key is a slice of the document (or of the reader's buffer), so when its capacity allows,
// the 8 bytes from its start are loaded and those past its length masked off.
func (f *Fields) sameName(i int, key []byte) bool {
	name := f.names[i]
	if len(key) != len(name) {
		return false
	}
	if len(key) <= 8 && cap(key) >= 8 {
		return binary.LittleEndian.Uint64(key[:8])&(1<<(8*uint(len(key)))-1) == f.words[i]
	}
	return name == string(key)
}

func (f *Fields) indexByName(key []byte) int {
	if i, ok := f.byName[string(key)]; ok {
		return i
	}
	return -1
}
