package decode

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// unquoteCases are string literals with every escape, surrogate pairs and lone halves,
// invalid UTF-8, control characters and malformed escapes.
var unquoteCases = []string{
	`""`, `"plain"`, `"a\"b\\c\/d"`, `"\b\f\n\r\t"`, `"\u00e9\u4e16"`, `"\ud83d\ude00"`,
	`"\ud83d"`, `"\ude00x"`, `"\ud83dx"`, `"\ud83d\u0041"`, "\"caf\xc3\xa9\"", "\"bad\xff\xfebytes\"",
	"\"trunc\xe2\x82\"", "\"tab\there\"", `"\x"`, `"\u12"`, `"\u12g4"`, `"end\"`, "\"nul\x00\"",
	`"` + string(make([]byte, 40)) + `"`, `"long plain text that spans more than eight bytes"`,
	`"mixed é and \n escapes é"`,
}

// TestUnquoteMatchesEncodingJSON checks that strings decode exactly as encoding/json decodes
// them, and that what it refuses, this refuses.
func TestUnquoteMatchesEncodingJSON(t *testing.T) {
	for _, c := range unquoteCases {
		checkUnquote(t, []byte(c))
	}
}

func FuzzUnquote(f *testing.F) {
	for _, c := range unquoteCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		lit := append(append([]byte{'"'}, body...), '"')
		checkUnquote(t, lit)
	})
}

func checkUnquote(t *testing.T, lit []byte) {
	t.Helper()
	var want string
	wantErr := json.Unmarshal(lit, &want)
	if wantErr != nil {
		// When the body ends the literal early (an unescaped quote inside), encoding/json
		// refuses the document for the bytes after it, which unquote never sees; any other
		// literal encoding/json refuses, unquote must refuse too (bad escapes, control
		// characters).
		if got, err := unquote(lit); err == nil && !endsEarly(lit) {
			t.Errorf("unquote(%q) = %q, but encoding/json refuses it: %v", lit, got, wantErr)
		}
		return
	}
	got, err := unquote(lit)
	if err != nil || got != want {
		t.Errorf("unquote(%q) = %q, %v; encoding/json gives %q", lit, got, err, want)
	}
	// maxLength is decided on the literal, before the string is built.
	if n, want := literalRunes(lit[1:len(lit)-1]), utf8.RuneCountInString(want); n != want {
		t.Errorf("literalRunes(%q) = %d; the string has %d code points", lit, n, want)
	}
}

// endsEarly reports whether the body of the literal lit holds an unescaped quote.
func endsEarly(lit []byte) bool {
	body := lit[1 : len(lit)-1]
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '\\':
			i++
		case '"':
			return true
		}
	}
	return false
}
