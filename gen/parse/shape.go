package parse

import (
	"go/types"

	"github.com/toolgen-go/toolgen/gen/model"
)

// shape spells the underlying type of a named argument or result type for the generated
// code's stale-type guard (model.Type.Shape). It returns nil when generated code, which lives
// in the tools' package, cannot spell it: the guard then leaves that type out.
func (p *parser) shape(n *types.Named) *model.GoType {
	return p.spell(n.Underlying())
}

// spell spells t as generated code in the tools' package writes it, or returns nil.
func (p *parser) spell(t types.Type) *model.GoType {
	switch t := t.(type) {
	case *types.Alias:
		return p.spell(types.Unalias(t))
	case *types.Basic:
		if t.Kind() == types.UnsafePointer {
			return &model.GoType{Kind: model.GoNamed, Path: "unsafe", Name: "Pointer"}
		}
		return &model.GoType{Kind: model.GoNamed, Name: t.Name()}
	case *types.Named:
		if isNamed(t, "encoding/json/jsontext", "Value") {
			// From Go 1.27 json.RawMessage is an alias of jsontext.Value: spelled
			// json.RawMessage (the same type there, the only one before), so the guard reads
			// and builds alike on every Go.
			return &model.GoType{Kind: model.GoNamed, Path: "encoding/json", Name: "RawMessage"}
		}
		obj := t.Obj()
		g := &model.GoType{Kind: model.GoNamed, Name: obj.Name()}
		if obj.Pkg() != nil { // nil: error, comparable
			g.Path = obj.Pkg().Path()
			if !obj.Exported() && g.Path != p.pkg.PkgPath {
				return nil
			}
			if obj.Parent() != nil && obj.Parent() != obj.Pkg().Scope() {
				return nil // declared inside a function: no name reaches it
			}
		}
		for i := range t.TypeArgs().Len() {
			a := p.spell(t.TypeArgs().At(i))
			if a == nil {
				return nil
			}
			g.Args = append(g.Args, a)
		}
		return g
	case *types.Pointer:
		return p.spellElem(model.GoPointer, t.Elem())
	case *types.Slice:
		return p.spellElem(model.GoSlice, t.Elem())
	case *types.Array:
		g := p.spellElem(model.GoArray, t.Elem())
		if g != nil {
			g.Len = t.Len()
		}
		return g
	case *types.Map:
		g := p.spellElem(model.GoMap, t.Elem())
		if g != nil {
			if g.Key = p.spell(t.Key()); g.Key == nil {
				return nil
			}
		}
		return g
	case *types.Struct:
		g := &model.GoType{Kind: model.GoStruct}
		for i := range t.NumFields() {
			f := t.Field(i)
			// A field's identity includes its package when unexported: only the tools'
			// package can declare one identical to it.
			if !f.Exported() && f.Pkg() != nil && f.Pkg().Path() != p.pkg.PkgPath {
				return nil
			}
			ft := p.spell(f.Type())
			if ft == nil {
				return nil
			}
			g.Fields = append(g.Fields, model.GoField{Name: f.Name(), Embedded: f.Embedded(), Type: ft, Tag: t.Tag(i)})
		}
		return g
	case *types.Interface:
		if t.Empty() {
			return &model.GoType{Kind: model.GoNamed, Name: "any"}
		}
	}
	return nil // a function, channel, non-empty interface or type parameter
}

func (p *parser) spellElem(kind model.GoTypeKind, elem types.Type) *model.GoType {
	e := p.spell(elem)
	if e == nil {
		return nil
	}
	return &model.GoType{Kind: kind, Elem: e}
}
