package decode_test

import (
	"reflect"
	"strconv"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/decode"
)

// The tables of table_test.go agree with their types; each test below breaks one of them in
// one way, and Check must refuse it, naming the field.

func TestCheckAcceptsTablesThatAgree(t *testing.T) {
	for _, c := range []struct {
		st *decode.Struct
		t  reflect.Type
	}{
		{&scalarsTable, reflect.TypeFor[scalars]()},
		{&rulesTable, reflect.TypeFor[rules]()},
		{&containersTable, reflect.TypeFor[containers]()},
		{&withDefaultsTable, reflect.TypeFor[withDefaults]()},
		{&treeTable, reflect.TypeFor[tree]()}, // recursive: terminates
		{&embeddingTable, reflect.TypeFor[embedding]()},
		{&pairTable, reflect.TypeFor[pair]()}, // mutually recursive
	} {
		assert.NoError(t, decode.Check(c.st, c.t), "%s", c.t)
	}
}

// copyTable returns a copy of st whose member i has the value v (and, when off is not nil,
// the offset *off), leaving st as it is.
func copyTable(st *decode.Struct, i int, v *decode.Value, off *uintptr) *decode.Struct {
	out := *st
	out.Members = append([]decode.Member(nil), st.Members...)
	out.Members[i].Value = v
	if off != nil {
		out.Members[i].Offset = *off
	}
	return &out
}

func TestCheckRefusesWhatDisagrees(t *testing.T) {
	offsetOf := func(off uintptr) *uintptr { return &off }
	i16 := unsafe.Offsetof(scalars{}.I16)
	for _, c := range []struct {
		name string
		st   *decode.Struct
		t    reflect.Type
		want string
	}{
		{"wrong offset", copyTable(&scalarsTable, 0, &valueString, offsetOf(i16)), reflect.TypeFor[scalars](),
			"decode_test.scalars.name: no field at offset " + itoa(i16) + " takes a value of kind string"},
		{"offset inside a field", copyTable(&scalarsTable, 0, &valueString, offsetOf(unsafe.Offsetof(scalars{}.Name)+1)), reflect.TypeFor[scalars](),
			"decode_test.scalars.name: no field at offset 1 takes a value of kind string"},
		{"offset past the struct", copyTable(&scalarsTable, 0, &valueString, offsetOf(unsafe.Sizeof(scalars{}))), reflect.TypeFor[scalars](),
			"decode_test.scalars.name: no field at offset " + itoa(unsafe.Sizeof(scalars{})) + " takes a value of kind string"},
		{"wrong kind", copyTable(&scalarsTable, 13, &valueString, nil), reflect.TypeFor[scalars](),
			"decode_test.scalars.on: no field at offset " + itoa(unsafe.Offsetof(scalars{}.On)) + " takes a value of kind string"},
		{"wrong int size", copyTable(&scalarsTable, 2, &valueInt32, nil), reflect.TypeFor[scalars](),
			"decode_test.scalars.i16: no field at offset " + itoa(i16) + " takes a value of kind int"},
		{"signed for unsigned", copyTable(&scalarsTable, 6, &valueInt8, nil), reflect.TypeFor[scalars](),
			"decode_test.scalars.u8: no field at offset " + itoa(unsafe.Offsetof(scalars{}.U8)) + " takes a value of kind int"},
		{"float32 for float64", copyTable(&scalarsTable, 12, &valueFloat32, nil), reflect.TypeFor[scalars](),
			"decode_test.scalars.f64: no field at offset " + itoa(unsafe.Offsetof(scalars{}.F64)) + " takes a value of kind float"},
		{"unknown kind", copyTable(&scalarsTable, 0, &decode.Value{Kind: 99}, nil), reflect.TypeFor[scalars](),
			"decode_test.scalars.name: no field at offset 0 takes a value of kind 99"},
		{"no value", copyTable(&scalarsTable, 0, nil, nil), reflect.TypeFor[scalars](),
			"decode_test.scalars.name: no value"},
		{"function member without a function", copyTable(&scalarsTable, 21, &decode.Value{Kind: decode.KindFunc}, nil), reflect.TypeFor[scalars](),
			"decode_test.scalars.half: a function member without its function"},
		{"struct value without a table", copyTable(&scalarsTable, 19, &decode.Value{Kind: decode.KindStruct}, nil), reflect.TypeFor[scalars](),
			"decode_test.scalars.inner: no field at offset " + itoa(unsafe.Offsetof(scalars{}.Inner)) + " takes a value of kind struct"},
		{"nested table that disagrees", copyTable(&scalarsTable, 19, &decode.Value{Kind: decode.KindStruct, Struct: copyTable(&innerTable, 1, &valueBool, nil)}, nil), reflect.TypeFor[scalars](),
			"decode_test.scalars.inner.y: no field at offset 8 takes a value of kind bool"},
		{"nullable of the wrong kind", copyTable(&scalarsTable, 20, &decode.Value{Kind: decode.KindNullable, Elem: &valueInt}, nil), reflect.TypeFor[scalars](),
			"decode_test.scalars.note: no field at offset " + itoa(unsafe.Offsetof(scalars{}.Note)) + " takes a value of kind nullable"},
		{"slice of the wrong element type", copyTable(&containersTable, 0, &decode.Value{Kind: decode.KindGo, Go: &decode.SliceOf[int]{}, Elem: &valueInt, Max: -1}, nil), reflect.TypeFor[containers](),
			"decode_test.containers.list: no field at offset 0 takes a value of kind Go container"},
		{"slice item value of the wrong kind", copyTable(&containersTable, 0, &decode.Value{Kind: decode.KindGo, Go: &decode.SliceOf[string]{}, Elem: &valueInt, Max: -1}, nil), reflect.TypeFor[containers](),
			"decode_test.containers.list[]: a value of kind int cannot read type string"},
		{"slice without an item value", copyTable(&containersTable, 0, &decode.Value{Kind: decode.KindGo, Go: &decode.SliceOf[string]{}, Max: -1}, nil), reflect.TypeFor[containers](),
			"decode_test.containers.list: a container value without an item value"},
		{"a GoType of nothing", copyTable(&containersTable, 0, &decode.Value{Kind: decode.KindGo, Elem: &valueString}, nil), reflect.TypeFor[containers](),
			"decode_test.containers.list: no field at offset 0 takes a value of kind Go container"},
		{"array of the wrong length", copyTable(&containersTable, 3, &decode.Value{Kind: decode.KindGo, Go: &decode.ArrayOf[int]{}, Elem: &valueInt, Min: 2}, nil), reflect.TypeFor[containers](),
			"decode_test.containers.triple: no field at offset " + itoa(unsafe.Offsetof(containers{}.Triple)) + " takes a value of kind Go container"},
		{"array of the wrong item type", copyTable(&containersTable, 3, &decode.Value{Kind: decode.KindGo, Go: &decode.ArrayOf[int64]{}, Elem: &valueInt64, Min: 3}, nil), reflect.TypeFor[containers](),
			"decode_test.containers.triple: no field at offset " + itoa(unsafe.Offsetof(containers{}.Triple)) + " takes a value of kind Go container"},
		{"pointer to the wrong type", copyTable(&containersTable, 4, &decode.Value{Kind: decode.KindGo, Go: &decode.PointerOf[int64]{}, Elem: &valueInt64}, nil), reflect.TypeFor[containers](),
			"decode_test.containers.ptr: no field at offset " + itoa(unsafe.Offsetof(containers{}.Ptr)) + " takes a value of kind Go container"},
		{"map of the wrong key type", copyTable(&containersTable, 9, &decode.Value{Kind: decode.KindGo, Go: &decode.IntMapOf[int16, string]{}, Elem: &valueString, Max: -1}, nil), reflect.TypeFor[containers](),
			"decode_test.containers.by_int: no field at offset " + itoa(unsafe.Offsetof(containers{}.ByInt)) + " takes a value of kind Go container"},
		{"map value of the wrong kind", copyTable(&containersTable, 9, &decode.Value{Kind: decode.KindGo, Go: &decode.IntMapOf[int8, string]{}, Elem: &valueBool, Max: -1}, nil), reflect.TypeFor[containers](),
			"decode_test.containers.by_int[]: a value of kind bool cannot read type string"},
		{"text type for a string", copyTable(&containersTable, 0, &decode.Value{Kind: decode.KindGo, Go: &decode.TextOf[upper, *upper]{}}, nil), reflect.TypeFor[containers](),
			"decode_test.containers.list: no field at offset 0 takes a value of kind Go container"},
		{"struct table for a non-struct", &innerTable, reflect.TypeFor[int](),
			"int: a struct table cannot read type int"},
		{"struct table for another struct", &innerTable, reflect.TypeFor[ordered](),
			"decode_test.ordered.x: no field at offset 0 takes a value of kind int"},
		{"members and names differ", &decode.Struct{Fields: innerTable.Fields, Members: innerTable.Members[:1]}, reflect.TypeFor[inner](),
			"decode_test.inner: the table has 1 members for its property names"},
		{"no names", &decode.Struct{Members: innerTable.Members}, reflect.TypeFor[inner](),
			"decode_test.inner: the table has 2 members for its property names"},
		{"default without a function", &decode.Struct{Fields: innerTable.Fields, Members: innerTable.Members, Defaults: []int{1}}, reflect.TypeFor[inner](),
			"decode_test.inner: default 1 has no member or no function"},
		{"default of no member", &decode.Struct{Fields: innerTable.Fields, Members: innerTable.Members, Defaults: []int{2}}, reflect.TypeFor[inner](),
			"decode_test.inner: default 2 has no member or no function"},
		{"recursive table that disagrees", recursiveMismatch(), reflect.TypeFor[tree](),
			"decode_test.tree.kids[].next[].name: no field at offset 0 takes a value of kind int"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := decode.Check(c.st, c.t)
			require.Error(t, err)
			assert.Equal(t, c.want, err.Error())
		})
	}
}

func itoa(n uintptr) string { return strconv.FormatUint(uint64(n), 10) }

// recursiveMismatch is treeTable with a table for its pointees whose name is an int: Check
// follows the recursion into the other table and finds it.
func recursiveMismatch() *decode.Struct {
	bad := copyTable(&treeTable, 0, &valueInt, nil)
	mixed := copyTable(&treeTable, 2, &decode.Value{Kind: decode.KindGo, Go: &decode.PointerOf[tree]{}, Elem: &decode.Value{Kind: decode.KindStruct, Struct: bad}}, nil)
	return copyTable(&treeTable, 1, &decode.Value{Kind: decode.KindGo, Go: &decode.SliceOf[tree]{}, Max: -1, Elem: &decode.Value{Kind: decode.KindStruct, Struct: mixed}}, nil)
}

// Fields of a struct embedded by value are promoted: generated code takes their offsets from
// the outer struct (unsafe.Offsetof(embedding{}.ID)), and Check finds them inside the
// embedded struct, where one may share its offset with the embedded struct itself.
type (
	base struct {
		ID    string
		Level int8
	}
	// withInner embeds a struct whose first field is a struct: "inner" has the offset of the
	// embedded withInner, and Check must tell which of the two the table describes.
	withInner struct {
		Inner inner
		Extra bool
	}
	embedding struct {
		base
		Name string
		withInner
	}
)

var embeddingTable = decode.Struct{
	Fields: decode.NewFields([]string{"id", "level", "name", "inner", "extra"}),
	Members: []decode.Member{
		{Offset: unsafe.Offsetof(embedding{}.ID), Value: &valueString},
		{Offset: unsafe.Offsetof(embedding{}.Level), Value: &valueInt8},
		{Offset: unsafe.Offsetof(embedding{}.Name), Value: &valueString},
		{Offset: unsafe.Offsetof(embedding{}.Inner), Value: &valueInner},
		{Offset: unsafe.Offsetof(embedding{}.Extra), Value: &valueBool},
	},
}

func TestTableEmbeddedStructByValue(t *testing.T) {
	var v embedding
	got := decodeTable(t, &embeddingTable, &v, `{"id":"i","level":-1,"name":"n","inner":{"x":3,"y":"y"},"extra":true}`)
	assert.Empty(t, got)
	assert.Equal(t, embedding{base: base{ID: "i", Level: -1}, Name: "n", withInner: withInner{Inner: inner{X: 3, Y: "y"}, Extra: true}}, v)
	// An offset that is a field of the embedded struct, read as another kind, is refused.
	bad := copyTable(&embeddingTable, 1, &valueString, nil)
	assert.EqualError(t, decode.Check(bad, reflect.TypeFor[embedding]()),
		"decode_test.embedding.level: no field at offset "+itoa(unsafe.Offsetof(embedding{}.Level))+" takes a value of kind string")
}

// pair and single refer to each other: Check stops at a pair of table and type it has met.
type (
	pair struct {
		Left  *single
		Right []single
	}
	single struct {
		Back *pair
	}
)

var (
	pairTable   decode.Struct
	singleTable decode.Struct
	pairValue   = decode.Value{Kind: decode.KindStruct, Struct: &pairTable}
	singleValue = decode.Value{Kind: decode.KindStruct, Struct: &singleTable}
)

func init() {
	pairTable = decode.Struct{
		Fields: decode.NewFields([]string{"left", "right"}),
		Members: []decode.Member{
			{Offset: unsafe.Offsetof(pair{}.Left), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.PointerOf[single]{}, Elem: &singleValue}},
			{Offset: unsafe.Offsetof(pair{}.Right), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.SliceOf[single]{}, Elem: &singleValue, Max: -1}},
		},
	}
	singleTable = decode.Struct{
		Fields:  decode.NewFields([]string{"back"}),
		Members: []decode.Member{{Offset: unsafe.Offsetof(single{}.Back), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.PointerOf[pair]{}, Elem: &pairValue}}},
	}
}

// Named container types convert to the shape their GoType names; a type of another element
// does not.
func TestCheckNamedContainerTypes(t *testing.T) {
	type (
		tags    map[string]int
		ints    []int
		intPtr  *int
		wrapped struct {
			Tags tags
			Ints ints
			Ptr  intPtr
		}
	)
	st := &decode.Struct{
		Fields: decode.NewFields([]string{"tags", "ints", "ptr"}),
		Members: []decode.Member{
			{Offset: unsafe.Offsetof(wrapped{}.Tags), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.MapOf[string, int]{}, Elem: &valueInt, Max: -1}},
			{Offset: unsafe.Offsetof(wrapped{}.Ints), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.SliceOf[int]{}, Elem: &valueInt, Max: -1}},
			{Offset: unsafe.Offsetof(wrapped{}.Ptr), Value: &decode.Value{Kind: decode.KindGo, Go: &decode.PointerOf[int]{}, Elem: &valueInt}},
		},
	}
	var v wrapped
	require.Empty(t, decodeTable(t, st, &v, `{"tags":{"a":1},"ints":[2],"ptr":3}`))
	assert.Equal(t, wrapped{Tags: tags{"a": 1}, Ints: ints{2}, Ptr: intPtr(ptr(3))}, v)

	type myInt int
	type otherInts []myInt
	type other struct{ Ints otherInts }
	st = &decode.Struct{
		Fields:  decode.NewFields([]string{"ints"}),
		Members: []decode.Member{{Offset: 0, Value: &decode.Value{Kind: decode.KindGo, Go: &decode.SliceOf[int]{}, Elem: &valueInt, Max: -1}}},
	}
	assert.EqualError(t, decode.Check(st, reflect.TypeFor[other]()), "decode_test.other.ints: no field at offset 0 takes a value of kind Go container")
}

// A field of an empty struct type takes no room: the field after it has its offset, and
// Check must find the struct field the table describes, not the empty one before it.
func TestCheckStructAfterAnEmptyStruct(t *testing.T) {
	type (
		empty      struct{}
		afterEmpty struct {
			Flags empty
			Inner inner
		}
	)
	emptyTable := decode.Struct{Fields: decode.NewFields(nil)}
	st := &decode.Struct{
		Fields: decode.NewFields([]string{"flags", "inner"}),
		Members: []decode.Member{
			{Offset: unsafe.Offsetof(afterEmpty{}.Flags), Value: &decode.Value{Kind: decode.KindStruct, Struct: &emptyTable}},
			{Offset: unsafe.Offsetof(afterEmpty{}.Inner), Value: &valueInner},
		},
	}
	require.Equal(t, unsafe.Offsetof(afterEmpty{}.Flags), unsafe.Offsetof(afterEmpty{}.Inner))
	var v afterEmpty
	assert.Empty(t, decodeTable(t, st, &v, `{"flags":{},"inner":{"x":1}}`))
	assert.Equal(t, inner{X: 1}, v.Inner)
	// Tried against both, a table that fits neither is refused, by the first's problem.
	bad := copyTable(st, 1, &decode.Value{Kind: decode.KindStruct, Struct: copyTable(&innerTable, 1, &valueBool, nil)}, nil)
	assert.EqualError(t, decode.Check(bad, reflect.TypeFor[afterEmpty]()), "decode_test.afterEmpty.inner.x: no field at offset 0 takes a value of kind int")
}
