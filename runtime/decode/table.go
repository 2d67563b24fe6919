package decode

import (
	"encoding"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/go-faster/jx"
)

// Generated decoders are tables, not code: a Struct per named struct type lists where each
// field lives (its offset) and how to read it (a Value), and the functions here read a
// document against the table. A tool then adds data to a binary rather than machine code,
// which is what large catalogs need: data costs no compile time, no function tables and no
// debug information. Generated code declares the tables as composite literals the linker
// lays out statically, so they cost no start-up time either.
//
// The tables write through unsafe pointers, so a table must agree with its Go type. The
// generator makes them so, and Check proves it with reflect: DecodeArgs, the entry point of
// a toolimpl.Binding's Table, checks a table against the arguments' type before it first decodes into
// that type, and refuses a table that does not match on every call.

// Kind is what a Value reads.
type Kind uint8

// The kinds of Value.
const (
	KindString   Kind = iota + 1 // a string type, with the rule Str
	KindInt                      // a signed integer of Size bytes, with the rule Int
	KindUint                     // an unsigned integer of Size bytes, with the rule Int
	KindFloat                    // a float of Size bytes, with the rule Float
	KindBool                     // a bool type
	KindBytes                    // a []byte type, as standard base64
	KindTime                     // time.Time, RFC 3339
	KindDuration                 // time.Duration, in Go syntax
	KindRaw                      // json.RawMessage
	KindAny                      // any, as encoding/json decodes into it
	KindStruct                   // a struct described by Struct
	KindNullable                 // null leaves the value as it is; anything else is read as Elem
	KindGo                       // a slice, array, map, pointer or text type, read by Go
	KindEmbedded                 // a field promoted through an embedded pointer: see Value.Offset
	KindFunc                     // Func: a table built at run time (runtime/schematool), never generated code
)

// Value says how to read one JSON value into Go memory of a known type. Generated code
// declares one per distinct kind and keywords, shared by every field that has them.
type Value struct {
	Kind Kind
	Size uint8 // bytes of a KindInt, KindUint or KindFloat value
	// Min and Max bound the items or properties of a KindGo container (Max < 0: no bound;
	// generated code always sets it); Min is an array's length.
	Min, Max int
	Str      *StringRule // KindString and text types; nil checks nothing
	Int      *IntRule    // KindInt, KindUint; nil checks nothing
	Float    *FloatRule  // KindFloat; nil checks nothing
	Struct   *Struct     // KindStruct
	Elem     *Value      // KindNullable, and the items of a KindGo container
	Go       GoType      // KindGo; KindEmbedded: the PointerOf[T] of the embedded pointer
	// Offset is, for KindEmbedded, where Elem reads the field in the T the embedded pointer
	// points to; the pointer (at the member's offset) is allocated first when nil, as
	// encoding/json allocates it when one of its fields arrives.
	Offset uintptr
	// Func reads the value at p, for KindFunc: the hook of tables built at run time, whose
	// types only reflect knows (runtime/schematool reads a $ref into a cell it allocates with
	// reflect.New, of a type made after the value that reads it). Check cannot prove a
	// function against a type, so generated code never declares one: every generated value
	// is a kind Check proves.
	Func func(s *State, p unsafe.Pointer) error
}

// Struct describes a named struct type: the names of its properties (Fields) and, at the same
// index, where each field lives and how to read it.
type Struct struct {
	Fields  *Fields
	Members []Member
	// Defaults lists the members with a Default, applied when the property is absent.
	Defaults []int
	// Open, when set, accepts properties the table does not define and skips their values
	// (a JSON Schema without "additionalProperties": false allows them); the decode reports
	// them otherwise. Their cost is that of reading past them, bounded by the arguments' size.
	Open bool

	// checked is the type word of the argument pointer type Check last accepted the table
	// for (read and written atomically): DecodeArgs compares it with its argument's.
	checked unsafe.Pointer
}

// Member is one field of a Struct.
type Member struct {
	Offset uintptr // from the start of the struct
	Value  *Value
	// Default, when set, gives the field its default value: generated code, one function per
	// distinct default, so a slice or map default is fresh for every call.
	Default func(p unsafe.Pointer)
}

// GoType reads the values of one Go type the table cannot lay out itself, because reading
// them allocates (slices, maps, pointers) or calls a method (text types). Generated code
// names one per type with SliceOf, MapOf, PointerOf, TextOf, …: each is a generic type of
// size zero, whose methods are compiled once per shape of its type parameters and shared by
// every type of that shape. The methods have pointer receivers and generated code names
// &SliceOf[E]{}: with value receivers the compiler also emits the pointer type's wrappers,
// which cost a catalog about 1 KB of binary per item type.
type GoType interface {
	read(s *State, p unsafe.Pointer, v *Value) error
	// goType is the Go type read, and how Check matches it.
	goType() reflect.Type
}

// Into decodes and validates the JSON document data into the struct at p, of the type st
// describes, and returns nil or an error listing every problem. It is the entry point of
// generated decoders. The struct is expected to be zero, as a toolimpl.Binding's New allocates it:
// toolgen declares no Default for a default that is the zero value of its field.
func Into(data []byte, p unsafe.Pointer, st *Struct) error {
	s := states.Get().(*State)
	s.d.ResetBytes(data)
	s.left = len(data)
	return s.release(data, s.object(p, st))
}

// Read reads one value at the State's path into the Go value at p, as v says: what a KindFunc
// function calls for the value it allocated.
func Read(s *State, p unsafe.Pointer, v *Value) error { return s.value(p, v) }

// DecodeArgs decodes the JSON document data into args, a pointer to the struct type st
// describes, as Into does: a toolimpl.Binding's Table. Before it first decodes into a type,
// Check proves the table against it; a table that does not match (a generated file older
// than its types) is refused, on every call, with an error that says to run go generate.
func (st *Struct) DecodeArgs(data []byte, args any) error {
	// An interface is a type word and a data word: args holds a pointer, so its data word is
	// the struct, and its type word names the pointer type.
	words := (*[2]unsafe.Pointer)(unsafe.Pointer(&args))
	if atomic.LoadPointer(&st.checked) != words[0] {
		t := reflect.TypeOf(args)
		if t == nil || t.Kind() != reflect.Pointer {
			return fmt.Errorf("decode: the arguments are a %v, not a pointer to a struct", t)
		}
		if err := Check(st, t.Elem()); err != nil {
			return fmt.Errorf("the generated decoder does not match the arguments' type; run go generate: %w", err)
		}
		atomic.StorePointer(&st.checked, words[0])
	}
	return Into(data, words[1], st)
}

// object reads a JSON object into the struct at p. Its state lives in locals, which the
// compiler keeps in registers: the usual property costs a name comparison, one AND and the
// call that reads its value. What is rare (an unknown or repeated property, a struct of more
// than 64 fields, a missing one) is in functions of its own.
func (s *State) object(p unsafe.Pointer, st *Struct) error {
	f := st.Fields
	base := s.depth
	if base == len(s.segs) {
		s.grow()
	}
	// The segment of the property being read: its table is the same for every property. A
	// reader that may descend may also grow s.segs, which moves seg.
	seg := &s.segs[base]
	*seg = segment{table: f.id + 1}
	if s.d.Next() != jx.Object {
		return WrongType(s.d, &s.ps, &s.here, "an object")
	}
	it, err := s.d.ObjIter()
	if err != nil {
		return err
	}
	// unseen has the bits of properties 0-63 not read yet: a shift past 63 gives no bit, which
	// sends properties from 64 on to take; more holds those that were read.
	unseen := ^uint64(0)
	var more []uint64
	if len(f.names) > 64 {
		more = make([]uint64, (len(f.names)-1)/64)
	}
	// Each value is read one level down, at the segment of its property; the readers below
	// return at the depth they started from, unless they fail: an error ends the decode, and
	// release resets the depth.
	s.depth = base + 1
	next := 0 // models mostly send properties in the schema's order: try the next one first
	for it.Next() {
		key, i := it.Key(), next
		if i >= len(f.names) || !f.sameName(i, key) {
			i = f.indexAfter(i-1, key)
		}
		next = i + 1
		if i < 0 && st.Open {
			if err := s.d.Skip(); err != nil {
				return err
			}
			continue
		}
		if i < 0 {
			s.depth = base
			if err := SkipUnknown(s.d, &s.ps, &s.here, key, f.names); err != nil {
				return err
			}
			s.depth = base + 1
			continue
		}
		if bit := uint64(1) << uint(i); unseen&bit != 0 {
			unseen ^= bit
		} else if ok, err := s.take(f, i, more, base); !ok {
			if err != nil {
				return err
			}
			continue
		}
		seg.i = int32(i)
		m := &st.Members[i]
		// The usual kinds without the call to value: a field costs what a helper call of the
		// generated decoders before tables did.
		switch q, v := unsafe.Add(p, m.Offset), m.Value; v.Kind {
		case KindString:
			err = s.str((*string)(q), v.Str)
		case KindInt:
			err = s.signed(q, uintptr(v.Size), v.Int)
		case KindFloat:
			if v.Size == 4 {
				err = floatValue(s, (*float32)(q), v.Float)
			} else {
				err = floatValue(s, (*float64)(q), v.Float)
			}
		case KindGo:
			// A list of strings, the usual container, without the calls through GoType.
			if _, strings := v.Go.(*SliceOf[string]); strings {
				_, err = readItems(s, (*[]string)(q), v, nil)
			} else {
				err = v.Go.read(s, q, v)
			}
			seg = &s.segs[base]
		case KindStruct:
			err = s.object(q, v.Struct)
			seg = &s.segs[base]
		default:
			err = s.value(q, v)
			seg = &s.segs[base]
		}
		if err != nil {
			return err
		}
	}
	s.depth = base
	if err := it.Err(); err != nil {
		return err // a malformed document: its problems do not matter
	}
	for _, i := range st.Defaults {
		if !has(i, unseen, more) {
			m := &st.Members[i]
			m.Default(unsafe.Add(p, m.Offset))
		}
	}
	if unseen&f.mask != 0 || more != nil {
		s.missing(f, unseen, more)
	}
	return nil
}

// take handles property i of f when it is not one of the first 64 unread: it records a
// repeated one and skips its value (false), or marks one from 64 on as read in more (true).
func (s *State) take(f *Fields, i int, more []uint64, base int) (bool, error) {
	if i >= 64 {
		word, bit := &more[i/64-1], uint64(1)<<(i%64)
		if *word&bit == 0 {
			*word |= bit
			return true, nil
		}
	}
	s.depth = base
	err := SkipDuplicate(s.d, &s.ps, &s.here, f.names[i])
	s.depth = base + 1
	return false, err
}

// has reports whether property i was read.
func has(i int, unseen uint64, more []uint64) bool {
	if i < 64 {
		return unseen&(1<<i) == 0
	}
	return more[i/64-1]&(1<<(i%64)) != 0
}

// missing records the required properties of f that were not read, at the object's path.
func (s *State) missing(f *Fields, unseen uint64, more []uint64) {
	for _, i := range f.required {
		if !has(i, unseen, more) {
			s.ps.Missing(&s.here, f.names[i])
		}
	}
}

// value reads one JSON value into the Go value at p.
func (s *State) value(p unsafe.Pointer, v *Value) error {
	switch v.Kind {
	case KindString:
		return s.str((*string)(p), v.Str)
	case KindInt:
		return s.signed(p, uintptr(v.Size), v.Int)
	case KindUint:
		return s.unsigned(p, uintptr(v.Size), v.Int)
	case KindFloat:
		if v.Size == 4 {
			return floatValue(s, (*float32)(p), v.Float)
		}
		return floatValue(s, (*float64)(p), v.Float)
	case KindBool:
		return boolValue(s, (*bool)(p))
	case KindBytes:
		return bytesValue(s, (*[]byte)(p))
	case KindTime:
		return timeValue(s, (*time.Time)(p))
	case KindDuration:
		return durationValue(s, (*time.Duration)(p))
	case KindRaw:
		return rawValue(s, (*json.RawMessage)(p))
	case KindAny:
		return anyValue(s, (*any)(p))
	case KindStruct:
		return s.object(p, v.Struct)
	case KindNullable:
		if s.d.Next() == jx.Null {
			return s.d.Null()
		}
		return s.value(p, v.Elem)
	case KindGo:
		return v.Go.read(s, p, v)
	case KindEmbedded:
		a, ok := v.Go.(allocator)
		if !ok {
			return fmt.Errorf("decode: an embedded value whose Go type is not a PointerOf")
		}
		return s.value(unsafe.Add(a.alloc(p), v.Offset), v.Elem)
	case KindFunc:
		return v.Func(s, p)
	}
	return fmt.Errorf("decode: a value of unknown kind %d", v.Kind)
}

// unsigned reads an unsigned integer of size bytes into *v, with the keywords of r.
func (s *State) unsigned(p unsafe.Pointer, size uintptr, r *IntRule) error {
	switch size {
	case 1:
		return uintValue(s, (*uint8)(p), r)
	case 2:
		return uintValue(s, (*uint16)(p), r)
	case 4:
		return uintValue(s, (*uint32)(p), r)
	}
	return uintValue(s, (*uint64)(p), r)
}

// SliceOf reads a slice of E (a type whose underlying type is []E): v.Elem reads each item,
// v.Min and v.Max bound their number.
type SliceOf[E any] struct{}

func (*SliceOf[E]) read(s *State, p unsafe.Pointer, v *Value) error {
	_, err := readItems(s, (*[]E)(p), v, nil)
	return err
}

// readItems reads an array into *items (never nil), each item as v.Elem says (structs and
// strings without the call to value), holding their number to [v.Min, v.Max] (v.Max < 0: no
// limit). Items past v.Max are counted and skipped, never built: a document of a million
// items against maxItems=100 allocates a hundred. failed, when not nil, marks the items that
// had problems of their own; array reports that the value was an array.
func readItems[E any](s *State, items *[]E, v *Value, failed *Failed) (array bool, err error) {
	if s.d.Next() != jx.Array {
		return false, WrongType(s.d, &s.ps, &s.here, "an array")
	}
	it, err := s.d.ArrIter()
	if err != nil {
		return false, err
	}
	*items = EmptySlice(*items)
	elem, limit := v.Elem, v.Max
	if limit < 0 {
		limit = math.MaxInt
	}
	// Each item is read one level down, at the segment of its index; the readers below
	// return at the depth they started from. A reader that may descend may also grow s.segs,
	// which moves seg.
	base := s.depth
	if base == len(s.segs) {
		s.grow()
	}
	seg := &s.segs[base]
	*seg = segment{}
	s.depth = base + 1
	i := 0
	// The index advances past skipped items too: after the loop it counts the items sent.
	for ; it.Next(); i++ {
		if i >= limit {
			if err := s.d.Skip(); err != nil {
				return false, err
			}
			continue
		}
		seg.i = int32(i)
		p := unsafe.Pointer(Grow(items))
		var err error
		before := 0
		if failed != nil {
			before = s.ps.Len()
		}
		switch elem.Kind {
		case KindString:
			err = s.str((*string)(p), elem.Str)
		case KindStruct:
			err = s.object(p, elem.Struct)
			seg = &s.segs[base]
		default:
			err = s.value(p, elem)
			seg = &s.segs[base]
		}
		if err != nil {
			return false, err
		}
		if failed != nil && s.ps.Len() != before {
			failed.Mark(i)
		}
	}
	s.depth = base
	if err := it.Err(); err != nil {
		return false, err
	}
	if i < v.Min || i > limit {
		countChecks(s, v.Min, v.Max, i, "item")
	}
	return true, nil
}

func (*SliceOf[E]) goType() reflect.Type { return reflect.TypeFor[[]E]() }

// UniqueSliceOf is SliceOf for uniqueItems. An item that failed may hold no value (one of a
// wrong type is skipped), so uniqueness is judged among the others, and reported beside the
// items' own problems and a wrong number of items.
type UniqueSliceOf[E comparable] struct{}

func (*UniqueSliceOf[E]) read(s *State, p unsafe.Pointer, v *Value) error {
	items := (*[]E)(p)
	var failed Failed
	array, err := readItems(s, items, v, &failed)
	if array && err == nil {
		if i, j, dup := FindDuplicateExcept(*items, &failed); dup {
			s.ps.Duplicates(&s.here, i, j)
		}
	}
	return err
}

func (*UniqueSliceOf[E]) goType() reflect.Type { return reflect.TypeFor[[]E]() }

// ArrayOf reads an array of v.Min items of E (a Go array [v.Min]E).
type ArrayOf[E any] struct{}

func (*ArrayOf[E]) read(s *State, p unsafe.Pointer, v *Value) error {
	return readArray(s, unsafe.Slice((*E)(p), v.Min), func(s *State, e *E) error { return s.value(unsafe.Pointer(e), v.Elem) })
}

func (*ArrayOf[E]) goType() reflect.Type { return reflect.TypeFor[E]() } // the item: Check adds the length

func (*ArrayOf[E]) array() {}

// PointerOf reads a pointer to T (a type whose underlying type is *T): null is nil, anything
// else is read by v.Elem into the pointee, allocated when nil.
type PointerOf[T any] struct{}

func (*PointerOf[T]) read(s *State, p unsafe.Pointer, v *Value) error {
	ptr := (**T)(p)
	if s.d.Next() == jx.Null {
		*ptr = nil
		return s.d.Null()
	}
	return s.value(unsafe.Pointer(Alloc(ptr)), v.Elem)
}

func (*PointerOf[T]) goType() reflect.Type { return reflect.TypeFor[*T]() }

// alloc returns the T the pointer at p points to, allocated when nil.
func (*PointerOf[T]) alloc(p unsafe.Pointer) unsafe.Pointer { return unsafe.Pointer(Alloc((**T)(p))) }

// allocator is the GoType of a KindEmbedded value: a PointerOf.
type allocator interface {
	alloc(p unsafe.Pointer) unsafe.Pointer
}

// TextOf reads a string into a type implementing encoding.TextUnmarshaler, after the
// keywords of v.Str.
type TextOf[T any, PT interface {
	*T
	encoding.TextUnmarshaler
}] struct{}

func (*TextOf[T, PT]) read(s *State, p unsafe.Pointer, v *Value) error {
	return textValue(s, PT((*T)(p)), v.Str)
}

func (*TextOf[T, PT]) goType() reflect.Type { return reflect.TypeFor[T]() }

func (*TextOf[T, PT]) text() {}

// MapOf reads an object into a map of string keys (a type whose underlying type is
// map[K]V): v.Elem reads each property's value, v.Min and v.Max bound their number.
type MapOf[K ~string, V any] struct{}

func (*MapOf[K, V]) read(s *State, p unsafe.Pointer, v *Value) error {
	return readMapValue(s, (*map[K]V)(p), v, keyString[K])
}

func (*MapOf[K, V]) goType() reflect.Type { return reflect.TypeFor[map[K]V]() }

// IntMapOf is MapOf for signed integer keys.
type IntMapOf[K Signed, V any] struct{}

func (*IntMapOf[K, V]) read(s *State, p unsafe.Pointer, v *Value) error {
	return readMapValue(s, (*map[K]V)(p), v, keyInt[K])
}

func (*IntMapOf[K, V]) goType() reflect.Type { return reflect.TypeFor[map[K]V]() }

// UintMapOf is MapOf for unsigned integer keys.
type UintMapOf[K Unsigned, V any] struct{}

func (*UintMapOf[K, V]) read(s *State, p unsafe.Pointer, v *Value) error {
	return readMapValue(s, (*map[K]V)(p), v, keyUint[K])
}

func (*UintMapOf[K, V]) goType() reflect.Type { return reflect.TypeFor[map[K]V]() }

// TextMapOf is MapOf for keys implementing encoding.TextUnmarshaler.
type TextMapOf[K comparable, PK interface {
	*K
	encoding.TextUnmarshaler
}, V any] struct{}

func (*TextMapOf[K, PK, V]) read(s *State, p unsafe.Pointer, v *Value) error {
	return readMapValue(s, (*map[K]V)(p), v, keyText[K, PK])
}

func (*TextMapOf[K, PK, V]) goType() reflect.Type { return reflect.TypeFor[map[K]V]() }

// readMapValue reads an object into *m (never nil), each name converted with key and each
// value read as v.Elem says, holding their number to [v.Min, v.Max] (v.Max < 0: no limit).
func readMapValue[K comparable, V any](s *State, m *map[K]V, v *Value, key func(*State, string) (K, bool)) error {
	if s.d.Next() != jx.Object {
		return WrongType(s.d, &s.ps, &s.here, "an object")
	}
	*m = MakeMap(*m)
	return readMap(s, *m, v.Min, v.Max, key, func(s *State, e *V) error { return s.value(unsafe.Pointer(e), v.Elem) })
}
