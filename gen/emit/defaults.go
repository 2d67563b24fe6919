package emit

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/gen/emit/pattern"
	"github.com/toolgen-go/toolgen/gen/model"
)

// What the decoder tables refer to as generated code: a field's default, a pattern's
// matcher, a constant parsed once at initialisation.

// typeLabel names a type in comments and errors: its name, or its kind.
func typeLabel(t *model.Type) string {
	if t.Named != nil {
		return t.Named.Name
	}
	return t.Kind.String()
}

// convert renders v converted to t's Go type when t is named (or sized), else v itself.
func (g *generator) convert(t *model.Type, v jen.Code) (jen.Code, error) {
	if t.Named == nil && (t.Kind == model.KindString || t.Kind == model.KindBool || t.Kind == model.KindBytes) {
		return v, nil
	}
	typ, err := g.typeExpr(t)
	if err != nil {
		return nil, err
	}
	return typ.(*jen.Statement).Clone().Call(v), nil
}

// patternFunc emits (once per pattern) a matcher and returns its name.
func (g *generator) patternFunc(expr string) (string, error) {
	if g.patterns == nil {
		g.patterns = map[string]string{}
	}
	if name, ok := g.patterns[expr]; ok {
		g.use(name)
		return name, nil
	}
	name := g.claim("toolgenPattern#", "pattern\x00"+expr)
	g.use(name)
	code, _, err := pattern.Func(name, expr)
	if err != nil {
		return "", fmt.Errorf("pattern %q: %w", expr, err)
	}
	g.patterns[expr] = name
	g.patternDecls = append(g.patternDecls, decl{name: name, code: code})
	return name, nil
}

// enumAllowed reports whether an enum constant, as JSON, is among the enum keyword's values
// (all are when there is none).
func enumAllowed(c *model.Constraints, jsonText string) bool {
	if len(c.Enum) == 0 {
		return true
	}
	for _, lit := range c.Enum {
		if lit.JSON == jsonText {
			return true
		}
	}
	return false
}

// goNumber renders a numeric keyword as a Go constant: JSON number syntax is a subset of Go's,
// so the text is written as it was given (10 stays an integer constant, 1e-3 a float one).
func goNumber(n *model.Number) jen.Code { return jen.Id(n.Text) }

// defaultValue renders the Go value of a default literal for a field of type t.
func (g *generator) defaultValue(t *model.Type, lit *model.Literal) (jen.Code, error) {
	if t.Kind == model.KindPointer {
		inner, err := g.defaultValue(t.Elem, lit)
		if err != nil {
			return nil, err
		}
		return jen.Qual(toolimplPath, "Ptr").Call(inner), nil
	}
	switch t.Kind {
	case model.KindString:
		var s string
		if err := json.Unmarshal([]byte(lit.JSON), &s); err != nil {
			return nil, fmt.Errorf("default %s is not a string", lit.JSON)
		}
		for _, ev := range t.Enum {
			if ev.String == s {
				return g.qual(t.Named.Path, ev.GoName), nil
			}
		}
		return g.convert(t, jen.Lit(s))
	case model.KindInt, model.KindUint:
		for _, ev := range t.Enum {
			if strconv.FormatInt(ev.Int, 10) == lit.JSON {
				return g.qual(t.Named.Path, ev.GoName), nil
			}
		}
		return g.convert(t, jen.Id(lit.JSON))
	case model.KindFloat:
		return g.convert(t, jen.Id(lit.JSON))
	case model.KindBool:
		return g.convert(t, jen.Id(lit.JSON))
	case model.KindDuration:
		var s string
		if err := json.Unmarshal([]byte(lit.JSON), &s); err != nil {
			return nil, fmt.Errorf("default %s is not a duration string", lit.JSON)
		}
		dur, err := time.ParseDuration(s)
		if err != nil {
			return nil, fmt.Errorf("default %s: %w", lit.JSON, err)
		}
		return durationLit(dur), nil
	case model.KindTime:
		var s string
		if err := json.Unmarshal([]byte(lit.JSON), &s); err != nil {
			return nil, fmt.Errorf("default %s is not a date-time string", lit.JSON)
		}
		if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
			return nil, fmt.Errorf("default %s: %w", lit.JSON, err)
		}
		return jen.Id(g.constant("toolgenTime", "MustTime", s)), nil
	}
	return nil, fmt.Errorf("a default is not supported on a %s field", t.Kind)
}

// constant declares (once per text) a package-level variable holding the value decode.PARSE
// makes of text, and returns its name: generated code parses a multipleOf decimal or a default
// time once, at initialisation, rather than on every call.
func (g *generator) constant(prefix, parse, text string) string {
	key := parse + "\x00" + text
	if name, ok := g.constants[key]; ok {
		g.use(name)
		return name
	}
	name := g.claim(prefix+"#", key)
	g.constants[key] = name
	g.use(name)
	g.decodeDecls = append(g.decodeDecls, decl{name: name, code: jen.Var().Id(name).Op("=").Qual(toolimplPath, parse).Call(jen.Lit(text))})
	return name
}
