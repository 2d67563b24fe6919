package schema

import (
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/internal/jsonpointer"
)

// plan decides which named types of one schema's tree go to $defs: a named struct used more
// than once or marked //tool:defs, and any named type that contains itself (only a $ref can end the recursion). It
// returns the $ref of each such type (the root's is "#") and the $defs entries to render.
func plan(root *model.Type) (refs map[*model.Type]string, defs []defEntry) {
	p := planner{
		uses:      map[*model.Type]int{},
		visited:   map[*model.Type]bool{},
		onPath:    map[*model.Type]bool{},
		recursive: map[*model.Type]bool{},
	}
	p.walk(root)

	refs = map[*model.Type]string{}
	var chosen []*model.Type
	for _, t := range p.order {
		switch {
		case !p.recursive[t] && (t.Kind != model.KindStruct || p.uses[t] < 2 && !t.AlwaysDef):
		case t == root:
			// The root cannot be a $defs entry (providers want an object at the top), so
			// recursion back to it refers to the whole document.
			refs[t] = "#"
		default:
			chosen = append(chosen, t)
		}
	}
	names := defNames(chosen)
	for _, t := range chosen {
		refs[t] = jsonpointer.DefRef(names[t])
		defs = append(defs, defEntry{name: names[t], typ: t})
	}
	slices.SortFunc(defs, func(a, b defEntry) int { return strings.Compare(a.name, b.name) })
	return refs, defs
}

type defEntry struct {
	name string
	typ  *model.Type
}

// planner counts the uses of named composite types. Each type's own fields are walked once:
// its subtree appears once in the output whether it is inlined (one use) or in $defs.
type planner struct {
	uses      map[*model.Type]int
	visited   map[*model.Type]bool
	onPath    map[*model.Type]bool // the types being walked, to find recursion
	recursive map[*model.Type]bool
	order     []*model.Type // first-visit order, so names and errors do not depend on maps
}

func (p *planner) walk(t *model.Type) {
	if t == nil {
		return
	}
	if p.onPath[t] {
		// Back to a type being walked: a recursive type. An unnamed cycle cannot come from Go
		// source; the renderer cuts it with an empty schema.
		if t.Named != nil {
			p.recursive[t] = true
			p.uses[t]++
		}
		return
	}
	if t.Named != nil && isComposite(t.Kind) {
		p.uses[t]++
		if p.visited[t] {
			return
		}
		p.visited[t] = true
		p.order = append(p.order, t)
	}
	p.onPath[t] = true
	defer delete(p.onPath, t)
	switch t.Kind {
	case model.KindStruct:
		for _, f := range t.Fields {
			if f != nil {
				p.walk(f.Type)
			}
		}
	case model.KindSlice, model.KindArray, model.KindPointer, model.KindMap:
		p.walk(t.Elem)
	}
}

func isComposite(k model.Kind) bool {
	switch k {
	case model.KindStruct, model.KindSlice, model.KindArray, model.KindMap, model.KindPointer:
		return true
	}
	return false
}

// defNames names the $defs entries: the Go type name, with the names of the type arguments
// appended for an instantiated generic type (Page[Item] → PageItem). Types that would share a
// name are all qualified with their package name (weather.Unit, units.Unit); if that still
// collides, with the import path, slashes turned into dots (example.com.units.Unit); a numeric
// suffix settles what remains. Dots need no escaping in a JSON Pointer or a URI fragment.
func defNames(types []*model.Type) map[*model.Type]string {
	names := make(map[*model.Type]string, len(types))
	levels := []func(*model.Type) string{
		func(t *model.Type) string { return baseName(t, 0) },
		func(t *model.Type) string { return qualify(packageName(t.Named.Path), baseName(t, 0)) },
		func(t *model.Type) string { return qualify(pathName(t.Named.Path), baseName(t, 0)) },
	}
	pending := types
	for _, name := range levels {
		groups := map[string][]*model.Type{}
		for _, t := range pending {
			groups[name(t)] = append(groups[name(t)], t)
		}
		var next []*model.Type
		for _, t := range pending {
			if g := groups[name(t)]; len(g) == 1 && !taken(names, name(t)) {
				names[t] = name(t)
			} else {
				next = append(next, t)
			}
		}
		pending = next
	}
	// Same import path and name, yet different types: a hand-built model. Stay unique.
	for i, t := range pending {
		n := qualify(pathName(t.Named.Path), baseName(t, 0))
		for k := i + 2; taken(names, n); k++ {
			n = qualify(pathName(t.Named.Path), baseName(t, 0)) + "_" + strconv.Itoa(k)
		}
		names[t] = n
	}
	return names
}

func taken(names map[*model.Type]string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

func qualify(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// baseName is the name of a type as it appears in a def name: the Go name plus its type
// arguments, or for an unnamed type argument a name built from its shape ([]Item → SliceItem).
func baseName(t *model.Type, depth int) string {
	if t == nil || depth > 8 {
		return "Any"
	}
	if t.Named != nil {
		var b strings.Builder
		b.WriteString(t.Named.Name)
		for _, a := range t.Named.TypeArgs {
			b.WriteString(baseName(a, depth+1))
		}
		return b.String()
	}
	switch t.Kind {
	case model.KindString:
		return "String"
	case model.KindBool:
		return "Bool"
	case model.KindInt, model.KindUint, model.KindFloat:
		name := map[model.Kind]string{model.KindInt: "Int", model.KindUint: "Uint", model.KindFloat: "Float"}[t.Kind]
		if t.Bits != 0 {
			name += strconv.Itoa(t.Bits)
		}
		return name
	case model.KindSlice:
		return "Slice" + baseName(t.Elem, depth+1)
	case model.KindArray:
		return "Array" + strconv.Itoa(t.Len) + baseName(t.Elem, depth+1)
	case model.KindMap:
		return "Map" + baseName(t.Key, depth+1) + baseName(t.Elem, depth+1)
	case model.KindPointer:
		return "Ptr" + baseName(t.Elem, depth+1)
	case model.KindBytes:
		return "Bytes"
	case model.KindTime:
		return "Time"
	case model.KindDuration:
		return "Duration"
	case model.KindRawJSON:
		return "RawMessage"
	case model.KindStruct:
		return "Struct"
	case model.KindText:
		return "Text"
	}
	return "Any"
}

// packageName guesses the package name from the import path: its last element, skipping a
// major version suffix (example.com/units/v2 → units), made a Go identifier.
func packageName(importPath string) string {
	elems := strings.Split(importPath, "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && isMajorVersion(last) {
		last = elems[len(elems)-2]
	}
	return identifier(last)
}

func isMajorVersion(s string) bool {
	if len(s) < 2 || s[0] != 'v' {
		return false
	}
	_, err := strconv.Atoi(s[1:])
	return err == nil
}

// pathName is the whole import path as a def-name prefix, slashes turned into dots.
func pathName(importPath string) string {
	return strings.ReplaceAll(strings.Trim(importPath, "/"), "/", ".")
}

// identifier keeps letters, digits and underscores, replacing anything else with "_".
func identifier(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 0x7f {
			return r
		}
		return '_'
	}, s)
}
