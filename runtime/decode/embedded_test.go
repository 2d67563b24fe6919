package decode_test

import (
	"reflect"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/decode"
)

// viaPointers promotes Label through two embedded pointers, as a KindEmbedded chain reads it.
type (
	viaPointers struct {
		ID int `json:"id"`
		*outerPart
	}
	outerPart struct {
		Note string
		*innerPart
	}
	innerPart struct {
		Label string
	}
)

var (
	labelValue = decode.Value{Kind: decode.KindString, Str: &decode.StringRule{MinLength: 2}}
	innerValue = decode.Value{Kind: decode.KindEmbedded, Go: &decode.PointerOf[innerPart]{},
		Offset: unsafe.Offsetof(innerPart{}.Label), Elem: &labelValue}
	outerValue = decode.Value{Kind: decode.KindEmbedded, Go: &decode.PointerOf[outerPart]{},
		Offset: unsafe.Offsetof(outerPart{}.innerPart), Elem: &innerValue}
	viaPointersTable = decode.Struct{
		Fields: decode.NewFields([]string{"id", "label"}),
		Members: []decode.Member{
			{Offset: unsafe.Offsetof(viaPointers{}.ID), Value: &decode.Value{Kind: decode.KindInt, Size: 8}},
			{Offset: unsafe.Offsetof(viaPointers{}.outerPart), Value: &outerValue},
		},
	}
)

func TestEmbeddedAllocatesThePointersOnTheWay(t *testing.T) {
	var v viaPointers
	require.NoError(t, viaPointersTable.DecodeArgs([]byte(`{"id":1}`), &v))
	assert.Nil(t, v.outerPart, "no promoted field arrived")

	require.NoError(t, viaPointersTable.DecodeArgs([]byte(`{"label":"ab"}`), &v))
	require.NotNil(t, v.outerPart)
	require.NotNil(t, v.innerPart)
	assert.Equal(t, "ab", v.Label)

	var w viaPointers
	err := viaPointersTable.DecodeArgs([]byte(`{"label":"a"}`), &w)
	require.Error(t, err)
	assert.Equal(t, "invalid arguments: /label: must be at least 2 characters long, got 1", err.Error())
}

func TestCheckRefusesEmbeddedValuesThatDisagree(t *testing.T) {
	wrongOffset := outerValue
	wrongOffset.Offset = unsafe.Offsetof(outerPart{}.Note) // a string, not the *innerPart
	wrongType := outerValue
	wrongType.Go = &decode.PointerOf[innerPart]{}
	for name, v := range map[string]*decode.Value{"offset": &wrongOffset, "type": &wrongType} {
		st := decode.Struct{Fields: viaPointersTable.Fields, Members: []decode.Member{viaPointersTable.Members[0], {Offset: viaPointersTable.Members[1].Offset, Value: v}}}
		assert.Error(t, decode.Check(&st, reflect.TypeFor[viaPointers]()), name)
	}
	assert.NoError(t, decode.Check(&viaPointersTable, reflect.TypeFor[viaPointers]()))
}
