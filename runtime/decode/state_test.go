package decode_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/decode"
)

// The decoders below are written as toolgen writes them, to test the helpers without the
// generator.

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
	lineFields  = decode.NewFields([]string{"sku", "qty", "tags"}, 0, 1)
	orderFields = decode.NewFields([]string{"id", "lines", "next", "big"}, 0)
	skuRule     = decode.StringRule{MinLength: 3, HasMaxLength: true, MaxLength: 8}
	bigRule     = decode.IntRule{MultipleOf: 7, MultipleOfText: "7", Max: 100, MaxText: "100"}
)

func decodeLine(s *decode.State, v *line) error {
	var o decode.ObjectReader
	for o.Open(s, lineFields); o.Next(); {
		switch string(o.Key()) {
		case "sku":
			if o.Fresh(0) || o.Take(0) {
				o.Err = decode.Str(s, &v.SKU, &skuRule)
			}
		case "qty":
			if o.Fresh(1) || o.Take(1) {
				o.Err = decode.Int(s, &v.Qty, nil)
			}
		case "tags":
			if o.Fresh(2) || o.Take(2) {
				o.Err = decode.Map(s, &v.Tags, 0, 2, decode.KeyString[string], func(s *decode.State, v *uint16) error { return decode.Uint(s, v, nil) })
			}
		default:
			o.Unknown()
		}
	}
	return o.Close()
}

func decodeOrder(s *decode.State, v *order) error {
	var o decode.ObjectReader
	for o.Open(s, orderFields); o.Next(); {
		switch string(o.Key()) {
		case "id":
			if o.Fresh(0) || o.Take(0) {
				o.Err = decode.Str(s, &v.ID, nil)
			}
		case "lines":
			if o.Fresh(1) || o.Take(1) {
				o.Err = decode.Slice(s, &v.Lines, 1, 3, decodeLine)
			}
		case "next":
			if o.Fresh(2) || o.Take(2) {
				o.Err = decode.Pointer(s, &v.Next, decodeOrder)
			}
		case "big":
			if o.Fresh(3) || o.Take(3) {
				o.Err = decode.Uint(s, &v.Big, &bigRule)
			}
		default:
			o.Unknown()
		}
	}
	return o.Close()
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
	err := decode.Args([]byte(`{"id":"a","lines":[{"sku":"AB","qty":300,"tags":{"x":1,"y":-1,"x":2}},{"sku":"ABCDEF","qty":1,"extra":1,"sku":"X"}],
		"next":{"lines":[{"qty":1,"tags":{"a":1,"b":2,"c":3}}],"next":null},"big":18446744073709551615}`), &v, decodeOrder)
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
	}, problems(t, err))
	assert.Equal(t, "ABCDEF", v.Lines[1].SKU, "the first of two repeated properties is kept")
	assert.Nil(t, v.Next.Next)
}

func TestStateAcceptsAndStores(t *testing.T) {
	var v order
	require.NoError(t, decode.Args([]byte(`{"id":"a","lines":[{"sku":"ABC","qty":-128,"tags":{"k":65535}}],"big":98}`), &v, decodeOrder))
	assert.Equal(t, order{ID: "a", Lines: []line{{SKU: "ABC", Qty: -128, Tags: map[string]uint16{"k": 65535}}}, Big: 98}, v)
}

func TestStateMalformedJSONStopsWithOneProblem(t *testing.T) {
	var v order
	err := decode.Args([]byte(`{"id":"a","lines":[{"sku":"AB",`), &v, decodeOrder)
	assert.Equal(t, []string{": the arguments are not valid JSON: unexpected end of input"}, problems(t, err))
	// The pooled State starts clean again: no problem or path of the failed call leaks.
	err = decode.Args([]byte(`{"lines":[]}`), &v, decodeOrder)
	assert.Equal(t, []string{"/lines: must have at least 1 item, got 0", "/id: required property is missing"}, problems(t, err))
}

// A recursive document deeper than the State's first stack still reports the whole path.
func TestStatePathDeeperThanItsStack(t *testing.T) {
	const depth = 40
	doc := strings.Repeat(`{"id":"x","next":`, depth) + `{"id":1}` + strings.Repeat("}", depth)
	var v order
	err := decode.Args([]byte(doc), &v, decodeOrder)
	want := strings.Repeat("/next", depth) + "/id: must be a string, got 1"
	assert.Equal(t, []string{want}, problems(t, err))
}

// Structs of more than 64 properties keep their seen bits past the first word: Fresh leaves
// the properties from 64 on to Take.
func TestObjectOfManyProperties(t *testing.T) {
	names := make([]string, 70)
	for i := range names {
		names[i] = fmt.Sprintf("p%d", i)
	}
	fields := decode.NewFields(names, 65, 69)
	values := make([]int, 70)
	dec := func(s *decode.State, v *[]int) error {
		var o decode.ObjectReader
		for o.Open(s, fields); o.Next(); {
			var i int
			if _, err := fmt.Sscanf(string(o.Key()), "p%d", &i); err != nil || i >= len(names) {
				o.Unknown()
			} else if o.Fresh(i) || o.Take(i) {
				o.Err = decode.Int(s, &(*v)[i], nil)
			}
		}
		if o.Absent(68) {
			(*v)[68] = -1
		}
		return o.Close()
	}
	err := decode.Args([]byte(`{"p66":1,"p2":2,"p66":3,"p69":4,"q":5}`), &values, dec)
	got := problems(t, err)
	require.Len(t, got, 3)
	assert.Equal(t, "/p66: property appears more than once", got[0])
	assert.True(t, strings.HasPrefix(got[1], "/q: unknown property; expected one of"), got[1])
	assert.Equal(t, "/p65: required property is missing", got[2])
	assert.Equal(t, []int{1, 2, 4, -1}, []int{values[66], values[2], values[69], values[68]})
}

func TestIntegerHelpersTakeTheirRangeFromTheType(t *testing.T) {
	for _, c := range []struct {
		doc  string
		dec  func(*decode.State, *struct{}) error
		want string
	}{
		{`128`, func(s *decode.State, _ *struct{}) error { var v int8; return decode.Int(s, &v, nil) }, ": must be at most 127, got 128"},
		{`-129`, func(s *decode.State, _ *struct{}) error { var v int8; return decode.Int(s, &v, nil) }, ": must be at least -128, got -129"},
		{`65536`, func(s *decode.State, _ *struct{}) error { var v uint16; return decode.Uint(s, &v, nil) }, ": must be at most 65535, got 65536"},
		{`1e19`, func(s *decode.State, _ *struct{}) error { var v int64; return decode.Int(s, &v, nil) }, fmt.Sprintf(": must be at most %d, got 1e19", math.MaxInt64)},
		{`{"300":1}`, func(s *decode.State, _ *struct{}) error {
			var v map[uint8]int
			return decode.Map(s, &v, 0, -1, decode.KeyUint[uint8], func(s *decode.State, v *int) error { return decode.Int(s, v, nil) })
		}, "/300: property name must be an integer between 0 and 255"},
		{`{"-129":1}`, func(s *decode.State, _ *struct{}) error {
			var v map[int8]int
			return decode.Map(s, &v, 0, -1, decode.KeyInt[int8], func(s *decode.State, v *int) error { return decode.Int(s, v, nil) })
		}, "/-129: property name must be an integer between -128 and 127"},
	} {
		err := decode.Args([]byte(c.doc), &struct{}{}, c.dec)
		assert.Equal(t, []string{c.want}, problems(t, err), c.doc)
	}
}

// Within lets inline code that holds a Path call a struct decoder, whose problems keep the
// whole path.
func TestWithinKeepsTheInlinePath(t *testing.T) {
	var v []line
	err := decode.Args([]byte(`[{"line":{"sku":"ABC","qty":1}},{"line":{"sku":"ABC"}}]`), &v, func(s *decode.State, v *[]line) error {
		// Inline code reads the items' objects itself and hands each "line" to the struct decoder.
		d, _, p := s.Parts()
		it, err := d.ArrIter()
		if err != nil {
			return err
		}
		for i := 0; it.Next(); i++ {
			q := p.Index(i)
			obj, err := d.ObjIter()
			if err != nil {
				return err
			}
			for obj.Next() {
				r := q.Key(string(obj.Key()))
				*v = append(*v, line{})
				if err := decode.Within(s, &r, &(*v)[len(*v)-1], decodeLine); err != nil {
					return err
				}
			}
		}
		return it.Err()
	})
	assert.Equal(t, []string{"/1/line/qty: required property is missing"}, problems(t, err))
}

// A map's values are decoded through a function value, into one place reused for every
// property: a document of n properties allocates their names and the map, not n more values.
func TestMapAllocatesNoValuePerProperty(t *testing.T) {
	dec := func(s *decode.State, v *map[string]int) error {
		return decode.Map(s, v, 0, -1, decode.KeyString[string], func(s *decode.State, v *int) error { return decode.Int(s, v, nil) })
	}
	allocs := func(n int) float64 {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"key%d":%d`, i, i)
		}
		b.WriteString("}")
		doc := []byte(b.String())
		return testing.AllocsPerRun(20, func() {
			var m map[string]int
			require.NoError(t, decode.Args(doc, &m, dec))
		})
	}
	small, large := allocs(100), allocs(200)
	// 100 more properties: 100 names, and a few more steps of the map's growth.
	assert.Less(t, large-small, 130.0, "allocations for 100 and 200 properties: %v, %v", small, large)
}
