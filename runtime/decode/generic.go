package decode

import (
	"encoding"
	"strconv"
	"time"

	"github.com/toolgen-go/toolgen/internal/plural"
)

// SupportsGeneratedV3 was referenced, as a constant, by generated files up to the third
// version of the generated code (toolimpl.SupportsGeneratedV7 is the current marker). It is
// now a variable, so that such a file fails to build at its first line with the reason in
// the type's name: "decode.SupportsGeneratedV3 (variable of struct type
// decode.GeneratedCodeIsStaleRunGoGenerate) is not constant".
var SupportsGeneratedV3 GeneratedCodeIsStaleRunGoGenerate

// GeneratedCodeIsStaleRunGoGenerate names, in the compiler's error, what to do about a
// generated file older than this runtime: run go generate.
type GeneratedCodeIsStaleRunGoGenerate struct{}

// These generic helpers let generated code build values of types it need not spell out, such
// as anonymous structs inside slices and maps.

// Grow appends a zero element to *s and returns a pointer to it, valid until the next append.
func Grow[S ~[]E, E any](s *S) *E {
	var zero E
	if cap(*s) == 0 {
		// Start at four items, as encoding/json does, rather than growing 1, 2, 4.
		*s = make(S, 0, 4)
	}
	*s = append(*s, zero)
	return &(*s)[len(*s)-1]
}

// EmptySlice returns s emptied, never nil: JSON [] decodes to an empty slice, as with
// encoding/json.
func EmptySlice[S ~[]E, E any](s S) S {
	if s == nil {
		return S{}
	}
	return s[:0]
}

// Alloc returns *p, allocating it first when nil. P may be a named pointer type
// (type Hint *struct{…}).
func Alloc[P ~*T, T any](p *P) P {
	if *p == nil {
		*p = P(new(T))
	}
	return *p
}

// Ptr returns a pointer to a copy of v (defaults of pointer fields).
func Ptr[T any](v T) *T { return &v }

// MakeMap returns m, or a new map when m is nil.
func MakeMap[M ~map[K]V, K comparable, V any](m M) M {
	if m == nil {
		return make(M)
	}
	return m
}

// MapElem returns the zero value of m's element type.
func MapElem[M ~map[K]V, K comparable, V any](M) (v V) { return v }

// StringKey converts a property name to the string key type of m.
func StringKey[M ~map[K]V, K ~string, V any](_ M, key string) K { return K(key) }

// IntKey converts a property name to the signed integer key type of m, within [min, max].
func IntKey[M ~map[K]V, K ~int | ~int8 | ~int16 | ~int32 | ~int64, V any](_ M, ps *Problems, p *Path, key string, min, max int64) (K, bool) {
	n, err := strconv.ParseInt(key, 10, 64)
	if err != nil || !canonicalInt(key) || n < min || n > max {
		ps.Add(p, "property name must be an integer between "+strconv.FormatInt(min, 10)+" and "+strconv.FormatInt(max, 10))
		return 0, false
	}
	return K(n), true
}

// UintKey converts a property name to the unsigned integer key type of m, at most max.
func UintKey[M ~map[K]V, K ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64, V any](_ M, ps *Problems, p *Path, key string, max uint64) (K, bool) {
	n, err := strconv.ParseUint(key, 10, 64)
	if err != nil || !canonicalInt(key) || n > max {
		ps.Add(p, "property name must be an integer between 0 and "+strconv.FormatUint(max, 10))
		return 0, false
	}
	return K(n), true
}

// canonicalInt accepts what the schema's propertyNames pattern ^-?(0|[1-9][0-9]*)$ accepts.
func canonicalInt(s string) bool {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	if s == "" || (s[0] == '0' && len(s) > 1) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// TextKey converts a property name to a key type implementing encoding.TextUnmarshaler.
func TextKey[M ~map[K]V, K comparable, PK interface {
	*K
	encoding.TextUnmarshaler
}, V any](_ M, ps *Problems, p *Path, key string) (K, bool) {
	var k K
	if err := PK(&k).UnmarshalText([]byte(key)); err != nil {
		ps.Add(p, "property name is not accepted: "+err.Error())
		return k, false
	}
	return k, true
}

// SkipDuplicate records a repeated property and skips its value.
func SkipDuplicate(d *Decoder, ps *Problems, p *Path, name string) error {
	q := p.Key(name)
	ps.Duplicate(&q)
	return d.Skip()
}

// SkipUnknown records a property the schema does not define and skips its value.
func SkipUnknown(d *Decoder, ps *Problems, p *Path, key []byte, known []string) error {
	ps.Unknown(p, key, known)
	return d.Skip()
}

// Bound records a failed numeric bound: "must be at least 1, got 0".
func (ps *Problems) Bound(p *Path, relation, limit, got string) {
	ps.Add(p, "must be "+relation+" "+limit+", got "+got)
}

// Length records a failed string length bound, in characters (code points).
func (ps *Problems) Length(p *Path, relation string, limit, got int) {
	ps.Add(p, "must be "+relation+" "+plural.Of(limit, "character")+" long, got "+strconv.Itoa(got))
}

// Count records a failed item or property count bound: "must have at most 10 items, got 12".
func (ps *Problems) Count(p *Path, relation string, limit, got int, noun string) {
	ps.addReserved(p, "must have "+relation+" "+plural.Of(limit, noun)+", got "+strconv.Itoa(got))
}

// Mismatch records a string that fails a pattern or format: what describes the expectation.
func (ps *Problems) Mismatch(p *Path, what, got string) {
	ps.Add(p, "must be "+what+", got "+quotedShown(got))
}

// ApplyText hands a string already read (and checked) to a TextUnmarshaler.
func ApplyText(ps *Problems, p *Path, v encoding.TextUnmarshaler, s string) {
	if err := v.UnmarshalText([]byte(s)); err != nil {
		ps.Add(p, "is not accepted: "+err.Error())
	}
}

// FindDuplicate reports the first pair of equal items, for uniqueItems.
func FindDuplicate[S ~[]E, E comparable](s S) (i, j int, found bool) {
	return FindDuplicateExcept(s, nil)
}

// FindDuplicateExcept reports the first pair of equal items, for uniqueItems, leaving out the
// items failed marks: an item with a problem of its own may hold no value (one of a wrong
// type is skipped and stays zero), and two such would look equal.
func FindDuplicateExcept[S ~[]E, E comparable](s S, failed *Failed) (i, j int, found bool) {
	if len(s) < 16 {
		for j := 1; j < len(s); j++ {
			if failed.Has(j) {
				continue
			}
			for i := 0; i < j; i++ {
				if s[i] == s[j] && !failed.Has(i) {
					return i, j, true
				}
			}
		}
		return 0, 0, false
	}
	first := make(map[E]int, len(s))
	for j, e := range s {
		if failed.Has(j) {
			continue
		}
		if i, ok := first[e]; ok {
			return i, j, true
		}
		first[e] = j
	}
	return 0, 0, false
}

// Failed marks the items of an array that had problems of their own, for
// FindDuplicateExcept. The zero value marks none; the first mark allocates a bit per item up
// to it, so the set is never larger than the array it describes.
type Failed struct{ bits []uint64 }

// Mark marks item i.
func (f *Failed) Mark(i int) {
	w := i / 64
	if w >= len(f.bits) {
		f.bits = append(f.bits, make([]uint64, w+1-len(f.bits))...)
	}
	f.bits[w] |= 1 << (i % 64)
}

// Has reports whether item i is marked; a nil *Failed marks none.
func (f *Failed) Has(i int) bool {
	if f == nil || i/64 >= len(f.bits) {
		return false
	}
	return f.bits[i/64]&(1<<(i%64)) != 0
}

// Duplicates records a uniqueItems failure.
func (ps *Problems) Duplicates(p *Path, i, j int) {
	ps.Add(p, "must not contain duplicates, but items "+strconv.Itoa(i)+" and "+strconv.Itoa(j)+" are equal")
}

// MustTime parses an RFC 3339 default that toolgen validated when it generated the code.
func MustTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic("toolgen: invalid generated default time " + strconv.Quote(s))
	}
	return t
}

// Rounded records a number that meets a bound as sent but not as the float it becomes:
// "must be greater than 0, got 1e-400, which rounds to 0 as a 64-bit float".
func (ps *Problems) Rounded(p *Path, relation, limit, got string, v float64, bits int) {
	ps.Add(p, "must be "+relation+" "+limit+", got "+got+", which rounds to "+
		strconv.FormatFloat(v, 'g', -1, bits)+" as a "+strconv.Itoa(bits)+"-bit float; send a value that stays "+relation+" "+limit+" once rounded")
}
