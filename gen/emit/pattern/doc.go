// Package pattern compiles the regular expressions of JSON Schema `pattern` constraints into
// Go functions for generated decoders.
//
// A `pattern` is an unanchored search, and Go validators (the reference validator among them)
// run it with package regexp, so the contract of every generated function is exactly
// regexp.MustCompile(expr).MatchString(s): same syntax (RE2, Perl flags), same answers on
// every string, including non-ASCII text and invalid UTF-8 (each bad byte reads as U+FFFD).
//
// [Func] parses the expression as regexp does (syntax.Parse with syntax.Perl, Simplify,
// Compile) and turns the program into a deterministic finite automaton over runes by subset
// construction. Because only "is there a match" is asked, greediness and capture groups do not
// matter, and the search is made unanchored by re-entering the start at every position; `^`
// and `$` (\A, \z) are modelled exactly. The minimized automaton is emitted as straight Go code,
// one label per state and a goto per transition: it reads each rune once, so it runs in linear
// time like regexp, never backtracks and never allocates. States that reject or accept every
// non-ASCII rune test the byte alone. On `^[A-Z]{3}-[0-9]{4}$` it is about 25 times faster
// than regexp.MatchString.
//
// This covers literals, classes with ranges, negation and escapes (\d \w \s, Unicode classes
// of modest size), `.`, anchors, alternation, groups, every quantifier, and flags such as (?i)
// and (?s). An expression is left to package regexp instead, with a package-level
// `var <name>Regexp = regexp.MustCompile(expr)`, when it needs an assertion the automaton does
// not model — word boundaries (\b, \B) and line anchors under (?m) — or when its automaton
// would be too large (large counted repeats such as {1,500}, classes with hundreds of ranges
// such as \pL, or shapes whose deterministic form explodes such as (a|b)*a(a|b){10}).
//
// The tests hold generated code to regexp: every test pattern is rendered into a temporary
// module and run against a generated corpus, and the same functions, committed as
// zz_patterns_test.go (kept fresh by TestCommittedFileIsFresh; `go generate` rewrites it), are
// fuzzed in-process by FuzzPatterns.
package pattern
