package agreement

import (
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// formatSamples are strings on both sides of each format toolgen supports, chosen where
// implementations tend to differ: leap days and leap seconds, lower-case separators, offsets,
// quoted and bracketed email parts, trailing dots, signs and leading zeros in addresses, and
// the strings the validator's format rules accept and the RFCs refuse (listed last in bad).
// Which side a sample lands on is for the judges to say; the lists only make sure both sides
// are reached.
var formatSamples = map[string]struct{ good, bad []string }{
	"date-time": {
		good: []string{"2024-01-02T15:04:05Z", "2024-02-29T00:00:00.123456789+05:30", "2024-01-02t15:04:05z",
			"1990-12-31T23:59:60Z", "1990-12-31T15:59:60-08:00", "0001-01-01T00:00:00-00:00"},
		bad: []string{"2024-01-02 15:04:05Z", "2023-02-29T00:00:00Z", "2024-01-02T15:04:05", "2024-13-01T00:00:00Z",
			"2024-01-02T24:00:00Z", "2024-01-02T15:04:60Z", "2024-01-02T15:04:05.Z", "2024-01-02T15:04:05+0100", ""},
	},
	"date": {
		good: []string{"2024-01-02", "2024-02-29", "2000-02-29", "9999-12-31"},
		bad:  []string{"2023-02-29", "1900-02-29", "2024-1-02", "20240102", "2024-01-32", "2024-00-10", "2024-01-02T00:00:00Z", ""},
	},
	"time": {
		good: []string{"15:04:05Z", "15:04:05.5+01:00", "23:59:60Z", "00:00:00-23:59"},
		bad:  []string{"24:00:00Z", "15:04:05", "15:04Z", "15:60:00Z", "12:00:60Z", "15:04:05+24:00", "", "+1:04:05Z"},
	},
	"duration": {
		good: []string{"P3DT4H30M", "P2W", "PT36H", "P1Y2M3DT4H5M6S", "P0D"},
		bad:  []string{"P", "PT", "1h30m", "P1W2D", "P1DT", "PT1D", "P1M1Y", "", "P1Y2D", "PT1H2S"},
	},
	"email": {
		good: []string{"user@example.com", "first.last+tag@sub.example.org", `"quoted name"@example.com`,
			"a@[192.0.2.1]", "a@[IPv6:2001:db8::1]"},
		bad: []string{"no-at-sign", "a@@example.com", "a..b@example.com", ".a@example.com", "a@-bad.com",
			"a@exa mple.com", "ü@example.com", "a@", "", "@example.com", "a@example.com."},
	},
	"hostname": {
		good: []string{"api.example.com", "localhost", "xn--bcher-kva.example", "a-b.c"},
		bad: []string{"-bad.com", "a..b", strings.Repeat("a", 64) + ".com", "bad-.com", "under_score.com", "münchen.de", "",
			"example.com.", "xn--X.example", "xn--al-0ea.example"},
	},
	"idn-hostname": {
		good: []string{"bücher.example", "api.example.com", "실례.테스트", "a。b"},
		bad:  []string{"-bad.com", "a..b", "Bücher.example", "bücher.example.", "¡hola.example", "", "a·l.example"},
	},
	"ipv4": {
		good: []string{"192.0.2.1", "0.0.0.0", "255.255.255.255"},
		bad:  []string{"256.0.0.1", "01.2.3.4", "1.2.3", "1.2.3.4.5", "1.2.3.a", " 1.2.3.4", "", "+1.2.3.4"},
	},
	"ipv6": {
		good: []string{"2001:db8::1", "::ffff:192.0.2.1", "::", "fe80::1:2:3:4"},
		bad:  []string{"2001:db8::1::", "fe80::1%eth0", "12345::", "192.0.2.1", "2001:db8:::1", ""},
	},
	"uri": {
		good: []string{"https://example.com/path?q=1#frag", "urn:isbn:0451450523", "mailto:a@example.com", "http://[::1]:8080/"},
		bad: []string{"relative/path", "//example.com", "http://[::1", "http://[zz::1]/", "://x", "",
			"https://example.org/foo bar.txt", "https://example.org/a|b", "https://example.org/café"},
	},
	"uri-reference": {
		good: []string{"https://example.com/a?b#c", "//example.com/a", "/a/b", "../a", "#frag", ""},
		bad:  []string{"1:b", "http://[::1", "/a\\b", "/a b", "/%zz", "/café"},
	},
	"iri": {
		good: []string{"https://example.com/café?q=ü#ß", "https://bücher.example/", "urn:isbn:0451450523"},
		bad:  []string{"/café", "https://example.com/a b", "://x", "", "https://example.com/a\\b"},
	},
	"iri-reference": {
		good: []string{"/café", "#ƒrägmênt", "https://example.com/café", ""},
		bad:  []string{"1:b", "/a b", "#a\\b", "http://[::1"},
	},
	"uuid": {
		good: []string{"123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000", "00000000-0000-0000-0000-000000000000"},
		bad:  []string{"123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400g", "{123e4567-e89b-12d3-a456-426614174000}", ""},
	},
}

// unicodeSample is text a model may well send: accents, CJK, an emoji beyond the BMP and a
// combining mark, so that byte, UTF-16 and code point counts all differ.
const unicodeSample = "Grüße 世界 😀 e\u0301"

// patternSamples returns strings that match the regular expression expr and strings that do
// not, found by generating candidates from the expression's syntax tree and keeping each on
// the side regexp puts it. It returns nothing when expr does not compile.
func patternSamples(expr string, rng *rand.Rand) (matching, other []string) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, nil
	}
	tree, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, nil
	}
	tree = tree.Simplify()

	var candidates []string
	for _, mode := range []genMode{shortest, longest, randomized, randomized, randomized} {
		if s, ok := generate(tree, mode, rng); ok {
			candidates = append(candidates, s)
		}
	}
	candidates = append(candidates, "", "a", "Z", "0", "abc", "ABC-1234", "ord-1", unicodeSample)

	seen := map[string]bool{}
	keep := func(s string) {
		if seen[s] || !utf8.ValidString(s) {
			return
		}
		seen[s] = true
		if re.MatchString(s) {
			matching = append(matching, s)
		} else {
			other = append(other, s)
		}
	}
	for _, s := range candidates {
		keep(s)
	}
	// Near misses of every match: one character off at either end, a changed case, a line
	// break where `$` must not match.
	for _, m := range append([]string(nil), matching...) {
		if m == "" {
			continue
		}
		_, first := utf8.DecodeRuneInString(m)
		_, last := utf8.DecodeLastRuneInString(m)
		keep(m[first:])
		keep(m[:len(m)-last])
		keep(m + "x")
		keep(m + "0")
		keep("x" + m)
		keep(m + "\n")
		keep(swapCase(m))
		keep(strings.Replace(m, string([]rune(m)[0]), "é", 1))
	}
	return matching, other
}

type genMode int

const (
	shortest genMode = iota
	longest
	randomized
)

// maxGenerated bounds generated strings: large counted repeats are cut short (the candidate
// then lands on whichever side regexp says).
const maxGenerated = 256

// generate builds a string that the syntax tree re should match; ok is false for
// expressions that match nothing.
func generate(re *syntax.Regexp, mode genMode, rng *rand.Rand) (string, bool) {
	var b strings.Builder
	ok := gen(&b, re, mode, rng)
	return b.String(), ok
}

func gen(b *strings.Builder, re *syntax.Regexp, mode genMode, rng *rand.Rand) bool {
	if b.Len() > maxGenerated {
		return true
	}
	switch re.Op {
	case syntax.OpNoMatch:
		return false
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 && mode == randomized && rng.IntN(2) == 0 {
				r = unicode.SimpleFold(r)
			}
			b.WriteRune(r)
		}
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return false
		}
		b.WriteRune(pickRune(re.Rune, mode, rng))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteRune(pickRune([]rune{'a', 'z', '0', '9', 'é', '世'}, mode, rng))
	case syntax.OpCapture:
		return gen(b, re.Sub[0], mode, rng)
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if !gen(b, sub, mode, rng) {
				return false
			}
		}
	case syntax.OpAlternate:
		i := 0
		switch mode {
		case longest:
			i = len(re.Sub) - 1
		case randomized:
			i = rng.IntN(len(re.Sub))
		}
		return gen(b, re.Sub[i], mode, rng)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := repeatBounds(re)
		n := lo
		switch mode {
		case longest:
			n = hi
		case randomized:
			n = lo + rng.IntN(hi-lo+1)
		}
		for range n {
			if !gen(b, re.Sub[0], mode, rng) {
				return false
			}
		}
	}
	// Anchors, word boundaries and empty matches add nothing.
	return true
}

// repeatBounds returns how many times a repetition may run, an open end counted as three
// more than its minimum, and a large count cut to keep candidates short.
func repeatBounds(re *syntax.Regexp) (lo, hi int) {
	switch re.Op {
	case syntax.OpStar:
		return 0, 3
	case syntax.OpPlus:
		return 1, 4
	case syntax.OpQuest:
		return 0, 1
	}
	lo, hi = re.Min, re.Max
	if hi < 0 {
		hi = lo + 3
	}
	const most = 64
	lo, hi = min(lo, most), min(hi, most)
	return lo, hi
}

// pickRune picks a rune from a class given as ranges [lo0, hi0, lo1, hi1, ...].
func pickRune(ranges []rune, mode genMode, rng *rand.Rand) rune {
	switch mode {
	case shortest:
		return ranges[0]
	case longest:
		return ranges[len(ranges)-1]
	}
	if len(ranges)%2 != 0 {
		return ranges[rng.IntN(len(ranges))]
	}
	i := rng.IntN(len(ranges)/2) * 2
	lo, hi := ranges[i], ranges[i+1]
	if hi-lo > 0x3FF {
		hi = lo + 0x3FF // stay near the start of huge negated ranges
	}
	return lo + rune(rng.IntN(int(hi-lo)+1))
}

func swapCase(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsUpper(r) {
			return unicode.ToLower(r)
		}
		return unicode.ToUpper(r)
	}, s)
}

// fitLength pads or cuts s to n code points, padding with pad.
func fitLength(s string, n int, pad string) string {
	r := []rune(s)
	if len(r) >= n {
		return string(r[:n])
	}
	p := []rune(pad)
	for i := 0; len(r) < n; i++ {
		r = append(r, p[i%len(p)])
	}
	return string(r)
}
