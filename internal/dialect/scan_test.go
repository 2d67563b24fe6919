package dialect

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The hand-written scanners keep regexp out of the runtime; they must decide as the regular
// expressions they replace.
var (
	complexPatternRE = regexp.MustCompile(`\\[bB1-9]|\(\?[=!<]`)
	repetitionRE     = regexp.MustCompile(`\{(\d+)(?:,(\d*))?\}`)
	geminiNameRE     = regexp.MustCompile(geminiNameRule)
)

func simplePatternRE(p string) bool {
	if complexPatternRE.MatchString(p) {
		return false
	}
	for _, m := range repetitionRE.FindAllStringSubmatch(p, -1) {
		for _, num := range m[1:] {
			if n, err := strconv.Atoi(num); err == nil && n > anthropicMaxRepeat {
				return false
			}
		}
	}
	return true
}

func TestScannersAgreeWithTheRegularExpressions(t *testing.T) {
	patterns := []string{"", "abc", `\b`, `\\b`, `a\B`, `(a)\1`, `\0`, `(?=x)`, `(?!x)`, `(?<n>x)`, `(?:x)`, `(?`,
		"a{5}", "a{101}", "a{1,101}", "a{101,}", "a{1,}", "a{,101}", "a{}", "{", "{1", "{1,", "{1,2", "{101}{2}",
		"{{101}", "a{99999999999999999999}", "{1,2}{3,200}", `x{0,100}`, `[0-9]{5}`, "{101,x}", "{x101}", "a{1}{101"}
	for _, p := range patterns {
		assert.Equal(t, simplePatternRE(p), simplePattern(p), "%q", p)
	}
	names := []string{"", "a", "_", "A_1", "1a", "a-b", "é", "a b", string(make([]byte, 64)),
		"abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcd",
		"abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcde"}
	for _, n := range names {
		assert.Equal(t, geminiNameRE.MatchString(n), geminiName(n), "%q", n)
	}
}

func FuzzSimplePattern(f *testing.F) {
	f.Add("a{1,101}")
	f.Add(`(?=x)\b`)
	f.Fuzz(func(t *testing.T, p string) {
		if simplePatternRE(p) != simplePattern(p) {
			t.Errorf("%q: regexp %v, scanner %v", p, simplePatternRE(p), simplePattern(p))
		}
		if geminiNameRE.MatchString(p) != geminiName(p) {
			t.Errorf("%q: name", p)
		}
	})
}
