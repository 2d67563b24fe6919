package toolimpl

import (
	"encoding"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/decode"
	"github.com/toolgen-go/toolgen/runtime/encode"
)

// The names of runtime/decode and runtime/encode that generated code uses, so that a
// generated file imports runtime and toolimpl only, as protobuf-go's imports protoimpl. Types
// are aliases and functions small enough to be inlined: a generated decoder is the same data,
// and a generated encoder the same code, as when they named those packages themselves. Each
// is documented where it is declared.

// Argument decoders: tables read by decode.Into (see decode.Struct).
type (
	Struct     = decode.Struct
	Member     = decode.Member
	Value      = decode.Value
	StringRule = decode.StringRule
	IntRule    = decode.IntRule
	FloatRule  = decode.FloatRule
)

// The kinds of Value that generated tables use (decode.KindFunc is for run-time tables only).
const (
	KindString   = decode.KindString
	KindInt      = decode.KindInt
	KindUint     = decode.KindUint
	KindFloat    = decode.KindFloat
	KindBool     = decode.KindBool
	KindBytes    = decode.KindBytes
	KindTime     = decode.KindTime
	KindDuration = decode.KindDuration
	KindRaw      = decode.KindRaw
	KindAny      = decode.KindAny
	KindStruct   = decode.KindStruct
	KindNullable = decode.KindNullable
	KindGo       = decode.KindGo
	KindEmbedded = decode.KindEmbedded
)

// The Go types a KindGo value reads (decode.GoType).
type (
	SliceOf[E any]              = decode.SliceOf[E]
	UniqueSliceOf[E comparable] = decode.UniqueSliceOf[E]
	ArrayOf[E any]              = decode.ArrayOf[E]
	PointerOf[T any]            = decode.PointerOf[T]
	TextOf[T any, PT interface {
		*T
		encoding.TextUnmarshaler
	}] = decode.TextOf[T, PT]
	MapOf[K ~string, V any]             = decode.MapOf[K, V]
	IntMapOf[K decode.Signed, V any]    = decode.IntMapOf[K, V]
	UintMapOf[K decode.Unsigned, V any] = decode.UintMapOf[K, V]
	TextMapOf[K comparable, PK interface {
		*K
		encoding.TextUnmarshaler
	}, V any] = decode.TextMapOf[K, PK, V]
)

// NewFields is decode.NewFields.
func NewFields(names []string, required ...int) *decode.Fields {
	return decode.NewFields(names, required...)
}

// NewEnum is decode.NewEnum.
func NewEnum(values ...string) *decode.Enum { return decode.NewEnum(values...) }

// MultipleOf is decode.MultipleOf.
func MultipleOf(m string) *decode.Multiple { return decode.MultipleOf(m) }

// MustTime is decode.MustTime.
func MustTime(s string) time.Time { return decode.MustTime(s) }

// NoArgs is decode.NoArgs.
func NoArgs(data []byte) error { return decode.NoArgs(data) }

// Alloc is decode.Alloc.
func Alloc[P ~*T, T any](p *P) P { return decode.Alloc(p) }

// Ptr is decode.Ptr.
func Ptr[T any](v T) *T { return decode.Ptr(v) }

// The format checkers of StringRule.Format (decode.FormatChecker names them).
func IsDate(s string) bool         { return decode.IsDate(s) }
func IsDateTime(s string) bool     { return decode.IsDateTime(s) }
func IsDuration(s string) bool     { return decode.IsDuration(s) }
func IsEmail(s string) bool        { return decode.IsEmail(s) }
func IsHostname(s string) bool     { return decode.IsHostname(s) }
func IsIDNHostname(s string) bool  { return decode.IsIDNHostname(s) }
func IsIPv4(s string) bool         { return decode.IsIPv4(s) }
func IsIPv6(s string) bool         { return decode.IsIPv6(s) }
func IsIRI(s string) bool          { return decode.IsIRI(s) }
func IsIRIReference(s string) bool { return decode.IsIRIReference(s) }
func IsTime(s string) bool         { return decode.IsTime(s) }
func IsURI(s string) bool          { return decode.IsURI(s) }
func IsURIReference(s string) bool { return decode.IsURIReference(s) }
func IsUUID(s string) bool         { return decode.IsUUID(s) }

// Result encoders (see runtime/encode).
type Writer = encode.Writer

// AcquireWriter is encode.Acquire: a Writer from the pool.
func AcquireWriter() *Writer { return encode.Acquire() }

// FinishWriter is encode.Finish: the structured result of tool that w holds.
func FinishWriter(w *Writer, tool string) runtime.Result { return encode.Finish(w, tool) }

// IsZero is encode.IsZero.
func IsZero(v any) bool { return encode.IsZero(v) }

// IsZeroValue is encode.IsZeroValue.
func IsZeroValue[T comparable](v T) bool { return encode.IsZeroValue(v) }

// SortedStringKeys is encode.SortedStringKeys.
func SortedStringKeys[M ~map[K]V, K ~string, V any](m M) []K { return encode.SortedStringKeys(m) }

// SortedIntKeys is encode.SortedIntKeys.
func SortedIntKeys[M ~map[K]V, K ~int | ~int8 | ~int16 | ~int32 | ~int64, V any](m M) []encode.Key[K] {
	return encode.SortedIntKeys(m)
}

// SortedUintKeys is encode.SortedUintKeys.
func SortedUintKeys[M ~map[K]V, K ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64, V any](m M) []encode.Key[K] {
	return encode.SortedUintKeys(m)
}

// SortedTextKeys is encode.SortedTextKeys.
func SortedTextKeys[M ~map[K]V, K interface {
	comparable
	encoding.TextMarshaler
}, V any](w *Writer, m M) []encode.Key[K] {
	return encode.SortedTextKeys(w, m)
}
