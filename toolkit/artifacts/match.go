package artifacts

import (
	"fmt"
	"strings"
	"unicode"
)

// replaceOnce replaces the one place old matches in text with repl: exactly, else ignoring
// differences in whitespace. how is "" for an exact match and a note otherwise.
func replaceOnce(text, old, repl string) (out, how string, err error) {
	if n := strings.Count(text, old); n == 1 {
		return strings.Replace(text, old, repl, 1), "", nil
	} else if n > 1 {
		return "", "", ambiguous(text, exactMatches(text, old))
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

// ambiguous is the error for old_text matching several places.
func ambiguous(text string, matches [][2]int) error {
	lines := make([]string, len(matches))
	for i, m := range matches {
		lines[i] = fmt.Sprint(1 + strings.Count(text[:m[0]], "\n"))
	}
	return fmt.Errorf("old_text matches %d places (lines %s): quote more of the text around the passage so that it matches one place only",
		len(matches), strings.Join(lines, ", "))
}

func exactMatches(text, old string) [][2]int {
	var out [][2]int
	for i := 0; ; {
		j := strings.Index(text[i:], old)
		if j < 0 {
			return out
		}
		out = append(out, [2]int{i + j, i + j + len(old)})
		i += j + len(old)
	}
}

// looseMatches finds old in text with every run of whitespace matching any other run: old's
// words (runs of non-space) must follow one another in text with only whitespace between
// them; the first may end a longer word and the last may begin one (a single word is
// searched for as it is). It returns byte ranges
// of text, from the first word to the last, without overlaps.
func looseMatches(text, old string) [][2]int {
	want := strings.Fields(old)
	switch len(want) {
	case 0:
		return nil
	case 1:
		return exactMatches(text, want[0])
	}
	words := fields(text)
	var out [][2]int
	for i := 0; i+len(want) <= len(words); i++ {
		first, last := words[i], words[i+len(want)-1]
		if !strings.HasSuffix(text[first[0]:first[1]], want[0]) {
			continue
		}
		ok := true
		for j := 1; j < len(want)-1 && ok; j++ {
			w := words[i+j]
			ok = text[w[0]:w[1]] == want[j]
		}
		if !ok || !strings.HasPrefix(text[last[0]:last[1]], want[len(want)-1]) {
			continue
		}
		start := first[1] - len(want[0])
		end := last[0] + len(want[len(want)-1])
		out = append(out, [2]int{start, end})
		i += len(want) - 1
	}
	return out
}

// fields returns the byte ranges of text's runs of non-space characters.
func fields(text string) [][2]int {
	var out [][2]int
	start := -1
	for i, r := range text {
		if unicode.IsSpace(r) {
			if start >= 0 {
				out = append(out, [2]int{start, i})
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, [2]int{start, len(text)})
	}
	return out
}
