package emit

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/gen/model"
)

// Import paths the generated code refers to. They are named up front (File.ImportName) so
// aliases never depend on the order of first use.
const (
	runtimePath  = "github.com/toolgen-go/toolgen/runtime"
	toolimplPath = "github.com/toolgen-go/toolgen/runtime/toolimpl"
	decodePath   = "github.com/toolgen-go/toolgen/runtime/decode"
	encodePath   = "github.com/toolgen-go/toolgen/runtime/encode"
)

// typeExpr renders the Go type of t. Unnamed struct types cannot be spelled without their
// tags, so they are refused: generated code reaches them through generic helpers instead.
func (g *generator) typeExpr(t *model.Type) (jen.Code, error) {
	if t.Named != nil {
		q := g.qual(t.Named.Path, t.Named.Name)
		if len(t.Named.TypeArgs) == 0 {
			return q, nil
		}
		var args []jen.Code
		for _, a := range t.Named.TypeArgs {
			c, err := g.typeExpr(a)
			if err != nil {
				return nil, err
			}
			args = append(args, c)
		}
		return q.Types(args...), nil
	}
	switch t.Kind {
	case model.KindString:
		return jen.String(), nil
	case model.KindBool:
		return jen.Bool(), nil
	case model.KindInt:
		return jen.Id(fmt.Sprintf("int%s", bitsSuffix(t.Bits))), nil
	case model.KindUint:
		return jen.Id(fmt.Sprintf("uint%s", bitsSuffix(t.Bits))), nil
	case model.KindFloat:
		return jen.Id(fmt.Sprintf("float%d", t.Bits)), nil
	case model.KindAny:
		return jen.Any(), nil
	case model.KindBytes:
		return jen.Index().Byte(), nil
	case model.KindSlice, model.KindArray, model.KindMap, model.KindPointer:
		elem, err := g.typeExpr(t.Elem)
		if err != nil {
			return nil, err
		}
		switch t.Kind {
		case model.KindSlice:
			return jen.Index().Add(elem), nil
		case model.KindArray:
			return jen.Index(jen.Lit(t.Len)).Add(elem), nil
		case model.KindPointer:
			return jen.Op("*").Add(elem), nil
		default:
			key, err := g.typeExpr(t.Key)
			if err != nil {
				return nil, err
			}
			return jen.Map(key).Add(elem), nil
		}
	}
	return nil, fmt.Errorf("an unnamed %s type cannot be named in generated code; declare a named type for it", t.Kind)
}

func bitsSuffix(bits int) string {
	if bits == 0 {
		return ""
	}
	return fmt.Sprint(bits)
}

// qual refers to a name declared in path, unqualified when path is the generated package.
func (g *generator) qual(path, name string) *jen.Statement {
	if path == g.pkg.Path {
		return jen.Id(name)
	}
	return jen.Qual(path, name)
}

// typeIdent returns a Go identifier fragment naming a named type uniquely within the
// generated file: WeatherArgs, other_Unit, PageOfItem.
func (g *generator) typeIdent(t *model.Type) string {
	if id, ok := g.idents[t]; ok {
		return id
	}
	base := identFragment(t)
	id := base
	for n := 2; g.identTaken[id]; n++ {
		id = fmt.Sprintf("%s%d", base, n)
	}
	g.identTaken[id] = true
	g.idents[t] = id
	return id
}

func identFragment(t *model.Type) string {
	if t.Named == nil {
		k := t.Kind.String() // ASCII, lower case
		return strings.ToUpper(k[:1]) + k[1:]
	}
	var b strings.Builder
	b.WriteString(t.Named.Name)
	if len(t.Named.TypeArgs) > 0 {
		b.WriteString("Of")
		for _, a := range t.Named.TypeArgs {
			b.WriteString(identFragment(a))
		}
	}
	return sanitize(b.String())
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return r
		}
		return -1
	}, s)
}

// toolIdent is the identifier fragment of a tool: its Go handler (or type) name with the
// receiver, e.g. GetWeather, ServiceSearch.
func toolIdent(t *model.Tool) string {
	name := t.Handler.Name
	if t.Client {
		name = t.Args.Named.Name
	}
	if r := t.Handler.Receiver; r != nil {
		name = r.TypeName + name
	}
	return sanitize(name)
}
