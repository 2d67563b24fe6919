package decode_test

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/decode"
)

// Malformed JSON is one problem that says what is wrong, where (offset, line and column, the
// text just before) and what was expected there, in words rather than the reader's ("skip:
// unexpected byte 111 'o' at 1").
func TestInvalidJSONSaysWhatAndWhere(t *testing.T) {
	for doc, want := range map[string]string{
		`nope`: "unexpected 'o' at offset 1 (line 1, column 2), after `n`, in a literal, which must be true, false or null " +
			"(strings need double quotes); send the arguments as one JSON object",
		`{"name":"a",}`: "unexpected '}' at offset 12 (line 1, column 13), after `{\"name\":\"a\",`, where a property name in double " +
			"quotes should be (no comma before }); send the arguments as one JSON object",
		"{\n  \"name\": Paris\n}": "unexpected 'P' at offset 12 (line 2, column 11), after `{\\n  \"name\": `, where a value should be " +
			"(an object, an array, a string in double quotes, a number, true, false or null); send the arguments as one JSON object",
		`{"name" "a"}`: "unexpected '\"' at offset 8 (line 1, column 9), after `{\"name\" `, where : should follow the property name; " +
			"send the arguments as one JSON object",
		`{"kids":[{"name":"b"} {"name":"c"}]}`: "unexpected '{' at offset 22 (line 1, column 23), after `{\"kids\":[{\"name\":\"b\"} `, " +
			"where , or ] should follow an item; send the arguments as one JSON object",
		`{"name":"a\q"}`: "unexpected 'q' at offset 11 (line 1, column 12), after `{\"name\":\"a\\`, in an escape, which must be " +
			`\" \\ \/ \b \f \n \r \t or \u and four hex digits; send the arguments as one JSON object`,
		"\uFEFF{}": "unexpected '\\ufeff' (a byte order mark) at offset 0 (line 1, column 1), where the JSON object should start " +
			"with {; send the arguments as one JSON object",
		`{"name":"` + strings.Repeat("x", 40) + `" "kids":[]}`: "unexpected '\"' at offset 51 (line 1, column 52), after `…" + strings.Repeat("x", 22) +
			"\" `, where , or } should follow a property's value; send the arguments as one JSON object",
		``: "there is no text; send the arguments as one JSON object",
	} {
		var v tree
		got := problems(t, decode.Into([]byte(doc), unsafe.Pointer(&v), &treeTable))
		require.Len(t, got, 1, doc)
		assert.Equal(t, ": the arguments are not valid JSON: "+want, got[0], doc)
	}
	// A tool without arguments words it alike.
	assert.EqualError(t, decode.NoArgs([]byte(`{"a":1`)), "invalid arguments: the arguments are not valid JSON: the text ends too early, "+
		"at offset 6 (line 1, column 7), after `{\"a\":1`, where , or } should follow a property's value; send the complete JSON object")
}

// Whatever the text, the message stays short: the text it shows is cut.
func TestInvalidJSONMessageIsBounded(t *testing.T) {
	doc := `{"name":"` + strings.Repeat("é", 1<<16) + `",x}`
	var v tree
	got := problems(t, decode.Into([]byte(doc), unsafe.Pointer(&v), &treeTable))
	require.Len(t, got, 1)
	assert.Less(t, len(got[0]), 400, got[0])
	// Columns count characters, offsets bytes; the text shown starts at a character.
	assert.Contains(t, got[0], "unexpected 'x' at offset 131083 (line 1, column 65548), after `…"+strings.Repeat("é", 11)+"\",`")
}
