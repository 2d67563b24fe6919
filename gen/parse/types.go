package parse

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/gen/model"
)

// site says where a type is being converted, for messages: the root type (args or result),
// the Go path below it, and the position to report at (the field, or the handler).
type site struct {
	root   string
	path   string // "Opts.C", "Tags[]", "Labels[key]"
	pos    model.Position
	result string // the handler's name when converting its result type
}

func (s *site) field(goName string, pos model.Position) *site {
	n := *s
	if n.path != "" {
		n.path += "."
	}
	n.path += goName
	n.pos = pos
	return &n
}

func (s *site) suffix(seg string) *site {
	n := *s
	n.path += seg
	return &n
}

// String names the place: "WeatherArgs.Opts.C (field Opts.C)" or
// "Weather.C (result of GetWeather)".
func (s *site) String() string {
	full := s.root
	if s.path != "" {
		if !strings.HasPrefix(s.path, "[") {
			full += "."
		}
		full += s.path
	}
	switch {
	case s.result != "":
		return fmt.Sprintf("%s (result of %s)", full, s.result)
	case s.path == "":
		return full
	}
	return fmt.Sprintf("%s (field %s)", full, s.path)
}

// Interfaces the type table tests for, built once: go/types compares methods structurally.
var (
	textUnmarshaler = methodIface("UnmarshalText", true)
	textMarshaler   = methodIface("MarshalText", false)
	jsonUnmarshaler = methodIface("UnmarshalJSON", true)
	jsonMarshaler   = methodIface("MarshalJSON", false)
	// isZeroer is interface{ IsZero() bool }, which encoding/json's omitzero calls.
	isZeroer = types.NewInterfaceType([]*types.Func{types.NewFunc(token.NoPos, nil, "IsZero",
		types.NewSignatureType(nil, nil, nil, nil, types.NewTuple(types.NewVar(token.NoPos, nil, "", types.Typ[types.Bool])), false))}, nil).Complete()
)

// methodIface builds interface{ Unmarshal…([]byte) error } (in) or
// interface{ Marshal…() ([]byte, error) } (out).
func methodIface(name string, in bool) *types.Interface {
	bytes := types.NewSlice(types.Typ[types.Byte])
	errType := types.Universe.Lookup("error").Type()
	var sig *types.Signature
	if in {
		sig = types.NewSignatureType(nil, nil, nil,
			types.NewTuple(types.NewVar(token.NoPos, nil, "data", bytes)),
			types.NewTuple(types.NewVar(token.NoPos, nil, "", errType)), false)
	} else {
		sig = types.NewSignatureType(nil, nil, nil, nil,
			types.NewTuple(types.NewVar(token.NoPos, nil, "", bytes), types.NewVar(token.NoPos, nil, "", errType)), false)
	}
	return types.NewInterfaceType([]*types.Func{types.NewFunc(token.NoPos, nil, name, sig)}, nil).Complete()
}

// implements reports whether t or *t has the methods of iface, and whether the pointer is needed.
func implements(t types.Type, iface *types.Interface) (ok, pointer bool) {
	if _, isPtr := t.Underlying().(*types.Pointer); isPtr {
		return types.Implements(t, iface), false
	}
	if types.Implements(t, iface) {
		return true, false
	}
	return types.Implements(types.NewPointer(t), iface), true
}

// convert maps a Go type to the model, following the DESIGN.md type table. syn is the
// syntax of t when known (it carries the doc comments of fields of unnamed structs); nil is
// fine. It reports unsupported types at s and returns nil for them.
func (p *parser) convert(t types.Type, s *site) *model.Type { return p.convertSyntax(t, nil, s) }

func (p *parser) convertSyntax(t types.Type, syn ast.Expr, s *site) *model.Type {
	t = types.Unalias(t)
	// Identities first: time.Time and friends implement TextUnmarshaler or json.Unmarshaler
	// too, but have a JSON shape of their own.
	switch {
	case isNamed(t, "time", "Time"):
		return &model.Type{Kind: model.KindTime, Named: &model.GoName{Path: "time", Name: "Time"}}
	case isNamed(t, "time", "Duration"):
		return &model.Type{Kind: model.KindDuration, Named: &model.GoName{Path: "time", Name: "Duration"}}
	case isNamed(t, "encoding/json", "RawMessage"), isNamed(t, "encoding/json/jsontext", "Value"):
		// From Go 1.27 (encoding/json on the json/v2 engine), json.RawMessage is an alias of
		// jsontext.Value, which Unalias above resolves it to: the two are one type, written
		// json.RawMessage in generated code so that it builds on every Go.
		return &model.Type{Kind: model.KindRawJSON, Named: &model.GoName{Path: "encoding/json", Name: "RawMessage"}}
	}
	if n, ok := t.(*types.Named); ok {
		return p.convertNamed(n, s)
	}
	mt := &model.Type{}
	if !p.fill(mt, t, t, syn, s) {
		return nil
	}
	return mt
}

// convertNamed converts a named type once: every use shares the *model.Type, registered before
// its fields are filled so that a recursive type finds itself.
func (p *parser) convertNamed(n *types.Named, s *site) *model.Type {
	key := types.TypeString(n, nil)
	if mt, seen := p.named[key]; seen {
		return mt // nil when it failed; the failure was reported at its first use
	}
	obj := n.Obj()
	mt := &model.Type{Named: &model.GoName{Name: obj.Name()}}
	p.named[key] = mt
	var src *source
	if obj.Pkg() != nil {
		mt.Named.Path = obj.Pkg().Path()
		src = p.sourceFor(obj.Pkg().Path())
	}
	var syn ast.Expr
	mt.Pos = p.l.Position(obj.Pos())
	if src != nil {
		if d, ok := src.types[obj.Name()]; ok {
			syn = d.spec.Type
			mt.Doc = docText(d.doc)
			mt.AlwaysDef = hasDefsDirective(d.doc)
			mt.Pos = p.l.Position(d.spec.Name.Pos())
		}
	}
	for i := range n.TypeArgs().Len() {
		ta := p.convert(n.TypeArgs().At(i), s.suffix(fmt.Sprintf("[type argument %d]", i+1)))
		if ta == nil {
			p.named[key] = nil
			return nil
		}
		mt.Named.TypeArgs = append(mt.Named.TypeArgs, ta)
	}
	if !p.fill(mt, n, n.Underlying(), syn, s) {
		p.named[key] = nil
		return nil
	}
	if mt.Kind == model.KindString || mt.Kind == model.KindInt || mt.Kind == model.KindUint {
		p.enum(n, mt, s)
	}
	if mt.Kind != model.KindText {
		mt.Shape = p.shape(n)
	}
	return mt
}

// fill sets the kind and parts of mt from the type t, whose underlying type is u.
func (p *parser) fill(mt *model.Type, t, u types.Type, syn ast.Expr, s *site) bool {
	// A type that decodes itself from a JSON string is a string, whatever its shape; the
	// check comes after the identities of convertSyntax. Basic and pointer types have no
	// methods of their own, and a named basic type is checked like any named type.
	_, isBasic := t.(*types.Basic)
	// A pointer is T or null: its target is checked when the pointer case converts it (the
	// method set of *T includes T's pointer methods, which would otherwise match here).
	_, isPointer := t.(*types.Pointer)
	mt.Comparable = types.Comparable(t)
	if _, ptrKind := u.(*types.Pointer); !ptrKind {
		mt.IsZeroMethod, _ = implements(t, isZeroer)
	}
	if !isBasic && !isPointer {
		if ok, ptr := implements(t, textUnmarshaler); ok {
			mt.Kind = model.KindText
			mt.TextPointer = ptr
			mt.TextMarshal, _ = implements(t, textMarshaler)
			return true
		}
		if s.result == "" {
			if ok, _ := implements(t, jsonUnmarshaler); ok {
				p.errorf(s.pos, "implement encoding.TextUnmarshaler (the value is then a JSON string) or use json.RawMessage",
					"type %s at %s implements json.Unmarshaler, which toolgen cannot describe: toolgen validates the JSON itself", p.typeString(t), s)
				return false
			}
		} else if ok, _ := implements(t, jsonMarshaler); ok {
			p.errorf(s.pos, "implement encoding.TextMarshaler (the value is then a JSON string) or return a plain struct",
				"type %s at %s implements json.Marshaler, so toolgen cannot describe its JSON", p.typeString(t), s)
			return false
		}
	}

	unsupported := func(hint string) bool {
		p.errorf(s.pos, hint, "unsupported type %s at %s", p.typeString(t), s)
		return false
	}
	syn = ast.Unparen(syn)
	switch u := u.(type) {
	case *types.Basic:
		return p.fillBasic(mt, t, u, s, unsupported)
	case *types.Pointer:
		var elemSyn ast.Expr
		if star, ok := syn.(*ast.StarExpr); ok {
			elemSyn = star.X
		}
		mt.Kind = model.KindPointer
		mt.Elem = p.convertSyntax(u.Elem(), elemSyn, s)
		return mt.Elem != nil
	case *types.Slice:
		if isByte(u.Elem()) {
			mt.Kind = model.KindBytes
			return true
		}
		mt.Kind = model.KindSlice
		mt.Elem = p.convertSyntax(u.Elem(), arrayElem(syn), s.suffix("[]"))
		return mt.Elem != nil
	case *types.Array:
		mt.Kind = model.KindArray
		if u.Len() > math.MaxInt32 {
			return unsupported("use a slice with a maxItems constraint")
		}
		mt.Len = int(u.Len())
		mt.Elem = p.convertSyntax(u.Elem(), arrayElem(syn), s.suffix("[]"))
		return mt.Elem != nil
	case *types.Map:
		return p.fillMap(mt, t, u, syn, s)
	case *types.Struct:
		st, _ := syn.(*ast.StructType)
		mt.Kind = model.KindStruct
		p.fields(mt, u, st, s)
		if mt.Named == nil {
			mt.Shape = p.spell(u) // the decoder's table names the type by this spelling
		}
		return true
	case *types.Interface:
		if u.Empty() {
			mt.Kind = model.KindAny
			return true
		}
		return unsupported("use any or json.RawMessage for arbitrary JSON, or a concrete type")
	case *types.Chan, *types.Signature:
		return unsupported("tool arguments and results are JSON: use a JSON-compatible type, or leave the field out with `json:\"-\"`")
	case *types.TypeParam:
		return unsupported("instantiate the generic type with concrete type arguments")
	}
	return unsupported("use a JSON-compatible type")
}

func (p *parser) fillBasic(mt *model.Type, t types.Type, u *types.Basic, s *site, unsupported func(string) bool) bool {
	switch u.Kind() {
	case types.String:
		mt.Kind = model.KindString
	case types.Bool:
		mt.Kind = model.KindBool
	case types.Int, types.Int8, types.Int16, types.Int32, types.Int64:
		mt.Kind, mt.Bits = model.KindInt, intBits(u.Kind())
	case types.Uint, types.Uint8, types.Uint16, types.Uint32, types.Uint64:
		mt.Kind, mt.Bits = model.KindUint, intBits(u.Kind())
	case types.Float32:
		mt.Kind, mt.Bits = model.KindFloat, 32
	case types.Float64:
		mt.Kind, mt.Bits = model.KindFloat, 64
	case types.Complex64, types.Complex128:
		return unsupported("JSON has no complex numbers: use two float64 fields")
	case types.Invalid:
		p.errorf(s.pos, "fix the type errors of the package first", "the type at %s does not type-check", s)
		return false
	default: // uintptr, unsafe.Pointer
		return unsupported("use an integer type")
	}
	return true
}

func intBits(k types.BasicKind) int {
	switch k {
	case types.Int8, types.Uint8:
		return 8
	case types.Int16, types.Uint16:
		return 16
	case types.Int32, types.Uint32:
		return 32
	case types.Int64, types.Uint64:
		return 64
	}
	return 0
}

// isByte reports whether a slice of t is []byte to encoding/json: a byte kind that does not
// decode itself from text.
func isByte(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	if !ok || b.Kind() != types.Uint8 {
		return false
	}
	text, _ := implements(types.Unalias(t), textUnmarshaler)
	return !text
}

// fillMap accepts the map keys of encoding/json: a TextUnmarshaler, a string kind or an
// integer kind, in that order of precedence.
func (p *parser) fillMap(mt *model.Type, t types.Type, u *types.Map, syn ast.Expr, s *site) bool {
	mt.Kind = model.KindMap
	key := types.Unalias(u.Key())
	switch {
	case isNamed(key, "time", "Time") || isNamed(key, "time", "Duration"):
		// Both are legal JSON keys, but the model keys are string, integer or text kinds.
		p.errorf(s.pos, "use string keys", "unsupported map key type %s at %s", p.typeString(key), s)
		return false
	}
	var keySyn, valSyn ast.Expr
	if m, ok := syn.(*ast.MapType); ok {
		keySyn, valSyn = m.Key, m.Value
	}
	mt.Key = p.convertSyntax(key, keySyn, s.suffix("[key]"))
	if mt.Key == nil {
		return false
	}
	switch mt.Key.Kind {
	case model.KindString, model.KindInt, model.KindUint, model.KindText:
	default:
		p.errorf(s.pos, "map keys must be a string kind, an integer kind or implement encoding.TextUnmarshaler, as encoding/json requires",
			"unsupported map key type %s at %s", p.typeString(key), s)
		return false
	}
	mt.Elem = p.convertSyntax(u.Elem(), valSyn, s.suffix("[]"))
	return mt.Elem != nil
}

func arrayElem(syn ast.Expr) ast.Expr {
	if a, ok := syn.(*ast.ArrayType); ok {
		return a.Elt
	}
	return nil
}

// enum collects the typed constants of a named string or integer type, in declaration order.
func (p *parser) enum(n *types.Named, mt *model.Type, s *site) {
	if n.TypeArgs().Len() > 0 || n.Obj().Pkg() == nil {
		return
	}
	path, name := n.Obj().Pkg().Path(), n.Obj().Name()
	type enumConst struct {
		name string
		val  constant.Value
		doc  string
	}
	var consts []enumConst
	if src := p.sourceFor(path); src != nil {
		for _, c := range src.consts {
			if isNamed(types.Unalias(c.obj.Type()), path, name) {
				doc := c.doc
				if doc == nil {
					doc = c.comment
				}
				consts = append(consts, enumConst{c.obj.Name(), c.obj.Val(), docText(doc)})
			}
		}
	} else {
		// No syntax (the standard library, or a package that failed to load): the export
		// data still has the constants, with positions that give their order; comments are lost.
		scope := n.Obj().Pkg().Scope()
		var objs []*types.Const
		for _, nm := range scope.Names() {
			if c, ok := scope.Lookup(nm).(*types.Const); ok && types.Identical(c.Type(), n) {
				objs = append(objs, c)
			}
		}
		slices.SortStableFunc(objs, func(a, b *types.Const) int { return cmp.Compare(a.Pos(), b.Pos()) })
		for _, c := range objs {
			consts = append(consts, enumConst{c.Name(), c.Val(), ""})
		}
	}

	seen := map[string]bool{}
	var values []*model.EnumValue
	for _, c := range consts {
		v := &model.EnumValue{GoName: c.name, Doc: c.doc}
		var key string
		switch mt.Kind {
		case model.KindString:
			v.String = constantString(c.val)
			key = v.String
		default:
			i, exact := constantInt64(c.val)
			if !exact {
				p.diags.Warnf(mt.Pos, "constant %s of %s does not fit in int64; %s is not treated as an enum", c.name, name, name)
				return
			}
			v.Int = i
			key = fmt.Sprint(i)
		}
		// Aliases such as Default = Celsius repeat a value; JSON Schema enum members are unique.
		if seen[key] {
			continue
		}
		seen[key] = true
		values = append(values, v)
	}
	mt.Enum = values
}

func constantString(v constant.Value) string {
	if v.Kind() == constant.String {
		return constant.StringVal(v)
	}
	return v.ExactString()
}

func constantInt64(v constant.Value) (int64, bool) {
	if v.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(v)
}

// sourceFor returns the declarations of the package path, loading its syntax when it is not
// the package being parsed. Standard library syntax is never loaded: its doc comments are not
// worth the time it takes to type-check it, and export data gives the order of its constants.
func (p *parser) sourceFor(path string) *source {
	if s, ok := p.sources[path]; ok {
		return s
	}
	if p.isStd(path) {
		return nil
	}
	var s *source
	if pkg := p.l.Syntax(path); pkg != nil && pkg.TypesInfo != nil {
		s = newSource(pkg)
	}
	p.sources[path] = s
	return s
}

// isStd guesses whether path is a standard library package: its first element has no dot
// and it is not inside the module being processed.
func (p *parser) isStd(path string) bool {
	if m := p.pkg.Module; m != nil && (path == m.Path || strings.HasPrefix(path, m.Path+"/")) {
		return false
	}
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}
