package decode

import (
	"encoding"
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/go-faster/jx"
)

// The readers below read one value each at the State's path, as a table's Value says: they
// check it against the keywords of its rule, which generated code declares once per distinct
// set of keywords, and store it. They record problems and go on; the error they return is
// only for malformed JSON.

// StringRule holds the string keywords of a field. The zero value checks nothing.
type StringRule struct {
	MinLength    int  // code points; 0 checks nothing
	MaxLength    int  // code points, when HasMaxLength
	HasMaxLength bool //
	// LateMax counts maxLength on the string read, as enum types do, instead of refusing a
	// longer string before building it.
	LateMax     bool
	Pattern     func(string) bool // the compiled pattern, PatternText its source
	PatternText string
	Format      func(string) bool // a format checker of this package, FormatName its name
	FormatName  string
	Enum        *Enum
}

// Enum is the allowed values of a string: an enum type's constants or an enum keyword.
type Enum struct {
	values []string
	shown  string         // the list as messages show it
	index  map[string]int // for long lists
	keys   []nameKey      // for short ones
	// plain is set when no value needs decoding as a JSON string literal, so a literal equal
	// to a value has no escapes and is that value.
	plain bool
	// lengths has bit n set when a value is n bytes long (bit 63: 63 bytes or more), so that
	// most literals matching no value are refused without a comparison.
	lengths uint64
}

// NewEnum describes the allowed values, in the order messages list them.
func NewEnum(values ...string) *Enum {
	e := &Enum{values: values, shown: quoteList(values), plain: true}
	for _, v := range values {
		e.keys = append(e.keys, keyOf(v))
		e.lengths |= 1 << min(len(v), 63)
		if plainRun([]byte(v)) != len(v) || strings.IndexByte(v, '"') >= 0 {
			e.plain = false
		}
	}
	if len(values) > 8 {
		e.index = make(map[string]int, len(values))
		for i, v := range values {
			if _, ok := e.index[v]; !ok {
				e.index[v] = i
			}
		}
	}
	return e
}

// find returns the allowed value equal to b, without allocating.
func (e *Enum) find(b []byte) (string, bool) {
	if e.lengths&(1<<min(len(b), 63)) == 0 {
		return "", false
	}
	if e.index != nil {
		i, ok := e.index[string(b)]
		if !ok {
			return "", false
		}
		return e.values[i], true
	}
	for i := range e.keys {
		if k := &e.keys[i]; k.short(b) {
			if k.word(b) {
				return e.values[i], true
			}
		} else if e.values[i] == string(b) {
			return e.values[i], true
		}
	}
	return "", false
}

// onlyEnum reports whether the enum is the only keyword, so a value is matched on its bytes.
func (r *StringRule) onlyEnum() bool {
	return r.Enum != nil && r.MinLength <= 0 && !r.HasMaxLength && r.Pattern == nil && r.Format == nil
}

// read reads a string, refusing it past maxLength unless LateMax.
func (r *StringRule) read(s *State) (string, bool, error) {
	if r.HasMaxLength && !r.LateMax {
		return ReadStringMax(s.d, &s.ps, &s.here, r.MaxLength)
	}
	return ReadString(s.d, &s.ps, &s.here)
}

// lengthOnly reports, without a call, that str meets every keyword of r other than the
// maxLength the read enforced, because r has none but a minLength str meets on its byte length.
func (r *StringRule) lengthOnly(str string) bool {
	return r.Pattern == nil && r.Format == nil && r.Enum == nil && !r.LateMax && !fewRunes(str, r.MinLength)
}

// passes reports that str meets every keyword of r other than the maxLength the read enforced,
// calling the pattern and the format but not check, which is only called to record what fails.
// An enum, and a maxLength counted on the string read, are left to check.
func (r *StringRule) passes(str string) bool {
	return r.Enum == nil && !r.LateMax && !fewRunes(str, r.MinLength) &&
		(r.Pattern == nil || r.Pattern(str)) && (r.Format == nil || r.Format(str))
}

// fewRunes reports whether str may have fewer than min code points: its length in bytes
// cannot settle it.
func fewRunes(str string, min int) bool { return (len(str)+3)>>2 < min }

// check records every keyword str fails, in the order of the schema's keywords.
func (r *StringRule) check(s *State, str string) {
	min, max := r.MinLength, -1
	if r.HasMaxLength && r.LateMax {
		max = r.MaxLength
	}
	// A code point is 1 to 4 bytes: count them only when the byte length cannot settle it.
	if fewRunes(str, min) || (max >= 0 && len(str) > max) {
		n := RuneCount(str)
		if min > 0 && n < min {
			s.ps.Length(&s.here, "at least", min, n)
		}
		if max >= 0 && n > max {
			s.ps.Length(&s.here, "at most", max, n)
		}
	}
	if r.Pattern != nil && !r.Pattern(str) {
		s.ps.Mismatch(&s.here, "a string matching the pattern "+strconv.Quote(r.PatternText), str)
	}
	if r.Format != nil && !r.Format(str) {
		_, describe, _ := FormatFunc(r.FormatName)
		s.ps.Mismatch(&s.here, describe, str)
	}
	if r.Enum != nil {
		if _, ok := r.Enum.find([]byte(str)); !ok {
			s.ps.NotOneOf(&s.here, r.Enum.shown, strconv.Quote(str))
		}
	}
}

// str reads a string into *v with the keywords of r (nil: none), leaving *v as it is when
// the value is refused.
func (s *State) str(v *string, r *StringRule) error {
	if s.d.Next() != jx.String {
		return WrongType(s.d, &s.ps, &s.here, "a string")
	}
	raw, err := s.d.Raw()
	if err != nil {
		return err
	}
	if r != nil && r.Enum != nil && r.onlyEnum() {
		return s.enum(v, r.Enum, raw)
	}
	if r != nil && r.HasMaxLength && !r.LateMax && len(raw)-2 > r.MaxLength && overMax(&s.ps, &s.here, raw, r.MaxLength) {
		return nil
	}
	// unquote's usual case without its call: no escapes, no bytes past ASCII.
	var str string
	if body := raw[1 : len(raw)-1]; plainRun(body) == len(body) {
		str = s.keep(body)
	} else if str, err = unquote(raw); err != nil {
		return err
	}
	if r != nil && !r.lengthOnly(str) && !r.passes(str) {
		r.check(s, str)
	}
	*v = str
	return nil
}

// enum reads the string literal raw into *v when it is one of the values of e, the only
// keyword of the field. It is matched on the literal's bytes when they need no decoding, as
// ReadStringBytes does: when no value needs any, a literal equal to one needs none either, so
// it is not scanned.
func (s *State) enum(v *string, e *Enum, raw []byte) error {
	b := raw[1 : len(raw)-1]
	value, ok := e.find(b)
	if !(ok && e.plain) && plainRun(b) != len(b) {
		str, err := unquote(raw)
		if err != nil {
			return err
		}
		b = []byte(str)
		value, ok = e.find(b)
	}
	if !ok {
		// Quote copies what it is given: b, the document's own bytes or unquote's string, is
		// read in place rather than copied into a string first.
		s.ps.NotOneOf(&s.here, e.shown, strconv.Quote(unsafe.String(unsafe.SliceData(b), len(b))))
		return nil
	}
	*v = value
	return nil
}

// textValue reads a string into a type implementing encoding.TextUnmarshaler, after the
// keywords of r (nil: none); its error becomes the problem's message.
func textValue(s *State, v encoding.TextUnmarshaler, r *StringRule) error {
	if r == nil {
		_, err := ReadText(s.d, &s.ps, &s.here, v)
		return err
	}
	str, ok, err := r.read(s)
	if !ok {
		return err
	}
	r.check(s, str)
	ApplyText(&s.ps, &s.here, v, str)
	return nil
}

// IntRule holds the numeric keywords of an integer field as whole numbers that decide the
// same values (toolgen holds minimum=0.5 as 1, multipleOf=1.5 as 3); an unsigned field's
// rule holds each as the bits of its uint64. A limit applies when its text (the keyword as
// written, for messages) is set.
type IntRule struct {
	Min, ExclusiveMin, Max, ExclusiveMax, MultipleOf int64
	MinText, ExclusiveMinText                        string
	MaxText, ExclusiveMaxText, MultipleOfText        string
	Enum                                             []int64 // allowed values, shown as EnumText
	EnumText                                         string
}

// Signed and Unsigned are the integer key types of IntMapOf and UintMapOf.
type (
	Signed interface {
		~int | ~int8 | ~int16 | ~int32 | ~int64
	}
	Unsigned interface {
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
	}
)

// signed reads a signed integer of size bytes into *v, with the keywords of r (nil: none).
func (s *State) signed(v unsafe.Pointer, size uintptr, r *IntRule) error {
	if s.d.Next() != jx.Number {
		return WrongType(s.d, &s.ps, &s.here, "an integer")
	}
	raw, err := s.d.Raw() // a number, as Next said: Num would ask Next again
	if err != nil {
		return err
	}
	// A plain integer that fits the field's size, the usual case, needs no limits: shifted up
	// to the top of an int64 and back, it is unchanged.
	n, exact := parseInt(raw)
	if shift := (64 - size*8) & 63; !exact || size < 8 && n<<shift>>shift != n {
		var ok bool
		if n, ok = intOf(&s.ps, &s.here, raw, int64(-1)<<(size*8-1), int64(1)<<(size*8-1)-1); !ok {
			return nil
		}
	}
	if r != nil && !r.passes(n) {
		checkInt(s, r, n)
	}
	switch size {
	case 8:
		*(*int64)(v) = n
	case 4:
		*(*int32)(v) = int32(n)
	case 2:
		*(*int16)(v) = int16(n)
	default:
		*(*int8)(v) = int8(n)
	}
	return nil
}

// passes reports, without a call, that a signed n meets every keyword of r: the usual case.
func (r *IntRule) passes(n int64) bool {
	return (r.MinText == "" || n >= r.Min) && (r.MaxText == "" || n <= r.Max) &&
		r.ExclusiveMinText == "" && r.ExclusiveMaxText == "" && r.MultipleOfText == "" && r.EnumText == ""
}

// uintValue reads an unsigned integer within the range of T, with the keywords of r (nil:
// none), whose limits are not negative.
func uintValue[T Unsigned](s *State, v *T, r *IntRule) error {
	bits := unsafe.Sizeof(T(0)) * 8
	n, ok, err := ReadUint(s.d, &s.ps, &s.here, 1<<(bits-1)-1+1<<(bits-1))
	if !ok {
		return err
	}
	if r != nil {
		checkInt(s, r, n)
	}
	*v = T(n)
	return nil
}

// checkInt records the keywords n fails. An unsigned rule's limits are not negative, so they
// convert to N exactly.
func checkInt[N int64 | uint64](s *State, r *IntRule, n N) {
	if r.MinText != "" && n < N(r.Min) {
		s.ps.Bound(&s.here, "at least", r.MinText, formatInt(n))
	}
	if r.ExclusiveMinText != "" && n <= N(r.ExclusiveMin) {
		s.ps.Bound(&s.here, "greater than", r.ExclusiveMinText, formatInt(n))
	}
	if r.MaxText != "" && n > N(r.Max) {
		s.ps.Bound(&s.here, "at most", r.MaxText, formatInt(n))
	}
	if r.ExclusiveMaxText != "" && n >= N(r.ExclusiveMax) {
		s.ps.Bound(&s.here, "less than", r.ExclusiveMaxText, formatInt(n))
	}
	if r.MultipleOfText != "" && n%N(r.MultipleOf) != 0 {
		s.ps.Bound(&s.here, "a multiple of", r.MultipleOfText, formatInt(n))
	}
	if r.EnumText != "" {
		for _, e := range r.Enum {
			if N(e) == n {
				return
			}
		}
		s.ps.NotOneOf(&s.here, r.EnumText, formatInt(n))
	}
}

func formatInt[N int64 | uint64](n N) string {
	if n < 0 {
		return strconv.FormatInt(int64(n), 10)
	}
	return strconv.FormatUint(uint64(n), 10)
}

// FloatRule holds the numeric keywords of a float field. A limit applies when its text (the
// keyword as written) is set.
type FloatRule struct {
	Min, ExclusiveMin, Max, ExclusiveMax float64
	MinText, ExclusiveMinText            string
	MaxText, ExclusiveMaxText            string
	MultipleOf                           *Multiple // with MultipleOfText
	MultipleOfText                       string
	Enum                                 []float64 // allowed values, shown as EnumText
	EnumText                             string
}

// floatValue reads a number that fits T, with the keywords of r (nil: none).
func floatValue[T float32 | float64](s *State, v *T, r *FloatRule) error {
	bits := int(unsafe.Sizeof(T(0)) * 8)
	f, raw, ok, err := ReadFloat(s.d, &s.ps, &s.here, bits)
	if !ok {
		return err
	}
	if r != nil && !r.passes(f, bits) {
		r.check(s, f, raw, bits)
	}
	*v = T(f)
	return nil
}

// passes reports, without a call, that a 64-bit f meets every keyword of r because it is
// strictly within each bound: a float64 on either side of a bound's float64 is on that side
// of the bound, as sent and as held (CompareFloat64).
func (r *FloatRule) passes(f float64, bits int) bool {
	return bits == 64 && (r.MinText == "" || f > r.Min) && (r.ExclusiveMinText == "" || f > r.ExclusiveMin) &&
		(r.MaxText == "" || f < r.Max) && (r.ExclusiveMaxText == "" || f < r.ExclusiveMax) &&
		r.MultipleOf == nil && r.EnumText == ""
}

func (r *FloatRule) check(s *State, f float64, raw []byte, bits int) {
	if r.MinText != "" {
		floatBound(s, f, raw, bits, r.Min, r.MinText, atLeast)
	}
	if r.ExclusiveMinText != "" {
		floatBound(s, f, raw, bits, r.ExclusiveMin, r.ExclusiveMinText, greaterThan)
	}
	if r.MaxText != "" {
		floatBound(s, f, raw, bits, r.Max, r.MaxText, atMost)
	}
	if r.ExclusiveMaxText != "" {
		floatBound(s, f, raw, bits, r.ExclusiveMax, r.ExclusiveMaxText, lessThan)
	}
	if r.MultipleOf != nil && !r.MultipleOf.Divides(raw) {
		s.ps.Bound(&s.here, "a multiple of", r.MultipleOfText, Shown(raw))
	}
	if r.EnumText != "" {
		for _, e := range r.Enum {
			if e == f {
				return
			}
		}
		s.ps.NotOneOf(&s.here, r.EnumText, Shown(raw))
	}
}

// relation is a numeric bound's comparison.
type relation int

const (
	atLeast relation = iota
	greaterThan
	atMost
	lessThan
)

var relationText = [...]string{atLeast: "at least", greaterThan: "greater than", atMost: "at most", lessThan: "less than"}

// fails reports whether a comparison with the bound (-1, 0, +1) fails it.
func (rel relation) fails(c int) bool {
	switch rel {
	case atLeast:
		return c < 0
	case greaterThan:
		return c <= 0
	case atMost:
		return c > 0
	}
	return c >= 0
}

// floatBound holds both the decimal sent and the float it becomes to a bound: 1e-400 is
// greater than 0, but the handler would get 0.
func floatBound(s *State, f float64, raw []byte, bits int, limit float64, text string, rel relation) {
	var sent, held int
	if bits == 32 {
		sent, held = CompareFloat32(f, raw, limit, text)
	} else {
		sent, held = CompareFloat64(f, raw, limit, text) // inlined
	}
	if rel.fails(sent) {
		s.ps.Bound(&s.here, relationText[rel], text, Shown(raw))
	} else if rel.fails(held) {
		s.ps.Rounded(&s.here, relationText[rel], text, Shown(raw), f, bits)
	}
}

// boolValue reads a boolean.
func boolValue(s *State, v *bool) error {
	b, ok, err := ReadBool(s.d, &s.ps, &s.here)
	if ok {
		*v = b
	}
	return err
}

// bytesValue reads standard base64.
func bytesValue(s *State, v *[]byte) error {
	b, ok, err := ReadBytes(s.d, &s.ps, &s.here)
	if ok {
		*v = b
	}
	return err
}

// timeValue reads an RFC 3339 date-time.
func timeValue(s *State, v *time.Time) error {
	t, ok, err := ReadTime(s.d, &s.ps, &s.here)
	if ok {
		*v = t
	}
	return err
}

// durationValue reads a duration in Go syntax.
func durationValue(s *State, v *time.Duration) error {
	t, ok, err := ReadDuration(s.d, &s.ps, &s.here)
	if ok {
		*v = t
	}
	return err
}

// rawValue reads any JSON value as its text.
func rawValue(s *State, v *json.RawMessage) error {
	raw, err := ReadRaw(s.d)
	if err == nil {
		*v = raw
	}
	return err
}

// anyValue reads any JSON value as encoding/json decodes into an interface.
func anyValue(s *State, v *any) error {
	a, err := ReadAny(s.d)
	if fr, ok := err.(*floatRangeError); ok {
		s.add(fr.Error())
		return nil
	}
	if err == nil {
		*v = a
	}
	return err
}

func countChecks(s *State, min, max, n int, noun string) {
	if n < min {
		s.ps.Count(&s.here, "at least", min, n, noun)
	}
	if max >= 0 && n > max {
		s.ps.Count(&s.here, "at most", max, n, noun)
	}
}

// readArray reads an array of exactly len(v) items into v, the slice of a Go array.
func readArray[E any](s *State, v []E, elem func(*State, *E) error) error {
	if s.d.Next() != jx.Array {
		return WrongType(s.d, &s.ps, &s.here, "an array")
	}
	it, err := s.d.ArrIter()
	if err != nil {
		return err
	}
	i := 0
	// The index advances past skipped extra items too: after the loop it is the number of
	// items received.
	for ; it.Next(); i++ {
		if i >= len(v) {
			if err := s.d.Skip(); err != nil {
				return err
			}
			continue
		}
		s.pushIndex(i)
		err := elem(s, &v[i])
		s.pop()
		if err != nil {
			return err
		}
	}
	if err := it.Err(); err != nil {
		return err
	}
	if i != len(v) {
		s.ps.Count(&s.here, "exactly", len(v), i, "item")
	}
	return nil
}

// readMap reads the properties of an object into m, converting each name with key and each
// value with elem, holding their number to [min, max] (max < 0: no limit). Properties past
// max are counted and skipped, never built; a repeated one is refused.
func readMap[K comparable, V any](s *State, m map[K]V, min, max int, key func(*State, string) (K, bool), elem func(*State, *V) error) error {
	var e *V
	var zero V
	it, err := s.d.ObjIter()
	if err != nil {
		return err
	}
	n := 0
	for it.Next() {
		if max >= 0 {
			if n++; n > max {
				if err := s.d.Skip(); err != nil {
					return err
				}
				continue
			}
		}
		name := validText(it.Key())
		s.pushKey(name)
		k, ok := key(s, name)
		if _, dup := m[k]; ok && dup {
			s.ps.Duplicate(&s.here)
			s.pop()
			if err := s.d.Skip(); err != nil {
				return err
			}
			continue
		}
		if e == nil {
			e = new(V) // elem is a function value, so its target is on the heap: one per map
		} else {
			*e = zero
		}
		err := elem(s, e)
		s.pop()
		if err != nil {
			return err
		}
		if ok {
			m[k] = *e
		}
	}
	if err := it.Err(); err != nil {
		return err
	}
	// Duplicates were refused, not counted twice: count what the map holds plus what was
	// skipped.
	if max < 0 || n <= max {
		n = len(m)
	}
	countChecks(s, min, max, n, "property")
	return nil
}

// keyString converts a property name to a string key type.
func keyString[K ~string](_ *State, name string) (K, bool) { return K(name), true }

// keyInt converts a property name to a signed integer key type, within its range.
func keyInt[K Signed](s *State, name string) (K, bool) {
	bits := unsafe.Sizeof(K(0)) * 8
	min, max := int64(-1)<<(bits-1), int64(1)<<(bits-1)-1
	n, err := strconv.ParseInt(name, 10, 64)
	if err != nil || !canonicalInt(name) || n < min || n > max {
		s.add("property name must be an integer between " + strconv.FormatInt(min, 10) + " and " + strconv.FormatInt(max, 10))
		return 0, false
	}
	return K(n), true
}

// keyUint converts a property name to an unsigned integer key type, within its range.
func keyUint[K Unsigned](s *State, name string) (K, bool) {
	bits := unsafe.Sizeof(K(0)) * 8
	max := uint64(1)<<(bits-1) - 1 + uint64(1)<<(bits-1)
	n, err := strconv.ParseUint(name, 10, 64)
	if err != nil || !canonicalInt(name) || n > max {
		s.add("property name must be an integer between 0 and " + strconv.FormatUint(max, 10))
		return 0, false
	}
	return K(n), true
}

// keyText converts a property name to a key type implementing encoding.TextUnmarshaler.
func keyText[K comparable, PK interface {
	*K
	encoding.TextUnmarshaler
}](s *State, name string) (K, bool) {
	var k K
	if err := PK(&k).UnmarshalText([]byte(name)); err != nil {
		s.add("property name is not accepted: " + err.Error())
		return k, false
	}
	return k, true
}
