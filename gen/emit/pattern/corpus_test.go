package pattern

import (
	"math/rand/v2"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// testPattern is an expression the tests compile, with whether Func should turn it into plain
// Go (true) or leave it to package regexp (false). name is the generated function's suffix.
type testPattern struct {
	name     string
	expr     string
	compiled bool
}

// testPatterns covers the shapes schemas use (the first group) and the corners of the
// semantics: unanchored search, anchors, case folding, runes versus bytes, invalid UTF-8, and
// expressions beyond the automaton.
var testPatterns = []testPattern{
	{"SKU", `^[A-Z]{3}-[0-9]{4}$`, true},
	{"Username", `^[a-z0-9_-]{3,16}$`, true},
	{"ZIP", `^\d{5}(-\d{4})?$`, true},
	{"Email", `^[^\s@]+@[^\s@]+\.[^\s@]+$`, true},
	{"HexColor", `^#[0-9a-fA-F]{6}$`, true},
	{"Version", `^v\d+\.\d+\.\d+$`, true},
	{"Literal", `abc`, true},
	{"Empty", `^$`, true},
	{"E164", `^\+?[1-9]\d{1,14}$`, true},
	{"ClockTime", `^(?:[01]?\d|2[0-3]):[0-5]\d$`, true},
	{"Decimal", `^-?\d+(\.\d+)?$`, true},
	{"TitleWords", `^[A-Z][a-z]*(?: [A-Z][a-z]*)*$`, true},
	{"Slug", `^[a-z0-9]+(?:-[a-z0-9]+)*$`, true},
	{"Unanchored", `a+b`, true},
	{"Optional", `colou?r`, true},
	{"Keywords", `^(?:foo|bar|baz)$`, true},
	{"Overlap", `(a|ab)(c|bcd)(d*)`, true},
	{"Repeated", `^(ab)*$`, true},
	{"AtLeast", `^[a-f]{2,}$`, true},
	{"Contains", `.*foo.*`, true},
	{"DotMiddle", `a.c`, true},
	{"RuneCount", `^.{2,4}$`, true},
	{"DotAll", `(?s)^.{3}$`, true},
	{"Word", `^\w+$`, true},
	{"Space", `\s`, true},
	{"NotLower", `[^a-z]`, true},
	{"NonASCII", `^[^\x00-\x7F]*$`, true},
	{"Accent", `^é+$`, true},
	{"Greek", `^\p{Greek}+$`, true},
	{"Replacement", `\x{FFFD}`, true},
	{"FoldHello", `(?i)^hello world$`, true},
	{"FoldKelvin", `(?i)k`, true},
	{"FoldStrasse", `(?i)straße`, true},
	{"TextAnchors", `\Aabc\z`, true},
	{"AnchorEither", `^a|b$`, true},
	{"Anything", `x*`, true},
	{"Caret", `^`, true},
	{"Dollar", `$`, true},
	{"Nothing", `[^\x00-\x{10FFFF}]`, true},
	// The first rune decides: i is not advanced past it (staticcheck SA4006 on a dead store),
	// for a rune tested by its byte alone and for one decoded.
	{"FirstRune", `^[A-Z]`, true},
	{"FirstRuneAccent", `^[A-Zé]`, true},
	{"WordBoundary", `\bword\b`, false},
	{"NotBoundary", `a\B`, false},
	{"Multiline", `(?m)^a$`, false},
	{"Explosive", `(a|b)*a(a|b){10}`, false},
	{"Letters", `^\pL+$`, false},
	{"LongCount", `^[a-z]{1,500}$`, false},
}

// corpus returns n strings aimed at expr: strings generated from the expression (which tend to
// match), mutations of those (near misses), random strings over the runes the expression
// mentions, and fixed edge cases with newlines, non-ASCII runes and invalid UTF-8.
func corpus(expr string, r *rand.Rand, n int) []string {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		panic(err) // testPatterns holds valid expressions only
	}
	pieces := alphabet(re)
	out := []string{"", "\n", "\xff", "\xc3", "\xed\xa0\x80", "\ufffd", "a\nb"}
	for len(out) < n {
		var sb strings.Builder
		switch r.IntN(4) {
		case 0, 1:
			sample(re, r, pieces, &sb)
		case 2:
			sample(re, r, pieces, &sb)
			mutated := mutate(r, sb.String(), pieces)
			sb.Reset()
			sb.WriteString(mutated)
		case 3:
			for k := r.IntN(10); k > 0; k-- {
				sb.WriteString(pieces[r.IntN(len(pieces))])
			}
		}
		out = append(out, sb.String())
	}
	return out
}

// alphabet returns the pieces random strings are made of: the runes expr names, their
// neighbours and case variants, and troublemakers every pattern should see.
func alphabet(re *syntax.Regexp) []string {
	runes := []rune{'a', 'A', 'z', '0', '9', ' ', '\n', '\t', '-', '.', '@', '_', 'é', 'ß', 'ſ', '\u212a', 'Ω', '\ufffd', 0x10FFFF}
	var walk func(*syntax.Regexp)
	walk = func(re *syntax.Regexp) {
		switch re.Op {
		case syntax.OpLiteral:
			runes = append(runes, re.Rune...)
		case syntax.OpCharClass:
			for i := 0; i+1 < len(re.Rune); i += 2 {
				lo, hi := re.Rune[i], re.Rune[i+1]
				runes = append(runes, lo, hi, lo-1, hi+1, lo+(hi-lo)/2)
			}
		}
		for _, sub := range re.Sub {
			walk(sub)
		}
	}
	walk(re)
	pieces := []string{"\xff", "\xc3", "\xed\xa0\x80"} // invalid UTF-8: a stray byte, a cut rune, a surrogate
	for _, r := range runes {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			pieces = append(pieces, string(f))
		}
		if r >= 0 && r <= unicode.MaxRune {
			pieces = append(pieces, string(r))
		}
	}
	slices.Sort(pieces)
	return slices.Compact(pieces)
}

// sample appends to sb a string built by walking re, choosing branches and repeat counts at
// random; it matches re except where anchors or case folding make it fail.
func sample(re *syntax.Regexp, r *rand.Rand, pieces []string, sb *strings.Builder) {
	switch re.Op {
	case syntax.OpLiteral:
		for _, c := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 && r.IntN(2) == 0 {
				c = unicode.SimpleFold(c)
			}
			sb.WriteRune(c)
		}
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return
		}
		i := 2 * r.IntN(len(re.Rune)/2)
		lo, hi := re.Rune[i], re.Rune[i+1]
		c := lo
		switch r.IntN(3) {
		case 0:
			c = hi
		case 1:
			c = lo + rune(r.Int64N(int64(min(hi-lo, 0x200))+1))
		}
		if !utf8.ValidRune(c) {
			c = lo
		}
		sb.WriteRune(c)
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		sb.WriteString(pieces[r.IntN(len(pieces))])
	case syntax.OpCapture:
		sample(re.Sub[0], r, pieces, sb)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := 0, 3
		switch re.Op {
		case syntax.OpPlus:
			lo = 1
		case syntax.OpQuest:
			hi = 1
		case syntax.OpRepeat:
			lo, hi = re.Min, re.Min+2
			if re.Max >= 0 {
				hi = min(hi, re.Max)
			}
		}
		for k := lo + r.IntN(hi-lo+1); k > 0; k-- {
			sample(re.Sub[0], r, pieces, sb)
		}
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			sample(sub, r, pieces, sb)
		}
	case syntax.OpAlternate:
		sample(re.Sub[r.IntN(len(re.Sub))], r, pieces, sb)
	}
}

// mutate applies one or two random edits to s: insert or replace a piece, delete a byte, or
// add text around it (which must not matter to an unanchored expression).
func mutate(r *rand.Rand, s string, pieces []string) string {
	for edits := 1 + r.IntN(2); edits > 0; edits-- {
		i := r.IntN(len(s) + 1)
		p := pieces[r.IntN(len(pieces))]
		switch r.IntN(5) {
		case 0:
			s = s[:i] + p + s[i:]
		case 1:
			if i < len(s) {
				s = s[:i] + p + s[i+1:]
			}
		case 2:
			if i < len(s) {
				s = s[:i] + s[i+1:]
			}
		case 3:
			s = p + s
		case 4:
			s += p
		}
	}
	return s
}
