package parse

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/packages"
)

// source indexes the declarations of one package with syntax: the package being parsed, or a
// package loaded later through load.Loader.Syntax for the doc comments and constant order of a
// type declared there. Declarations are found by name, because a package loaded on its own has
// types.Objects distinct from the ones its importers see.
type source struct {
	pkg    *packages.Package
	types  map[string]typeDecl
	consts []constDecl // in source order: files in load order, then position
}

// typeDecl is one type declaration with the comment that documents it.
type typeDecl struct {
	spec *ast.TypeSpec
	doc  *ast.CommentGroup
}

// constDecl is one named constant with its doc (or line) comment.
type constDecl struct {
	name    *ast.Ident
	obj     *types.Const
	doc     *ast.CommentGroup
	comment *ast.CommentGroup
}

func newSource(pkg *packages.Package) *source {
	s := &source{pkg: pkg, types: map[string]typeDecl{}}
	for _, f := range pkg.Syntax {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gd.Specs {
				switch spec := spec.(type) {
				case *ast.TypeSpec:
					s.types[spec.Name.Name] = typeDecl{spec: spec, doc: typeDoc(gd, spec)}
				case *ast.ValueSpec:
					if gd.Tok != token.CONST {
						continue
					}
					doc := spec.Doc
					if doc == nil && !gd.Lparen.IsValid() {
						doc = gd.Doc
					}
					for _, name := range spec.Names {
						c, _ := pkg.TypesInfo.Defs[name].(*types.Const)
						if c == nil || name.Name == "_" {
							continue
						}
						s.consts = append(s.consts, constDecl{name: name, obj: c, doc: doc, comment: spec.Comment})
					}
				}
			}
		}
	}
	return s
}

// typeDoc is the comment that documents the type ts of declaration gd: its own doc, or else the
// doc above the declaration when ts is its only spec ("type X ..." or "type ( X ... )"). The
// doc of a group of several types documents none of them.
func typeDoc(gd *ast.GenDecl, ts *ast.TypeSpec) *ast.CommentGroup {
	if ts.Doc == nil && len(gd.Specs) == 1 {
		return gd.Doc
	}
	return ts.Doc
}

// structSyntax returns the struct type expression of the named type name, or nil when the
// declaration is not a struct literal (an alias, a definition from another named type).
func (s *source) structSyntax(name string) *ast.StructType {
	if s == nil {
		return nil
	}
	d, ok := s.types[name]
	if !ok {
		return nil
	}
	st, _ := ast.Unparen(d.spec.Type).(*ast.StructType)
	return st
}

// fieldSyntax pairs every field of st with its *ast.Field, or returns nil when the syntax does
// not match the type (which happens only when the loaded source differs from the export data).
func fieldSyntax(st *types.Struct, syn *ast.StructType) []*ast.Field {
	if syn == nil || syn.Fields == nil {
		return nil
	}
	var out []*ast.Field
	for _, f := range syn.Fields.List {
		n := max(len(f.Names), 1)
		for range n {
			out = append(out, f)
		}
	}
	if len(out) != st.NumFields() {
		return nil
	}
	return out
}
