package client

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// dedupe merges the named types that declare the same Go type: a server that uses one Go
// type in several places lists its schema once per use (inlined, or under each document's
// $defs), and a client with a type per use could not pass one tool's result to another tool.
// Two types are the same when they would be written alike but for their names and doc
// comments: the same enum values in the same order, or the same fields (names, tags, docs)
// of the same types, where named types are compared by what they merged into. Roots
// (<Method>Args, <Method>Result) are never merged: every method keeps its own types.
//
// A merged type is named for what it is rather than where it was first met: its $defs name,
// else the property name all its uses share (status → Status), else the shortest of its
// names; when another type has that name, the name of its first use.
func (b *builder) dedupe() {
	if len(b.pkg.Types) < 2 {
		return
	}
	// Partition refinement in reverse: start with every type alone and merge types whose
	// signatures match, until no merge happens. A merge can make the types that refer to the
	// merged ones match, hence the loop; it ends, as every round but the last merges.
	rep := map[*Type]*Type{}
	for _, t := range b.pkg.Types {
		rep[t] = t
	}
	for {
		first := map[string]*Type{}
		merged := false
		for _, t := range b.pkg.Types {
			if t.root || rep[t] != t {
				continue
			}
			sig := signature(t, rep)
			if r, ok := first[sig]; ok {
				for u, v := range rep {
					if v == t {
						rep[u] = r
					}
				}
				merged = true
				continue
			}
			first[sig] = t
		}
		if !merged {
			break
		}
	}
	groups := map[*Type][]*Type{}
	for _, t := range b.pkg.Types {
		groups[rep[t]] = append(groups[rep[t]], t)
	}
	var kept []*Type
	for _, t := range b.pkg.Types {
		if rep[t] != t {
			continue
		}
		kept = append(kept, t)
		if g := groups[t]; len(g) > 1 {
			b.merge(t, g)
		}
	}
	b.pkg.Types = kept
	for _, tool := range b.pkg.Tools {
		retype(&tool.Args, rep)
		retype(&tool.Result, rep)
	}
	for _, t := range kept {
		for _, f := range t.Fields {
			retype(&f.Type, rep)
		}
	}
}

// merge makes t the one type of group (t first in it): its name, constants, doc and origin.
func (b *builder) merge(t *Type, group []*Type) {
	for _, u := range group {
		b.types.release(u.Name)
		for _, v := range u.Values {
			b.types.release(v.Name)
		}
	}
	name := mergedName(group)
	if _, taken := b.types.owners[name]; taken {
		name = t.Name // free again, and no rename to warn about
	}
	t.Name = b.claimType(name, t.Pointer)
	for _, v := range t.Values {
		suffix := "Empty"
		if v.Value != "" {
			suffix = goSuffix(v.Value)
		}
		v.Name = b.claimType(t.Name+suffix, t.Pointer)
	}
	origins := make([]string, 0, len(group))
	docs := map[string]bool{}
	for _, u := range group {
		origins = append(origins, u.Origin)
		docs[u.Doc] = true
	}
	const shown = 3
	if len(origins) > shown {
		origins = append(origins[:shown], strconv.Itoa(len(group)-shown)+" more schemas")
	}
	t.Origin = strings.Join(origins, ", and from ")
	if def := slices.IndexFunc(group, func(u *Type) bool { return u.def != "" }); def >= 0 {
		t.Doc = group[def].Doc // a $defs entry describes the type; a property, its use
	} else if len(docs) > 1 {
		t.Doc = "" // the uses describe themselves in their fields' comments
	}
}

// mergedName names a merged type: the first $defs name, else the one property name of every
// use, else the shortest name the uses had (the first of those in declaration order).
func mergedName(group []*Type) string {
	for _, u := range group {
		if u.def != "" {
			return goName(u.def)
		}
	}
	prop := group[0].prop
	for _, u := range group {
		if u.prop == "" || goName(u.prop) != goName(prop) {
			prop = ""
			break
		}
	}
	if prop != "" {
		return goName(prop)
	}
	short := group[0].Name
	for _, u := range group[1:] {
		if len(u.Name) < len(short) {
			short = u.Name
		}
	}
	return short
}

// signature is what makes t the Go type it is, but for its name and doc.
func signature(t *Type, rep map[*Type]*Type) string {
	var s strings.Builder
	switch t.Kind {
	case EnumType:
		s.WriteString("enum")
		for _, v := range t.Values {
			s.WriteString(" " + strconv.Quote(v.Value))
		}
	case StructType:
		s.WriteString("struct")
		for _, f := range t.Fields {
			fmt.Fprintf(&s, " %s %q %t %q %s;", f.Name, f.JSON, f.OmitEmpty, f.Doc, typeSignature(f.Type, t, rep))
		}
	}
	return s.String()
}

func typeSignature(g GoType, self *Type, rep map[*Type]*Type) string {
	switch g.Kind {
	case KindSlice, KindMap, KindPointer:
		return strconv.Itoa(int(g.Kind)) + "(" + typeSignature(*g.Elem, self, rep) + ")"
	case KindNamed:
		if g.Named == self {
			return "self" // so that two copies of a type that holds itself match
		}
		return fmt.Sprintf("%p", rep[g.Named])
	}
	return strconv.Itoa(int(g.Kind))
}

// retype points every named type in g at the type it merged into.
func retype(g *GoType, rep map[*Type]*Type) {
	switch g.Kind {
	case KindSlice, KindMap, KindPointer:
		retype(g.Elem, rep)
	case KindNamed:
		if r, ok := rep[g.Named]; ok {
			g.Named = r
		}
	}
}
