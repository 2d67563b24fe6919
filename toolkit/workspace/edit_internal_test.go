package workspace

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/runtime"
)

// TestReplaceAllBounded: replace_all with a long new_string over many short occurrences is
// refused before the result is built, not grown to len(content) times len(new_string).
func TestReplaceAllBounded(t *testing.T) {
	content := strings.Repeat("a", 1<<10)
	edited, _, err := replace(t.Context(), "f.txt", content, "a", strings.Repeat("b", 20<<10), true)
	var me *runtime.ModelError
	require.True(t, errors.As(err, &me), "%v", err)
	assert.Equal(t, runtime.KindLimit, me.Kind)
	assert.Contains(t, me.Message, "1024 occurrences")
	assert.Empty(t, edited)

	edited, _, err = replace(t.Context(), "f.txt", content, "a", "bb", true)
	require.NoError(t, err)
	assert.Len(t, edited, 2<<10)
}

// TestChangedLinesMatchesTheWholeTextWay: the cursor that numbers and cuts lines as it goes
// shows what numbering each replacement from the start of the text and splitting the whole
// text shows (the way it was done before, kept here as the reference).
func TestChangedLinesMatchesTheWholeTextWay(t *testing.T) {
	for _, c := range []struct{ content, old, new string }{
		{"a\nb\nc\n", "b", "B"},
		{"a\nb\nc", "c", "C\nD"},
		{"abc", "abc", ""},
		{"x\n", "x\n", ""},
		{"", "", ""},
		{strings.Repeat("one two\n", 200), "two", "2"},
		{strings.Repeat("x", 100) + "\n" + strings.Repeat("y\n", 100) + "x\n", "x", "z"},
		{strings.Repeat("a\n\n\n\n\n\n\n", 30), "a", "b\nc"},
		{"k\r\nk\r\n", "k", "m"},
	} {
		if c.old == "" {
			continue
		}
		edited := strings.ReplaceAll(c.content, c.old, c.new)
		var spans [][2]int
		for i, at := range slices.Collect(occurrences(c.content, c.old)) {
			from := at + i*(len(c.new)-len(c.old))
			spans = append(spans, [2]int{from, from + len(c.new)})
		}
		want := wholeTextChangedLines("f", edited, spans, len(spans))
		got := changedLines(t.Context(), "f", edited, slices.Values(spans), len(spans))
		assert.Equal(t, want, got, "%q → %q in %q", c.old, c.new, c.content)
	}
}

// wholeTextChangedLines is changedLines as it was: every line split out, every replacement
// numbered from the start (quadratic in the replacements).
func wholeTextChangedLines(name, s string, spans [][2]int, n int) string {
	lineAt := func(at int) int { return strings.Count(s[:at], "\n") + 1 }
	lines := strings.SplitAfter(s, "\n")
	if len(lines) > 1 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var ranges [][2]int
	for _, sp := range spans {
		from := max(lineAt(sp[0])-2, 1)
		to := min(lineAt(max(sp[1]-1, sp[0]))+2, len(lines))
		if k := len(ranges) - 1; k >= 0 && from <= ranges[k][1]+1 {
			ranges[k][1] = max(ranges[k][1], to)
			continue
		}
		ranges = append(ranges, [2]int{from, to})
	}
	var b strings.Builder
	b.WriteString(editHeader(name, n))
	shown := 0
	for i, r := range ranges {
		if i > 0 {
			b.WriteString("   ...\n")
		}
		for l := r[0]; l <= r[1]; l++ {
			if shown == 60 {
				b.WriteString("   ... (more changes; read_file shows them)\n")
				return b.String()
			}
			fmt.Fprintf(&b, "%6d\t%s\n", l, shorten(strings.TrimRight(lines[l-1], "\r\n"), maxLineBytes))
			shown++
		}
	}
	return b.String()
}
