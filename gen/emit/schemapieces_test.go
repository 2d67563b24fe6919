package emit

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A property several schemas share is declared once and referred to, and joining the pieces
// gives each schema back exactly.
func TestSchemaPiecesShareProperties(t *testing.T) {
	address := `"address":{"description":"Where it goes, e.g. {\"city\": \"Berlin\"}.","type":"object","properties":{"city":{"type":"string","description":"City name, at least one letter."}}}`
	email := `"email":{"description":"Email of whoever asks, as they gave it.","type":"string","format":"email"}`
	schemas := [][]byte{
		[]byte(`{"type":"object","properties":{"id":{"description":"ID of the customer.","type":"string"},` + address + `,` + email + `}}`),
		[]byte(`{"type":"object","properties":{` + email + `,"id":{"description":"ID of the invoice.","type":"string"},` + address + `}}`),
		[]byte(`{"type":"object","properties":{"n":{"type":"integer"}}}`),
	}
	p := newSchemaPieces(schemas, nil)

	var names []string
	for _, c := range p.decls {
		names = append(names, c.name)
	}
	assert.Equal(t, []string{"toolgenPartAddress", "toolgenPartEmail"}, names, "the city inside the address is not a part of its own")
	assert.Equal(t, address, p.decls[0].text)
	for _, s := range schemas {
		var joined strings.Builder
		pieces := cut(s, func(m string) bool { return p.parts[m] != "" })
		for _, piece := range pieces {
			joined.WriteString(piece.text)
		}
		assert.Equal(t, string(s), joined.String())
	}
	assert.Len(t, cut(schemas[0], func(m string) bool { return p.parts[m] != "" }), 5, "text, address, comma, email, end")
}

// Members inside strings (descriptions may hold JSON) are not members.
func TestObjectMembersSkipsStrings(t *testing.T) {
	text := []byte(`{"a":{"description":"not \"b\":{} a member","x":[{"c":{}}]},"d":[1]}`)
	var got []string
	for _, s := range objectMembers(text) {
		got = append(got, string(text[s[0]:s[1]]))
	}
	require.Equal(t, []string{`"a":{"description":"not \"b\":{} a member","x":[{"c":{}}]}`, `"c":{}`}, got)
}

// Parts are named after their keys. Of two with one name, the one whose text sorts first keeps
// it and the other adds a hash of its text, whatever order they come in; so does a key
// without letters.
func TestPartNames(t *testing.T) {
	members := []string{`"ship_to":{"a":1}`, `"ship-to":{}`, `"€":{}`, `,"long_` + strings.Repeat("x", 80) + `":{}`}
	want := map[string]string{
		`"ship-to":{}`:      "toolgenPartShipTo",
		`"ship_to":{"a":1}`: "toolgenPartShipTo_" + contentHash(`"ship_to":{"a":1}`)[:hashDigits],
		`"€":{}`:            "toolgenPart_" + contentHash(`"€":{}`)[:hashDigits],
	}
	for _, order := range [][]string{members, {members[3], members[2], members[1], members[0]}} {
		got := partNames(order)
		for m, name := range want {
			assert.Equal(t, name, got[m], m)
		}
		long := got[members[3]]
		assert.LessOrEqual(t, len(long), len("toolgenPart")+maxFragment, long)
		assert.True(t, strings.HasPrefix(long, "toolgenPartLongXxx"), long)
	}
}

// A member after a comma in several schemas is declared with its comma, rather than leaving a
// piece of one comma before it.
func TestSchemaPiecesFoldCommas(t *testing.T) {
	email := `"email":{"description":"Email of whoever asks, as they gave it.","type":"string","format":"email"}`
	note := `"note":{"description":"A note for the record, shown to whoever handles it.","type":"string"}`
	schemas := [][]byte{
		[]byte(`{"properties":{` + note + `,` + email + `,"a":{}}}`),
		[]byte(`{"properties":{` + note + `,` + email + `,"b":{}}}`),
	}
	p := newSchemaPieces(schemas, nil)
	require.Len(t, p.decls, 2) // by name
	assert.Equal(t, ","+email, p.decls[0].text)
	assert.Equal(t, "toolgenPartEmail", p.decls[0].name)
	assert.Equal(t, note, p.decls[1].text)
	pieces := foldCommas(p.cutShared(schemas[0]), func(m string) bool { return p.parts[m] != "" })
	var texts []string
	for _, piece := range pieces {
		texts = append(texts, piece.text)
	}
	assert.Equal(t, []string{`{"properties":{`, note, "," + email, `,"a":{}}}`}, texts)
}

// A schema several tools share is one constant: its members are not counted as parts, so a
// property it shares with one other schema is not declared for a single use.
func TestSchemaPiecesWholeSchemaIsNotCut(t *testing.T) {
	email := `"email":{"description":"Email of whoever asks, as they gave it.","type":"string","format":"email"}`
	whole := []byte(`{"properties":{` + email + `}}`)
	other := []byte(`{"properties":{"n":{},` + email + `}}`)
	p := newSchemaPieces([][]byte{whole, whole, other}, []string{"BArgs", "AArgs", "CArgs"})
	require.Len(t, p.decls, 1)
	assert.Equal(t, "toolgenSchemaAArgs", p.decls[0].name, "named after the label of its uses that sorts first")
	assert.Empty(t, p.parts)
}

// The lines a schema is written in fold back to the schema's exact bytes, so the binary (and
// every schema a registry serves) is what one literal gave.
func TestSchemaLinesFoldToTheSameBytes(t *testing.T) {
	for _, text := range []string{
		`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"object","properties":{"c":{"description":"back` + "`" + `quote","type":"integer"}}}},"required":["a"]}`,
		`{"type":"string"}`,
		`,"x":{"type":"array","items":{"type":"number"}}`,
	} {
		src := fmt.Sprintf("%#v", jen.Null().Add(schemaLines([]byte(text))))
		expr, err := parser.ParseExpr(src)
		require.NoError(t, err, src)
		assert.Equal(t, text, foldStrings(t, expr), src)
	}
	lines := fmt.Sprintf("%#v", jen.Null().Add(schemaLines([]byte(`{"properties":{"a":{"type":"string"},"b":{"type":"string"}}}`))))
	assert.Equal(t, 4, strings.Count(lines, "\n"), "a line for the opening, \"properties\" and each property:\n%s", lines)
}

func foldStrings(t *testing.T, expr ast.Expr) string {
	switch e := expr.(type) {
	case *ast.BinaryExpr:
		require.Equal(t, token.ADD, e.Op)
		return foldStrings(t, e.X) + foldStrings(t, e.Y)
	case *ast.BasicLit:
		s, err := strconv.Unquote(e.Value)
		require.NoError(t, err)
		return s
	}
	t.Fatalf("unexpected %T in a schema's lines", expr)
	return ""
}
