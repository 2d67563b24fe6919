package pattern

import (
	"fmt"
	"go/token"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"
)

// Func returns jennifer code declaring `func <name>(s string) bool` that reports exactly what
// regexp.MustCompile(expr).MatchString(s) reports: whether s contains a match of expr (JSON
// Schema's `pattern` is an unanchored search, and Go validators run it with package regexp).
//
// When the expression fits the automaton (see the package documentation) the function is plain
// Go over runes, with no regexp and no allocation, and compiled is true. Otherwise the code also
// declares a package-level `var <name>Regexp = regexp.MustCompile(expr)` and the function calls
// its MatchString; compiled is false.
//
// err is the error regexp.Compile reports for expr, or an error for a name that is not a Go
// identifier; code is nil then.
func Func(name, expr string) (code jen.Code, compiled bool, err error) {
	if !token.IsIdentifier(name) {
		return nil, false, fmt.Errorf("pattern function name %q is not a Go identifier", name)
	}
	// regexp.Compile is the authority on what is valid, so its error is what the user sees.
	if _, err := regexp.Compile(expr); err != nil {
		return nil, false, err
	}
	// The same steps regexp.Compile takes, so the program is the one MatchString runs.
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, false, err
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil, false, err
	}
	a, ok := buildAutomaton(prog)
	if !ok {
		return regexpFunc(name, expr), false, nil
	}
	return automatonFunc(name, expr, a), true, nil
}

// docComment is the comment above every generated function; how ends the sentence.
func docComment(name, expr, how string) *jen.Statement {
	return jen.Commentf("%s reports whether s contains a match of the regular expression %s,", name, quoteForComment(expr)).
		Line().Comment("as regexp.MatchString does" + how)
}

// regexpFunc is the fallback: a package-level compiled regexp and a function calling it.
func regexpFunc(name, expr string) jen.Code {
	varName := name + "Regexp"
	return jen.Var().Id(varName).Op("=").Qual("regexp", "MustCompile").Call(stringLit(expr)).
		Line().Line().
		Add(docComment(name, expr, ", by calling it: the expression is beyond what toolgen compiles.")).Line().
		Func().Id(name).Params(jen.Id("s").String()).Bool().Block(
		jen.Return(jen.Id(varName).Dot("MatchString").Call(jen.Id("s"))),
	)
}

// automatonFunc renders a as a state machine in which every state is a label and every
// transition a goto: the fastest shape Go offers for it, with no dispatch on a state variable.
// Each state reads one rune, as regexp does (an invalid UTF-8 byte reads as U+FFFD), except
// that when every non-ASCII rune leads to the same verdict the state tests the byte alone.
func automatonFunc(name, expr string, a *automaton) jen.Code {
	signature := jen.Func().Id(name).Params(jen.Id("s").String()).Bool()
	if a.matchesEmpty {
		return docComment(name, expr, ": every string matches it.").Line().
			Add(signature).Block(jen.Return(jen.True()))
	}

	e := &emitter{states: a.states, referenced: map[int]bool{}}
	var body []jen.Code
	starts := make([]int, len(a.states)) // index in body of each state's first statement
	for k := range a.states {
		starts[k] = len(body)
		body = append(body, e.state(k)...)
	}
	decls := []jen.Code{jen.Id("i").Op(":=").Lit(0)}
	if e.usesRune {
		decls = append(decls, jen.Var().Id("r").Rune())
	}
	if e.usesSize {
		decls = append(decls, jen.Var().Id("size").Int())
	}
	// Labels nothing jumps to would not compile; state 0 is entered by falling into it.
	for k, at := range starts {
		if e.referenced[k] {
			body[at] = jen.Id(stateLabel(k)).Op(":").Line().Add(body[at])
		}
	}

	return docComment(name, expr, ". toolgen compiled the expression to a finite automaton").
		Line().Comment("over runes whose states are the labels below: it runs in time linear in len(s)").
		Line().Comment("and does not allocate.").Line().
		Add(signature).Block(append(decls, body...)...)
}

func stateLabel(k int) string { return "s" + strconv.Itoa(k) }

// emitter renders the states of one automaton and records what the function must declare.
type emitter struct {
	states     []dfaState
	referenced map[int]bool // states some goto jumps to
	usesRune   bool
	usesSize   bool
}

// state renders state k: the verdict at the end of the input, then the transitions on the
// next rune.
func (e *emitter) state(k int) []jen.Code {
	st := e.states[k]
	out := []jen.Code{jen.If(jen.Id("i").Op("==").Len(jen.Id("s"))).Block(jen.Return(jen.Lit(st.acceptAtEnd)))}

	rangesTo := map[int][]edge{}
	var order []int // targets in order of first range, for deterministic output
	for _, ed := range st.edges {
		if _, seen := rangesTo[ed.target]; !seen {
			order = append(order, ed.target)
		}
		rangesTo[ed.target] = append(rangesTo[ed.target], ed)
	}

	if len(order) == 1 {
		target := order[0]
		switch target {
		case k:
			// Every rune keeps the state (a pending `$` after `.*`): only the end decides.
			return append(out, jen.Return(jen.Lit(st.acceptAtEnd)))
		case targetDead, targetAccept:
			return append(out, e.transition(target)...)
		}
		e.usesSize = true
		return append(out,
			jen.If(jen.Id("s").Index(jen.Id("i")).Op("<").Qual("unicode/utf8", "RuneSelf")).Block(
				jen.Id("i").Op("++"),
			).Else().Block(
				jen.List(jen.Id("_"), jen.Id("size")).Op("=").Qual("unicode/utf8", "DecodeRuneInString").Call(jen.Id("s").Index(jen.Id("i").Op(":"))),
				jen.Id("i").Op("+=").Id("size"),
			),
			jen.Add(e.transition(target)...),
		)
	}

	e.usesRune = true
	// When every transition returns (`^[A-Z]`), nothing reads i after this rune: advancing it
	// would be a dead store (staticcheck SA4006), and its size is not needed.
	final := !slices.ContainsFunc(order, func(t int) bool { return t != targetDead && t != targetAccept })
	if t, uniform := nonASCIITarget(st.edges); uniform && (t == targetDead || t == targetAccept) {
		// Any byte >= 0x80 settles the answer whatever rune it starts, so there is nothing
		// to decode: r stays in [0, 0xFF] and the tests for non-ASCII ranges still hold.
		out = append(out, jen.Id("r").Op("=").Rune().Call(jen.Id("s").Index(jen.Id("i"))))
		if !final {
			out = append(out, jen.Id("i").Op("++"))
		}
	} else if final {
		out = append(out,
			jen.Id("r").Op("=").Rune().Call(jen.Id("s").Index(jen.Id("i"))),
			jen.If(jen.Id("r").Op(">=").Qual("unicode/utf8", "RuneSelf")).Block(
				jen.List(jen.Id("r"), jen.Id("_")).Op("=").Qual("unicode/utf8", "DecodeRuneInString").Call(jen.Id("s").Index(jen.Id("i").Op(":"))),
			),
		)
	} else {
		e.usesSize = true
		out = append(out,
			jen.List(jen.Id("r"), jen.Id("size")).Op("=").Rune().Call(jen.Id("s").Index(jen.Id("i"))).Op(",").Lit(1),
			jen.If(jen.Id("r").Op(">=").Qual("unicode/utf8", "RuneSelf")).Block(
				jen.List(jen.Id("r"), jen.Id("size")).Op("=").Qual("unicode/utf8", "DecodeRuneInString").Call(jen.Id("s").Index(jen.Id("i").Op(":"))),
			),
			jen.Id("i").Op("+=").Id("size"),
		)
	}

	// The target reached by the most ranges becomes the default branch, which keeps
	// unanchored states ("anything else: start over") short.
	def := order[0]
	for _, t := range order[1:] {
		if len(rangesTo[t]) > len(rangesTo[def]) {
			def = t
		}
	}
	var cases []jen.Code
	for _, t := range order {
		if t == def {
			continue
		}
		var conds []jen.Code
		for _, ed := range rangesTo[t] {
			conds = append(conds, rangeTest(ed.lo, ed.hi))
		}
		cases = append(cases, jen.Case(conds...).Block(e.transition(t)...))
	}
	cases = append(cases, jen.Default().Block(e.transition(def)...))
	return append(out, jen.Switch().Block(cases...))
}

// nonASCIITarget reports the target of every rune >= 0x80, if they all share one.
func nonASCIITarget(edges []edge) (target int, uniform bool) {
	for _, ed := range edges {
		if ed.hi >= utf8.RuneSelf {
			return ed.target, ed.lo <= utf8.RuneSelf && ed.hi == unicode.MaxRune
		}
	}
	return targetDead, false // unreachable: edges cover every rune
}

// transition renders moving to target.
func (e *emitter) transition(target int) []jen.Code {
	switch target {
	case targetDead:
		return []jen.Code{jen.Return(jen.False())}
	case targetAccept:
		return []jen.Code{jen.Return(jen.True())}
	}
	e.referenced[target] = true
	return []jen.Code{jen.Goto().Id(stateLabel(target))}
}

// rangeTest renders "r is in [lo, hi]". Runes are never negative, so a range starting at 0
// needs one comparison, as does one ending at unicode.MaxRune.
func rangeTest(lo, hi rune) jen.Code {
	r := jen.Id("r")
	switch {
	case lo == hi:
		return r.Op("==").Add(runeLit(lo))
	case lo == 0:
		return r.Op("<=").Add(runeLit(hi))
	case hi == unicode.MaxRune:
		return r.Op(">=").Add(runeLit(lo))
	}
	return runeLit(lo).Op("<=").Id("r").Op("&&").Id("r").Op("<=").Add(runeLit(hi))
}

// runeLit renders a rune as a quoted character when it is printable ASCII and in hex
// otherwise, so that no bound (a surrogate, an unassigned code point) is ever misprinted.
func runeLit(r rune) *jen.Statement {
	if r >= ' ' && r <= '~' {
		return jen.LitRune(r)
	}
	return jen.Op(fmt.Sprintf("0x%X", r))
}

// stringLit renders s as a raw string literal when that is faithful, which keeps a
// regular expression's backslashes readable, and as an interpreted one otherwise.
func stringLit(s string) jen.Code {
	if strconv.CanBackquote(s) {
		return jen.Op("`" + s + "`")
	}
	return jen.Lit(s)
}

// quoteForComment shows expr in a comment: raw between backquotes when that is faithful,
// Go-quoted otherwise (newlines, backquotes, control characters).
func quoteForComment(expr string) string {
	if strconv.CanBackquote(expr) {
		return "`" + expr + "`"
	}
	return strconv.Quote(expr)
}
