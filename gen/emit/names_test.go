package emit

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgen-go/toolgen/gen/model"
)

// A hashed name another declaration holds already takes the whole hash; an exact name keeps
// itself for the same key.
func TestClaimTellsCollisionsApart(t *testing.T) {
	g := &generator{names: map[string]string{}}
	short := "toolgenString_" + contentHash("b")[:hashDigits]
	g.names[short] = "another key" // as if another rule's hash began the same way
	assert.Equal(t, "toolgenString_"+contentHash("b"), g.claim("toolgenString#", "b"))
	assert.Equal(t, "toolgenString_"+contentHash("a")[:hashDigits], g.claim("toolgenString#", "a"))
	assert.Equal(t, "toolgenValueString", g.claim("toolgenValueString", "k"))
	assert.Equal(t, "toolgenValueString", g.claim("toolgenValueString", "k"))
}

// Two types with one name (from two packages) are told apart by the set of them, never by the
// order the tools reach them: the package's own type keeps the name. A long name is capped.
func TestTypeIdentsDoNotDependOnOrder(t *testing.T) {
	local := &model.Type{Kind: model.KindStruct, Named: &model.GoName{Path: "example.com/m", Name: "Item"}}
	other := &model.Type{Kind: model.KindStruct, Named: &model.GoName{Path: "example.com/other", Name: "Item"}}
	long := &model.Type{Kind: model.KindStruct, Named: &model.GoName{Path: "example.com/m", Name: strings.Repeat("Long", 20)}}
	field := func(t *model.Type) *model.Field { return &model.Field{GoName: "F", JSONName: "f", Type: t} }
	idents := func(first, second *model.Type) (string, string, string) {
		args := &model.Type{Kind: model.KindStruct, Named: &model.GoName{Path: "example.com/m", Name: "Args"},
			Fields: []*model.Field{field(first), field(second), field(long)}}
		g := &generator{pkg: &model.Package{Path: "example.com/m", Tools: []*model.Tool{{Name: "t", Args: args}}},
			idents: map[*model.Type]string{}, identOwner: map[string]string{}, fieldsOwner: map[string]string{}}
		g.planIdents()
		return g.typeIdent(local), g.typeIdent(other), g.typeIdent(long)
	}
	l1, o1, long1 := idents(local, other)
	l2, o2, long2 := idents(other, local)
	assert.Equal(t, "Item", l1)
	assert.Equal(t, "Item_"+contentHash("example.com/other.Item")[:hashDigits], o1)
	assert.Equal(t, [3]string{l1, o1, long1}, [3]string{l2, o2, long2})
	assert.Len(t, long1, maxFragment)
	assert.True(t, strings.HasPrefix(long1, "LongLong"), long1)
}

// A content-named declaration says which fields use it, in order, the list bounded; other
// names say what they are themselves.
func TestUsedByComment(t *testing.T) {
	for _, c := range []struct {
		name   string
		fields []string
		want   string
	}{
		{"toolgenString_3f9a1c2e", []string{"B.Y"}, "toolgenString_3f9a1c2e is used by B.Y."},
		{"toolgenString_3f9a1c2e", []string{"B.Y", "A.X"}, "toolgenString_3f9a1c2e is used by A.X and B.Y."},
		{"toolgenInt_00ff00ff", []string{"H", "G", "F", "E", "D", "C", "B", "A"}, "toolgenInt_00ff00ff is used by A, B, C, D, E, F and 2 more."},
		{"toolgenString_3f9a1c2e", nil, ""},
		{"toolgenValueString", []string{"A.X"}, ""},
		{"toolgenEnumUnit", []string{"A.X"}, ""},
		{"toolgenValueEnum_Unit", []string{"A.X"}, ""},
	} {
		if got := usedByComment(c.name, c.fields); got != c.want {
			t.Errorf("usedByComment(%q, %q) = %q, want %q", c.name, c.fields, got, c.want)
		}
	}
}
