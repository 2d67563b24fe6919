package emit

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"unicode"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/gen/model"
)

// Import paths the generated code refers to: toolgen's runtime and toolimpl only, which holds
// what generated code needs of runtime/decode and runtime/encode. They are named up front
// (File.ImportName) so aliases never depend on the order of first use.
const (
	runtimePath  = "github.com/toolgen-go/toolgen/runtime"
	toolimplPath = "github.com/toolgen-go/toolgen/runtime/toolimpl"
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

// Generated names derive from what they name, never from the order declarations were met,
// so that a change to one field changes the declarations of that field and nothing else (a
// -check diff, a code review): the tables of a type are named after the type
// (toolgenStructWeatherArgs), a plain value after its kind (toolgenValueString), and a value,
// rule or function that several fields may share after its content, with a hash of the
// declaration it renders (toolgenString_3f9a1c2e). Where two different things would get one
// name, the choice of which keeps it depends only on the set of them, never on an order.

// hashDigits is how many hex digits of a content hash a name carries: 32 bits, so that a
// package would need tens of thousands of distinct rules before two of them are likely to
// meet; claim lengthens the hash of the one that does.
const hashDigits = 8

// maxFragment caps the part of a name that comes from the user's names (a type, its type
// arguments, a property): a longer one keeps its start and ends with a hash of the whole.
const maxFragment = 48

// contentHash is the hex FNV-1a hash of key: stable across runs, Go versions and machines.
func contentHash(key string) string {
	h := fnv.New64a()
	h.Write([]byte(key))
	return fmt.Sprintf("%016x", h.Sum64())
}

// capFragment returns fragment, or for a long one its start followed by "_" and a hash of key.
func capFragment(fragment, key string) string {
	if len(fragment) <= maxFragment {
		return fragment
	}
	return fragment[:maxFragment-hashDigits-1] + "_" + contentHash(key)[:hashDigits]
}

// claim returns the name of the declaration of key: name itself, or, for a name ending in "#",
// what precedes the "#" followed by "_" and a hash of key. A name another key holds already
// (two hashes that meet, a type name that clashes) takes the whole hash instead, and a
// counter past that.
func (g *generator) claim(name, key string) string {
	hash := contentHash(key)
	if prefix, ok := strings.CutSuffix(name, "#"); ok {
		name = prefix + "_" + hash[:hashDigits]
	}
	if other, taken := g.names[name]; taken && other != key {
		base := strings.TrimSuffix(name, "_"+hash[:hashDigits]) + "_" + hash
		name = base
		for n := 2; g.names[name] != "" && g.names[name] != key; n++ {
			name = fmt.Sprintf("%s%d", base, n)
		}
	}
	g.names[name] = key
	return name
}

// typeIdent returns the Go identifier fragment naming a type within the generated file:
// WeatherArgs, PageOfItem; for an unnamed type its kind and a hash of its shape
// (Slice_3f9a1c2e).
func (g *generator) typeIdent(t *model.Type) string {
	if id, ok := g.idents[t]; ok {
		return id
	}
	id := identFragment(t)
	if t.Named == nil {
		id += "_" + contentHash(typeID(t))[:hashDigits]
	} else if owner, ok := g.identOwner[id]; !ok {
		g.identOwner[id] = typeID(t)
	} else if owner != typeID(t) {
		// Met during emission but missed by planIdents: it cannot take a planned name.
		id += "_" + contentHash(typeID(t))[:hashDigits]
	}
	g.idents[t] = id
	return id
}

// planIdents names the named types the package's tools reach before anything is emitted. A
// type keeps the fragment of its name unless another type has the same one (a type of
// another package, a generic instantiation): then the package's own type keeps it, else the
// first by import path and name, and each other adds a hash of its path and name. It also
// chooses which type names each property list several types share (fieldsTable): the one
// whose name sorts first.
func (g *generator) planIdents() {
	seen := map[*model.Type]bool{}
	var named []*model.Type
	var walk func(t *model.Type)
	walk = func(t *model.Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		if t.Named != nil {
			named = append(named, t)
			for _, a := range t.Named.TypeArgs {
				walk(a)
			}
		}
		for _, f := range t.Fields {
			walk(f.Type)
			for _, e := range f.Embedded {
				walk(e.Type)
			}
		}
		walk(t.Elem)
		walk(t.Key)
	}
	for _, tool := range g.pkg.Tools {
		walk(tool.Args)
		walk(tool.Result)
	}
	ids := map[string][]string{}   // fragment -> the distinct types that have it
	foreignIDs := map[string]int{} // 1 for a type declared in another package
	for _, t := range named {
		frag, id := identFragment(t), typeID(t)
		if !slices.Contains(ids[frag], id) {
			ids[frag] = append(ids[frag], id)
		}
		if t.Named.Path != g.pkg.Path {
			foreignIDs[id] = 1
		}
	}
	for frag, types := range ids {
		foreign := func(id string) int { return foreignIDs[id] }
		slices.SortFunc(types, func(a, b string) int { return cmp.Or(cmp.Compare(foreign(a), foreign(b)), strings.Compare(a, b)) })
		g.identOwner[frag] = types[0]
	}
	for _, t := range named {
		frag := identFragment(t)
		if g.identOwner[frag] == typeID(t) {
			g.idents[t] = frag
		} else {
			g.idents[t] = frag + "_" + contentHash(typeID(t))[:hashDigits]
		}
	}
	for _, t := range named {
		if t.Kind != model.KindStruct {
			continue
		}
		key := fieldsKey(t)
		if owner, ok := g.fieldsOwner[key]; !ok || g.idents[t] < owner {
			g.fieldsOwner[key] = g.idents[t]
		}
	}
}

// identFragment is the name of a type as an identifier fragment, capped: WeatherArgs,
// PageOfItem; for an unnamed type its kind (Slice).
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
	frag := sanitize(b.String())
	if frag == "" { // a name of letters outside ASCII
		frag = "T_" + contentHash(typeID(t))[:hashDigits]
	}
	return capFragment(frag, typeID(t))
}

// typeID is the identity of a type as text: the import path and name of a named type (with
// its type arguments), the shape of an unnamed one. Named types end the recursion, so a
// recursive type has a finite identity.
func typeID(t *model.Type) string {
	var b strings.Builder
	writeTypeID(&b, t)
	return b.String()
}

func writeTypeID(b *strings.Builder, t *model.Type) {
	switch {
	case t == nil:
		b.WriteString("nil")
	case t.Named != nil:
		b.WriteString(t.Named.Path + "." + t.Named.Name)
		if len(t.Named.TypeArgs) > 0 {
			b.WriteString("[")
			for i, a := range t.Named.TypeArgs {
				if i > 0 {
					b.WriteString(",")
				}
				writeTypeID(b, a)
			}
			b.WriteString("]")
		}
	default:
		fmt.Fprintf(b, "%s%d[%d]", t.Kind, t.Bits, t.Len)
		if t.Key != nil {
			b.WriteString("key:")
			writeTypeID(b, t.Key)
		}
		if t.Elem != nil {
			b.WriteString("elem:")
			writeTypeID(b, t.Elem)
		}
		if len(t.Fields) > 0 {
			b.WriteString("{")
			for _, f := range t.Fields {
				fmt.Fprintf(b, "%s %q ", f.GoName, f.JSONName)
				writeTypeID(b, f.Type)
				b.WriteString(";")
			}
			b.WriteString("}")
		}
	}
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

// pointee is t without its pointers, as schemas describe it (*T and T have one schema).
func pointee(t *model.Type) *model.Type {
	for i := 0; t != nil && t.Kind == model.KindPointer && t.Elem != nil && i < 100; i++ {
		t = t.Elem
	}
	return t
}

// use records that the field being emitted uses the declaration name.
func (g *generator) use(name string) {
	if g.field == "" || slices.Contains(g.usedBy[name], g.field) {
		return
	}
	if g.usedBy == nil {
		g.usedBy = map[string][]string{}
	}
	g.usedBy[name] = append(g.usedBy[name], g.field)
}

// maxUsedBy bounds the fields a comment lists, so that a rule every field shares does not get
// a paragraph.
const maxUsedBy = 6

// usedByComment says which fields a content-named declaration (toolgenString_3f9a1c2e) serves,
// since its name cannot: "toolgenString_3f9a1c2e is used by A.X and B.Y." Other names say what
// they are, and get none.
func usedByComment(name string, fields []string) string {
	if len(fields) == 0 || !contentNamed(name) {
		return ""
	}
	fields = slices.Sorted(slices.Values(fields))
	more := ""
	if len(fields) > maxUsedBy {
		more = fmt.Sprintf(" and %d more", len(fields)-maxUsedBy)
		fields = fields[:maxUsedBy]
	}
	list := strings.Join(fields, ", ")
	if more == "" && len(fields) > 1 {
		list = strings.Join(fields[:len(fields)-1], ", ") + " and " + fields[len(fields)-1]
	}
	return fmt.Sprintf("%s is used by %s%s.", name, list, more)
}

// contentNamed reports whether name ends in the hash claim gives a name made from content.
func contentNamed(name string) bool {
	i := strings.LastIndexByte(name, '_')
	if i < 0 || len(name)-i-1 < hashDigits {
		return false
	}
	for _, r := range name[i+1 : i+1+hashDigits] {
		if !strings.ContainsRune("0123456789abcdef", r) {
			return false
		}
	}
	return true
}
