package canonical

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// canonicalString is the canonical form of doc under the defaults of schema (nil: none).
func canonicalString(doc, schema []byte) (string, error) {
	out, err := JSON(doc, DefaultsOf(schema))
	return string(out), err
}

func TestJSON(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{` { "b" : 1 , "a" : [ 2 , { "d":null, "c":true } ] } `, `{"a":[2,{"c":true,"d":null}],"b":1}`},
		{`{"s":"\u0041\/\"\\\n\u0007é\u00e9"}`, `{"s":"A/\"\\\n\u0007éé"}`},
		{`{"pair":"\ud83d\ude00","lone":"\uD800x","lone2":"\udc00"}`, `{"lone":"\ud800x","lone2":"\udc00","pair":"😀"}`},
		{`[1.0, 1e2, 1E+2, 0.10, -0, -0.0e5, 0, 100e-2, 12.5e-1, 1e21, 1e22, 0.000001, 0.0000001, 1234567890123456789, 9223372036854775807.0]`,
			`[1,100,100,0.1,-0,-0,0,1,1.25,1e+21,1e+22,0.000001,1e-7,1234567890123456789,9223372036854775807]`},
		{`[1e9999999999, 1e-0000000000000001]`, `[1e9999999999,0.1]`},
		{`{"k":"a","k":"b"}`, `{"k":"a","k":"b"}`}, // a hand-written Bind may accept duplicates: both kept, in order
	} {
		got, err := canonicalString([]byte(c.doc), nil)
		require.NoError(t, err, c.doc)
		assert.Equal(t, c.want, got, c.doc)
	}
	for _, bad := range []string{`{`, `{"a" 1}`, `[01]`, `"\x"`, "\"a\x01\"", `1.`, `tru`, `{} {}`} {
		_, err := canonicalString([]byte(bad), nil)
		assert.Error(t, err, bad)
	}

	// The schema's defaults are added where a property is absent, in nested objects, items,
	// map values and $defs too.
	schema := `{"type":"object","$defs":{"P":{"type":"object","properties":{"x":{"type":"integer","default":1.0}}}},
		"properties":{"unit":{"type":"string","default":"celsius"},"p":{"$ref":"#/$defs/P"},
		"list":{"type":"array","items":{"$ref":"#/$defs/P"}},"m":{"type":"object","additionalProperties":{"$ref":"#/$defs/P"}},
		"opt":{"anyOf":[{"type":"null"},{"$ref":"#/$defs/P"}]}}}`
	got, err := canonicalString([]byte(`{"p":{},"list":[{},{"x":2}],"m":{"a":{}},"opt":{}}`), []byte(schema))
	require.NoError(t, err)
	assert.Equal(t, `{"list":[{"x":1},{"x":2}],"m":{"a":{"x":1}},"opt":{"x":1},"p":{"x":1},"unit":"celsius"}`, got)
	got, err = canonicalString([]byte(`{"unit":"kelvin"}`), []byte(schema))
	require.NoError(t, err)
	assert.Equal(t, `{"unit":"kelvin"}`, got)
}

// Deep nesting of unsorted objects costs bounded work: past it the form is refused, not built.
func TestJSONBoundsSortingWork(t *testing.T) {
	const depth = 5000
	doc := strings.Repeat(`{"b":1,"a":`, depth) + `0` + strings.Repeat(`}`, depth)
	_, err := canonicalString([]byte(doc), nil)
	assert.Error(t, err)
}
