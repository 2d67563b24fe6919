// Package encode is what toolgen's generated result encoders call: a JSON writer with the
// value conventions of toolgen's schemas.
//
// Results are encoded by generated code rather than encoding/json so that what a tool returns
// matches its output schema exactly: a time.Duration is written as "1h30m" (encoding/json would
// write nanoseconds), times as RFC 3339, []byte as base64, and no reflection runs on the call
// path except for fields typed any, whose dynamic value only encoding/json can know. Strings
// are escaped as encoding/json escapes them with HTML escaping off (invalid UTF-8 becomes
// U+FFFD, U+2028 and U+2029 are escaped), so the text a model reads stays readable. Each
// invalid byte is written as the escape \ufffd, as Go 1.26's encoding/json writes it, on every
// Go: Go 1.27's, on the json/v2 engine, writes the character itself, which reads the same. Any
// writes with encoding/json, so its values follow the Go the program was built with.
//
// A Writer remembers its first error (a failing MarshalText, a NaN) and reports it from Bytes,
// so generated code stays straight-line.
package encode

import (
	"encoding"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/toolgen-go/toolgen/runtime"
)

// Writer builds one JSON document. It appends to one buffer and places commas by looking at
// the byte before: a value or a name follows a comma unless it opens the document, an object
// or an array, or follows a name's colon. A result is a few short values, and a general JSON
// encoder's per-value bookkeeping cost more than writing them.
type Writer struct {
	buf []byte
	err error
}

// Fail records err unless an earlier error is already recorded.
func (w *Writer) Fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

// Bytes returns the document, or the first error recorded while writing it.
func (w *Writer) Bytes() ([]byte, error) {
	if w.err != nil {
		return nil, w.err
	}
	return w.buf, nil
}

// next starts a value or a name: a comma unless it is the first thing of the document, of an
// object or of an array, or the value of a name.
func (w *Writer) next() {
	if n := len(w.buf); n > 0 {
		switch w.buf[n-1] {
		case '{', '[', ':':
		default:
			w.buf = append(w.buf, ',')
		}
	}
}

// ObjStart, ObjEnd, ArrStart and ArrEnd write the structure (with Field and Key for names);
// commas are placed by the writer.
func (w *Writer) ObjStart() { w.next(); w.buf = append(w.buf, '{') }
func (w *Writer) ObjEnd()   { w.buf = append(w.buf, '}') }
func (w *Writer) ArrStart() { w.next(); w.buf = append(w.buf, '[') }
func (w *Writer) ArrEnd()   { w.buf = append(w.buf, ']') }

// Field writes an object member's name; its value comes next.
func (w *Writer) Field(name string) {
	w.next()
	w.buf = append(appendString(w.buf, name), ':')
}

// Key writes an object member's name given as the JSON text that precedes its value, quoted,
// escaped and with its colon (`"city":`): generated code spells its names so, and they cost
// no escaping at run time.
func (w *Writer) Key(member string) {
	w.next()
	w.buf = append(w.buf, member...)
}

func (w *Writer) Null()           { w.next(); w.buf = append(w.buf, "null"...) }
func (w *Writer) String(s string) { w.next(); w.buf = appendString(w.buf, s) }
func (w *Writer) Bool(v bool)     { w.next(); w.buf = strconv.AppendBool(w.buf, v) }
func (w *Writer) Int(v int64)     { w.next(); w.buf = strconv.AppendInt(w.buf, v, 10) }
func (w *Writer) Uint(v uint64)   { w.next(); w.buf = strconv.AppendUint(w.buf, v, 10) }

// Bytes64 writes b in standard base64, as encoding/json writes a []byte.
func (w *Writer) Bytes64(b []byte) {
	w.next()
	w.buf = append(base64.StdEncoding.AppendEncode(append(w.buf, '"'), b), '"')
}

// Duration writes d as time.Duration.String does ("1h30m0s").
func (w *Writer) Duration(d time.Duration) { w.String(d.String()) }

// Float writes a finite number as encoding/json does (ES6 number formatting); NaN and
// infinities have no JSON form and fail the document.
func (w *Writer) Float(v float64, bits int) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		w.Fail(errors.New("encode: unsupported value " + strconv.FormatFloat(v, 'g', -1, 64)))
		w.Null()
		return
	}
	w.next()
	w.buf = appendFloat(w.buf, v, bits)
}

// appendFloat is encoding/json's float formatting: like %g, but with exponents only outside
// [1e-6, 1e21) and not padded to two digits.
func appendFloat(b []byte, v float64, bits int) []byte {
	// An integer below the first gap between the type's consecutive integers (2^53, 2^24 for
	// float32) has its own digits as its shortest form: 17.0 is "17". -0 keeps its sign.
	exact := int64(1) << 53
	if bits == 32 {
		exact = 1 << 24
	}
	if i := int64(v); float64(i) == v && i > -exact && i < exact && (i != 0 || !math.Signbit(v)) {
		return strconv.AppendInt(b, i, 10)
	}
	abs := math.Abs(v)
	format := byte('f')
	// float32 comparisons for a float32, to get its cutoffs right.
	if abs != 0 && (bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21)) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, v, format, -1, bits)
	if format == 'e' {
		// e-09 becomes e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// Time writes an RFC 3339 date-time with nanoseconds, as time.Time.MarshalJSON does.
func (w *Writer) Time(t time.Time) {
	w.next()
	w.buf = append(t.AppendFormat(append(w.buf, '"'), time.RFC3339Nano), '"')
}

// Text writes a value implementing encoding.TextMarshaler as a string.
func (w *Writer) Text(v encoding.TextMarshaler) {
	b, err := v.MarshalText()
	if err != nil {
		w.Fail(err)
		w.Null()
		return
	}
	w.next()
	w.buf = appendString(w.buf, unsafe.String(unsafe.SliceData(b), len(b)))
}

// Raw writes JSON text as it is; empty text is written as null, as encoding/json does for a
// nil json.RawMessage.
func (w *Writer) Raw(raw json.RawMessage) {
	if len(raw) == 0 {
		w.Null()
		return
	}
	if !json.Valid(raw) {
		w.Fail(errors.New("encode: json.RawMessage holds invalid JSON"))
		w.Null()
		return
	}
	w.next()
	w.buf = append(w.buf, raw...)
}

// safeASCII marks the ASCII bytes a JSON string holds as they are: all but the control
// characters, the quote and the backslash.
var safeASCII = func() (safe [utf8.RuneSelf]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		safe[c] = c != '"' && c != '\\'
	}
	return safe
}()

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string, escaped as encoding/json escapes it without HTML
// escaping: each invalid byte becomes \ufffd (as Go 1.26's encoding/json writes it; see the
// package doc), and U+2028 and U+2029 are escaped (JavaScript reads them as line ends).
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	i := plainPrefix(s)
	if i == len(s) {
		return append(append(dst, s...), '"')
	}
	start := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if safeASCII[c] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '\\', '"':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(append(dst, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(append(dst, s[start:i]...), '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(append(dst, s[start:]...), '"')
}

// plainPrefix returns the length of s's longest prefix of ASCII that needs no escaping, eight
// bytes at a time: the strings of a result are mostly such text.
func plainPrefix(s string) int {
	if len(s) < 8 {
		// Four to seven bytes: the first four and the last four, overlapping, each read
		// with four spaces (plain) above them.
		if len(s) >= 4 && plainWord(uint64(load32(s))|0x2020202000000000) &&
			plainWord(uint64(load32(s[len(s)-4:]))|0x2020202000000000) {
			return len(s)
		}
		return plainBytes(s)
	}
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if !plainWord(load64(s[i:])) {
			return i + plainBytes(s[i:i+8])
		}
	}
	// The last bytes, read as the word that ends the string.
	if i < len(s) && plainWord(load64(s[len(s)-8:])) {
		return len(s)
	}
	return i + plainBytes(s[i:])
}

// plainWord reports whether none of the eight bytes of x needs escaping: none is under 0x20,
// has its high bit set, or is '"' or '\\'. A zero byte is found by the classic
// (v - 0x01…) &^ v, which flags it and maybe bytes above it (borrows): only false alarms,
// which plainBytes then clears byte by byte.
func plainWord(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	zero := func(v uint64) uint64 { return (v - ones) &^ v }
	return ((x-ones*0x20)|x|zero(x^(ones*'"'))|zero(x^(ones*'\\')))&highs == 0
}

// load64 and load32 read the first eight and four bytes of s, which has them.
func load64(s string) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s), 8))
}

func load32(s string) uint32 {
	return binary.LittleEndian.Uint32(unsafe.Slice(unsafe.StringData(s), 4))
}

// plainBytes returns the length of s's prefix that needs no escaping, a byte at a time.
func plainBytes(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || !safeASCII[c] {
			return i
		}
	}
	return len(s)
}

// Any writes a value of static type any with encoding/json, its strings escaped as String
// escapes them (no HTML escaping).
func (w *Writer) Any(v any) {
	n := len(w.buf)
	w.next()
	enc := json.NewEncoder(appender{w})
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		w.buf = w.buf[:n] // without the comma next wrote: Null writes its own
		w.Fail(err)
		w.Null()
		return
	}
	w.buf = w.buf[:len(w.buf)-1] // Encode ends the value with a newline
}

// appender is an io.Writer that appends to a Writer's document, for Any's json.Encoder.
type appender struct{ w *Writer }

func (a appender) Write(p []byte) (int, error) {
	a.w.buf = append(a.w.buf, p...)
	return len(p), nil
}

// SortedStringKeys returns the keys of m in order, as encoding/json writes maps.
func SortedStringKeys[M ~map[K]V, K ~string, V any](m M) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Key is a map key with the property name it is written under.
type Key[K any] struct {
	Name string
	Key  K
}

// SortedIntKeys returns the keys of m with their decimal names, sorted by name as
// encoding/json sorts them.
func SortedIntKeys[M ~map[K]V, K ~int | ~int8 | ~int16 | ~int32 | ~int64, V any](m M) []Key[K] {
	keys := make([]Key[K], 0, len(m))
	for k := range m {
		keys = append(keys, Key[K]{Name: strconv.FormatInt(int64(k), 10), Key: k})
	}
	return sortKeys(keys)
}

// SortedUintKeys is SortedIntKeys for unsigned keys.
func SortedUintKeys[M ~map[K]V, K ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64, V any](m M) []Key[K] {
	keys := make([]Key[K], 0, len(m))
	for k := range m {
		keys = append(keys, Key[K]{Name: strconv.FormatUint(uint64(k), 10), Key: k})
	}
	return sortKeys(keys)
}

// SortedTextKeys returns the keys of m named by their MarshalText, sorted by name. A key that
// fails to marshal fails the document.
func SortedTextKeys[M ~map[K]V, K interface {
	comparable
	encoding.TextMarshaler
}, V any](w *Writer, m M) []Key[K] {
	keys := make([]Key[K], 0, len(m))
	for k := range m {
		b, err := k.MarshalText()
		if err != nil {
			w.Fail(err)
			continue
		}
		keys = append(keys, Key[K]{Name: string(b), Key: k})
	}
	return sortKeys(keys)
}

func sortKeys[K any](keys []Key[K]) []Key[K] {
	slices.SortFunc(keys, func(a, b Key[K]) int { return strings.Compare(a.Name, b.Name) })
	return keys
}

// IsZero reports whether v is its type's zero value, or v.IsZero() when it has that method,
// for the omitzero option on struct and array fields.
func IsZero(v any) bool {
	if z, ok := v.(interface{ IsZero() bool }); ok {
		return z.IsZero()
	}
	return reflect.ValueOf(v).IsZero()
}

// writers pools Writers so that a structured result reuses a grown buffer instead of growing
// a new one on every call.
var writers = sync.Pool{New: func() any { return new(Writer) }}

// maxPooled is the largest buffer kept in the pool; a rare huge result should not pin memory.
const maxPooled = 64 << 10

// Acquire returns an empty Writer from the pool; Finish empties it and gives it back. It is
// small enough to be inlined through toolimpl.AcquireWriter into every generated encoder.
func Acquire() *Writer { return writers.Get().(*Writer) }

// Finish returns what w holds as a structured result of tool (a copy: w goes back to the
// pool), or, when a value could not be encoded, an error result saying so.
func Finish(w *Writer, tool string) runtime.Result {
	data, err := w.Bytes()
	var res runtime.Result
	if err != nil {
		res = runtime.ErrorResult(fmt.Errorf("%s: encoding the result: %w", tool, err))
	} else {
		res = structured(data)
	}
	if cap(w.buf) <= maxPooled {
		w.buf, w.err = w.buf[:0], nil
		writers.Put(w)
	}
	return res
}

// structured is runtime.StructuredResult of a copy of data, in one allocation of its length:
// Text is a string over Structured's bytes (its capacity ends at its length, so an append to
// it copies), which is why Result.Structured is to be read, not written in place.
func structured(data []byte) runtime.Result {
	if len(data) == 0 {
		return runtime.StructuredResult(nil)
	}
	b := make([]byte, len(data))
	copy(b, data)
	return runtime.Result{Text: unsafe.String(&b[0], len(b)), Structured: json.RawMessage(b[:len(b):len(b)])}
}

// IsZeroValue reports whether v is its type's zero value, compared with == as
// reflect.Value.IsZero does for a comparable type, without boxing v: generated code calls it
// for omitzero fields of comparable types it cannot spell, such as unnamed structs.
func IsZeroValue[T comparable](v T) bool {
	var zero T
	return v == zero
}
