package decode_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"regexp"
	goruntime "runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/decode"
)

// The tables below are written as toolgen writes them (package-level composite literals,
// offsets by unsafe.Offsetof, one Value per distinct kind and rule), to test the interpreter
// without the generator. decodeTable checks each against its type first, as runtime.Binding
// does, so every table here is also a table Check accepts.

// decodeTable decodes doc into v with the table st and returns its problems as "path: message".
func decodeTable[T any](t *testing.T, st *decode.Struct, v *T, doc string) []string {
	t.Helper()
	require.NoError(t, decode.Check(st, reflect.TypeFor[T]()), "the test's table must agree with its type")
	return problems(t, decode.Into([]byte(doc), unsafe.Pointer(v), st))
}

// upper is a text type: it accepts upper-case ASCII letters only.
type upper string

func (u *upper) UnmarshalText(b []byte) error {
	for _, c := range b {
		if c < 'A' || c > 'Z' {
			return errors.New("must be upper-case letters")
		}
	}
	*u = upper(b)
	return nil
}

// scalars has a field of every kind a Value reads without a Go type.
type scalars struct {
	Name  string
	I8    int8
	I16   int16
	I32   int32
	I64   int64
	I     int
	U8    uint8
	U16   uint16
	U32   uint32
	U64   uint64
	U     uint
	F32   float32
	F64   float64
	On    bool
	Data  []byte
	At    time.Time
	Wait  time.Duration
	Raw   json.RawMessage
	Any   any
	Inner inner
	Note  string // nullable: null leaves it as it is
	Half  int    // read by a function, as generated code reads what a table cannot say
}

type inner struct {
	X int32
	Y string
}

var (
	valueString   = decode.Value{Kind: decode.KindString}
	valueInt8     = decode.Value{Kind: decode.KindInt, Size: 1}
	valueInt16    = decode.Value{Kind: decode.KindInt, Size: 2}
	valueInt32    = decode.Value{Kind: decode.KindInt, Size: 4}
	valueInt64    = decode.Value{Kind: decode.KindInt, Size: 8}
	valueInt      = decode.Value{Kind: decode.KindInt, Size: uint8(unsafe.Sizeof(int(0)))}
	valueUint8    = decode.Value{Kind: decode.KindUint, Size: 1}
	valueUint16   = decode.Value{Kind: decode.KindUint, Size: 2}
	valueUint32   = decode.Value{Kind: decode.KindUint, Size: 4}
	valueUint64   = decode.Value{Kind: decode.KindUint, Size: 8}
	valueUint     = decode.Value{Kind: decode.KindUint, Size: uint8(unsafe.Sizeof(uint(0)))}
	valueFloat32  = decode.Value{Kind: decode.KindFloat, Size: 4}
	valueFloat64  = decode.Value{Kind: decode.KindFloat, Size: 8}
	valueBool     = decode.Value{Kind: decode.KindBool}
	valueBytes    = decode.Value{Kind: decode.KindBytes}
	valueTime     = decode.Value{Kind: decode.KindTime}
	valueDuration = decode.Value{Kind: decode.KindDuration}
	valueRaw      = decode.Value{Kind: decode.KindRaw}
	valueAny      = decode.Value{Kind: decode.KindAny}
	valueInner    = decode.Value{Kind: decode.KindStruct, Struct: &innerTable}
	valueNullable = decode.Value{Kind: decode.KindNullable, Elem: &valueString}
	valueHalf     = decode.Value{Kind: decode.KindFunc, Func: readHalf}

	innerTable = decode.Struct{
		Fields: decode.NewFields([]string{"x", "y"}, 0),
		Members: []decode.Member{
			{Offset: unsafe.Offsetof(inner{}.X), Value: &valueInt32},
			{Offset: unsafe.Offsetof(inner{}.Y), Value: &valueString},
		},
	}

	scalarsTable = decode.Struct{
		Fields: decode.NewFields([]string{"name", "i8", "i16", "i32", "i64", "i", "u8", "u16", "u32", "u64", "u",
			"f32", "f64", "on", "data", "at", "wait", "raw", "any", "inner", "note", "half"}),
		Members: []decode.Member{
			{Offset: unsafe.Offsetof(scalars{}.Name), Value: &valueString},
			{Offset: unsafe.Offsetof(scalars{}.I8), Value: &valueInt8},
			{Offset: unsafe.Offsetof(scalars{}.I16), Value: &valueInt16},
			{Offset: unsafe.Offsetof(scalars{}.I32), Value: &valueInt32},
			{Offset: unsafe.Offsetof(scalars{}.I64), Value: &valueInt64},
			{Offset: unsafe.Offsetof(scalars{}.I), Value: &valueInt},
			{Offset: unsafe.Offsetof(scalars{}.U8), Value: &valueUint8},
			{Offset: unsafe.Offsetof(scalars{}.U16), Value: &valueUint16},
			{Offset: unsafe.Offsetof(scalars{}.U32), Value: &valueUint32},
			{Offset: unsafe.Offsetof(scalars{}.U64), Value: &valueUint64},
			{Offset: unsafe.Offsetof(scalars{}.U), Value: &valueUint},
			{Offset: unsafe.Offsetof(scalars{}.F32), Value: &valueFloat32},
			{Offset: unsafe.Offsetof(scalars{}.F64), Value: &valueFloat64},
			{Offset: unsafe.Offsetof(scalars{}.On), Value: &valueBool},
			{Offset: unsafe.Offsetof(scalars{}.Data), Value: &valueBytes},
			{Offset: unsafe.Offsetof(scalars{}.At), Value: &valueTime},
			{Offset: unsafe.Offsetof(scalars{}.Wait), Value: &valueDuration},
			{Offset: unsafe.Offsetof(scalars{}.Raw), Value: &valueRaw},
			{Offset: unsafe.Offsetof(scalars{}.Any), Value: &valueAny},
			{Offset: unsafe.Offsetof(scalars{}.Inner), Value: &valueInner},
			{Offset: unsafe.Offsetof(scalars{}.Note), Value: &valueNullable},
			{Value: &valueHalf}, // a function member reads the struct: offset 0
		},
	}
)

// readHalf is a KindFunc member as a run-time table (runtime/schematool) may hold one: it
// reads with the State's parts, and its problems have the member's path.
func readHalf(s *decode.State, ptr unsafe.Pointer) error {
	v := (*scalars)(ptr)
	d, ps, p := s.Parts()
	n, ok, err := decode.ReadInt(d, ps, p, -100, 100)
	if ok {
		if n%2 != 0 {
			ps.Add(p, "must be even")
		}
		v.Half = int(n / 2)
	}
	return err
}

func TestTableReadsEveryKind(t *testing.T) {
	v := scalars{Note: "kept"}
	got := decodeTable(t, &scalarsTable, &v, `{"name":"n\u00e9","i8":-128,"i16":-32768,"i32":-2147483648,
		"i64":-9223372036854775808,"i":2.0,"u8":255,"u16":65535,"u32":4294967295,"u64":18446744073709551615,"u":1e3,
		"f32":1.5,"f64":-2.25e-3,"on":true,"data":"aGk=","at":"2024-01-02T15:04:05Z","wait":"1h30m",
		"raw":{"a": [1, 2]},"any":{"k":[1,"x",null,false]},"inner":{"x":7,"y":"why"},"note":null,"half":42}`)
	assert.Empty(t, got)
	assert.Equal(t, scalars{
		Name: "né", I8: -128, I16: -32768, I32: -2147483648, I64: -9223372036854775808, I: 2,
		U8: 255, U16: 65535, U32: 4294967295, U64: 18446744073709551615, U: 1000,
		F32: 1.5, F64: -2.25e-3, On: true, Data: []byte("hi"),
		At: time.Date(2024, 1, 2, 15, 4, 5, 0, time.UTC), Wait: 90 * time.Minute,
		Raw: json.RawMessage(`{"a": [1, 2]}`), Any: map[string]any{"k": []any{1.0, "x", nil, false}},
		Inner: inner{X: 7, Y: "why"}, Note: "kept", Half: 21,
	}, v)

	// Nullable reads anything but null as its element.
	require.Empty(t, decodeTable(t, &scalarsTable, &v, `{"note":"new"}`))
	assert.Equal(t, "new", v.Note)
}

// The raw text of a json.RawMessage is a copy: the document's buffer is the caller's.
func TestTableRawIsACopy(t *testing.T) {
	var v scalars
	doc := []byte(`{"raw":[1]}`)
	require.NoError(t, decode.Into(doc, unsafe.Pointer(&v), &scalarsTable))
	copy(doc, `{"raw":[9]}`)
	assert.Equal(t, json.RawMessage(`[1]`), v.Raw)
}

// Strings are copies too, though the strings of one document share their bytes: the caller
// may reuse its buffer, and strings decoded from another document never overwrite them.
func TestTableStringsOutliveTheBufferAndTheNextDocument(t *testing.T) {
	decodeOrder := func(doc []byte) order {
		var o order
		require.NoError(t, decode.Into(doc, unsafe.Pointer(&o), &orderTable))
		return o
	}
	doc := []byte(`{"id":"first","lines":[{"sku":"aaa","qty":1},{"sku":"bbbb","qty":2}]}`)
	first := decodeOrder(doc)
	copy(doc, bytes.Repeat([]byte("#"), len(doc)))
	for range 100 {
		decodeOrder([]byte(`{"id":"other","lines":[{"sku":"zzz","qty":1},{"sku":"yyyy","qty":2}]}`))
	}
	assert.Equal(t, "first", first.ID)
	assert.Equal(t, []string{"aaa", "bbbb"}, []string{first.Lines[0].SKU, first.Lines[1].SKU})
}

// A value is refused, and the field left as it was, when it is the wrong JSON type or outside
// the range of the field's Go type: never rounded, clamped or wrapped into it.
func TestTableRefusesEveryKindAtItsPath(t *testing.T) {
	v := scalars{I8: 1, U64: 2, Name: "before"}
	got := decodeTable(t, &scalarsTable, &v, `{"name":1,"i8":128,"i16":-32769,"i32":2147483648,
		"i64":1e19,"i":1.5,"u8":256,"u16":-1,"u32":4294967296,"u64":18446744073709551616,"u":"1",
		"f32":1e39,"f64":"x","on":"true","data":"not base64!","at":"2024-01-02","wait":"soon",
		"any":[1,{"x":-1e400},1e999],"inner":{"x":"7","zzz":1},"note":5,"half":3}`)
	assert.Equal(t, []string{
		"/name: must be a string, got 1",
		"/i8: must be at most 127, got 128",
		"/i16: must be at least -32768, got -32769",
		"/i32: must be at most 2147483647, got 2147483648",
		"/i64: must be at most 9223372036854775807, got 1e19",
		"/i: must be an integer, got 1.5",
		"/u8: must be at most 255, got 256",
		"/u16: must be at least 0, got -1",
		"/u32: must be at most 4294967295, got 4294967296",
		"/u64: must be at most 18446744073709551615, got 18446744073709551616",
		`/u: must be an integer, got "1"`,
		"/f32: must be a number within the range of a 32-bit float, got 1e39",
		`/f64: must be a number, got "x"`,
		`/on: must be a boolean, got "true"`,
		"/data: must be standard base64 with padding, got not base64!",
		`/at: must be an RFC 3339 date-time such as "2024-01-02T15:04:05Z", got "2024-01-02"`,
		`/wait: must be a duration such as "1h30m" or "250ms", got "soon"`,
		// Valid JSON, which encoding/json refuses too: a problem, and decoding goes on.
		"/any: must hold only numbers within the range of a 64-bit float, got -1e400",
		`/inner/x: must be an integer, got "7"`,
		`/inner/zzz: unknown property; expected one of "x", "y"`,
		"/note: must be a string, got 5",
		"/half: must be even",
	}, got)
	assert.Equal(t, scalars{I8: 1, U64: 2, Name: "before", Half: 1}, v, "refused values leave their fields as they were")

	// A struct value of the wrong type is one problem, not one per required property.
	assert.Equal(t, []string{"/inner: must be an object, got an array"}, decodeTable(t, &scalarsTable, &v, `{"inner":[1]}`))
	assert.Equal(t, []string{"/inner/x: required property is missing"}, decodeTable(t, &scalarsTable, &v, `{"inner":{}}`))
}

// rules has one field per kind of keyword a rule holds.
type rules struct {
	Short  string
	Code   string
	Mail   string
	Color  string
	Late   string
	Count  int16
	Small  uint8
	Ratio  float64
	Tiny   float32
	Cents  float64
	Choice float64
}

var (
	shortRule  = decode.StringRule{MinLength: 2, HasMaxLength: true, MaxLength: 4}
	codeRule   = decode.StringRule{Pattern: regexp.MustCompile(`^[a-z]+-[0-9]+$`).MatchString, PatternText: `^[a-z]+-[0-9]+$`}
	mailRule   = decode.StringRule{Format: decode.IsEmail, FormatName: "email"}
	colorRule  = decode.StringRule{Enum: decode.NewEnum("red", "green")}
	lateRule   = decode.StringRule{Enum: decode.NewEnum("a", "bbbbbb"), HasMaxLength: true, MaxLength: 3, LateMax: true}
	countRule  = decode.IntRule{Min: -5, MinText: "-5", ExclusiveMax: 10, ExclusiveMaxText: "10", MultipleOf: 3, MultipleOfText: "3"}
	smallRule  = decode.IntRule{Max: 9, MaxText: "9", Enum: []int64{1, 2, 9}, EnumText: "1, 2, 9"}
	ratioRule  = decode.FloatRule{ExclusiveMin: 0, ExclusiveMinText: "0", Max: 1, MaxText: "1"}
	tinyRule   = decode.FloatRule{Min: 0.1, MinText: "0.1"}
	centsRule  = decode.FloatRule{MultipleOf: decode.MultipleOf("0.01"), MultipleOfText: "0.01"}
	choiceRule = decode.FloatRule{Enum: []float64{0.5, 1}, EnumText: "0.5, 1"}

	rulesTable = decode.Struct{
		Fields: decode.NewFields([]string{"short", "code", "mail", "color", "late", "count", "small", "ratio", "tiny", "cents", "choice"}),
		Members: []decode.Member{
			{Offset: unsafe.Offsetof(rules{}.Short), Value: &decode.Value{Kind: decode.KindString, Str: &shortRule}},
			{Offset: unsafe.Offsetof(rules{}.Code), Value: &decode.Value{Kind: decode.KindString, Str: &codeRule}},
			{Offset: unsafe.Offsetof(rules{}.Mail), Value: &decode.Value{Kind: decode.KindString, Str: &mailRule}},
			{Offset: unsafe.Offsetof(rules{}.Color), Value: &decode.Value{Kind: decode.KindString, Str: &colorRule}},
			{Offset: unsafe.Offsetof(rules{}.Late), Value: &decode.Value{Kind: decode.KindString, Str: &lateRule}},
			{Offset: unsafe.Offsetof(rules{}.Count), Value: &decode.Value{Kind: decode.KindInt, Size: 2, Int: &countRule}},
			{Offset: unsafe.Offsetof(rules{}.Small), Value: &decode.Value{Kind: decode.KindUint, Size: 1, Int: &smallRule}},
			{Offset: unsafe.Offsetof(rules{}.Ratio), Value: &decode.Value{Kind: decode.KindFloat, Size: 8, Float: &ratioRule}},
			{Offset: unsafe.Offsetof(rules{}.Tiny), Value: &decode.Value{Kind: decode.KindFloat, Size: 4, Float: &tinyRule}},
			{Offset: unsafe.Offsetof(rules{}.Cents), Value: &decode.Value{Kind: decode.KindFloat, Size: 8, Float: &centsRule}},
			{Offset: unsafe.Offsetof(rules{}.Choice), Value: &decode.Value{Kind: decode.KindFloat, Size: 8, Float: &choiceRule}},
		},
	}
)

func TestTableRulesAcceptValidValues(t *testing.T) {
	var v rules
	require.Empty(t, decodeTable(t, &rulesTable, &v, `{"short":"ab","code":"ab-12","mail":"a@b.example","color":"green",
		"late":"a","count":-3,"small":9,"ratio":1,"tiny":0.5,"cents":12.34,"choice":0.5}`))
	assert.Equal(t, rules{Short: "ab", Code: "ab-12", Mail: "a@b.example", Color: "green", Late: "a",
		Count: -3, Small: 9, Ratio: 1, Tiny: 0.5, Cents: 12.34, Choice: 0.5}, v)
	// An enum value with an escape is matched on its text.
	require.Empty(t, decodeTable(t, &rulesTable, &v, `{"color":"r\u0065d"}`))
	assert.Equal(t, "red", v.Color)
}

// An enum whose values are not all plain JSON text is matched on the values the literals
// decode to, never on their bytes: the literal "a\nb" is a line break, not the value a\nb.
func TestTableEnumOfValuesWithEscapes(t *testing.T) {
	rule := decode.StringRule{Enum: decode.NewEnum(`a\nb`, "café", "ok")}
	table := decode.Struct{
		Fields:  decode.NewFields([]string{"v"}),
		Members: []decode.Member{{Value: &decode.Value{Kind: decode.KindString, Str: &rule}}},
	}
	var v struct{ V string }
	for doc, want := range map[string]string{`{"v":"a\\nb"}`: `a\nb`, `{"v":"caf\u00e9"}`: "café", `{"v":"café"}`: "café", `{"v":"ok"}`: "ok"} {
		v.V = ""
		require.Empty(t, decodeTable(t, &table, &v, doc), doc)
		assert.Equal(t, want, v.V, doc)
	}
	assert.Equal(t, []string{`/v: must be one of "a\\nb", "café", "ok", got "a\nb"`},
		decodeTable(t, &table, &v, `{"v":"a\nb"}`))
}

// An enum matches on length classes first (a bit per length, 63 bytes and more in one): a
// value of each class matches and a literal of the class that is no value is refused, for a
// short list and for a long one (looked up in a map).
func TestTableEnumLengths(t *testing.T) {
	long, longer := strings.Repeat("x", 70), strings.Repeat("x", 71)
	rule := decode.StringRule{Enum: decode.NewEnum("abc", long, "")}
	table := decode.Struct{
		Fields:  decode.NewFields([]string{"v"}),
		Members: []decode.Member{{Value: &decode.Value{Kind: decode.KindString, Str: &rule}}},
	}
	var v struct{ V string }
	for _, want := range []string{"abc", long, ""} {
		require.Empty(t, decodeTable(t, &table, &v, `{"v":"`+want+`"}`), want)
		assert.Equal(t, want, v.V)
	}
	require.Empty(t, decodeTable(t, &table, &v, `{"v":"\u0061bc"}`), "escaped: 8 bytes as sent, 3 as read")
	assert.Equal(t, "abc", v.V)
	for _, miss := range []string{"ab", "abcd", longer, strings.Repeat("y", 70)} {
		got := decodeTable(t, &table, &v, `{"v":"`+miss+`"}`)
		require.Len(t, got, 1, miss)
		assert.Contains(t, got[0], "must be one of", miss)
	}
	many := decode.StringRule{Enum: decode.NewEnum("a", "bb", "ccc", "dddd", "e", "f", "g", "h", long)}
	table.Members[0].Value = &decode.Value{Kind: decode.KindString, Str: &many}
	for _, want := range []string{"ccc", "h", long} {
		require.Empty(t, decodeTable(t, &table, &v, `{"v":"`+want+`"}`), want)
		assert.Equal(t, want, v.V)
	}
	for _, miss := range []string{"ab", "eeeee", longer} {
		require.Len(t, decodeTable(t, &table, &v, `{"v":"`+miss+`"}`), 1, miss)
	}
}

func TestTableRulesReportEveryKeyword(t *testing.T) {
	var v rules
	got := decodeTable(t, &rulesTable, &v, `{"short":"a","code":"AB-1","mail":"nobody","color":"blue",
		"late":"bbbbbb","count":-6,"small":3,"ratio":0,"tiny":0.0999999999,"cents":0.001,"choice":0.75}`)
	assert.Equal(t, []string{
		"/short: must be at least 2 characters long, got 1",
		`/code: must be a string matching the pattern "^[a-z]+-[0-9]+$", got "AB-1"`,
		`/mail: must be an email address such as "user@example.com", got "nobody"`,
		`/color: must be one of "red", "green", got "blue"`,
		"/late: must be at most 3 characters long, got 6", // counted on the string read, as enum types do
		"/count: must be at least -5, got -6",             // and a multiple of 3
		"/small: must be one of 1, 2, 9, got 3",
		"/ratio: must be greater than 0, got 0",
		// 0.0999999999 rounds to the float32 of 0.1, which is above 0.1: as sent it is below.
		"/tiny: must be at least 0.1, got 0.0999999999",
		"/cents: must be a multiple of 0.01, got 0.001",
		"/choice: must be one of 0.5, 1, got 0.75",
	}, got)

	got = decodeTable(t, &rulesTable, &v, `{"short":"abcde","count":10,"small":10,"ratio":1e-400}`)
	assert.Equal(t, []string{
		"/short: must be at most 4 characters long, got 5",
		"/count: must be less than 10, got 10",
		"/count: must be a multiple of 3, got 10",
		"/small: must be at most 9, got 10",
		"/small: must be one of 1, 2, 9, got 10",
		"/ratio: must be greater than 0, got 1e-400, which rounds to 0 as a 64-bit float; send a value that stays greater than 0 once rounded",
	}, got)
}

// A string past maxLength is refused before it is built: a long one allocates nothing.
func TestTableLongStringIsNotBuilt(t *testing.T) {
	doc := []byte(`{"short":"` + strings.Repeat("x", 1<<20) + `"}`)
	var v rules
	allocs := testing.AllocsPerRun(10, func() { _ = decode.Into(doc, unsafe.Pointer(&v), &rulesTable) })
	assert.Less(t, allocs, 10.0)
	assert.Equal(t, []string{"/short: must be at most 4 characters long, got 1048576"}, problems(t, decode.Into(doc, unsafe.Pointer(&v), &rulesTable)))
}

// containers has a field of every GoType.
type (
	names      []string // a named slice type reads as []string
	containers struct {
		List   names
		Items  []inner
		Unique []int
		Triple [3]int
		Ptr    *int
		Node   *inner
		Code   upper
		Codes  []upper
		ByName map[string]int
		ByInt  map[int8]string
		ByUint map[uint8]string
		ByText map[upper]int
		Opt    *string // nullable pointer: null is nil
	}
)

var (
	valueUpper = decode.Value{Kind: decode.KindGo, Go: &decode.TextOf[upper, *upper]{}}
	codeLimit  = decode.StringRule{HasMaxLength: true, MaxLength: 3}

	containersTable = decode.Struct{
		Fields: decode.NewFields([]string{"list", "items", "unique", "triple", "ptr", "node", "code", "codes",
			"by_name", "by_int", "by_uint", "by_text", "opt"}),
		Members: []decode.Member{
			{Offset: unsafe.Offsetof(containers{}.List), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.SliceOf[string]{}, Elem: &valueString, Min: 1, Max: 2}},
			{Offset: unsafe.Offsetof(containers{}.Items), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.SliceOf[inner]{}, Elem: &valueInner, Max: -1}},
			{Offset: unsafe.Offsetof(containers{}.Unique), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.UniqueSliceOf[int]{}, Elem: &valueInt, Max: -1}},
			{Offset: unsafe.Offsetof(containers{}.Triple), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.ArrayOf[int]{}, Elem: &valueInt, Min: 3}},
			{Offset: unsafe.Offsetof(containers{}.Ptr), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.PointerOf[int]{}, Elem: &valueInt}},
			{Offset: unsafe.Offsetof(containers{}.Node), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.PointerOf[inner]{}, Elem: &valueInner}},
			{Offset: unsafe.Offsetof(containers{}.Code), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.TextOf[upper, *upper]{}, Str: &codeLimit}},
			{Offset: unsafe.Offsetof(containers{}.Codes), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.SliceOf[upper]{}, Elem: &valueUpper, Max: -1}},
			{Offset: unsafe.Offsetof(containers{}.ByName), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.MapOf[string, int]{}, Elem: &valueInt, Min: 1, Max: 2}},
			{Offset: unsafe.Offsetof(containers{}.ByInt), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.IntMapOf[int8, string]{}, Elem: &valueString, Max: -1}},
			{Offset: unsafe.Offsetof(containers{}.ByUint), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.UintMapOf[uint8, string]{}, Elem: &valueString, Max: -1}},
			{Offset: unsafe.Offsetof(containers{}.ByText), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.TextMapOf[upper, *upper, int]{}, Elem: &valueInt, Max: -1}},
			{Offset: unsafe.Offsetof(containers{}.Opt), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.PointerOf[string]{}, Elem: &valueString}},
		},
	}
)

func TestTableReadsEveryGoType(t *testing.T) {
	var v containers
	require.Empty(t, decodeTable(t, &containersTable, &v, `{"list":["a","b"],"items":[{"x":1},{"x":2,"y":"z"}],
		"unique":[3,1,2],"triple":[1,2,3],"ptr":5,"node":{"x":9},"code":"ABC","codes":["X","YZ"],
		"by_name":{"a":1,"b":2},"by_int":{"-128":"min","127":"max","0":"zero"},"by_uint":{"255":"max"},
		"by_text":{"K":1},"opt":"o"}`))
	assert.Equal(t, containers{
		List: names{"a", "b"}, Items: []inner{{X: 1}, {X: 2, Y: "z"}}, Unique: []int{3, 1, 2}, Triple: [3]int{1, 2, 3},
		Ptr: ptr(5), Node: &inner{X: 9}, Code: "ABC", Codes: []upper{"X", "YZ"},
		ByName: map[string]int{"a": 1, "b": 2}, ByInt: map[int8]string{-128: "min", 127: "max", 0: "zero"},
		ByUint: map[uint8]string{255: "max"}, ByText: map[upper]int{"K": 1}, Opt: ptr("o"),
	}, v)

	// An empty array or object is an empty slice or map, never nil; null is a nil pointer.
	v = containers{Ptr: ptr(1), Opt: ptr("set")}
	require.Empty(t, decodeTable(t, &containersTable, &v, `{"list":["a"],"items":[],"by_name":{"a":1},"by_int":{},"ptr":null,"opt":null}`))
	assert.NotNil(t, v.Items)
	assert.Empty(t, v.Items)
	assert.NotNil(t, v.ByInt)
	assert.Nil(t, v.Ptr)
	assert.Nil(t, v.Opt)

	// A pointer already set is reused, as encoding/json does.
	p := ptr(1)
	v = containers{Ptr: p}
	require.Empty(t, decodeTable(t, &containersTable, &v, `{"ptr":7}`))
	assert.Same(t, p, v.Ptr)
	assert.Equal(t, 7, *p)
}

func TestTableGoTypesReportAtTheirPaths(t *testing.T) {
	var v containers
	got := decodeTable(t, &containersTable, &v, `{"list":[1,"b","c","d"],"items":[{"x":1},{"y":2}],
		"unique":[1,2,1],"triple":[1,2],"ptr":"p","node":{},"code":"abc","codes":["A","b"],
		"by_name":{"a":1,"a":3},"by_int":{"-129":"x","01":"y","1":"z","1":"w"},"by_uint":{"256":"x","-1":"y"},
		"by_text":{"k":1,"K":2,"K":3},"opt":1}`)
	assert.Equal(t, []string{
		"/list/0: must be a string, got 1",
		"/list: must have at most 2 items, got 4",
		"/items/1/y: must be a string, got 2",
		"/items/1/x: required property is missing",
		"/unique: must not contain duplicates, but items 0 and 2 are equal",
		"/triple: must have exactly 3 items, got 2",
		`/ptr: must be an integer, got "p"`,
		"/node/x: required property is missing",
		"/code: is not accepted: must be upper-case letters",
		"/codes/1: is not accepted: must be upper-case letters",
		"/by_name/a: property appears more than once",
		"/by_int/-129: property name must be an integer between -128 and 127",
		"/by_int/01: property name must be an integer between -128 and 127",
		"/by_int/1: property appears more than once",
		"/by_uint/256: property name must be an integer between 0 and 255",
		"/by_uint/-1: property name must be an integer between 0 and 255",
		"/by_text/k: property name is not accepted: must be upper-case letters",
		"/by_text/K: property appears more than once",
		"/opt: must be a string, got 1",
	}, got)
	assert.Equal(t, names{"", "b"}, v.List, "items past maxItems are skipped, never built; a refused item is left zero")
	assert.Equal(t, map[string]int{"a": 1}, v.ByName, "the first of two repeated properties is kept")
	assert.Equal(t, map[int8]string{1: "z"}, v.ByInt, "the first of two repeated keys is kept; refused keys are not stored")
	assert.Equal(t, map[upper]int{"K": 2}, v.ByText)

	v = containers{}
	got = decodeTable(t, &containersTable, &v, `{"list":[],"unique":[1,"x",1],"triple":[1,2,3,4],"code":"ABCD",
		"by_name":{"a":1,"b":"2","c":3,"d":4},"items":{},"by_int":[]}`)
	assert.Equal(t, []string{
		"/list: must have at least 1 item, got 0",
		// An item that failed holds no value to compare; the others are compared.
		`/unique/1: must be an integer, got "x"`,
		"/unique: must not contain duplicates, but items 0 and 2 are equal",
		"/triple: must have exactly 3 items, got 4",
		"/code: must be at most 3 characters long, got 4",
		`/by_name/b: must be an integer, got "2"`,
		"/by_name: must have at most 2 properties, got 4",
		"/items: must be an array, got an object",
		"/by_int: must be an object, got an array",
	}, got)
	assert.Equal(t, [3]int{1, 2, 3}, v.Triple, "extra items are skipped")
	assert.Len(t, v.ByName, 2, "properties past maxProperties are skipped, never built")

	v = containers{}
	got = decodeTable(t, &containersTable, &v, `{"by_name":{}}`)
	assert.Equal(t, []string{"/by_name: must have at least 1 property, got 0"}, got)
}

// A map key is a path segment: a model reads it escaped as JSON Pointer says.
func TestTableMapKeyPathIsEscaped(t *testing.T) {
	var v containers
	got := decodeTable(t, &containersTable, &v, `{"by_name":{"a/b~c":"x"}}`)
	assert.Equal(t, []string{`/by_name/a~1b~0c: must be an integer, got "x"`}, got)
}

// A slice of many items beyond maxItems allocates what it keeps, not what was sent.
func TestTableItemsPastMaxAreNotBuilt(t *testing.T) {
	doc := []byte(`{"list":[` + strings.Repeat(`"xxxxxxxx",`, 100000) + `"x"]}`)
	var v containers
	allocs := testing.AllocsPerRun(5, func() { _ = decode.Into(doc, unsafe.Pointer(&v), &containersTable) })
	assert.Less(t, allocs, 20.0)
	assert.Equal(t, []string{"/list: must have at most 2 items, got 100001"}, problems(t, decode.Into(doc, unsafe.Pointer(&v), &containersTable)))
}

func ptr[T any](v T) *T { return &v }

// withDefaults has fields with defaults, applied only when the property is absent.
type withDefaults struct {
	Name string
	Tags []string
	Size int
}

var withDefaultsTable = decode.Struct{
	Fields: decode.NewFields([]string{"name", "tags", "size"}),
	Members: []decode.Member{
		{Offset: unsafe.Offsetof(withDefaults{}.Name), Value: &valueString, Default: func(p unsafe.Pointer) { *(*string)(p) = "anon" }},
		{Offset: unsafe.Offsetof(withDefaults{}.Tags), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.SliceOf[string]{}, Elem: &valueString, Max: -1},
			Default: func(p unsafe.Pointer) { *(*[]string)(p) = []string{"a", "b"} }},
		{Offset: unsafe.Offsetof(withDefaults{}.Size), Value: &valueInt},
	},
	Defaults: []int{0, 1},
}

func TestTableDefaultsOnlyWhenAbsent(t *testing.T) {
	var v withDefaults
	require.Empty(t, decodeTable(t, &withDefaultsTable, &v, `{}`))
	assert.Equal(t, withDefaults{Name: "anon", Tags: []string{"a", "b"}}, v)

	v = withDefaults{}
	require.Empty(t, decodeTable(t, &withDefaultsTable, &v, `{"name":"","tags":[],"size":3}`))
	assert.Equal(t, withDefaults{Name: "", Tags: []string{}, Size: 3}, v, "a property sent, even empty, takes no default")

	// A property sent with a wrong value is refused, not replaced by its default.
	v = withDefaults{}
	assert.Equal(t, []string{"/name: must be a string, got 1"}, decodeTable(t, &withDefaultsTable, &v, `{"name":1}`))
	assert.Equal(t, withDefaults{Tags: []string{"a", "b"}}, v)

	// Not an object: one problem, and no defaults over it.
	v = withDefaults{}
	assert.Equal(t, []string{": must be an object, got null"}, decodeTable(t, &withDefaultsTable, &v, `null`))
	assert.Equal(t, withDefaults{}, v)
}

// A slice default is made for every call: a handler that changes it changes no other call's.
func TestTableSliceDefaultIsFreshPerCall(t *testing.T) {
	var first, second withDefaults
	require.Empty(t, decodeTable(t, &withDefaultsTable, &first, `{}`))
	first.Tags[0] = "changed"
	require.Empty(t, decodeTable(t, &withDefaultsTable, &second, `{}`))
	assert.Equal(t, []string{"a", "b"}, second.Tags)
}

// ordered is read in any order, and the object loop's guess of the next property never
// changes which field a property reaches.
type ordered struct {
	A, B, C, D string
}

var (
	orderedString = decode.Value{Kind: decode.KindString}
	orderedTable  = decode.Struct{
		Fields: decode.NewFields([]string{"a", "b", "c", "d"}, 0, 3),
		Members: []decode.Member{
			{Offset: unsafe.Offsetof(ordered{}.A), Value: &orderedString},
			{Offset: unsafe.Offsetof(ordered{}.B), Value: &orderedString},
			{Offset: unsafe.Offsetof(ordered{}.C), Value: &orderedString},
			{Offset: unsafe.Offsetof(ordered{}.D), Value: &orderedString},
		},
	}
)

func TestTablePropertiesInAnyOrder(t *testing.T) {
	for _, c := range []struct {
		doc  string
		want ordered
		errs []string
	}{
		{`{"a":"1","b":"2","c":"3","d":"4"}`, ordered{"1", "2", "3", "4"}, nil},
		{`{"d":"4","c":"3","b":"2","a":"1"}`, ordered{"1", "2", "3", "4"}, nil},
		{`{"b":"2","d":"4","a":"1","c":"3"}`, ordered{"1", "2", "3", "4"}, nil},
		// After "a" the loop guesses "b"; a repeated "a" is still found, and refused.
		{`{"a":"1","a":"x","d":"4"}`, ordered{A: "1", D: "4"}, []string{"/a: property appears more than once"}},
		// The guess is right ("b" follows "a") but "b" was read already.
		{`{"a":"1","b":"2","a":"x","b":"y","d":"4"}`, ordered{A: "1", B: "2", D: "4"}, []string{
			"/a: property appears more than once", "/b: property appears more than once"}},
		// Past the last property, and after an unknown one, the guess starts over.
		{`{"d":"4","zz":1,"a":"1","d":"x"}`, ordered{A: "1", D: "4"}, []string{
			`/zz: unknown property; expected one of "a", "b", "c", "d"`, "/d: property appears more than once"}},
		{`{"c":"3","b":"2"}`, ordered{B: "2", C: "3"}, []string{"/a: required property is missing", "/d: required property is missing"}},
		{`{"a":"1","d":"4","b":2}`, ordered{A: "1", D: "4"}, []string{"/b: must be a string, got 2"}},
		{`{"A":"1","dd":"4","":"x","a":"1","d":"4"}`, ordered{A: "1", D: "4"}, []string{
			`/A: unknown property, did you mean "a"?`, `/dd: unknown property, did you mean "d"?`,
			`/: unknown property, did you mean "a"?`}},
	} {
		var v ordered
		assert.Equal(t, c.errs, decodeTable(t, &orderedTable, &v, c.doc), c.doc)
		assert.Equal(t, c.want, v, c.doc)
	}
}

// tree is a recursive type: its table refers to itself, so generated code fills it in init,
// where a declaration would be an initialisation cycle.
type tree struct {
	Name string
	Kids []tree
	Next *tree
	Tags map[string]tree
}

var (
	treeTable decode.Struct
	treeValue = decode.Value{Kind: decode.KindStruct, Struct: &treeTable}
	treeName  = decode.StringRule{MinLength: 1}
)

func init() {
	treeTable = decode.Struct{
		Fields: decode.NewFields([]string{"name", "kids", "next", "tags"}, 0),
		Members: []decode.Member{
			{Offset: unsafe.Offsetof(tree{}.Name), Value: &decode.Value{Kind: decode.KindString, Str: &treeName}},
			{Offset: unsafe.Offsetof(tree{}.Kids), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.SliceOf[tree]{}, Elem: &treeValue, Max: 3}},
			{Offset: unsafe.Offsetof(tree{}.Next), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.PointerOf[tree]{}, Elem: &treeValue}},
			{Offset: unsafe.Offsetof(tree{}.Tags), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.MapOf[string, tree]{}, Elem: &treeValue, Max: -1}},
		},
	}
}

func TestTableRecursiveType(t *testing.T) {
	var v tree
	got := decodeTable(t, &treeTable, &v, `{"name":"root","kids":[{"name":"a","kids":[{"name":""}]},{"kids":[]}],
		"next":{"name":"n","next":{"name":"m","tags":{"t":{"name":"leaf","next":null},"u":{}}}}}`)
	assert.Equal(t, []string{
		"/kids/0/kids/0/name: must be at least 1 character long, got 0",
		"/kids/1/name: required property is missing",
		"/next/next/tags/u/name: required property is missing",
	}, got)
	assert.Equal(t, "a", v.Kids[0].Name)
	assert.Equal(t, "leaf", v.Next.Next.Tags["t"].Name)
	assert.Nil(t, v.Next.Next.Tags["t"].Next)
}

// A recursive document deeper than the State's first path stack still reports the whole path.
func TestTablePathDeeperThanItsStack(t *testing.T) {
	const depth = 40
	doc := strings.Repeat(`{"name":"x","next":`, depth) + `{"name":1}` + strings.Repeat("}", depth)
	var v tree
	want := strings.Repeat("/next", depth) + "/name: must be a string, got 1"
	assert.Equal(t, []string{want}, decodeTable(t, &treeTable, &v, doc))
	// Two segments a level: 40 segments, in a path short enough not to be cut.
	doc = strings.Repeat(`{"name":"x","kids":[`, depth/2) + `{"name":1}` + strings.Repeat("]}", depth/2)
	want = strings.Repeat("/kids/0", depth/2) + "/name: must be a string, got 1"
	assert.Equal(t, []string{want}, decodeTable(t, &treeTable, &v, doc))
}

// A property after a nest deeper than a fresh State's stack of segments (which grows while
// the nest is read) is reported at its own path, for a member and for an item: the readers
// take their segment again after a value that may have grown the stack.
func TestTablePathAfterANestDeeperThanItsStack(t *testing.T) {
	const depth = 40
	deep := strings.Repeat(`{"name":"x","next":`, depth) + `{"name":"x"}` + strings.Repeat("}", depth)
	for doc, want := range map[string]string{
		`{"next":` + deep + `,"name":1}`:                          "/name: must be a string, got 1",
		`{"name":"x","kids":[` + deep + `,{"name":1}]}`:           "/kids/1/name: must be a string, got 1",
		`{"name":"x","kids":[{"next":` + deep + `,"name":1}]}`:    "/kids/0/name: must be a string, got 1",
		`{"next":{"name":"x","kids":[` + deep + `]},"name":true}`: "/name: must be a string, got true",
	} {
		// Two collections empty the pool, so the decode starts with a fresh State.
		goruntime.GC()
		goruntime.GC()
		var v tree
		assert.Equal(t, []string{want}, decodeTable(t, &treeTable, &v, doc), doc)
	}
}

// Malformed JSON stops decoding wherever it is met, with one problem: nothing after a syntax
// error can be trusted. The pooled State then starts the next call clean.
func TestTableMalformedJSON(t *testing.T) {
	for _, doc := range []string{
		``,
		`{`,
		`{"name":"a",`,
		`{"name":"a" "kids":[]}`,
		`{"name":"a","kids":[{"name":"b"},]}`,
		`{"name":"a","kids":[{"name":"b"}`,
		`{"name":"a","tags":{"x":{"name":"y"},}}`,
		`{"name":"a","next":{"name":"b",}}`,
		`{"name":"a","unknown":[1,}`,              // inside a skipped unknown property
		`{"name":"a","name":{"x":}}`,              // inside a skipped repeated property
		`{"name":"a","kids":[{},{},{},{"name":]}`, // inside items skipped past maxItems
		`{"name":"unterminated}`,
		`{"name":"\x"}`,
		`{"name":tru}`,
	} {
		var v tree
		err := decode.Into([]byte(doc), unsafe.Pointer(&v), &treeTable)
		got := problems(t, err)
		require.Len(t, got, 1, doc)
		assert.True(t, strings.HasPrefix(got[0], ": the arguments are not valid JSON: "), "%s: %s", doc, got[0])
	}
	var v tree
	assert.Equal(t, []string{": the arguments are not valid JSON: the text ends too early, at offset 31 (line 1, column 32), " +
		"after `…:\"a\",\"kids\":[{\"name\":1},`, where an item should be; send the complete JSON object"},
		problems(t, decode.Into([]byte(`{"name":"a","kids":[{"name":1},`), unsafe.Pointer(&v), &treeTable)),
		"problems found before the syntax error are dropped: only the syntax error is reported")
	assert.Equal(t, []string{": the arguments must be a single JSON object; found more data after it"},
		problems(t, decode.Into([]byte(`{"name":"a"} {}`), unsafe.Pointer(&v), &treeTable)))
	assert.Equal(t, []string{"/kids: must be an array, got 1"},
		problems(t, decode.Into([]byte(`{"name":"a","kids":1}`), unsafe.Pointer(&v), &treeTable)),
		"the next call starts with no problem or path of the failed ones")
}

// Inline code returns ReadAny's errors as they are: a number beyond a float64 is not called
// invalid JSON there either.
func TestReadAnyNumberBeyondFloat64(t *testing.T) {
	d := decode.Acquire([]byte(`[1,{"a":1e400,"b":2},3] `))
	defer decode.Release(d)
	v, err := decode.ReadAny(d)
	require.Error(t, err)
	assert.Nil(t, v)
	assert.NoError(t, decode.Finish(d), "the whole value is read")
	assert.Equal(t, []string{": the arguments must hold only numbers within the range of a 64-bit float, got 1e400"}, problems(t, decode.SyntaxError(err)))
}

// agreeing has a field of every kind whose JSON form encoding/json reads alike, with no
// keywords: what the table decoder accepts, encoding/json must read to the same value.
type agreeing struct {
	Name   string            `json:"name"`
	I8     int8              `json:"i8"`
	U16    uint16            `json:"u16"`
	I      int               `json:"i"`
	F32    float32           `json:"f32"`
	F64    float64           `json:"f64"`
	On     bool              `json:"on"`
	Data   []byte            `json:"data"`
	At     time.Time         `json:"at"`
	Raw    json.RawMessage   `json:"raw"`
	Any    any               `json:"any"`
	Inner  inner             `json:"inner"`
	Node   *inner            `json:"node"`
	List   []string          `json:"list"`
	Items  []inner           `json:"items"`
	Pair   [2]int8           `json:"pair"`
	Ptr    *int              `json:"ptr"`
	Code   upper             `json:"code"`
	ByName map[string]int    `json:"by_name"`
	ByInt  map[int8]bool     `json:"by_int"`
	ByUint map[uint8]string  `json:"by_uint"`
	ByText map[upper]float64 `json:"by_text"`
	Note   string            `json:"note"` // nullable
}

var agreeingTable = decode.Struct{
	Fields: decode.NewFields([]string{"name", "i8", "u16", "i", "f32", "f64", "on", "data", "at", "raw", "any", "inner",
		"node", "list", "items", "pair", "ptr", "code", "by_name", "by_int", "by_uint", "by_text", "note"}),
	Members: []decode.Member{
		{Offset: unsafe.Offsetof(agreeing{}.Name), Value: &valueString},
		{Offset: unsafe.Offsetof(agreeing{}.I8), Value: &valueInt8},
		{Offset: unsafe.Offsetof(agreeing{}.U16), Value: &valueUint16},
		{Offset: unsafe.Offsetof(agreeing{}.I), Value: &valueInt},
		{Offset: unsafe.Offsetof(agreeing{}.F32), Value: &valueFloat32},
		{Offset: unsafe.Offsetof(agreeing{}.F64), Value: &valueFloat64},
		{Offset: unsafe.Offsetof(agreeing{}.On), Value: &valueBool},
		{Offset: unsafe.Offsetof(agreeing{}.Data), Value: &valueBytes},
		{Offset: unsafe.Offsetof(agreeing{}.At), Value: &valueTime},
		{Offset: unsafe.Offsetof(agreeing{}.Raw), Value: &valueRaw},
		{Offset: unsafe.Offsetof(agreeing{}.Any), Value: &valueAny},
		{Offset: unsafe.Offsetof(agreeing{}.Inner), Value: &decode.Value{Kind: decode.KindStruct, Struct: &looseInnerTable}},
		{Offset: unsafe.Offsetof(agreeing{}.Node), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.PointerOf[inner]{}, Elem: &looseInnerValue}},
		{Offset: unsafe.Offsetof(agreeing{}.List), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.SliceOf[string]{}, Elem: &valueString, Max: -1}},
		{Offset: unsafe.Offsetof(agreeing{}.Items), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.SliceOf[inner]{}, Elem: &looseInnerValue, Max: -1}},
		{Offset: unsafe.Offsetof(agreeing{}.Pair), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.ArrayOf[int8]{}, Elem: &valueInt8, Min: 2}},
		{Offset: unsafe.Offsetof(agreeing{}.Ptr), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.PointerOf[int]{}, Elem: &valueInt}},
		{Offset: unsafe.Offsetof(agreeing{}.Code), Value: &valueUpper},
		{Offset: unsafe.Offsetof(agreeing{}.ByName), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.MapOf[string, int]{}, Elem: &valueInt, Max: -1}},
		{Offset: unsafe.Offsetof(agreeing{}.ByInt), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.IntMapOf[int8, bool]{}, Elem: &valueBool, Max: -1}},
		{Offset: unsafe.Offsetof(agreeing{}.ByUint), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.UintMapOf[uint8, string]{}, Elem: &valueString, Max: -1}},
		{Offset: unsafe.Offsetof(agreeing{}.ByText), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.TextMapOf[upper, *upper, float64]{}, Elem: &valueFloat64, Max: -1}},
		{Offset: unsafe.Offsetof(agreeing{}.Note), Value: &valueNullable},
	},
}

// looseInnerTable is innerTable without its required property, as encoding/json reads inner.
var (
	looseInnerTable = decode.Struct{Fields: decode.NewFields([]string{"x", "y"}), Members: innerTable.Members}
	looseInnerValue = decode.Value{Kind: decode.KindStruct, Struct: &looseInnerTable}
)

// FuzzTableAgreesWithEncodingJSON holds the table decoder to encoding/json: a document it
// accepts is valid JSON that encoding/json reads to the same value (or refuses for a reason
// the schema allows: an integer written 2.0, a date-time in lower case); a document that is
// not valid JSON is one problem, never a panic or a value.
func FuzzTableAgreesWithEncodingJSON(f *testing.F) {
	require.NoError(f, decode.Check(&agreeingTable, reflect.TypeFor[agreeing]()))
	for _, seed := range []string{
		`{"name":"a\u00e9\ud83d\ude00","i8":-128,"u16":65535,"i":-7,"f32":3.4e38,"f64":-1e-300,"on":false,"data":"AAEC",
		"at":"2024-02-29T23:59:59.123+05:30","raw":{"a" : [1, "x"]},"any":[{"k":null},1.5,"s",true],"inner":{"x":1,"y":"y"},
		"node":{"x":-2147483648},"list":["",""],"items":[{},{"y":"z"}],"pair":[1,-1],"ptr":0,"code":"AB",
		"by_name":{"":1,"a/b":2},"by_int":{"-128":true,"0":false},"by_uint":{"255":"x"},"by_text":{"Q":0.5},"note":null}`,
		`{"i":2.0,"at":"2024-01-02t15:04:05z"}`,
		`{"any":1e400}`,
		`{"name":"\ud800"}`,
		`{"any":"\udc00x\ufffd"}`,
		"{\"name\":\"\xff\xfe\"}",
		"{\"any\":\"\xc3\x28\"}",
		"{\"by_name\":{\"\xffa\":1},\"any\":{\"k\xe2\x82\":[\"\xed\xa0\x80\"]}}",
		`{"raw":[1,2,]}`,
		`{"by_int":{"01":true}}`,
		`{"pair":[1]}`,
		`{"name":"a"} x`,
		``,
		`nul`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		var got, want agreeing
		err := decode.Into(doc, unsafe.Pointer(&got), &agreeingTable)
		if !json.Valid(doc) {
			ps := problems(t, err)
			if len(ps) != 1 || !strings.HasPrefix(ps[0], ": the arguments ") {
				t.Fatalf("%q is not valid JSON, yet decoded to %v", doc, ps)
			}
			return
		}
		if err != nil {
			require.NotEmpty(t, problems(t, err))
			return
		}
		if jerr := json.Unmarshal(doc, &want); jerr != nil {
			var typeErr *json.UnmarshalTypeError
			if !errors.As(jerr, &typeErr) && !strings.Contains(jerr.Error(), "parsing time") {
				t.Fatalf("%q: decoded, but encoding/json says %v", doc, jerr)
			}
			return
		}
		g, err := json.Marshal(got)
		require.NoError(t, err)
		w, err := json.Marshal(want)
		require.NoError(t, err)
		if string(g) != string(w) {
			t.Fatalf("%q decodes to\n%s\nencoding/json reads\n%s", doc, g, w)
		}
	})
}

// Bytes that are not UTF-8 become U+FFFD wherever a string is made, as encoding/json makes
// them: in strings, in untyped values and their property names, and in map keys.
func TestTableInvalidUTF8AsEncodingJSON(t *testing.T) {
	doc := []byte("{\"name\":\"a\xffb\",\"any\":{\"k\xe2\x82\":[\"\xc3\x28\"]},\"by_name\":{\"\xff\xfe\":1}}")
	var v agreeing
	require.Empty(t, decodeTable(t, &agreeingTable, &v, string(doc)))
	assert.Equal(t, "a\uFFFDb", v.Name)
	assert.Equal(t, map[string]any{"k\uFFFD\uFFFD": []any{"\uFFFD("}}, v.Any)
	assert.Equal(t, map[string]int{"\uFFFD\uFFFD": 1}, v.ByName)
}

// uniqueCodes is a list whose items must be unique, at least five, each upper case.
type uniqueCodes struct{ Codes []string }

var (
	upperRule   = decode.StringRule{Pattern: func(s string) bool { return s != "" && strings.ToUpper(s) == s }, PatternText: "^[A-Z]+$"}
	uniqueTable = decode.Struct{
		Fields: decode.NewFields([]string{"codes"}),
		Members: []decode.Member{{Offset: unsafe.Offsetof(uniqueCodes{}.Codes), Value: &decode.Value{Kind: decode.KindGo,
			Go: &decode.UniqueSliceOf[string]{}, Elem: &decode.Value{Kind: decode.KindString, Str: &upperRule}, Min: 5, Max: -1}}},
	}
)

// Duplicates are reported beside the problems of other items and of the list's length, and
// items that failed (a wrong type leaves an item zero) are not compared: every problem is
// listed, none made up.
func TestTableUniqueItemsBesideOtherProblems(t *testing.T) {
	var v uniqueCodes
	got := decodeTable(t, &uniqueTable, &v, `{"codes":["AB","AB","x",7,8]}`)
	assert.Equal(t, []string{
		`/codes/2: must be a string matching the pattern "^[A-Z]+$", got "x"`,
		"/codes/3: must be a string, got 7",
		"/codes/4: must be a string, got 8",
		"/codes: must not contain duplicates, but items 0 and 1 are equal",
	}, got, "items 3 and 4 are both zero, not equal values")

	got = decodeTable(t, &uniqueTable, &v, `{"codes":["A","x","A"]}`)
	assert.Equal(t, []string{
		`/codes/1: must be a string matching the pattern "^[A-Z]+$", got "x"`,
		"/codes: must have at least 5 items, got 3",
		"/codes: must not contain duplicates, but items 0 and 2 are equal",
	}, got)

	// A long list is compared through a map, with the same exceptions.
	long := `"x",1,"B","C","D","E","F","G","H","I","J","K","L","M","N",2,"B"`
	got = decodeTable(t, &uniqueTable, &v, `{"codes":[`+long+`]}`)
	assert.Equal(t, []string{
		`/codes/0: must be a string matching the pattern "^[A-Z]+$", got "x"`,
		"/codes/1: must be a string, got 1",
		"/codes/15: must be a string, got 2",
		"/codes: must not contain duplicates, but items 2 and 16 are equal",
	}, got)
}
