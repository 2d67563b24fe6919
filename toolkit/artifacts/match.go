package artifacts

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxListed bounds the line numbers an ambiguity error lists.
const maxListed = 10

// replaceOnce replaces the one place old matches in text with repl: exactly, else ignoring
// differences in whitespace. how is "" for an exact match and a note otherwise. Its cost is
// linear in the sizes of text and old (strings.Index), whatever the model sends.
func replaceOnce(text, old, repl string) (out, how string, err error) {
	if matches := exactMatches(text, old); len(matches) == 1 {
		m := matches[0]
		return text[:m[0]] + repl + text[m[1]:], "", nil
	} else if len(matches) > 1 {
		return "", "", ambiguous(text, matches)
	}
	matches := looseMatches(text, old)
	switch len(matches) {
	case 0:
		return "", "", fmt.Errorf("old_text was not found, even ignoring differences in whitespace; read the artifact and quote it exactly")
	case 1:
		m := matches[0]
		// The loose match leaves out old's leading and trailing whitespace, so repl loses
		// what old had there: the text around the match keeps its own.
		if strings.TrimLeftFunc(old, unicode.IsSpace) != old {
			repl = strings.TrimLeftFunc(repl, unicode.IsSpace)
		}
		if strings.TrimRightFunc(old, unicode.IsSpace) != old {
			repl = strings.TrimRightFunc(repl, unicode.IsSpace)
		}
		return text[:m[0]] + repl + text[m[1]:], " (old_text matched ignoring whitespace)", nil
	}
	return "", "", ambiguous(text, matches)
}

// ambiguous is the error for old_text matching several places (matches in order).
func ambiguous(text string, matches [][2]int) error {
	var lines []string
	line, from := 1, 0
	for _, m := range matches[:min(len(matches), maxListed)] {
		line += strings.Count(text[from:m[0]], "\n")
		from = m[0]
		lines = append(lines, fmt.Sprint(line))
	}
	more := ""
	if len(matches) > maxListed {
		more = ", …"
	}
	return fmt.Errorf("old_text matches %d places (lines %s%s): quote more of the text around the passage so that it matches one place only",
		len(matches), strings.Join(lines, ", "), more)
}

// exactMatches returns the byte ranges of old in text, without overlaps.
func exactMatches(text, old string) [][2]int {
	var out [][2]int
	for i := 0; i <= len(text); {
		j := strings.Index(text[i:], old)
		if j < 0 {
			break
		}
		out = append(out, [2]int{i + j, i + j + len(old)})
		i += j + max(len(old), 1)
	}
	return out
}

// looseMatches finds old in text with every run of whitespace matching any other run: both
// are collapsed (runs of whitespace to one space, old trimmed) and searched as strings, so
// old's inner words must be whole words of text, while its first may end a longer word and
// its last begin one. It returns byte ranges of text, from the first word to the last.
func looseMatches(text, old string) [][2]int {
	want, _ := collapse(strings.TrimSpace(old))
	if want == "" {
		return nil
	}
	hay, at := collapse(text)
	var out [][2]int
	for _, m := range exactMatches(hay, want) {
		out = append(out, [2]int{int(at[m[0]]), int(at[m[1]-1]) + 1})
	}
	return out
}

// collapse returns s with each run of whitespace replaced by one space, and for each byte of
// the result the offset of the byte of s it came from.
func collapse(s string) (string, []int32) {
	var b strings.Builder
	b.Grow(len(s))
	at := make([]int32, 0, len(s))
	space := false
	for i, r := range s {
		if unicode.IsSpace(r) {
			if !space {
				b.WriteByte(' ')
				at = append(at, int32(i))
			}
			space = true
			continue
		}
		space = false
		_, n := utf8.DecodeRuneInString(s[i:]) // 1 for an invalid byte
		b.WriteString(s[i : i+n])
		for k := range n {
			at = append(at, int32(i+k))
		}
	}
	return b.String(), at
}
