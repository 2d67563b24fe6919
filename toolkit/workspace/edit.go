package workspace

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"regexp"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/internal/plural"
	"github.com/toolgen-go/toolgen/runtime"
)

var errIsDirectory = errors.New("is a directory")

// replace replaces old by new in content (once, or everywhere with all) and returns the new
// content and the changed lines, numbered, for the model. It is linear in the content
// whatever the number of occurrences: they are counted and replaced in one pass each, and
// only the first few, which the result can show, are located by line.
func replace(ctx context.Context, name, content, old, new string, all bool) (string, string, error) {
	if old == new {
		return "", "", modelError(runtime.KindInvalidInput, nil, "old_string and new_string are the same: nothing to change")
	}
	count := strings.Count(content, old)
	switch {
	case count == 0:
		return "", "", notFound(ctx, name, content, old)
	case count > 1 && !all:
		var lines []string
		var at lineCursor
		for pos := range occurrences(content, old) {
			if len(lines) == 20 {
				break
			}
			lines = append(lines, fmt.Sprint(at.lineOf(content, pos)))
		}
		more := ""
		if count > len(lines) {
			more = ", …"
		}
		return "", "", modelError(runtime.KindInvalidInput, nil,
			"old_string occurs %d times in %s (lines %s%s); include more of the surrounding lines to make it unique, or set replace_all to change every one",
			count, name, strings.Join(lines, ", "), more)
	}
	// replace_all multiplies new_string by the occurrences: bound the result before building it.
	if size := int64(len(content)) + int64(count)*int64(len(new)-len(old)); size > maxEditBytes {
		return "", "", modelError(runtime.KindLimit, nil,
			"replacing the %s would make %s %d bytes, over the %d this tool handles", plural.Of(count, "occurrence"), name, size, int64(maxEditBytes))
	}
	edited := strings.Replace(content, old, new, -1)
	// The replacements' byte ranges in the new content, in order, found as they are shown.
	spans := func(yield func([2]int) bool) {
		i := 0
		for at := range occurrences(content, old) {
			from := at + i*(len(new)-len(old))
			if !yield([2]int{from, from + len(new)}) {
				return
			}
			i++
		}
	}
	return edited, changedLines(ctx, name, edited, spans, count), nil
}

// maxChangedLines is the most lines edit_file's result shows.
const maxChangedLines = 60

// occurrences yields the byte offsets of the non-overlapping occurrences of old in s.
func occurrences(s, old string) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; ; {
			j := strings.Index(s[i:], old)
			if j < 0 || !yield(i+j) {
				return
			}
			i += j + len(old)
		}
	}
}

// lineCursor numbers lines moving forward through a text: asked for offsets in increasing
// order, it counts each newline once, where counting from the start each time would make
// many offsets quadratic.
type lineCursor struct {
	pos  int // an offset whose line is known
	line int // the 0-based line of pos
}

// lineOf returns the 1-based line number of the byte offset at, at or after the last asked.
func (c *lineCursor) lineOf(s string, at int) int {
	c.line += strings.Count(s[c.pos:at], "\n")
	c.pos = at
	return c.line + 1
}

// lineText returns the text of the 1-based line l at or after the cursor's line (a cursor
// used only by lineText), without its
// newline, and whether s has such a line (after the last newline there is none, except in an
// empty text, whose line 1 is empty).
func (c *lineCursor) lineText(s string, l int) (string, bool) {
	// The cursor stays at the start of a line.
	for c.line+1 < l {
		i := strings.IndexByte(s[c.pos:], '\n')
		if i < 0 {
			return "", false
		}
		c.pos += i + 1
		c.line++
	}
	if c.pos == len(s) && (c.pos > 0 || l > 1) {
		return "", false
	}
	end := strings.IndexByte(s[c.pos:], '\n')
	if end < 0 {
		end = len(s) - c.pos
	}
	return s[c.pos : c.pos+end], true
}

// changedLines shows the lines of the replacements (spans, in order) with two lines around
// each, numbered as read_file numbers them, at most maxChangedLines lines in all; n counts
// every replacement. It takes spans only until their lines fill what it shows.
func changedLines(ctx context.Context, name, s string, spans iter.Seq[[2]int], n int) string {
	var ranges [][2]int // 1-based, inclusive, merged
	var at lineCursor
	lines := 0 // in ranges
	for sp := range spans {
		from := max(at.lineOf(s, sp[0])-2, 1)
		to := at.lineOf(s, max(sp[1]-1, sp[0])) + 2
		if k := len(ranges) - 1; k >= 0 && from <= ranges[k][1]+1 {
			lines += max(to-ranges[k][1], 0)
			ranges[k][1] = max(ranges[k][1], to)
		} else {
			lines += to - from + 1
			ranges = append(ranges, [2]int{from, to})
		}
		if lines > maxChangedLines {
			break
		}
	}
	var b strings.Builder
	b.WriteString(editHeader(name, n))
	shown := 0
	var text lineCursor
	for i, r := range ranges {
		if i > 0 {
			b.WriteString("   ...\n")
		}
		for l := r[0]; l <= r[1]; l++ {
			line, ok := text.lineText(s, l)
			if !ok {
				break
			}
			if shown == maxChangedLines {
				b.WriteString("   ... (more changes" + toolHint(ctx, "read_file", "%s shows them") + ")\n")
				return b.String()
			}
			fmt.Fprintf(&b, "%6d\t%s\n", l, shorten(strings.TrimRight(line, "\r"), maxLineBytes))
			shown++
		}
	}
	return b.String()
}

// editHeader is the first line of edit_file's result.
func editHeader(name string, n int) string {
	plural := "s"
	if n == 1 {
		plural = ""
	}
	return fmt.Sprintf("edited %s: %d replacement%s. The changed lines:\n", name, n, plural)
}

var lineNumberPrefix = regexp.MustCompile(`(?m)^\s*\d+\t`)

// notFound is the error for an old_string the file does not hold: it names the lines most
// like the old_string's first lines, so the model can copy them exactly.
func notFound(ctx context.Context, name, content, old string) error {
	reader := toolName(ctx, "read_file")
	hint := "Copy the text exactly as the file holds it"
	if reader != "" {
		hint += " (" + reader + " shows it)"
	}
	hint += " and call " + cmp.Or(toolName(ctx, "edit_file"), "this tool") + " again."
	if lineNumberPrefix.MatchString(old) {
		hint = "old_string seems to hold line numbers; leave them out, and copy the text after the tab exactly."
		if reader != "" {
			hint = "old_string seems to hold " + reader + "'s line numbers; leave them out, and copy the text after the tab exactly."
		}
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
