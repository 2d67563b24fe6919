package workspace

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/runtime"
)

// A glob is matched as an RE2 regular expression (Go's regexp) compiled from it, not by
// doublestar's matcher, which expands each {a,b} by trying every alternative with the rest
// of the pattern: k groups of {,} cost 2^k a name, with no way to stop it. RE2 matches in
// time linear in the name for a program linear in the pattern, so a name costs at most its
// length times the pattern's (1024 bytes at most), and walks look at the ctx between names.
//
// The syntax is doublestar's: * any run of characters but /, ? one, [a-z] and [!a-z] (or
// [^a-z]) a class, {a,b} either, \ quotes the next character, and ** any number of
// directories where it is a whole path element (a/**/b, **/b, a/**). Where doublestar's
// rules depend on which alternative was taken (a ** at an alternative's end, followed by a
// / after the braces, as in {x,**}/b), ** is taken for *; and a negated class never matches
// /, as in a shell.

// compileGlob compiles a glob pattern (already checked by doublestar.ValidatePattern) into a
// regexp matching the whole of a name.
func compileGlob(pattern string) (*regexp.Regexp, error) {
	p := globParser{pattern: pattern}
	var b strings.Builder
	b.WriteString(`\A(?s:`)
	p.sequence(&b, true, true, false)
	if p.err == nil && p.i < len(p.pattern) {
		p.err = fmt.Errorf("unexpected %q", p.pattern[p.i])
	}
	if p.err != nil {
		return nil, p.err
	}
	b.WriteString(`)\z`)
	return regexp.Compile(b.String())
}

// globRegexp compiles an argument of glob or grep into its matcher, with an error for the
// model; what names the argument in the message ("glob", "pattern").
func globRegexp(what, pattern string) (*regexp.Regexp, error) {
	re, err := compileGlob(pattern)
	if err != nil {
		why := err.Error()
		if serr, ok := errors.AsType[*syntax.Error](err); ok {
			why = serr.Code.String() // without the expression, which repeats the pattern
		}
		return nil, modelError(runtime.KindInvalidInput, err, "%s %q is too complex to match (%s): use fewer braces or nest them less", what, shorten(pattern, 100), why)
	}
	return re, nil
}

type globParser struct {
	pattern string
	i       int
	err     error
}

// sequence writes the regexp of the items from p.i up to the end of the pattern or, inside
// braces, the next , or } at this level. segStart says the sequence starts a path element,
// atEnd that nothing follows it in the pattern. It reports whether it ends at the start of a
// path element (after a /).
func (p *globParser) sequence(b *strings.Builder, segStart, atEnd, inBraces bool) bool {
	// endsHere reports whether the sequence ends at j, and the pattern with it.
	endsHere := func(j int) bool {
		return atEnd && (j == len(p.pattern) || inBraces && (p.pattern[j] == ',' || p.pattern[j] == '}'))
	}
	seg := segStart
	for p.i < len(p.pattern) && p.err == nil {
		c := p.pattern[p.i]
		if inBraces && (c == ',' || c == '}') {
			break
		}
		switch c {
		case '*':
			if p.i+1 < len(p.pattern) && p.pattern[p.i+1] == '*' {
				p.i += 2
				switch {
				case seg && p.i < len(p.pattern) && p.pattern[p.i] == '/':
					p.i++
					b.WriteString(`(?:.*/)?`) // no directory, or any number
					seg = true
					continue
				case seg && endsHere(p.i):
					b.WriteString(`.*`)
					seg = false
					continue
				}
				for p.i < len(p.pattern) && p.pattern[p.i] == '*' {
					p.i++
				}
			} else {
				p.i++
			}
			b.WriteString(`[^/]*`)
			seg = false
		case '?':
			p.i++
			b.WriteString(`[^/]`)
			seg = false
		case '[':
			p.class(b)
			seg = false
		case '{':
			p.i++
			b.WriteString(`(?:`)
			// Whether the braces end the pattern is known only past them; an
			// alternative is at the end when the closing } is.
			altsAtEnd := atEnd && p.closesAtEnd()
			allSeg := true
			for first := true; ; first = false {
				if !first {
					b.WriteByte('|')
				}
				if !p.sequence(b, seg, altsAtEnd, true) {
					allSeg = false
				}
				if p.err != nil {
					return false
				}
				if p.i >= len(p.pattern) {
					p.err = fmt.Errorf("unclosed {")
					return false
				}
				if p.pattern[p.i] == '}' {
					p.i++
					break
				}
				p.i++ // the ,
			}
			b.WriteString(`)`)
			seg = allSeg
		case '/':
			p.i++
			// a/** and a/**/ match a itself too, as doublestar has them
			switch {
			case strings.HasPrefix(p.pattern[p.i:], "**") && endsHere(p.i+2):
				p.i += 2
				b.WriteString(`(?:/.*)?`)
				seg = false
				continue
			case strings.HasPrefix(p.pattern[p.i:], "**/") && endsHere(p.i+3):
				p.i += 3
				b.WriteString(`(?:/(?:.*/)?)?`)
				seg = true
				continue
			}
			b.WriteByte('/')
			seg = true
		case '}':
			p.err = fmt.Errorf("} without {")
			return false
		default:
			if c == '\\' {
				if p.i++; p.i >= len(p.pattern) {
					p.err = fmt.Errorf("\\ at the end")
					return false
				}
			}
			r, n := utf8.DecodeRuneInString(p.pattern[p.i:])
			p.i += n
			writeRune(b, r)
			seg = r == '/'
		}
	}
	return seg
}

// closesAtEnd reports whether the braces whose alternatives start at p.i close at the end
// of the pattern or of an enclosing alternative (a , or } right after the closing }).
func (p *globParser) closesAtEnd() bool {
	depth := 0
	for j := p.i; j < len(p.pattern); j++ {
		switch p.pattern[j] {
		case '\\':
			j++
		case '[':
			for j++; j < len(p.pattern) && p.pattern[j] != ']'; j++ {
				if p.pattern[j] == '\\' {
					j++
				}
			}
		case '{':
			depth++
		case '}':
			if depth == 0 {
				return j+1 == len(p.pattern) || p.pattern[j+1] == ',' || p.pattern[j+1] == '}'
			}
			depth--
		}
	}
	return false
}

// class writes the regexp of the character class at p.i, as doublestar reads it.
func (p *globParser) class(b *strings.Builder) {
	p.i++ // the [
	negate := p.i < len(p.pattern) && (p.pattern[p.i] == '!' || p.pattern[p.i] == '^')
	if negate {
		p.i++
	}
	var ranges strings.Builder
	readRune := func() rune {
		if p.pattern[p.i] == '\\' && p.i+1 < len(p.pattern) {
			p.i++
		}
		r, n := utf8.DecodeRuneInString(p.pattern[p.i:])
		p.i += n
		return r
	}
	empty := true
	for {
		if p.i >= len(p.pattern) {
			p.err = fmt.Errorf("unclosed [")
			return
		}
		if p.pattern[p.i] == ']' && !empty {
			p.i++
			break
		}
		lo := readRune()
		hi := lo
		if p.i+1 < len(p.pattern) && p.pattern[p.i] == '-' && p.pattern[p.i+1] != ']' {
			p.i++
			hi = readRune()
		}
		empty = false
		if lo <= hi {
			fmt.Fprintf(&ranges, `\x{%x}-\x{%x}`, lo, hi)
		}
	}
	switch {
	case negate:
		b.WriteString(`[^/` + ranges.String() + `]`)
	case ranges.Len() == 0:
		b.WriteString(`[^\x{0}-\x{10ffff}]`) // only reversed ranges: matches nothing
	default:
		b.WriteString(`[` + ranges.String() + `]`)
	}
}

// writeRune writes a regexp matching the rune r.
func writeRune(b *strings.Builder, r rune) {
	if r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '/' || r == '_') {
		b.WriteRune(r)
		return
	}
	fmt.Fprintf(b, `\x{%x}`, r)
}
