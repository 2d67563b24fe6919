package decode_test

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/decode"
)

// The tables below are declared as toolgen declares them, to test the decoder without the
// generator: an order refers to itself, so its table is filled in init.

type line struct {
	SKU  string
	Qty  int8
	Tags map[string]uint16
}

type order struct {
	ID    string
	Lines []line
	Next  *order
	Big   uint64
}

var (
	skuRule = decode.StringRule{MinLength: 3, HasMaxLength: true, MaxLength: 8}
	bigRule = decode.IntRule{MultipleOf: 7, MultipleOfText: "7", Max: 100, MaxText: "100"}

	lineTable = decode.Struct{
		Fields: decode.NewFields([]string{"sku", "qty", "tags"}, 0, 1),
		Members: []decode.Member{
			{Offset: unsafe.Offsetof(line{}.SKU), Value: &decode.Value{Kind: decode.KindString, Str: &skuRule}},
			{Offset: unsafe.Offsetof(line{}.Qty), Value: &valueInt8},
			{Offset: unsafe.Offsetof(line{}.Tags), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.MapOf[string, uint16]{}, Elem: &valueUint16, Max: 2}},
		},
	}
	lineValue  = decode.Value{Kind: decode.KindStruct, Struct: &lineTable}
	orderTable decode.Struct
	orderValue = decode.Value{Kind: decode.KindStruct, Struct: &orderTable}
)

func init() {
	orderTable = decode.Struct{
		Fields: decode.NewFields([]string{"id", "lines", "next", "big"}, 0),
		Members: []decode.Member{
			{Offset: unsafe.Offsetof(order{}.ID), Value: &valueString},
			{Offset: unsafe.Offsetof(order{}.Lines), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.SliceOf[line]{}, Elem: &lineValue, Min: 1, Max: 3}},
			{Offset: unsafe.Offsetof(order{}.Next), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.PointerOf[order]{}, Elem: &orderValue}},
			{Offset: unsafe.Offsetof(order{}.Big), Value: &decode.Value{Kind: decode.KindUint, Size: 8, Int: &bigRule}},
		},
	}
}

func problems(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	var ae *runtime.ArgsError
	require.True(t, errors.As(err, &ae), "%v", err)
	var out []string
	for _, p := range ae.Problems {
		out = append(out, p.Path+": "+p.Message)
	}
	return out
}

func TestStateReportsEveryProblemAtItsPath(t *testing.T) {
	var v order
	got := decodeTable(t, &orderTable, &v, `{"id":"a","lines":[{"sku":"AB","qty":300,"tags":{"x":1,"y":-1,"x":2}},{"sku":"ABCDEF","qty":1,"extra":1,"sku":"X"}],
		"next":{"lines":[{"qty":1,"tags":{"a":1,"b":2,"c":3}}],"next":null},"big":18446744073709551615}`)
	assert.Equal(t, []string{
		"/lines/0/sku: must be at least 3 characters long, got 2",
		"/lines/0/qty: must be at most 127, got 300",
		"/lines/0/tags/y: must be at least 0, got -1",
		"/lines/0/tags: must have at most 2 properties, got 3", // the third is skipped unread
		`/lines/1/extra: unknown property; expected one of "sku", "qty", "tags"`,
		"/lines/1/sku: property appears more than once",
		"/next/lines/0/tags: must have at most 2 properties, got 3",
		"/next/lines/0/sku: required property is missing",
		"/next/id: required property is missing",
		"/big: must be at most 100, got 18446744073709551615",
		"/big: must be a multiple of 7, got 18446744073709551615",
	}, got)
	assert.Equal(t, "ABCDEF", v.Lines[1].SKU, "the first of two repeated properties is kept")
	assert.Nil(t, v.Next.Next)
}

func TestStateAcceptsAndStores(t *testing.T) {
	var v order
	require.Empty(t, decodeTable(t, &orderTable, &v, `{"id":"a","lines":[{"sku":"ABC","qty":-128,"tags":{"k":65535}}],"big":98}`))
	assert.Equal(t, order{ID: "a", Lines: []line{{SKU: "ABC", Qty: -128, Tags: map[string]uint16{"k": 65535}}}, Big: 98}, v)
}

func TestStateMalformedJSONStopsWithOneProblem(t *testing.T) {
	var v order
	err := decode.Into([]byte(`{"id":"a","lines":[{"sku":"AB",`), unsafe.Pointer(&v), &orderTable)
	assert.Equal(t, []string{": the arguments are not valid JSON: the text ends too early, at offset 31 (line 1, column 32), " +
		"after `…a\",\"lines\":[{\"sku\":\"AB\",`, where a property name in double quotes should be; send the complete JSON object"}, problems(t, err))
	// The pooled State starts clean again: no problem or path of the failed call leaks.
	err = decode.Into([]byte(`{"lines":[]}`), unsafe.Pointer(&v), &orderTable)
	assert.Equal(t, []string{"/lines: must have at least 1 item, got 0", "/id: required property is missing"}, problems(t, err))
}

// A recursive document deeper than the State's first stack still reports the whole path.
func TestStatePathDeeperThanItsStack(t *testing.T) {
	const depth = 40
	doc := strings.Repeat(`{"id":"x","next":`, depth) + `{"id":1}` + strings.Repeat("}", depth)
	var v order
	want := strings.Repeat("/next", depth) + "/id: must be a string, got 1"
	assert.Equal(t, []string{want}, decodeTable(t, &orderTable, &v, doc))
}

// Structs of more than 64 properties keep their seen bits past the first word: the object
// loop leaves the properties from 64 on to Take, and Absent finds them for their defaults.
func TestObjectOfManyProperties(t *testing.T) {
	const n = 70
	fields := make([]reflect.StructField, n)
	names := make([]string, n)
	for i := range fields {
		fields[i] = reflect.StructField{Name: fmt.Sprintf("P%d", i), Type: reflect.TypeFor[int]()}
		names[i] = fmt.Sprintf("p%d", i)
	}
	typ := reflect.StructOf(fields)
	st := &decode.Struct{Fields: decode.NewFields(names, 65, 69), Defaults: []int{68}}
	for i := range n {
		m := decode.Member{Offset: typ.Field(i).Offset, Value: &valueInt}
		if i == 68 {
			m.Default = func(p unsafe.Pointer) { *(*int)(p) = -1 }
		}
		st.Members = append(st.Members, m)
	}
	require.NoError(t, decode.Check(st, typ))

	v := reflect.New(typ)
	got := problems(t, decode.Into([]byte(`{"p66":1,"p2":2,"p66":3,"p69":4,"q":5}`), v.UnsafePointer(), st))
	require.Len(t, got, 3)
	assert.Equal(t, "/p66: property appears more than once", got[0])
	assert.True(t, strings.HasPrefix(got[1], "/q: unknown property; expected one of"), got[1])
	assert.Equal(t, "/p65: required property is missing", got[2])
	field := func(i int) int64 { return v.Elem().Field(i).Int() }
	assert.Equal(t, []int64{1, 2, 4, -1}, []int64{field(66), field(2), field(69), field(68)})
}

// Integers take their range from the Go type, keys of integer maps too.
func TestIntegersTakeTheirRangeFromTheType(t *testing.T) {
	type ranges struct {
		I8    int8
		U16   uint16
		I64   int64
		Small map[uint8]int
		Signs map[int8]int
	}
	st := &decode.Struct{
		Fields: decode.NewFields([]string{"i8", "u16", "i64", "small", "signs"}),
		Members: []decode.Member{
			{Offset: unsafe.Offsetof(ranges{}.I8), Value: &valueInt8},
			{Offset: unsafe.Offsetof(ranges{}.U16), Value: &valueUint16},
			{Offset: unsafe.Offsetof(ranges{}.I64), Value: &valueInt64},
			{Offset: unsafe.Offsetof(ranges{}.Small), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.UintMapOf[uint8, int]{}, Elem: &valueInt, Max: -1}},
			{Offset: unsafe.Offsetof(ranges{}.Signs), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.IntMapOf[int8, int]{}, Elem: &valueInt, Max: -1}},
		},
	}
	for _, c := range []struct{ doc, want string }{
		{`{"i8":128}`, "/i8: must be at most 127, got 128"},
		{`{"i8":-129}`, "/i8: must be at least -128, got -129"},
		{`{"u16":65536}`, "/u16: must be at most 65535, got 65536"},
		{`{"i64":1e19}`, fmt.Sprintf("/i64: must be at most %d, got 1e19", math.MaxInt64)},
		{`{"small":{"300":1}}`, "/small/300: property name must be an integer between 0 and 255"},
		{`{"signs":{"-129":1}}`, "/signs/-129: property name must be an integer between -128 and 127"},
	} {
		var v ranges
		assert.Equal(t, []string{c.want}, decodeTable(t, st, &v, c.doc), c.doc)
	}
}

// A map's values are read into one place reused for every property: a document of n
// properties allocates their names and the map, not n more values.
func TestMapAllocatesNoValuePerProperty(t *testing.T) {
	type counts struct{ M map[string]int }
	st := &decode.Struct{
		Fields:  decode.NewFields([]string{"m"}),
		Members: []decode.Member{{Offset: 0, Value: &decode.Value{Kind: decode.KindGo, Go: &decode.MapOf[string, int]{}, Elem: &valueInt, Max: -1}}},
	}
	require.NoError(t, decode.Check(st, reflect.TypeFor[counts]()))
	allocs := func(n int) float64 {
		var b strings.Builder
		b.WriteString(`{"m":{`)
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"key%d":%d`, i, i)
		}
		b.WriteString("}}")
		doc := []byte(b.String())
		return testing.AllocsPerRun(20, func() {
			var v counts
			require.NoError(t, decode.Into(doc, unsafe.Pointer(&v), st))
		})
	}
	small, large := allocs(100), allocs(200)
	// 100 more properties: 100 names, and a few more steps of the map's growth.
	assert.Less(t, large-small, 130.0, "allocations for 100 and 200 properties: %v, %v", small, large)
}
