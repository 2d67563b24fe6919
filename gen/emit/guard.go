package emit

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen-go/toolgen/gen/model"
)

// guardFunc is named for the advice the compiler's error starts with. A stale file fails to
// build at the one call of guardFunc, and the compiler words a failed constraint as
// "in call to runGoGenerate_toolgen, GetWeather (type func(…) (string, error)) does not satisfy
// toolgenSawGetWeather": what to do first, then what changed, on a short line (a mismatch of
// ordinary parameters would print both types in full, the advice last). The suffix keeps the
// name clear of the package's own; it is not exported.
const guardFunc = "runGoGenerate_toolgen"

// guardPrefix names the constraint that holds what toolgen saw of a handler or type.
const guardPrefix = "toolgenSaw"

// staleGuard emits, at the top of the file, a call in a function nothing calls that passes
// every handler and a value of every named argument and result type to guardFunc, whose type
// parameters are constrained to what toolgen generated for: a handler's signature, a type's
// underlying type (every field, unexported ones included, with its whole tag) or basic kind.
// A handler or type changed since toolgen ran fails the build there, and since the compiler
// reports errors in position order, that is the first error, before any in the generated code
// that uses it. The decoder tables write at offsets taken from the types as they are when
// compiled, so a stale table would otherwise write a field as its old type. Each handler and
// type has a constraint declaration of its own, so that a change to one changes one
// declaration of the generated file.
func (g *generator) staleGuard() error {
	type param struct {
		name, constraint string
		bound            jen.Code // the constraint's type: ~T
		value            jen.Code
	}
	var params []param
	taken := map[string]bool{}
	add := func(want string, bound, value jen.Code) {
		name := want
		for i := 2; taken[name]; i++ {
			name = want + strconv.Itoa(i)
		}
		taken[name] = true
		params = append(params, param{name, guardPrefix + name, bound, value})
	}
	for _, t := range g.pkg.Tools {
		if t.Client {
			continue
		}
		sig, value, err := g.guard(t)
		if err != nil {
			return fmt.Errorf("tool %s: %w", t.Name, err)
		}
		name := t.Handler.Name
		if r := t.Handler.Receiver; r != nil {
			name = r.TypeName + name
		}
		add(name, jen.Op("~").Add(sig), value)
	}
	var anyTyped []jen.Code // named types of an interface type, which ~ cannot constrain
	for _, t := range g.guardedTypes() {
		named := g.namedExpr(t.Named)
		s := t.Shape
		switch {
		case s.Kind == model.GoNamed && s.Path == "" && s.Name == "any":
			anyTyped = append(anyTyped, jen.Var().Id("_").Add(named).Op("=").Any().Call(jen.Nil()))
		case s.Kind == model.GoNamed && s.Path == "":
			add(guardName(t.Named), jen.Op("~").Id(s.Name), jen.Op("*").New(named))
		default:
			add(guardName(t.Named), jen.Op("~").Add(g.goTypeExpr(s, nil)), jen.Op("*").New(named))
		}
	}
	if len(params) == 0 && len(anyTyped) == 0 {
		return nil
	}
	var typeParams, args, values []jen.Code
	for _, p := range params {
		typeParams = append(typeParams, jen.Id(p.name).Id(p.constraint))
		args = append(args, jen.Id(p.name))
		values = append(values, p.value)
	}
	body := anyTyped
	if len(params) > 0 {
		body = append([]jen.Code{jen.Id(guardFunc).Call(values...)}, body...)
	}
	g.f.Comment("A compile error in the next lines means a handler or an argument or result type changed")
	g.f.Comment("since toolgen ran (a field added, removed, moved, retyped or retagged): run go generate ./...")
	g.f.Func().Id("_").Params().Block(body...)
	g.f.Line()
	if len(params) == 0 {
		return nil
	}
	g.f.Commentf("%s takes every handler and a value of every type, as toolgen saw them (%s…).", guardFunc, guardPrefix)
	g.f.Func().Id(guardFunc).Types(typeParams...).Params(args...).Block()
	g.f.Line()
	for _, p := range params {
		g.f.Type().Id(p.constraint).Interface(p.bound)
	}
	g.f.Line()
	return nil
}

// guardName is a type's name as a Go identifier: Page[Item] is PageItem.
func guardName(n *model.GoName) string {
	var b strings.Builder
	b.WriteString(n.Name)
	for _, a := range n.TypeArgs {
		if a.Named != nil {
			b.WriteString(guardName(a.Named))
		} else {
			for _, r := range a.Kind.String() {
				if unicode.IsLetter(r) || unicode.IsDigit(r) {
					b.WriteRune(r)
				}
			}
		}
	}
	return b.String()
}
