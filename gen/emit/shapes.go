package emit

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen-go/toolgen/gen/model"
)

// guardedTypes returns the named types the tools' generated code depends on that have a
// shape, each once, ordered by their Go names.
func (g *generator) guardedTypes() []*model.Type {
	seen := map[*model.Type]bool{}
	var out []*model.Type
	var walk func(t *model.Type)
	walk = func(t *model.Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		if t.Named != nil && t.Shape != nil {
			out = append(out, t)
		}
		if t.Named != nil {
			for _, a := range t.Named.TypeArgs {
				walk(a)
			}
		}
		walk(t.Elem)
		walk(t.Key)
		for _, f := range t.Fields {
			for _, e := range f.Embedded {
				walk(e.Type)
			}
			walk(f.Type)
		}
	}
	for _, tool := range g.pkg.Tools {
		walk(tool.Args)
		walk(tool.Result)
	}
	slices.SortFunc(out, func(a, b *model.Type) int { return cmp.Compare(typeID(a), typeID(b)) })
	return out
}

// namedExpr spells a named type of the model, with its type arguments.
func (g *generator) namedExpr(n *model.GoName) jen.Code {
	q := g.qual(n.Path, n.Name)
	if len(n.TypeArgs) == 0 {
		return q
	}
	var args []jen.Code
	for _, a := range n.TypeArgs {
		args = append(args, g.goTypeExpr(a.Shape, a))
	}
	return q.Types(args...)
}

// goTypeExpr spells s; t, when not nil, is the model type it describes, whose name wins.
func (g *generator) goTypeExpr(s *model.GoType, t *model.Type) jen.Code {
	if t != nil {
		if c, err := g.typeExpr(t); err == nil {
			return c
		}
	}
	switch s.Kind {
	case model.GoNamed:
		if s.Path == "" {
			return jen.Id(s.Name)
		}
		q := g.qual(s.Path, s.Name)
		if len(s.Args) == 0 {
			return q
		}
		var args []jen.Code
		for _, a := range s.Args {
			args = append(args, g.goTypeExpr(a, nil))
		}
		return q.Types(args...)
	case model.GoPointer:
		return jen.Op("*").Add(g.goTypeExpr(s.Elem, nil))
	case model.GoSlice:
		return jen.Index().Add(g.goTypeExpr(s.Elem, nil))
	case model.GoArray:
		return jen.Index(jen.Lit(int(s.Len))).Add(g.goTypeExpr(s.Elem, nil))
	case model.GoMap:
		return jen.Map(g.goTypeExpr(s.Key, nil)).Add(g.goTypeExpr(s.Elem, nil))
	default: // model.GoStruct
		var fields []jen.Code
		for _, f := range s.Fields {
			var field *jen.Statement
			if f.Embedded {
				field = jen.Add(g.goTypeExpr(f.Type, nil))
			} else {
				field = jen.Id(f.Name).Add(g.goTypeExpr(f.Type, nil))
			}
			if f.Tag != "" {
				field = field.Op(tagLiteral(f.Tag))
			}
			fields = append(fields, field)
		}
		return jen.Struct(fields...)
	}
}

// tagLiteral writes a struct tag as the source would: raw unless it holds a backquote.
func tagLiteral(tag string) string {
	if strings.Contains(tag, "`") {
		return strconv.Quote(tag)
	}
	return "`" + tag + "`"
}
