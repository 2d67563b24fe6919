package encode

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// marshalLikeJSON is what encoding/json writes for v with HTML escaping off: the reference
// the Writer's strings and numbers are held to.
func marshalLikeJSON(t testing.TB, v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(v))
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

// quoteLikeJSON is marshalLikeJSON of the string s, with invalid UTF-8 written as Go 1.26's
// encoding/json writes it and the Writer does on every Go: each invalid byte as the escape
// \ufffd. encoding/json on the json/v2 engine (Go 1.27) writes the replacement character
// itself instead, which reads the same; valid text is escaped alike by both, so it is held to
// encoding/json of whatever Go runs the test, piece by piece between the invalid bytes.
func quoteLikeJSON(t testing.TB, s string) string {
	if utf8.ValidString(s) {
		return marshalLikeJSON(t, s)
	}
	var b strings.Builder
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError || size != 1 {
			i += size
			continue
		}
		if start < i {
			b.WriteString(unquoted(marshalLikeJSON(t, s[start:i])))
		}
		b.WriteString(`\ufffd`)
		i++
		start = i
	}
	if start < len(s) {
		b.WriteString(unquoted(marshalLikeJSON(t, s[start:])))
	}
	b.WriteByte('"')
	return b.String()
}

// unquoted is a JSON string without its quotes, its escapes kept.
func unquoted(q string) string { return q[1 : len(q)-1] }

// stringCases are strings whose escaping differs between JSON writers: control characters,
// quotes and backslashes, invalid UTF-8, the JavaScript line ends, HTML's specials and
// characters outside the BMP.
var stringCases = []string{
	"", "Tokyo", `say "hi"`, `C:\dir`, "a\nb\rc\td\be\ff", "\x00\x01\x1f\x7f",
	"bad \xff utf-8 \xc3", "\xe2\x80\xa8 and \xe2\x80\xa9", "<b>&amp;</b>", "日本語 🌧",
	"\xed\xa0\x80", // a surrogate half encoded in UTF-8: invalid
	"\xff\"",       // an invalid byte, then an escape at the end
}

func TestStringsEscapeAsEncodingJSON(t *testing.T) {
	for _, s := range stringCases {
		w := &Writer{}
		w.String(s)
		got, err := w.Bytes()
		require.NoError(t, err)
		assert.Equal(t, quoteLikeJSON(t, s), string(got), "%q", s)
		assert.True(t, json.Valid(got), "%q", s)
	}
}

func TestNumbersFormatAsEncodingJSON(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 1, 1 << 24, 1<<24 + 1, 1<<24 - 1, -(1<<53 - 1), 1 << 53, 1<<53 + 2, 1e15, 1200, -1.5, 17, 0.1, 1e-6, 9.99e-7, 1e20, 1e21, 123456789.125, math.MaxFloat64, math.SmallestNonzeroFloat64, -2.5e-9} {
		w := &Writer{}
		w.Float(f, 64)
		got, err := w.Bytes()
		require.NoError(t, err)
		assert.Equal(t, marshalLikeJSON(t, f), string(got), "%v", f)

		if math.IsInf(float64(float32(f)), 0) {
			continue
		}
		w = &Writer{}
		w.Float(float64(float32(f)), 32)
		got, err = w.Bytes()
		require.NoError(t, err)
		assert.Equal(t, marshalLikeJSON(t, float32(f)), string(got), "float32 %v", f)
	}
	for _, n := range []int64{0, -1, math.MaxInt64, math.MinInt64} {
		w := &Writer{}
		w.Int(n)
		got, _ := w.Bytes()
		assert.Equal(t, marshalLikeJSON(t, n), string(got))
	}
	w := &Writer{}
	w.Uint(math.MaxUint64)
	got, _ := w.Bytes()
	assert.Equal(t, "18446744073709551615", string(got))
}

// The writer places commas from the byte before: nested objects and arrays, empty ones, and
// values of every kind in arrays come out as encoding/json writes the same document.
func TestCommasInNestedDocuments(t *testing.T) {
	w := &Writer{}
	w.ObjStart()
	w.Field("empty")
	w.ObjStart()
	w.ObjEnd()
	w.Field("list")
	w.ArrStart()
	w.Int(1)
	w.String("two")
	w.Bool(true)
	w.Null()
	w.ArrStart()
	w.ArrEnd()
	w.ObjStart()
	w.Field("a")
	w.Raw(json.RawMessage(`[1, {"b":2}]`))
	w.ObjEnd()
	w.Bytes64([]byte{0xff})
	w.Float(2.5, 64)
	w.ArrEnd()
	w.Field("k:{[")
	w.String("v")
	w.ObjEnd()
	got, err := w.Bytes()
	require.NoError(t, err)
	want := map[string]any{
		"empty": map[string]any{},
		"list":  []any{1, "two", true, nil, []any{}, map[string]any{"a": json.RawMessage(`[1, {"b":2}]`)}, []byte{0xff}, 2.5},
		"k:{[":  "v",
	}
	var gotValue, wantValue any
	require.NoError(t, json.Unmarshal(got, &gotValue), "%s", got)
	require.NoError(t, json.Unmarshal([]byte(marshalLikeJSON(t, want)), &wantValue))
	assert.Equal(t, wantValue, gotValue)
}

// FuzzString holds the writer's strings to encoding/json's for any bytes, field names
// included.
func FuzzString(f *testing.F) {
	for _, s := range stringCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w := &Writer{}
		w.ObjStart()
		w.Field(s)
		w.String(s)
		w.ObjEnd()
		got, err := w.Bytes()
		require.NoError(t, err)
		if utf8.ValidString(s) {
			require.Equal(t, marshalLikeJSON(t, map[string]string{s: s}), string(got))
			return
		}
		q := quoteLikeJSON(t, s)
		require.Equal(t, "{"+q+":"+q+"}", string(got))
		var gotValue, wantValue map[string]string // and encoding/json reads both as the same
		require.NoError(t, json.Unmarshal(got, &gotValue))
		require.NoError(t, json.Unmarshal([]byte(marshalLikeJSON(t, map[string]string{s: s})), &wantValue))
		require.Equal(t, wantValue, gotValue)
	})
}

// plainPrefix stops at the first byte to escape wherever it falls: in a full word, in the
// word that ends the string, or in a string shorter than a word.
func TestPlainPrefixFindsTheFirstByteToEscape(t *testing.T) {
	for n := range 25 {
		plain := strings.Repeat("a", n)
		require.Equal(t, n, plainPrefix(plain))
		for pos := range n {
			for _, c := range []byte{'"', '\\', '\n', 0x7f - 0x60, 0xc3} {
				b := []byte(plain)
				b[pos] = c
				require.Equal(t, pos, plainPrefix(string(b)), "%q", b)
			}
		}
	}
}

// FuzzFloat holds the writer's numbers to encoding/json's, as float64 and as float32.
func FuzzFloat(f *testing.F) {
	for _, v := range []float64{0, 17, -2.5e-9, 1 << 53, 123456789, 1e21} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v float64) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return
		}
		w := &Writer{}
		w.Float(v, 64)
		got, err := w.Bytes()
		require.NoError(t, err)
		require.Equal(t, marshalLikeJSON(t, v), string(got))
		if v32 := float32(v); !math.IsInf(float64(v32), 0) {
			w = &Writer{}
			w.Float(float64(v32), 32)
			got, err = w.Bytes()
			require.NoError(t, err)
			require.Equal(t, marshalLikeJSON(t, v32), string(got))
		}
	})
}

// A value typed any is written with the policy of String: HTML's characters as they are,
// U+2028 escaped, a comma before it in a list, and nothing of it left when it fails.
func TestAnyEscapesAsStrings(t *testing.T) {
	v := map[string]any{"html": "<b>&amp;</b>", "line": "a\u2028b", "list": []any{"<", 1.5}}
	w := &Writer{}
	w.ArrStart()
	w.Any(v)
	w.Any(v)
	w.ArrEnd()
	got, err := w.Bytes()
	require.NoError(t, err)
	assert.Equal(t, marshalLikeJSON(t, []any{v, v}), string(got))
	assert.Contains(t, string(got), "<b>&amp;</b>")

	w = &Writer{}
	w.ArrStart()
	w.Int(1)
	w.Any(make(chan int))
	w.ArrEnd()
	_, err = w.Bytes()
	require.Error(t, err)
	assert.Equal(t, "[1,null]", string(w.buf), "the failed value is null, after one comma")
}
