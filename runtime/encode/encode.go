// Package encode is what toolgen's generated result encoders call: a JSON writer
// (github.com/go-faster/jx underneath) with the value conventions of toolgen's schemas.
//
// Results are encoded by generated code rather than encoding/json so that what a tool returns
// matches its output schema exactly: a time.Duration is written as "1h30m" (encoding/json would
// write nanoseconds), times as RFC 3339, []byte as base64, and no reflection runs on the call
// path except for fields typed any, whose dynamic value only encoding/json can know.
//
// A Writer remembers its first error (a failing MarshalText, a NaN) and reports it from Bytes,
// so generated code stays straight-line.
package encode

import (
	"encoding"
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
	"unsafe"

	"github.com/go-faster/jx"
	"github.com/toolgen-go/toolgen/runtime"
)

// Writer builds one JSON document.
type Writer struct {
	e   jx.Encoder
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
	return w.e.Bytes(), nil
}

// ObjStart, ObjEnd, ArrStart, ArrEnd and Field write the structure; commas are placed by the
// writer.
func (w *Writer) ObjStart()                { w.e.ObjStart() }
func (w *Writer) ObjEnd()                  { w.e.ObjEnd() }
func (w *Writer) ArrStart()                { w.e.ArrStart() }
func (w *Writer) ArrEnd()                  { w.e.ArrEnd() }
func (w *Writer) Field(name string)        { w.e.FieldStart(name) }
func (w *Writer) Null()                    { w.e.Null() }
func (w *Writer) String(s string)          { w.e.Str(s) }
func (w *Writer) Bool(v bool)              { w.e.Bool(v) }
func (w *Writer) Int(v int64)              { w.e.Int64(v) }
func (w *Writer) Uint(v uint64)            { w.e.UInt64(v) }
func (w *Writer) Bytes64(b []byte)         { w.e.Base64(b) }
func (w *Writer) Duration(d time.Duration) { w.e.Str(d.String()) }

// Float writes a finite number; NaN and infinities have no JSON form and fail the document.
func (w *Writer) Float(v float64, bits int) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		w.Fail(errors.New("encode: unsupported value " + strconv.FormatFloat(v, 'g', -1, 64)))
		w.e.Null()
		return
	}
	if bits == 32 {
		w.e.Float32(float32(v))
		return
	}
	w.e.Float64(v)
}

// Time writes an RFC 3339 date-time with nanoseconds, as time.Time.MarshalJSON does.
func (w *Writer) Time(t time.Time) {
	var buf [64]byte
	w.e.ByteStr(t.AppendFormat(buf[:0], time.RFC3339Nano))
}

// Text writes a value implementing encoding.TextMarshaler as a string.
func (w *Writer) Text(v encoding.TextMarshaler) {
	b, err := v.MarshalText()
	if err != nil {
		w.Fail(err)
		w.e.Null()
		return
	}
	w.e.ByteStr(b)
}

// Raw writes JSON text as it is; empty text is written as null, as encoding/json does for a
// nil json.RawMessage.
func (w *Writer) Raw(raw json.RawMessage) {
	if len(raw) == 0 {
		w.e.Null()
		return
	}
	if !json.Valid(raw) {
		w.Fail(errors.New("encode: json.RawMessage holds invalid JSON"))
		w.e.Null()
		return
	}
	w.e.Raw(raw)
}

// Any writes a value of static type any with encoding/json.
func (w *Writer) Any(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		w.Fail(err)
		w.e.Null()
		return
	}
	w.e.Raw(b)
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

// Acquire returns an empty Writer from the pool; Finish gives it back.
func Acquire() *Writer {
	w := writers.Get().(*Writer)
	w.e.Reset()
	w.err = nil
	return w
}

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
	if cap(w.e.Bytes()) <= maxPooled {
		writers.Put(w)
	}
	return res
}

// structured is runtime.StructuredResult of a copy of data, in one allocation instead of two:
// Structured and the bytes behind Text are two halves of one array, the second reachable only
// through the string (Structured's capacity ends at its length, so an append to it copies).
func structured(data []byte) runtime.Result {
	n := len(data)
	if n == 0 {
		return runtime.StructuredResult(nil)
	}
	both := make([]byte, 2*n)
	copy(both, data)
	copy(both[n:], data)
	return runtime.Result{Text: unsafe.String(&both[n], n), Structured: json.RawMessage(both[:n:n])}
}

// IsZeroValue reports whether v is its type's zero value, compared with == as
// reflect.Value.IsZero does for a comparable type, without boxing v: generated code calls it
// for omitzero fields of comparable types it cannot spell, such as unnamed structs.
func IsZeroValue[T comparable](v T) bool {
	var zero T
	return v == zero
}
