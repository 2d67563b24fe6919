package artifacts

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReplaceOnce(t *testing.T) {
	for _, c := range []struct {
		name, text, old, repl, want, how, err string
	}{
		{name: "exact", text: "a b c", old: "b", repl: "B", want: "a B c"},
		{name: "exact ambiguous", text: "x\ny\nx\n", old: "x", err: "old_text matches 2 places (lines 1, 3)"},
		{name: "absent", text: "abc", old: "zzz", err: "old_text was not found, even ignoring differences in whitespace"},
		{name: "indentation", text: "func f() {\n\treturn 1\n}\n", old: "func f() {\n    return 1\n}", repl: "func f() {\n\treturn 2\n}",
			want: "func f() {\n\treturn 2\n}\n", how: " (old_text matched ignoring whitespace)"},
		{name: "line breaks and runs of spaces", text: "The  quick\r\nbrown fox.", old: "quick brown", repl: "slow red",
			want: "The  slow red fox.", how: " (old_text matched ignoring whitespace)"},
		{name: "partial first and last words", text: "call foo(a,\n  b) now", old: "(a, b)", repl: "(b, a)",
			want: "call foo(b, a) now", how: " (old_text matched ignoring whitespace)"},
		{name: "surrounding whitespace of old is not eaten twice", text: "one\n  two three\nfour", old: "\ntwo  three\n", repl: "\n2 3\n",
			want: "one\n  2 3\nfour", how: " (old_text matched ignoring whitespace)"},
		{name: "loose ambiguous", text: "a  b\nc\na\tb\n", old: "a b", err: "old_text matches 2 places (lines 1, 3)"},
		{name: "middle words must match whole", text: "a bb c", old: "a b c", err: "not found"},
		{name: "single word with other whitespace", text: "alpha beta", old: "  beta\n", repl: "gamma", want: "alpha gamma", how: " (old_text matched ignoring whitespace)"},
		{name: "delete", text: "keep drop keep", old: " drop", repl: "", want: "keep keep"},
		{name: "multibyte and replacement characters", text: "é\uFFFD\xff  ü end", old: "é\uFFFD\xff ü", repl: "x",
			want: "x end", how: " (old_text matched ignoring whitespace)"},
		{name: "many places, ten listed", text: strings.Repeat("x\n", 12), old: "x", err: "old_text matches 12 places (lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, …)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, how, err := replaceOnce(c.text, c.old, c.repl)
			if c.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
			assert.Equal(t, c.how, how)
		})
	}
}

// A passage built to make a word-by-word search quadratic (every word matches the first word
// of old, old fails only at its last) is searched in linear time: at 1 MiB a quadratic search
// would not finish within the test's time limit.
func TestLooseMatchIsLinear(t *testing.T) {
	text := strings.Repeat("a  ", 350_000)
	old := strings.Repeat("a ", 50_000) + "b"
	_, _, err := replaceOnce(text, old, "")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not found")
}
