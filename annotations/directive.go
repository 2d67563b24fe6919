package annotations

import (
	"go/ast"
	"strings"
	"unicode"

	"github.com/toolgen-go/toolgen/internal/suggest"
)

// Target is where a directive may appear: a bit set of declaration kinds whose doc comment
// holds it.
type Target uint8

const (
	OnFunc    Target = 1 << iota // doc comment of a handler func
	OnMethod                     // doc comment of a handler method
	OnType                       // doc comment of a type declaration (client tools: //tool:client)
	OnPackage                    // package doc comment
)

var targetNames = [...]string{"func", "method", "type", "package"}

// String names the targets in the set, joined as prose: "func", "func or method",
// "func, method or type". The empty set is "nowhere".
func (t Target) String() string {
	var names []string
	for i, name := range targetNames {
		if t&(1<<i) != 0 {
			names = append(names, name)
		}
	}
	return joinOr(names, "nowhere")
}

// where says, for a message, which doc comments may hold a directive with these targets.
func (t Target) where() string {
	decls := t &^ OnPackage
	switch {
	case decls != 0 && t&OnPackage != 0:
		return "the doc comment of a " + decls.String() + ", or in the package doc comment"
	case decls != 0:
		return "the doc comment of a " + decls.String()
	case t&OnPackage != 0:
		return "the package doc comment"
	}
	return "no comment"
}

// joinOr joins words as "a", "a or b", "a, b or c".
func joinOr(words []string, none string) string {
	switch len(words) {
	case 0:
		return none
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// Directive is one registered directive: everything the parser, the help text and the
// reference in docs/authoring.md know about it.
type Directive struct {
	Name       string // "name", "timeout", ...
	Targets    Target
	Repeatable bool
	Syntax     string // argument grammar for help, e.g. "max=N delay=DURATION backoff=FACTOR maxdelay=DURATION"
	Help       string // one paragraph

	noArgs       bool // arguments are an error (sequential, client)
	optionalArgs bool // no arguments is valid (confirm, retry)
	// parse turns the trimmed argument text into the directive's typed value. at is the byte
	// offset of args in the comment, so problems carry offsets into the comment text.
	parse func(d *Directive, args string, at int) (any, []Problem)
}

// Usage is the directive as a user writes it: "//tool:timeout DURATION|none".
func (d *Directive) Usage() string {
	if d.Syntax == "" {
		return "//tool:" + d.Name
	}
	return "//tool:" + d.Name + " " + d.Syntax
}

// Lookup returns the directive with this exact (lower-case) name, or nil.
func Lookup(name string) *Directive { return directivesByName[name] }

var (
	directivesByName = indexDirectives()
	// directiveNames lists the directive names in registry order, for suggestions.
	directiveNames = func() []string {
		names := make([]string, len(Directives))
		for i, d := range Directives {
			names[i] = d.Name
		}
		return names
	}()
)

func indexDirectives() map[string]*Directive {
	m := make(map[string]*Directive, len(Directives))
	for _, d := range Directives {
		m[d.Name] = d
	}
	return m
}

// Parsed is a recognised //tool: line.
type Parsed struct {
	Directive  *Directive
	Args       string // raw argument text, trimmed
	ArgsOffset int    // byte offset of Args within the comment text
	// Value is the typed value of the arguments (see the package documentation for the type
	// of each directive; true for a directive without arguments). It is nil exactly when
	// ParseComment also returned problems.
	Value any
}

// Problem is an error found in a comment or tag, at a byte offset into the text given.
type Problem struct {
	Offset  int
	Message string // lower case, no trailing period, e.g. `unknown directive //tool:nmae`
	Hint    string // e.g. `did you mean //tool:name?`; may be empty
}

// ParseComment inspects one comment as ast.Comment.Text gives it ("//..." or "/*...*/"), found
// in the doc comment of a declaration of kind target, or target 0 when the comment is not the
// doc comment of any declaration (floating, inside a body, on a field).
//
// An ordinary comment gives (nil, nil). A valid directive allowed at target gives
// (parsed, nil). Anything else gives problems: an unknown directive (with a did-you-mean hint),
// a directive not allowed at target, bad arguments (the offset points at the argument), and
// near misses that gofmt or go doc would treat as prose: "// tool:name", "//tool:Name",
// "//tools:name", "/*tool:name*/". The returned Parsed is non-nil whenever the line names a
// known directive, even with problems, so that callers can still report duplicates; its Value
// is then nil.
func ParseComment(text string, target Target) (*Parsed, []Problem) {
	if body, ok := strings.CutPrefix(text, "/*"); ok {
		return nil, blockNearMisses(strings.TrimSuffix(body, "*/"), 2)
	}
	if !strings.HasPrefix(text, "//") {
		return nil, nil
	}
	if dir, ok := ast.ParseDirective(0, text); ok && dir.Tool == "tool" {
		return parseDirective(text, dir, target)
	}
	if p := nearMiss(text[2:], 2, false); p != nil {
		return nil, []Problem{*p}
	}
	if strings.TrimRightFunc(text, unicode.IsSpace) == "//tool:" {
		return nil, []Problem{{Offset: 0, Message: "missing directive name after //tool:",
			Hint: "write //tool:NAME ARGS; toolgen -help-directives lists every directive"}}
	}
	return nil, nil
}

// parseDirective handles a comment in Go's directive form with the tool prefix: the directive
// name must be known, allowed at target, and its arguments valid.
func parseDirective(text string, dir ast.Directive, target Target) (*Parsed, []Problem) {
	d := Lookup(dir.Name)
	if d == nil {
		return nil, []Problem{unknownDirective(dir.Name)}
	}
	p := &Parsed{Directive: d, Args: dir.Args, ArgsOffset: int(dir.ArgsPos)}
	var problems []Problem
	if d.Targets&target == 0 {
		problems = append(problems, misplaced(d, target))
	}
	value, argProblems := d.parseArgs(p.Args, p.ArgsOffset)
	problems = append(problems, argProblems...)
	if len(problems) == 0 {
		p.Value = value
	}
	return p, problems
}

// parseArgs applies the argument rules every directive shares, then its own parser.
func (d *Directive) parseArgs(args string, at int) (any, []Problem) {
	switch {
	case d.noArgs && args != "":
		return nil, []Problem{{Offset: at, Message: "//tool:" + d.Name + " takes no arguments",
			Hint: "write " + d.Usage() + " alone on its line"}}
	case d.noArgs:
		return true, nil // non-nil: a nil Value means the line had problems
	case args == "" && !d.optionalArgs:
		return nil, []Problem{{Offset: at, Message: "//tool:" + d.Name + " needs an argument",
			Hint: "write " + d.Usage()}}
	}
	return d.parse(d, args, at)
}

// unknownDirective explains a //tool: name that is not registered: a wrong case, arguments
// glued to the name, or a typo.
func unknownDirective(name string) Problem {
	p := Problem{Offset: 0, Message: "unknown directive //tool:" + name}
	if d := Lookup(strings.ToLower(name)); d != nil {
		p.Message = "directive names are lower case: write //tool:" + d.Name
		return p
	}
	// "//tool:name=x" or "//tool:tags,a": the name runs into its arguments.
	if i := strings.IndexFunc(name, func(r rune) bool { return !isLowerAlnum(r) }); i > 0 {
		if d := Lookup(strings.ToLower(name[:i])); d != nil {
			p.Hint = "put a space between //tool:" + d.Name + " and its arguments: " + d.Usage()
			return p
		}
	}
	if c := suggest.Closest(name, directiveNames); c != "" {
		p.Hint = "did you mean //tool:" + c + "?"
	} else {
		p.Hint = "toolgen -help-directives lists every directive"
	}
	return p
}

func isLowerAlnum(r rune) bool { return 'a' <= r && r <= 'z' || '0' <= r && r <= '9' }

// misplaced reports a directive outside the doc comments where it may appear.
func misplaced(d *Directive, target Target) Problem {
	if target == 0 {
		return Problem{Offset: 0,
			Message: "//tool:" + d.Name + " is not in a doc comment: it belongs in " + d.Targets.where(),
			Hint:    "directives are read only from the comment directly above a declaration, with no blank line between"}
	}
	return Problem{Offset: 0,
		Message: "//tool:" + d.Name + " is not allowed on a " + target.String() + ": it belongs in " + d.Targets.where()}
}

// blockNearMisses looks for directive-like lines inside a /* */ comment: toolgen reads only line
// comments, so a directive there would be silently ignored.
func blockNearMisses(body string, at int) []Problem {
	var problems []Problem
	for line := range strings.Lines(body) {
		if p := nearMiss(strings.TrimRight(line, "\r\n"), at, true); p != nil {
			problems = append(problems, *p)
		}
		at += len(line)
	}
	return problems
}

// nearMiss reports a comment body (the text after "//", at offset at in the comment) that looks
// like a //tool: directive but is not one. To leave prose alone, the word before the colon must
// be "tool" or a near spelling of it, and the word after it a directive name or, when no space
// follows the colon, a near spelling of one. In a block comment even an exact directive is a
// near miss.
func nearMiss(body string, at int, block bool) *Problem {
	lead := len(body) - len(strings.TrimLeft(body, " \t"))
	prefixEnd := lead + wordLen(body[lead:])
	if prefixEnd == lead || prefixEnd >= len(body) || body[prefixEnd] != ':' {
		return nil
	}
	prefix := body[lead:prefixEnd]
	rest := body[prefixEnd+1:]
	gap := len(rest) - len(strings.TrimLeft(rest, " \t"))
	word := rest[gap : gap+wordLen(rest[gap:])]
	if word == "" {
		return nil
	}
	lowerPrefix := strings.ToLower(prefix)
	var d *Directive
	if gap == 0 {
		// Glued "prefix:word" is rare in prose, so typos on both sides still count.
		if lowerPrefix != "tool" && suggest.Closest(prefix, []string{"tool"}) == "" {
			return nil
		}
		if d = Lookup(strings.ToLower(word)); d == nil {
			d = Lookup(suggest.Closest(word, directiveNames))
		}
	} else if lowerPrefix == "tool" || lowerPrefix == "tools" {
		// "Tool: name of the ..." is prose unless the word is exactly a directive name.
		d = Lookup(strings.ToLower(word))
	}
	if d == nil {
		return nil
	}

	want := "//tool:" + d.Name
	p := &Problem{Offset: 0}
	if block {
		p.Offset = at + lead
	}
	switch {
	case block:
		p.Message = "not a directive: write " + want + " as a // line comment"
		p.Hint = "toolgen reads directives only from line comments"
	case lead > 0:
		p.Message = "not a directive: write " + want + " with no space after //"
		p.Hint = "with a space, gofmt and go doc treat the line as prose, so the directive would be ignored"
	case lowerPrefix == "tool" && prefix != "tool":
		p.Message = "directive prefixes are lower case: write " + want
	case prefix != "tool":
		p.Message = "not a directive: the prefix is //tool:, not //" + prefix + ":"
		p.Hint = "write " + want
	case gap > 0:
		p.Message = "not a directive: write " + want + " with no space after the colon"
	case strings.ToLower(word) == d.Name:
		p.Message = "directive names are lower case: write " + want
	default:
		p.Message = "unknown directive //tool:" + word
		p.Hint = "did you mean " + want + "?"
	}
	return p
}

// wordLen is the length of the run of ASCII letters and digits at the start of s.
func wordLen(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return i
		}
	}
	return len(s)
}
