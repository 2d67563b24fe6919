package workspace

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/internal/plural"
	"github.com/toolgen-go/toolgen/runtime"
)

var errIsDirectory = errors.New("is a directory")

// replace replaces old by new in content (once, or everywhere with all) and returns the new
// content and the changed lines, numbered, for the model.
func replace(name, content, old, new string, all bool) (string, string, error) {
	if old == new {
		return "", "", modelError(runtime.KindInvalidInput, nil, "old_string and new_string are the same: nothing to change")
	}
	starts := occurrences(content, old)
	switch {
	case len(starts) == 0:
		return "", "", notFound(name, content, old)
	case len(starts) > 1 && !all:
		lines := make([]string, 0, min(len(starts), 20))
		for _, at := range starts[:cap(lines)] {
			lines = append(lines, fmt.Sprint(lineAt(content, at)))
		}
		more := ""
		if len(starts) > len(lines) {
			more = ", …"
		}
		return "", "", modelError(runtime.KindInvalidInput, nil,
			"old_string occurs %d times in %s (lines %s%s); include more of the surrounding lines to make it unique, or set replace_all to change every one",
			len(starts), name, strings.Join(lines, ", "), more)
	}
	// replace_all multiplies new_string by the occurrences: bound the result before building it.
	if size := int64(len(content)) + int64(len(starts))*int64(len(new)-len(old)); size > maxEditBytes {
		return "", "", modelError(runtime.KindLimit, nil,
			"replacing the %s would make %s %d bytes, over the %d this tool handles", plural.Of(len(starts), "occurrence"), name, size, int64(maxEditBytes))
	}
	var b strings.Builder
	var spans [][2]int // the replacements' byte ranges in the new content
	prev := 0
	for _, at := range starts {
		b.WriteString(content[prev:at])
		spans = append(spans, [2]int{b.Len(), b.Len() + len(new)})
		b.WriteString(new)
		prev = at + len(old)
	}
	b.WriteString(content[prev:])
	edited := b.String()
	return edited, changedLines(name, edited, spans, len(starts)), nil
}

// occurrences returns the byte offsets of the non-overlapping occurrences of old in s.
func occurrences(s, old string) []int {
	var at []int
	for i := 0; ; {
		j := strings.Index(s[i:], old)
		if j < 0 {
			return at
		}
		at = append(at, i+j)
		i += j + len(old)
	}
}

// lineAt returns the 1-based line number of the byte offset at.
func lineAt(s string, at int) int { return strings.Count(s[:at], "\n") + 1 }

// changedLines shows the lines of the replacements with two lines around each, numbered as
// read_file numbers them, at most 60 lines in all.
func changedLines(name, s string, spans [][2]int, n int) string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) > 1 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1] // after the last newline there is no line
	}
	var ranges [][2]int // 1-based, inclusive, merged
	for _, sp := range spans {
		from := max(lineAt(s, sp[0])-2, 1)
		to := min(lineAt(s, max(sp[1]-1, sp[0]))+2, len(lines))
		if k := len(ranges) - 1; k >= 0 && from <= ranges[k][1]+1 {
			ranges[k][1] = max(ranges[k][1], to)
			continue
		}
		ranges = append(ranges, [2]int{from, to})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "edited %s: %d replacement", name, n)
	if n != 1 {
		b.WriteString("s")
	}
	b.WriteString(". The changed lines:\n")
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

var lineNumberPrefix = regexp.MustCompile(`(?m)^\s*\d+\t`)

// notFound is the error for an old_string the file does not hold: it names the lines most
// like the old_string's first lines, so the model can copy them exactly.
func notFound(name, content, old string) error {
	hint := "Copy the text exactly as the file holds it (read_file shows it) and call edit_file again."
	if lineNumberPrefix.MatchString(old) {
		hint = "old_string seems to hold read_file's line numbers; leave them out, and copy the text after the tab exactly."
	}
	type candidate struct {
		line  int
		score float64
		text  string
	}
	var wanted []pairs
	for l := range strings.Lines(old) {
		if t := strings.TrimSpace(l); t != "" && len(wanted) < 3 {
			wanted = append(wanted, pairsOf(t))
		}
	}
	var best []candidate
	n := 0
	for l := range strings.Lines(content) {
		n++
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		score := 0.0
		for _, w := range wanted {
			score = max(score, w.similarity(t))
		}
		if score >= 0.5 {
			best = append(best, candidate{n, score, strings.TrimRight(l, "\r\n")})
		}
	}
	slices.SortStableFunc(best, func(a, b candidate) int { return cmp.Compare(b.score, a.score) })
	if len(best) == 0 {
		return modelError(runtime.KindInvalidInput, nil, "old_string was not found in %s, and no line of it is close. %s", name, hint)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "old_string was not found in %s. The closest lines:\n", name)
	for _, c := range best[:min(len(best), 3)] {
		fmt.Fprintf(&b, "%6d\t%s\n", c.line, shorten(c.text, 200))
	}
	b.WriteString(hint)
	return modelError(runtime.KindInvalidInput, nil, "%s", b.String())
}

// pairs are the byte pairs of a line (its first 200 bytes), counted, to compare lines with.
type pairs struct {
	text  string
	count map[string]int
}

func pairsOf(s string) pairs {
	s = s[:min(len(s), 200)]
	p := pairs{text: s, count: make(map[string]int, len(s))}
	for i := 0; i+1 < len(s); i++ {
		p.count[s[i:i+2]]++
	}
	return p
}

// similarity is the Dice coefficient of the pairs of p and of b (1: the same pairs, 0: none
// in common).
func (p pairs) similarity(b string) float64 {
	a := p.text
	b = b[:min(len(b), 200)]
	if len(a) < 2 || len(b) < 2 {
		if a == b {
			return 1
		}
		return 0
	}
	if 3*min(len(a), len(b)) < max(len(a), len(b)) {
		return 0 // too different in length to reach 0.5
	}
	used := make(map[string]int, 8)
	common := 0
	for i := 0; i+1 < len(b); i++ {
		pair := b[i : i+2]
		if used[pair] < p.count[pair] {
			used[pair]++
			common++
		}
	}
	return 2 * float64(common) / float64(len(a)+len(b)-2)
}

// shorten cuts s to at most n bytes at a character boundary, marking the cut.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
