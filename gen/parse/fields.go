package parse

import (
	"cmp"
	"go/ast"
	"go/types"
	"slices"
	"strings"
	"unicode"

	"github.com/fatih/structtag"

	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/internal/suggest"
)

// candidate is a struct field that encoding/json would consider, found at some depth of
// embedding; the dominant candidates become the model's fields.
type candidate struct {
	v        *types.Var
	syn      *ast.Field // nil when the syntax is unknown
	tag      string
	jsonName string
	tagged   bool // the name came from a json tag
	json     jsonOptions
	index    []int // field indexes from the outer struct, for declaration order
	steps    []embedStep
}

// embedStep is one embedded struct traversed to reach a promoted field.
type embedStep struct {
	v       *types.Var
	pointer bool
	typ     types.Type // the embedded struct type, pointer removed
}

// jsonOptions are the options of a json struct tag that matter to the model.
type jsonOptions struct {
	omitEmpty, omitZero bool
}

// embedLevel is a struct whose fields are scanned at one depth of the breadth-first walk.
type embedLevel struct {
	st    *types.Struct
	syn   *ast.StructType
	index []int
	steps []embedStep
	key   string // TypeString of the embedded named type; "" for the outer struct
}

// fields fills mt.Fields with the JSON properties of st as encoding/json sees them: exported
// fields by their json names, "-" left out, embedded structs promoted breadth first, a
// shallower field hiding deeper ones, and two fields of the same name at the same depth
// hiding each other unless exactly one has a json tag name.
func (p *parser) fields(mt *model.Type, st *types.Struct, syn *ast.StructType, s *site) {
	var cands []candidate
	visited := map[string]bool{}
	current := []embedLevel{{st: st, syn: syn}}
	for len(current) > 0 {
		var next []embedLevel
		levelVisited := map[string]bool{}
		for _, lv := range current {
			if lv.key != "" {
				// A struct embedded at a shallower depth already gave its fields; embedding
				// cycles (type A struct{ *A }) end here.
				if visited[lv.key] {
					continue
				}
				levelVisited[lv.key] = true
			}
			p.scanLevel(lv, s, &cands, &next)
		}
		for k := range levelVisited {
			visited[k] = true
		}
		current = next
	}

	for _, c := range p.dominant(cands, s) {
		if f := p.field(c, s); f != nil {
			mt.Fields = append(mt.Fields, f)
		}
	}
}

// scanLevel considers every field of one struct: a field becomes a candidate, or an unnamed
// embedded struct is queued for the next depth.
func (p *parser) scanLevel(lv embedLevel, s *site, cands *[]candidate, next *[]embedLevel) {
	syntax := fieldSyntax(lv.st, lv.syn)
	for i := range lv.st.NumFields() {
		v := lv.st.Field(i)
		var fsyn *ast.Field
		if syntax != nil {
			fsyn = syntax[i]
		}
		ft := types.Unalias(v.Type())
		pointer := false
		if ptr, ok := ft.(*types.Pointer); ok && v.Anonymous() {
			ft, pointer = types.Unalias(ptr.Elem()), true
		}
		_, isStruct := ft.Underlying().(*types.Struct)
		if v.Anonymous() {
			// An unexported embedded type still promotes its exported fields when it is a
			// struct; anything else unexported is invisible to encoding/json.
			if !v.Exported() && !isStruct {
				continue
			}
		} else if !v.Exported() {
			continue
		}
		tag := lv.st.Tag(i)
		name, opts, skip := p.jsonTag(v, fsyn, tag, s)
		if skip {
			continue
		}
		index := append(slices.Clone(lv.index), i)
		if name != "" || !v.Anonymous() || !isStruct {
			jsonName := name
			if jsonName == "" {
				jsonName = v.Name()
			}
			*cands = append(*cands, candidate{v: v, syn: fsyn, tag: tag, jsonName: jsonName,
				tagged: name != "", json: opts, index: index, steps: lv.steps})
			continue
		}
		lvl := embedLevel{
			st:    ft.Underlying().(*types.Struct),
			index: index,
			steps: append(slices.Clone(lv.steps), embedStep{v: v, pointer: pointer, typ: ft}),
		}
		if n, ok := ft.(*types.Named); ok {
			lvl.key = types.TypeString(n, nil)
			if n.Obj().Pkg() != nil {
				lvl.syn = p.sourceFor(n.Obj().Pkg().Path()).structSyntax(n.Obj().Name())
			}
		}
		*next = append(*next, lvl)
	}
}

// jsonTag reads the json key of a field's tag: the property name ("" for the Go name), the
// options, and whether the field is left out ("-").
func (p *parser) jsonTag(v *types.Var, fsyn *ast.Field, tag string, s *site) (name string, opts jsonOptions, skip bool) {
	if tag == "" {
		return "", opts, false
	}
	pos := p.fieldPos(v, fsyn)
	tags, err := structtag.Parse(tag)
	if err != nil {
		p.errorf(pos, "a struct tag is key:\"value\" pairs separated by spaces, e.g. `json:\"city\" tool:\"minLength=1\"`",
			"malformed struct tag of field %s: %v", v.Name(), err)
		return "", opts, false
	}
	if tags == nil {
		return "", opts, false
	}
	for _, key := range tags.Keys() {
		if misspelledToolKey(key) {
			p.errorf(pos, "toolgen reads constraints only from the tool key, so these are ignored",
				"struct tag key %q of field %s is not toolgen's; did you mean tool:%q?", key, v.Name(), tagValue(tags, key))
		}
	}
	jt, err := tags.Get("json")
	if err != nil || jt == nil {
		return "", opts, false
	}
	if jt.Name == "-" && len(jt.Options) == 0 {
		return "", opts, true
	}
	name = jt.Name
	if name != "" && !ValidJSONName(name) {
		p.diags.Warnf(pos, "json name %q of field %s is not valid; encoding/json uses %q instead", name, v.Name(), v.Name()).
			WithHint("use letters, digits and !#$%%&()*+-./:;<=>?@[]^_{|}~ and spaces")
		name = ""
	}
	for _, o := range jt.Options {
		switch o {
		case "omitempty":
			opts.omitEmpty = true
		case "omitzero":
			opts.omitZero = true
		case "string":
			p.errorf(pos, "remove the string option: toolgen reads and writes numbers and booleans as JSON numbers and booleans",
				"json option \"string\" of field %s is not supported", v.Name())
		case "":
		default:
			d := p.diags.Warnf(pos, "unknown json option %q of field %s", o, v.Name())
			if c := suggest.Closest(o, []string{"omitempty", "omitzero", "string"}); c != "" {
				d.WithHint("did you mean %q?", c)
			}
		}
	}
	return name, opts, false
}

// otherTagKeys are tag keys of other libraries that look like tool: they are left alone.
var otherTagKeys = []string{"toml"}

// misspelledToolKey reports whether a struct tag key other than tool is most likely meant to
// be tool: a longer word starting with it (tools, toolgen, tool_) or a typo of it (tol, Tool),
// but not another library's key (toml).
func misspelledToolKey(key string) bool {
	lower := strings.ToLower(key)
	if key == tagKey || slices.Contains(otherTagKeys, lower) {
		return false
	}
	return strings.HasPrefix(lower, tagKey) || suggest.Closest(key, []string{tagKey}) != ""
}

// tagValue is the value of key in a parsed struct tag, options included.
func tagValue(tags *structtag.Tags, key string) string {
	t, err := tags.Get(key)
	if err != nil {
		return ""
	}
	return t.Value()
}

// ValidJSONName is encoding/json's rule for tag names; an invalid one falls back to the Go name.
func ValidJSONName(s string) bool {
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// dominant applies encoding/json's rules for fields sharing a JSON name and returns the
// survivors in declaration order.
func (p *parser) dominant(cands []candidate, s *site) []candidate {
	byName := slices.Clone(cands)
	slices.SortStableFunc(byName, func(a, b candidate) int {
		return cmp.Or(strings.Compare(a.jsonName, b.jsonName), cmp.Compare(len(a.index), len(b.index)),
			boolOrder(a.tagged, b.tagged), slices.Compare(a.index, b.index))
	})
	var out []candidate
	for i := 0; i < len(byName); {
		j := i + 1
		for j < len(byName) && byName[j].jsonName == byName[i].jsonName {
			j++
		}
		group := byName[i:j]
		i = j
		if len(group) > 1 && len(group[0].index) == len(group[1].index) && group[0].tagged == group[1].tagged {
			p.diags.Warnf(s.pos, "fields %s and %s of %s both have the JSON name %q; encoding/json ignores both",
				goPath(group[0]), goPath(group[1]), s.root, group[0].jsonName).
				WithHint("rename one with a json tag, or tag the one that should win")
			continue
		}
		out = append(out, group[0])
	}
	slices.SortFunc(out, func(a, b candidate) int { return slices.Compare(a.index, b.index) })
	return out
}

// boolOrder sorts true first.
func boolOrder(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return -1
	}
	return 1
}

// goPath is the Go selector path of a candidate below its struct: "Base.ID".
func goPath(c candidate) string {
	var parts []string
	for _, st := range c.steps {
		parts = append(parts, st.v.Name())
	}
	return strings.Join(append(parts, c.v.Name()), ".")
}

// fieldPos is the position of the field's name (or of the type of an embedded field).
func (p *parser) fieldPos(v *types.Var, fsyn *ast.Field) model.Position {
	if fsyn != nil {
		for _, n := range fsyn.Names {
			if n.Name == v.Name() {
				return p.l.Position(n.Pos())
			}
		}
		if len(fsyn.Names) == 0 {
			return p.l.Position(fsyn.Type.Pos())
		}
	}
	return p.l.Position(v.Pos())
}

// field builds the model of one surviving candidate.
func (p *parser) field(c candidate, s *site) *model.Field {
	pos := p.fieldPos(c.v, c.syn)
	fs := s.field(goPath(c), pos)
	f := &model.Field{
		Pos:       pos,
		GoName:    c.v.Name(),
		JSONName:  c.jsonName,
		OmitEmpty: c.json.omitEmpty,
		OmitZero:  c.json.omitZero,
	}
	path := ""
	for _, st := range c.steps {
		path += st.v.Name()
		et := p.convert(st.typ, s.field(path, pos))
		if et == nil {
			return nil
		}
		f.Embedded = append(f.Embedded, model.Embedded{GoName: st.v.Name(), Pointer: st.pointer, Type: et})
		path += "."
	}
	var typeSyn ast.Expr
	if c.syn != nil {
		typeSyn = c.syn.Type
		f.Description = docText(c.syn.Doc)
		if f.Description == "" {
			f.Description = docText(c.syn.Comment)
		}
	}
	f.Type = p.convertSyntax(c.v.Type(), typeSyn, fs)
	if f.Type == nil {
		return nil
	}
	var lit *ast.BasicLit
	if c.syn != nil {
		lit = c.syn.Tag
	}
	p.applyTag(f, c.tag, lit, fs)
	return f
}
