package decode

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-faster/jx"
	"github.com/toolgen-go/toolgen/runtime"
)

// Decoder reads JSON. It is jx's decoder, aliased so that generated code imports one package.
type Decoder = jx.Decoder

// Type is the JSON type of the next value, as Decoder.Next reports it.
type Type = jx.Type

// The JSON types generated code compares against.
const (
	Invalid = jx.Invalid
	String  = jx.String
	Number  = jx.Number
	Null    = jx.Null
	Bool    = jx.Bool
	Array   = jx.Array
	Object  = jx.Object
)

// Acquire returns a pooled decoder reading data; give it back with Release.
func Acquire(data []byte) *Decoder {
	d := jx.GetDecoder()
	d.ResetBytes(data)
	return d
}

// Release returns a decoder to the pool.
func Release(d *Decoder) { jx.PutDecoder(d) }

// Finish checks that nothing but white space follows the document's value.
func Finish(d *Decoder) error {
	if err := d.Skip(); err != io.EOF {
		return &runtime.ArgsError{Problems: []runtime.Problem{{
			Message: "the arguments must be a single JSON object; found more data after it"}}}
	}
	return nil
}

var typeNames = [...]string{
	jx.Invalid: "invalid JSON",
	jx.String:  "a string",
	jx.Number:  "a number",
	jx.Null:    "null",
	jx.Bool:    "a boolean",
	jx.Array:   "an array",
	jx.Object:  "an object",
}

// WrongType records that the value at p is not of the expected JSON type (want reads like
// "a string") and consumes it, so decoding can go on. It returns an error only for malformed
// JSON.
func WrongType(d *Decoder, ps *Problems, p *Path, want string) error {
	t := d.Next()
	if t == jx.Invalid {
		return d.Skip() // reports the syntax error
	}
	raw, err := d.Raw()
	if err != nil {
		return err
	}
	got := typeNames[t]
	switch t {
	case jx.String, jx.Number, jx.Bool:
		got = Shown(raw)
	}
	ps.Add(p, "must be "+want+", got "+got)
	return nil
}

// ReadString reads a string; ok is false when the value was not a string (a problem has been
// recorded and the value skipped). Strings decode as encoding/json decodes them.
func ReadString(d *Decoder, ps *Problems, p *Path) (s string, ok bool, err error) {
	if d.Next() != jx.String {
		return "", false, WrongType(d, ps, p, "a string")
	}
	raw, err := d.Raw()
	if err != nil {
		return "", false, err
	}
	s, err = unquote(raw)
	return s, err == nil, err
}

// ReadStringMax reads a string of at most max code points (maxLength): a longer one is
// counted on its JSON text and refused without being built, so a 10 MB string against
// maxLength=100 allocates nothing.
func ReadStringMax(d *Decoder, ps *Problems, p *Path, max int) (s string, ok bool, err error) {
	if d.Next() != jx.String {
		return "", false, WrongType(d, ps, p, "a string")
	}
	raw, err := d.Raw()
	if err != nil {
		return "", false, err
	}
	if overMax(ps, p, raw, max) {
		return "", false, nil
	}
	s, err = unquote(raw)
	return s, err == nil, err
}

// overMax reports that the string literal raw has more than max code points, and records
// the problem at p. A code point takes at least one byte of the literal: only a longer body
// is counted.
func overMax(ps *Problems, p *Path, raw []byte, max int) bool {
	if body := raw[1 : len(raw)-1]; len(body) > max {
		if n := literalRunes(body); n > max {
			ps.Length(p, "at most", max, n)
			return true
		}
	}
	return false
}

// ReadStringBytes reads a string without copying it when it has no escapes or non-ASCII
// bytes; the bytes are valid until the next read. Enum decoders use it to match values without
// allocating.
func ReadStringBytes(d *Decoder, ps *Problems, p *Path) (b []byte, ok bool, err error) {
	if d.Next() != jx.String {
		return nil, false, WrongType(d, ps, p, "a string")
	}
	raw, err := d.Raw()
	if err != nil {
		return nil, false, err
	}
	if plain := raw[1 : len(raw)-1]; plainRun(plain) == len(plain) {
		return plain, true, nil
	}
	s, err := unquote(raw)
	return []byte(s), err == nil, err
}

// ReadBool reads a boolean.
func ReadBool(d *Decoder, ps *Problems, p *Path) (v bool, ok bool, err error) {
	if d.Next() != jx.Bool {
		return false, false, WrongType(d, ps, p, "a boolean")
	}
	v, err = d.Bool()
	return v, err == nil, err
}

// ReadInt reads an integer within [min, max], the range of the Go field's kind. JSON Schema
// counts 2.0 and 1e3 as integers, so they are accepted exactly; 2.5 is not, nor is a value
// beyond the range (never rounded or clamped into it). The cost is the literal's length,
// whatever its exponent.
func ReadInt(d *Decoder, ps *Problems, p *Path, min, max int64) (v int64, ok bool, err error) {
	if d.Next() != jx.Number {
		return 0, false, WrongType(d, ps, p, "an integer")
	}
	raw, err := d.Num()
	if err != nil {
		return 0, false, err
	}
	if n, exact := parseInt(raw); exact && n >= min && n <= max {
		return n, true, nil
	}
	v, ok = intOf(ps, p, raw, min, max)
	return v, ok, nil
}

// intOf is the integer raw holds within [min, max], when it is not a plain one there: an
// integer written with a fraction or an exponent, or a problem to record at p.
func intOf(ps *Problems, p *Path, raw []byte, min, max int64) (int64, bool) {
	n, exact := parseInt(raw)
	if !exact {
		x, ok := parseNumber(raw)
		if !ok || !x.integral() {
			ps.Add(p, "must be an integer, got "+Shown(raw))
			return 0, false
		}
		// Beyond an int64 it is outside any range; within, the checks below hold for any
		// [min, max], one that leaves out zero too.
		mag, fits := x.magnitude()
		switch {
		case x.neg && (!fits || mag > 1<<63):
			ps.Add(p, "must be at least "+strconv.FormatInt(min, 10)+", got "+Shown(raw))
			return 0, false
		case !x.neg && (!fits || mag > math.MaxInt64):
			ps.Add(p, "must be at most "+strconv.FormatInt(max, 10)+", got "+Shown(raw))
			return 0, false
		case x.neg:
			n = -int64(mag) // -int64(1<<63) is MinInt64, as it should be
		default:
			n = int64(mag)
		}
	}
	if n < min {
		ps.Add(p, "must be at least "+strconv.FormatInt(min, 10)+", got "+Shown(raw))
		return 0, false
	}
	if n > max {
		ps.Add(p, "must be at most "+strconv.FormatInt(max, 10)+", got "+Shown(raw))
		return 0, false
	}
	return n, true
}

// ReadUint reads a non-negative integer at most max, exactly as ReadInt reads signed ones.
func ReadUint(d *Decoder, ps *Problems, p *Path, max uint64) (v uint64, ok bool, err error) {
	if d.Next() != jx.Number {
		return 0, false, WrongType(d, ps, p, "an integer")
	}
	raw, err := d.Num()
	if err != nil {
		return 0, false, err
	}
	if n, exact := parseInt(raw); exact && n >= 0 {
		if uint64(n) > max {
			ps.Add(p, "must be at most "+strconv.FormatUint(max, 10)+", got "+Shown(raw))
			return 0, false, nil
		}
		return uint64(n), true, nil
	}
	x, ok := parseNumber(raw)
	if !ok || !x.integral() {
		ps.Add(p, "must be an integer, got "+Shown(raw))
		return 0, false, nil
	}
	mag, fits := x.magnitude()
	switch {
	case x.neg && mag != 0 || x.neg && !fits:
		ps.Add(p, "must be at least 0, got "+Shown(raw))
	case !fits || mag > max:
		ps.Add(p, "must be at most "+strconv.FormatUint(max, 10)+", got "+Shown(raw))
	default:
		return mag, true, nil
	}
	return 0, false, nil
}

// ReadFloat reads a number that fits a float of the given bits (32 or 64). raw is the number's
// JSON text, valid until the next read, for exact checks such as multipleOf.
func ReadFloat(d *Decoder, ps *Problems, p *Path, bits int) (v float64, raw []byte, ok bool, err error) {
	if d.Next() != jx.Number {
		return 0, nil, false, WrongType(d, ps, p, "a number")
	}
	raw, err = d.Raw() // a number, as Next said: Num would ask Next again
	if err != nil {
		return 0, nil, false, err
	}
	v, err = strconv.ParseFloat(string(raw), bits)
	if err != nil {
		floatRange(ps, p, raw, bits)
		return 0, raw, false, nil
	}
	return v, raw, true, nil
}

// floatRange records that the number raw is beyond the range of a float of the given bits.
func floatRange(ps *Problems, p *Path, raw []byte, bits int) {
	ps.Add(p, "must be a number within the range of a "+strconv.Itoa(bits)+"-bit float, got "+Shown(raw))
}

// parseInt parses a plain JSON integer ("-12") exactly; exact is false for fractions,
// exponents and values beyond int64.
func parseInt(raw []byte) (n int64, exact bool) {
	i, neg := 0, false
	if len(raw) > 0 && raw[0] == '-' {
		neg, i = true, 1
	}
	if i == len(raw) || len(raw)-i > 18 { // 18 digits always fit in int64
		return 0, false
	}
	for ; i < len(raw); i++ {
		c := raw[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// compareNumber compares the JSON number raw with the decimal limit exactly, as JSON Schema
// validators do, and returns -1, 0 or +1, in time linear in the texts whatever their
// exponents. Text that is not a number compares as equal.
func compareNumber(raw []byte, limit string) int {
	x, ok1 := parseNumber(raw)
	y, ok2 := parseNumberString(limit)
	if !ok1 || !ok2 {
		return 0
	}
	return x.cmp(&y)
}

// CompareFloat64 compares a number with a bound given both as a float64 and as its decimal
// text, twice: sent compares the decimal the model sent (raw) exactly, held compares the Go
// value v it was read into with the bound as a float64, as the handler's own comparison
// would. They differ when v rounds onto or across the bound: 1e-400 is greater than 0, but as
// a float64 it is 0. Generated float bounds refuse a number when either fails, saying which.
func CompareFloat64(v float64, raw []byte, limit float64, limitText string) (sent, held int) {
	// Small enough to inline. The nearest float64 to a decimal is never on the other side of
	// the nearest float64 to another decimal, so a float64 on either side of the bound's
	// float64 is on that side of the bound, as sent and as held.
	if v > limit {
		return 1, 1
	}
	if v < limit {
		return -1, -1
	}
	return compareNumber(raw, limitText), 0 // v is the bound's float64: only the decimal may differ
}

// CompareFloat32 is CompareFloat64 for a float32 field: v is the float32 read, and held
// compares it with the bound as a float32. A float32 rounds coarser than the bound's float64,
// so the decimal is always compared exactly.
func CompareFloat32(v float64, raw []byte, limit float64, limitText string) (sent, held int) {
	limit = float64(float32(limit))
	switch {
	case v < limit:
		held = -1
	case v > limit:
		held = 1
	}
	return compareNumber(raw, limitText), held
}

// ReadTime reads an RFC 3339 date-time string.
func ReadTime(d *Decoder, ps *Problems, p *Path) (t time.Time, ok bool, err error) {
	s, ok, err := ReadString(d, ps, p)
	if !ok {
		return time.Time{}, false, err
	}
	if !IsDateTime(s) {
		ps.Add(p, "must be an RFC 3339 date-time such as \"2024-01-02T15:04:05Z\", got "+quotedShown(s))
		return time.Time{}, false, nil
	}
	t, err = time.Parse(time.RFC3339Nano, s)
	if err != nil {
		// RFC 3339 allows what Go's parser refuses: a lower-case t or z, and a leap second.
		t, err = parseLenientDateTime(s)
		if err != nil {
			ps.Add(p, "must be a date-time Go can represent, got "+quotedShown(s))
			return time.Time{}, false, nil
		}
	}
	return t, true, nil
}

func parseLenientDateTime(s string) (time.Time, error) {
	b := []byte(s)
	leap := false
	for i, c := range b {
		switch {
		case c == 't' || c == 'z':
			b[i] = c - 'a' + 'A'
		case i == 17 && c == '6' && len(b) > 18 && b[18] == '0':
			b[17], b[18], leap = '5', '9', true // 23:59:60 → 23:59:59 plus one second
		}
	}
	t, err := time.Parse(time.RFC3339Nano, string(b))
	if leap && err == nil {
		t = t.Add(time.Second)
	}
	return t, err
}

// ReadDuration reads a duration in Go syntax ("1h30m", "250ms").
func ReadDuration(d *Decoder, ps *Problems, p *Path) (v time.Duration, ok bool, err error) {
	s, ok, err := ReadString(d, ps, p)
	if !ok {
		return 0, false, err
	}
	v, perr := time.ParseDuration(s)
	if perr != nil {
		ps.Add(p, "must be a duration such as \"1h30m\" or \"250ms\", got "+quotedShown(s))
		return 0, false, nil
	}
	return v, true, nil
}

// ReadBytes reads standard base64 (with padding), as encoding/json writes []byte.
func ReadBytes(d *Decoder, ps *Problems, p *Path) (v []byte, ok bool, err error) {
	s, ok, err := ReadString(d, ps, p)
	if !ok {
		return nil, false, err
	}
	// The decoder would skip line breaks; the schema's pattern does not allow them.
	if strings.ContainsAny(s, "\r\n") {
		ps.Add(p, "must be standard base64 without line breaks")
		return nil, false, nil
	}
	v, err = base64.StdEncoding.DecodeString(s)
	if err != nil {
		ps.Add(p, "must be standard base64 with padding, got "+Shown([]byte(s)))
		return nil, false, nil
	}
	return v, true, nil
}

// ReadText reads a string into a type implementing encoding.TextUnmarshaler; its error becomes
// the problem's message.
func ReadText(d *Decoder, ps *Problems, p *Path, v encoding.TextUnmarshaler) (ok bool, err error) {
	b, ok, err := ReadStringBytes(d, ps, p)
	if !ok {
		return false, err
	}
	if uerr := v.UnmarshalText(b); uerr != nil {
		ps.Add(p, "is not accepted: "+uerr.Error())
		return false, nil
	}
	return true, nil
}

// ReadRaw reads any JSON value and returns a copy of its text.
func ReadRaw(d *Decoder) (json.RawMessage, error) {
	raw, err := d.Raw()
	if err != nil {
		return nil, err
	}
	return json.RawMessage(append([]byte(nil), raw...)), nil
}

// ReadAny reads any JSON value as encoding/json decodes into an interface: map[string]any,
// []any, string, float64, bool or nil. A number beyond the range of a float64, which
// encoding/json refuses too, is valid JSON: the value is read to its end, and the error,
// which says so, is not a syntax error: decoding can go on.
func ReadAny(d *Decoder) (any, error) {
	var beyond []byte
	v, err := readAny(d, &beyond)
	if err == nil && beyond != nil {
		return nil, &floatRangeError{Number: Shown(beyond)}
	}
	return v, err
}

// floatRangeError is a number of an untyped value (any) that no float64 holds.
type floatRangeError struct {
	Number string // as Shown
}

func (e *floatRangeError) Error() string {
	return "must hold only numbers within the range of a 64-bit float, got " + e.Number
}

// readAny is ReadAny, recording the first number beyond a float64 in *beyond and going on.
func readAny(d *Decoder, beyond *[]byte) (any, error) {
	switch d.Next() {
	case jx.String:
		raw, err := d.Raw()
		if err != nil {
			return nil, err
		}
		return unquote(raw)
	case jx.Number:
		raw, err := d.Num()
		if err != nil {
			return nil, err
		}
		f, err := strconv.ParseFloat(string(raw), 64)
		if err != nil && *beyond == nil {
			*beyond = append([]byte(nil), raw...)
		}
		return f, nil
	case jx.Bool:
		return d.Bool()
	case jx.Null:
		return nil, d.Null()
	case jx.Array:
		out := []any{}
		it, err := d.ArrIter()
		if err != nil {
			return nil, err
		}
		for it.Next() {
			v, err := readAny(d, beyond)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, it.Err()
	case jx.Object:
		out := map[string]any{}
		it, err := d.ObjIter()
		if err != nil {
			return nil, err
		}
		for it.Next() {
			key := validText(it.Key())
			v, err := readAny(d, beyond)
			if err != nil {
				return nil, err
			}
			out[key] = v
		}
		return out, it.Err()
	}
	return nil, d.Skip()
}

// RuneCount is the length of s in code points, as JSON Schema counts minLength and maxLength.
// An invalid byte counts as one, as it does once encoding/json has replaced it with U+FFFD.
func RuneCount(s string) int { return utf8.RuneCountInString(s) }

// NoArgs checks the arguments of a tool that takes none: an empty object, exactly as its
// schema says, like the decoder of any other tool. Anything else is a problem, so a model
// learns the tool ignored what it sent. (The registry turns no arguments and null into {}
// before binding; Bind itself agrees with the schema.)
func NoArgs(data []byte) error {
	d := Acquire(data)
	defer Release(d)
	var ps Problems
	switch d.Next() {
	case jx.Invalid:
		err := d.Skip()
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		return InvalidJSON(data, err)
	case jx.Object:
		it, err := d.ObjIter()
		if err != nil {
			return InvalidJSON(data, err)
		}
		for it.Next() {
			if err := SkipUnknown(d, &ps, nil, it.Key(), nil); err != nil {
				return InvalidJSON(data, err)
			}
		}
		if err := it.Err(); err != nil {
			return InvalidJSON(data, err)
		}
	default:
		if err := WrongType(d, &ps, nil, "an object"); err != nil {
			return InvalidJSON(data, err)
		}
	}
	if err := Finish(d); err != nil {
		return err
	}
	return ps.Err()
}
