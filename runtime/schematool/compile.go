package schematool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/big"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/go-faster/jx"

	"github.com/toolgen-go/toolgen/internal/jsonpointer"
	"github.com/toolgen-go/toolgen/internal/suggest"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/decode"
	"github.com/toolgen-go/toolgen/runtime/internal/canonical"
)

// Bounds on a schema, whoever wrote it: a remote MCP server's inputSchema is compiled here
// too (runtime/mcp/mount), so every cost of compiling one is bounded (docs/limits.md).
const (
	MaxSchemaBytes    = 1 << 20 // of the schema document
	MaxSchemaDepth    = 64      // nesting of subschemas
	MaxSchemaNodes    = 10_000  // subschemas in one document
	MaxProperties     = 1024    // properties of one object
	MaxEnumValues     = 4096    // values of one enum
	MaxPatternLength  = 4096    // bytes of one pattern
	MaxPropertyLists  = 1 << 16 // distinct property lists compiled in a process, see propertyList
	draft2020         = "https://json-schema.org/draft/2020-12/schema"
	annotationsPhrase = "title, description, default, examples, deprecated, $comment"
)

// Schema is an input schema compiled into decoder tables: what a Tool built by New validates
// its arguments with, and what runtime/mcp/mount validates a remote tool's arguments with
// before it sends them.
type Schema struct {
	raw       json.RawMessage
	root      reflect.Type   // the Go struct the arguments decode into
	table     *decode.Struct // nil: a tool without arguments, checked by decode.NoArgs
	canonical func([]byte) ([]byte, error)
}

// Compile compiles a JSON Schema (2020-12) in the subset toolgen emits (see the package
// documentation) into the decoder tables generated code declares. A schema outside the subset
// is an error naming the place (a JSON Pointer into the schema) and what to change; nothing
// is ignored.
func Compile(schema []byte) (*Schema, error) {
	if len(schema) > MaxSchemaBytes {
		return nil, fmt.Errorf("the schema is %d bytes, more than the %d allowed", len(schema), MaxSchemaBytes)
	}
	if !json.Valid(schema) {
		return nil, errors.New("the schema is not valid JSON")
	}
	c := &compiler{defs: map[string]*entry{}}
	root, err := c.members(schema, "")
	if err != nil {
		return nil, err
	}
	if err := c.readDefs(root); err != nil {
		return nil, err
	}
	s := &Schema{raw: compact(schema)}
	if v, ok := root.get("$schema"); ok {
		var uri string
		if json.Unmarshal(v, &uri) != nil || strings.TrimSuffix(uri, "#") != draft2020 {
			return nil, fmt.Errorf("/$schema: must be %q (JSON Schema 2020-12), got %s", draft2020, shown(v))
		}
	}
	if _, ok := root.get("$ref"); ok {
		return nil, errors.New("the root must be an object schema with properties, not a $ref")
	}
	if t, ok := root.get("type"); !ok || string(bytes.TrimSpace(t)) != `"object"` {
		return nil, errors.New(`the root must have "type": "object" (the arguments are an object)`)
	}
	c.root = &entry{}
	typ, val, err := c.node(root, "", 0)
	if err != nil {
		return nil, err
	}
	if val.Kind != decode.KindStruct {
		return nil, errors.New(`the root must be an object with "properties", not a map ("additionalProperties" a schema)`)
	}
	c.root.typ, c.root.val = typ, val
	for _, name := range slices.Sorted(maps.Keys(c.defs)) {
		if err := c.def(name); err != nil {
			return nil, err
		}
	}
	if err := c.checkDefaults(); err != nil {
		return nil, err
	}
	if len(val.Struct.Members) > 0 || c.rootRefs || val.Struct.Open {
		s.root, s.table = typ, val.Struct
	}
	s.canonical = canonical.Form(s.raw)
	return s, nil
}

// JSON returns the schema, compacted.
func (s *Schema) JSON() json.RawMessage { return slices.Clone(s.raw) }

// Validate decodes and validates args in one pass with the schema's tables, as a generated
// tool's decoder does, and returns their canonical form (keys sorted, the schema's defaults
// added). Invalid arguments give an *runtime.ArgsError listing every problem with its JSON
// Pointer path, in the words generated tools use; malformed JSON, the error
// decode.InvalidJSON describes. args is read as it is, like runtime.Tool.BindArgs reads it:
// Registry.Invoke first turns empty arguments and null into {}.
func (s *Schema) Validate(args []byte) (json.RawMessage, error) {
	var err error
	if s.table == nil {
		err = decode.NoArgs(args)
	} else {
		err = s.table.DecodeArgs(args, reflect.New(s.root).Interface())
	}
	if err != nil {
		return nil, err
	}
	return s.canonical(args)
}

// entry is a subschema reached through a $ref: its value is read boxed (an unsafe.Pointer to
// a value of typ allocated on first read), so a recursive schema is a finite Go type.
type entry struct {
	raw      json.RawMessage
	typ      reflect.Type
	val      *decode.Value
	building bool
}

type compiler struct {
	defs     map[string]*entry
	root     *entry
	rootRefs bool // the root is referred to ("$ref": "#")
	nodes    int
	defaults []pendingDefault
}

// pendingDefault is a default (or example) checked once every table is built.
type pendingDefault struct {
	at, keyword string
	lit         json.RawMessage
	typ         reflect.Type
	val         *decode.Value
}

// object is a schema object's members, in the order written.
type object struct {
	keys []string
	vals []json.RawMessage
}

// maxObjectKeys bounds the members of one schema object: no object of the subset holds more
// than the properties of one object or the subschemas of a document.
const maxObjectKeys = max(MaxProperties, MaxSchemaNodes)

func (o *object) get(key string) (json.RawMessage, bool) {
	i := slices.Index(o.keys, key)
	if i < 0 {
		return nil, false
	}
	return o.vals[i], true
}

// members reads a schema object, refusing repeated keys (which JSON Schema leaves undefined).
func (c *compiler) members(raw json.RawMessage, at string) (*object, error) {
	c.nodes++
	if c.nodes > MaxSchemaNodes {
		return nil, fmt.Errorf("the schema has more than %d subschemas", MaxSchemaNodes)
	}
	d := jx.DecodeBytes(raw)
	if d.Next() != jx.Object {
		return nil, fmt.Errorf("%s: must be a schema object, got %s (boolean schemas are outside the subset)", place(at), shown(raw))
	}
	o := &object{}
	seen := map[string]bool{} // a map, not a scan of keys: a remote schema may hold 100,000 keys
	err := d.ObjBytes(func(d *jx.Decoder, key []byte) error {
		v, err := d.Raw()
		if err != nil {
			return err
		}
		if seen[string(key)] {
			return fmt.Errorf("%s: the keyword %s is repeated", place(at), quoted(string(key)))
		}
		if len(o.keys) == maxObjectKeys {
			return fmt.Errorf("%s: more than %d members", place(at), maxObjectKeys)
		}
		seen[string(key)] = true
		o.keys = append(o.keys, string(key))
		o.vals = append(o.vals, json.RawMessage(v))
		return nil
	})
	return o, err
}

// readDefs records the root's $defs, compiled once every $ref is known.
func (c *compiler) readDefs(root *object) error {
	raw, ok := root.get("$defs")
	if !ok {
		return nil
	}
	defs, err := c.members(raw, "/$defs")
	if err != nil {
		return err
	}
	for i, name := range defs.keys {
		c.defs[name] = &entry{raw: defs.vals[i]}
	}
	return nil
}

// def compiles the $defs entry name, once.
func (c *compiler) def(name string) error {
	e := c.defs[name]
	if e.typ != nil || e.building {
		return nil
	}
	e.building = true
	at := "/$defs/" + jsonpointer.Escape(name)
	o, err := c.members(e.raw, at)
	if err != nil {
		return err
	}
	if _, ref := o.get("$ref"); ref {
		return fmt.Errorf("%s: a $defs entry must not be only a $ref", place(at))
	}
	if _, any := o.get("anyOf"); any {
		return fmt.Errorf("%s: a $defs entry must not be an anyOf", place(at))
	}
	e.typ, e.val, err = c.node(o, at, 1)
	return err
}

// Types the tables read into, and the containers over them named at compile time.
var (
	typeString  = reflect.TypeFor[string]()
	typeInt     = reflect.TypeFor[int64]()
	typeFloat   = reflect.TypeFor[float64]()
	typeBool    = reflect.TypeFor[bool]()
	typeAny     = reflect.TypeFor[any]()
	typePointer = reflect.TypeFor[unsafe.Pointer]()

	slices_ = map[reflect.Type]decode.GoType{
		typeString: &decode.SliceOf[string]{}, typeInt: &decode.SliceOf[int64]{}, typeFloat: &decode.SliceOf[float64]{},
		typeBool: &decode.SliceOf[bool]{}, typeAny: &decode.SliceOf[any]{}, typePointer: &decode.SliceOf[unsafe.Pointer]{},
	}
	uniqueSlices = map[reflect.Type]decode.GoType{
		typeString: &decode.UniqueSliceOf[string]{}, typeInt: &decode.UniqueSliceOf[int64]{},
		typeFloat: &decode.UniqueSliceOf[float64]{}, typeBool: &decode.UniqueSliceOf[bool]{},
	}
	maps_ = map[reflect.Type]decode.GoType{
		typeString: &decode.MapOf[string, string]{}, typeInt: &decode.MapOf[string, int64]{}, typeFloat: &decode.MapOf[string, float64]{},
		typeBool: &decode.MapOf[string, bool]{}, typeAny: &decode.MapOf[string, any]{}, typePointer: &decode.MapOf[string, unsafe.Pointer]{},
	}
)

// keywords lists the keywords each type allows besides the annotations.
var keywords = map[string][]string{
	"string":  {"enum", "format", "contentEncoding", "pattern", "minLength", "maxLength"},
	"integer": {"enum", "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf"},
	"number":  {"enum", "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf"},
	"boolean": {},
	"array":   {"items", "minItems", "maxItems", "uniqueItems"},
	"object":  {"properties", "required", "additionalProperties", "minProperties", "maxProperties"},
	"":        {},
}

var annotations = []string{"title", "description", "default", "examples", "deprecated", "$comment"}

// allKeywords is every keyword of the subset, for the did-you-mean of an unknown one.
var allKeywords = func() []string {
	all := append([]string{"$schema", "$defs", "$ref", "type", "anyOf"}, annotations...)
	for _, ks := range keywords {
		all = append(all, ks...)
	}
	slices.Sort(all)
	return slices.Compact(all)
}()

// node compiles one subschema into the Go type its value is read into and the table Value
// that reads it.
func (c *compiler) node(o *object, at string, depth int) (reflect.Type, *decode.Value, error) {
	if depth > MaxSchemaDepth {
		return nil, nil, fmt.Errorf("%s: subschemas nest more than %d deep", place(at), MaxSchemaDepth)
	}
	for _, k := range o.keys {
		if !slices.Contains(allKeywords, k) {
			return nil, nil, fmt.Errorf("%s: the keyword %s is outside the subset toolgen emits%s", place(at), quoted(k), didYouMean(k, allKeywords))
		}
		if (k == "$schema" || k == "$defs") && at != "" {
			return nil, nil, fmt.Errorf("%s: %s belongs at the root only", place(at), k)
		}
	}
	if ref, ok := o.get("$ref"); ok {
		if err := onlyAnnotations(o, at, "$ref"); err != nil {
			return nil, nil, err
		}
		e, err := c.ref(ref, at)
		if err != nil {
			return nil, nil, err
		}
		c.pend(o, at, typePointer, boxed(e))
		return typePointer, boxed(e), nil
	}
	if alts, ok := o.get("anyOf"); ok {
		return c.nullableRef(o, alts, at, depth)
	}
	kind, null, err := typeOf(o, at)
	if err != nil {
		return nil, nil, err
	}
	allowed := keywords[kind]
	for _, k := range o.keys {
		if !slices.Contains(allowed, k) && !slices.Contains(annotations, k) && k != "type" && k != "$schema" && k != "$defs" {
			what := "a schema without a type (any JSON value)"
			if kind != "" {
				what = "type " + kind
			}
			return nil, nil, fmt.Errorf("%s: %s does not apply to %s", place(at), k, what)
		}
	}
	var typ reflect.Type
	var val *decode.Value
	switch kind {
	case "string":
		typ = typeString
		var r *decode.StringRule
		if r, err = stringRule(o, at, null); err == nil {
			val = &decode.Value{Kind: decode.KindString, Str: r}
		}
	case "integer":
		typ = typeInt
		var r *decode.IntRule
		if r, err = intRule(o, at, null); err == nil {
			val = &decode.Value{Kind: decode.KindInt, Size: 8, Int: r}
		}
	case "number":
		typ = typeFloat
		var r *decode.FloatRule
		if r, err = floatRule(o, at, null); err == nil {
			val = &decode.Value{Kind: decode.KindFloat, Size: 8, Float: r}
		}
	case "boolean":
		typ, val = typeBool, &decode.Value{Kind: decode.KindBool}
	case "array":
		typ, val, err = c.array(o, at, depth)
	case "object":
		typ, val, err = c.object(o, at, depth)
	default:
		typ, val = typeAny, &decode.Value{Kind: decode.KindAny}
	}
	if err != nil {
		return nil, nil, err
	}
	if null {
		val = &decode.Value{Kind: decode.KindNullable, Elem: val}
	}
	c.pend(o, at, typ, val)
	return typ, val, nil
}

// pend records o's default and examples, checked against the value once the tables are done.
func (c *compiler) pend(o *object, at string, typ reflect.Type, val *decode.Value) {
	if lit, ok := o.get("default"); ok {
		c.defaults = append(c.defaults, pendingDefault{at: at, keyword: "default", lit: lit, typ: typ, val: val})
	}
	if lits, ok := o.get("examples"); ok {
		var list []json.RawMessage
		if json.Unmarshal(lits, &list) != nil {
			c.defaults = append(c.defaults, pendingDefault{at: at, keyword: "examples", typ: typ})
			return
		}
		for i, lit := range list {
			c.defaults = append(c.defaults, pendingDefault{at: at, keyword: "examples/" + strconv.Itoa(i), lit: lit, typ: typ, val: val})
		}
	}
}

// checkDefaults decodes every default and example with the table of its place, as toolgen
// checks them when it generates code: a default the decoder would refuse is the schema's
// mistake, reported now rather than to a model later.
func (c *compiler) checkDefaults() error {
	for _, p := range c.defaults {
		if p.val == nil {
			return fmt.Errorf("%s: examples must be an array", place(p.at))
		}
		st := &decode.Struct{Fields: propertyList([]string{"value"}, 0), Members: []decode.Member{{Value: p.val}}}
		wrapped := append(append([]byte(`{"value":`), p.lit...), '}')
		holder := reflect.StructOf([]reflect.StructField{{Name: "V", Type: p.typ}})
		if err := st.DecodeArgs(wrapped, reflect.New(holder).Interface()); err != nil {
			var ae *runtime.ArgsError
			if errors.As(err, &ae) && len(ae.Problems) > 0 {
				pr := ae.Problems[0]
				if rest := strings.TrimPrefix(pr.Path, "/value"); rest != "" {
					return fmt.Errorf("%s/%s: at %s: %s", place(p.at), p.keyword, rest, pr.Message)
				}
				return fmt.Errorf("%s/%s: %s", place(p.at), p.keyword, pr.Message)
			}
			return fmt.Errorf("%s/%s: %v", place(p.at), p.keyword, err)
		}
	}
	return nil
}

// ref resolves a $ref: "#" (the root) or "#/$defs/NAME".
func (c *compiler) ref(raw json.RawMessage, at string) (*entry, error) {
	var ref string
	if json.Unmarshal(raw, &ref) != nil {
		return nil, fmt.Errorf("%s: $ref must be a string", place(at))
	}
	if ref == "#" {
		c.rootRefs = true
		return c.root, nil
	}
	name, ok := jsonpointer.DefName(ref)
	e := c.defs[name]
	if !ok || e == nil {
		return nil, fmt.Errorf("%s: $ref %s must be \"#\" or name an entry of the root's $defs", place(at), quoted(ref))
	}
	return e, nil
}

// boxed reads the value of e into a new cell of e's type and stores the cell's address.
func boxed(e *entry) *decode.Value {
	return &decode.Value{Kind: decode.KindFunc, Func: func(s *decode.State, p unsafe.Pointer) error {
		cell := reflect.New(e.typ).UnsafePointer()
		*(*unsafe.Pointer)(p) = cell
		return decode.Read(s, cell, e.val)
	}}
}

// nullableRef compiles the one anyOf toolgen emits: {"anyOf":[{"$ref":…},{"type":"null"}]}.
func (c *compiler) nullableRef(o *object, alts json.RawMessage, at string, depth int) (reflect.Type, *decode.Value, error) {
	if err := onlyAnnotations(o, at, "anyOf"); err != nil {
		return nil, nil, err
	}
	var list []json.RawMessage
	if json.Unmarshal(alts, &list) != nil || len(list) != 2 {
		return nil, nil, fmt.Errorf(`%s: anyOf is only accepted as [{"$ref": …}, {"type": "null"}] (a nullable reference)`, place(at))
	}
	first, err := c.members(list[0], at+"/anyOf/0")
	if err != nil {
		return nil, nil, err
	}
	second, err := c.members(list[1], at+"/anyOf/1")
	if err != nil {
		return nil, nil, err
	}
	_, isRef := first.get("$ref")
	if t, ok := second.get("type"); !isRef || !ok || len(second.keys) != 1 || string(bytes.TrimSpace(t)) != `"null"` {
		return nil, nil, fmt.Errorf(`%s: anyOf is only accepted as [{"$ref": …}, {"type": "null"}] (a nullable reference)`, place(at))
	}
	typ, val, err := c.node(first, at+"/anyOf/0", depth+1)
	if err != nil {
		return nil, nil, err
	}
	val = &decode.Value{Kind: decode.KindNullable, Elem: val}
	c.pend(o, at, typ, val)
	return typ, val, nil
}

// onlyAnnotations refuses keywords beside keyword other than annotations.
func onlyAnnotations(o *object, at, keyword string) error {
	for _, k := range o.keys {
		if k != keyword && !slices.Contains(annotations, k) {
			return fmt.Errorf("%s: %s beside %s is outside the subset (only %s may stand beside it)", place(at), k, keyword, annotationsPhrase)
		}
	}
	return nil
}

// typeOf reads "type": one of the kinds, or it and "null"; absent means any JSON value.
func typeOf(o *object, at string) (kind string, null bool, err error) {
	raw, ok := o.get("type")
	if !ok {
		return "", false, nil
	}
	var names []string
	var one string
	if json.Unmarshal(raw, &one) == nil {
		names = []string{one}
	} else if json.Unmarshal(raw, &names) != nil {
		return "", false, fmt.Errorf("%s: type must be a string or an array of strings", place(at))
	}
	for _, n := range names {
		switch {
		case n == "null" && !null:
			null = true
		case n != "null" && n != "" && kind == "" && slices.Contains([]string{"string", "integer", "number", "boolean", "array", "object"}, n):
			kind = n
		default:
			return "", false, fmt.Errorf(`%s: type %s is outside the subset: one of string, integer, number, boolean, array, object, optionally with "null"`, place(at), shown(raw))
		}
	}
	if kind == "" {
		return "", false, fmt.Errorf(`%s: type %s is outside the subset: one of string, integer, number, boolean, array, object, optionally with "null"`, place(at), shown(raw))
	}
	return kind, null, nil
}

// enumValues reads an enum's literals, without null when the type allows it (the decoder
// accepts null before the enum is consulted), requiring null then, as toolgen writes it.
func enumValues(o *object, at string, null bool) ([]json.RawMessage, bool, error) {
	raw, ok := o.get("enum")
	if !ok {
		return nil, false, nil
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return nil, false, fmt.Errorf("%s: enum must be an array", place(at))
	}
	if len(list) > MaxEnumValues {
		return nil, false, fmt.Errorf("%s: enum has %d values, more than the %d allowed", place(at), len(list), MaxEnumValues)
	}
	out := list[:0:0]
	sawNull := false
	for _, v := range list {
		if string(bytes.TrimSpace(v)) == "null" {
			sawNull = true
			continue
		}
		out = append(out, compact(v))
	}
	switch {
	case sawNull && !null:
		return nil, false, fmt.Errorf(`%s: enum lists null but type does not allow "null"`, place(at))
	case null && !sawNull:
		return nil, false, fmt.Errorf(`%s: type allows "null" but enum does not list it`, place(at))
	case len(out) == 0:
		return nil, false, fmt.Errorf("%s: enum lists no value of the type", place(at))
	}
	return out, true, nil
}

func stringRule(o *object, at string, null bool) (*decode.StringRule, error) {
	r := &decode.StringRule{}
	used := false
	if n, ok, err := count(o, "minLength", at); err != nil {
		return nil, err
	} else if ok && n > 0 {
		r.MinLength, used = n, true
	}
	if n, ok, err := count(o, "maxLength", at); err != nil {
		return nil, err
	} else if ok {
		r.MaxLength, r.HasMaxLength, used = n, true, true
	}
	if raw, ok := o.get("pattern"); ok {
		var expr string
		if json.Unmarshal(raw, &expr) != nil {
			return nil, fmt.Errorf("%s: pattern must be a string", place(at))
		}
		if len(expr) > MaxPatternLength {
			return nil, fmt.Errorf("%s: pattern is %d bytes, more than the %d allowed", place(at), len(expr), MaxPatternLength)
		}
		// Generated code holds the pattern to regexp's answers (gen/emit/pattern), so
		// regexp itself is the same check here.
		re, err := regexp.Compile(expr)
		if err != nil {
			return nil, fmt.Errorf("%s: pattern %q is not an RE2 expression: %v", place(at), expr, err)
		}
		r.Pattern, r.PatternText, used = re.MatchString, expr, true
	}
	if raw, ok := o.get("format"); ok {
		var name string
		if json.Unmarshal(raw, &name) != nil {
			return nil, fmt.Errorf("%s: format must be a string", place(at))
		}
		check, _, known := decode.FormatFunc(name)
		if !known {
			return nil, fmt.Errorf("%s: format %s is not one toolgen checks%s", place(at), quoted(name), didYouMean(name, decode.FormatNames()))
		}
		r.Format, r.FormatName, used = check, name, true
	}
	if raw, ok := o.get("contentEncoding"); ok && string(bytes.TrimSpace(raw)) != `"base64"` {
		return nil, fmt.Errorf(`%s: contentEncoding must be "base64" (with its pattern, as toolgen writes []byte)`, place(at))
	}
	values, ok, err := enumValues(o, at, null)
	if err != nil {
		return nil, err
	}
	if ok {
		strs := make([]string, len(values))
		for i, v := range values {
			if json.Unmarshal(v, &strs[i]) != nil {
				return nil, fmt.Errorf("%s: enum value %s is not a string", place(at), shown(v))
			}
		}
		r.Enum, used = decode.NewEnum(strs...), true
	}
	if !used {
		return nil, nil
	}
	return r, nil
}

// count reads a non-negative integer keyword.
func count(o *object, key, at string) (int, bool, error) {
	raw, ok := o.get(key)
	if !ok {
		return 0, false, nil
	}
	n, err := strconv.ParseInt(string(bytes.TrimSpace(raw)), 10, 32)
	if err != nil || n < 0 {
		return 0, false, fmt.Errorf("%s: %s must be a non-negative integer, got %s", place(at), key, shown(raw))
	}
	return int(n), true, nil
}

// countLimits sets a container's bounds from its keywords (no maximum: -1, as generated
// code writes it).
func countLimits(o *object, minKey, maxKey, at string, v *decode.Value) error {
	v.Max = -1
	if n, ok, err := count(o, minKey, at); err != nil {
		return err
	} else if ok {
		v.Min = n
	}
	if n, ok, err := count(o, maxKey, at); err != nil {
		return err
	} else if ok {
		v.Max = n
	}
	return nil
}

// numberKeyword reads a numeric keyword: its literal as written (what messages show) and value.
func numberKeyword(o *object, key, at string) (text string, ok bool, err error) {
	raw, ok := o.get(key)
	if !ok {
		return "", false, nil
	}
	text = string(bytes.TrimSpace(raw))
	if d := jx.DecodeBytes(raw); d.Next() != jx.Number {
		return "", false, fmt.Errorf("%s: %s must be a number, got %s", place(at), key, shown(raw))
	}
	return text, true, nil
}

func intRule(o *object, at string, null bool) (*decode.IntRule, error) {
	r := &decode.IntRule{}
	used := false
	whole := func(key, text string) (int64, error) {
		q, ok := new(big.Rat).SetString(text)
		if !ok || !q.IsInt() || !q.Num().IsInt64() {
			return 0, fmt.Errorf("%s: %s of an integer must be a whole number within 64 bits, got %s", place(at), key, text)
		}
		return q.Num().Int64(), nil
	}
	for _, k := range []struct {
		key      string
		value    *int64
		text     *string
		positive bool
	}{
		{"minimum", &r.Min, &r.MinText, false},
		{"exclusiveMinimum", &r.ExclusiveMin, &r.ExclusiveMinText, false},
		{"maximum", &r.Max, &r.MaxText, false},
		{"exclusiveMaximum", &r.ExclusiveMax, &r.ExclusiveMaxText, false},
		{"multipleOf", &r.MultipleOf, &r.MultipleOfText, true},
	} {
		text, ok, err := numberKeyword(o, k.key, at)
		if err != nil || !ok {
			if err != nil {
				return nil, err
			}
			continue
		}
		n, err := whole(k.key, text)
		if err != nil {
			return nil, err
		}
		if k.positive && n <= 0 {
			return nil, fmt.Errorf("%s: %s must be greater than 0", place(at), k.key)
		}
		*k.value, *k.text, used = n, text, true
	}
	values, ok, err := enumValues(o, at, null)
	if err != nil {
		return nil, err
	}
	if ok {
		texts := make([]string, len(values))
		for i, v := range values {
			n, err := whole("enum value", string(v))
			if err != nil {
				return nil, err
			}
			r.Enum = append(r.Enum, n)
			texts[i] = string(v)
		}
		r.EnumText, used = strings.Join(texts, ", "), true
	}
	if !used {
		return nil, nil
	}
	return r, nil
}

func floatRule(o *object, at string, null bool) (*decode.FloatRule, error) {
	r := &decode.FloatRule{}
	used := false
	for _, k := range []struct {
		key   string
		value *float64
		text  *string
	}{
		{"minimum", &r.Min, &r.MinText},
		{"exclusiveMinimum", &r.ExclusiveMin, &r.ExclusiveMinText},
		{"maximum", &r.Max, &r.MaxText},
		{"exclusiveMaximum", &r.ExclusiveMax, &r.ExclusiveMaxText},
	} {
		text, ok, err := numberKeyword(o, k.key, at)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %s %s does not fit a 64-bit float", place(at), k.key, text)
		}
		*k.value, *k.text, used = f, text, true
	}
	if text, ok, err := numberKeyword(o, "multipleOf", at); err != nil {
		return nil, err
	} else if ok {
		if f, err := strconv.ParseFloat(text, 64); err != nil || f <= 0 || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%s: multipleOf must be a number greater than 0, got %s", place(at), text)
		}
		r.MultipleOf, r.MultipleOfText, used = decode.MultipleOf(text), text, true
	}
	values, ok, err := enumValues(o, at, null)
	if err != nil {
		return nil, err
	}
	if ok {
		texts := make([]string, len(values))
		for i, v := range values {
			f, err := strconv.ParseFloat(string(v), 64)
			if err != nil {
				return nil, fmt.Errorf("%s: enum value %s is not a number", place(at), shown(v))
			}
			r.Enum = append(r.Enum, f)
			texts[i] = string(v)
		}
		r.EnumText, used = strings.Join(texts, ", "), true
	}
	if !used {
		return nil, nil
	}
	return r, nil
}

// item compiles an array's items or a map's values: scalars and references are held as they
// are, anything else boxed (a cell allocated per value), so that one container type per item
// kind, named when this package was compiled, holds every schema's values.
func (c *compiler) item(raw json.RawMessage, at string, depth int) (reflect.Type, *decode.Value, error) {
	o, err := c.members(raw, at)
	if err != nil {
		return nil, nil, err
	}
	typ, val, err := c.node(o, at, depth+1)
	if err != nil {
		return nil, nil, err
	}
	if _, ok := slices_[typ]; ok {
		return typ, val, nil
	}
	e := &entry{typ: typ, val: val}
	return typePointer, boxed(e), nil
}

func (c *compiler) array(o *object, at string, depth int) (reflect.Type, *decode.Value, error) {
	raw, ok := o.get("items")
	if !ok {
		return nil, nil, fmt.Errorf("%s: an array needs items (a schema)", place(at))
	}
	typ, elem, err := c.item(raw, at+"/items", depth)
	if err != nil {
		return nil, nil, err
	}
	v := &decode.Value{Kind: decode.KindGo, Elem: elem, Go: slices_[typ]}
	if err := countLimits(o, "minItems", "maxItems", at, v); err != nil {
		return nil, nil, err
	}
	if u, ok := o.get("uniqueItems"); ok {
		switch string(bytes.TrimSpace(u)) {
		case "true":
			g, ok := uniqueSlices[typ]
			if !ok || elem.Kind == decode.KindNullable {
				return nil, nil, fmt.Errorf("%s: uniqueItems applies to arrays of strings, integers, numbers or booleans (not null)", place(at))
			}
			v.Go = g
		case "false":
		default:
			return nil, nil, fmt.Errorf("%s: uniqueItems must be true or false", place(at))
		}
	}
	return reflect.SliceOf(typ), v, nil
}

func (c *compiler) object(o *object, at string, depth int) (reflect.Type, *decode.Value, error) {
	props, hasProps := o.get("properties")
	additional, hasAdditional := o.get("additionalProperties")
	if !hasProps {
		if _, ok := o.get("required"); ok {
			return nil, nil, fmt.Errorf("%s: required without properties", place(at))
		}
		if !hasAdditional {
			// {"type": "object"} alone: any object, read as an open object of no properties.
			props, hasProps = json.RawMessage("{}"), true
		} else if string(bytes.TrimSpace(additional)) == "false" {
			return nil, nil, fmt.Errorf(`%s: an object needs "properties" or "additionalProperties" (a schema of the values)`, place(at))
		}
	}
	if !hasProps {
		if string(bytes.TrimSpace(additional)) == "true" {
			additional = json.RawMessage("{}")
		}
		typ, elem, err := c.item(additional, at+"/additionalProperties", depth)
		if err != nil {
			return nil, nil, err
		}
		v := &decode.Value{Kind: decode.KindGo, Elem: elem, Go: maps_[typ]}
		if err := countLimits(o, "minProperties", "maxProperties", at, v); err != nil {
			return nil, nil, err
		}
		return reflect.MapOf(typeString, typ), v, nil
	}
	for _, k := range []string{"minProperties", "maxProperties"} {
		if _, ok := o.get(k); ok {
			return nil, nil, fmt.Errorf("%s: %s applies to objects of additionalProperties (maps), not to objects of properties", place(at), k)
		}
	}
	// Without "additionalProperties": false the object is open, as JSON Schema says: the
	// properties it does not define are accepted and reach the handler unchanged.
	open := true
	if hasAdditional {
		switch string(bytes.TrimSpace(additional)) {
		case "false":
			open = false
		case "true":
		default:
			return nil, nil, fmt.Errorf(`%s: an object of properties takes "additionalProperties" false or true (absent is true), not a schema of the other values`, place(at))
		}
	}
	p, err := c.members(props, at+"/properties")
	if err != nil {
		return nil, nil, err
	}
	if len(p.keys) > MaxProperties {
		return nil, nil, fmt.Errorf("%s: %d properties, more than the %d allowed", place(at), len(p.keys), MaxProperties)
	}
	var required []int
	if raw, ok := o.get("required"); ok {
		var names []string
		if json.Unmarshal(raw, &names) != nil {
			return nil, nil, fmt.Errorf("%s: required must be an array of strings", place(at))
		}
		for _, n := range names {
			i := slices.Index(p.keys, n)
			switch {
			case i < 0:
				return nil, nil, fmt.Errorf("%s: required names %s, which is not a property%s", place(at), quoted(n), didYouMean(n, p.keys))
			case slices.Contains(required, i):
				return nil, nil, fmt.Errorf("%s: required names %s twice", place(at), quoted(n))
			}
			required = append(required, i)
		}
	}
	fields := make([]reflect.StructField, len(p.keys))
	members := make([]decode.Member, len(p.keys))
	for i, name := range p.keys {
		sub, err := c.members(p.vals[i], at+"/properties/"+jsonpointer.Escape(name))
		if err != nil {
			return nil, nil, err
		}
		typ, val, err := c.node(sub, at+"/properties/"+jsonpointer.Escape(name), depth+1)
		if err != nil {
			return nil, nil, err
		}
		fields[i] = reflect.StructField{Name: "F" + strconv.Itoa(i), Type: typ}
		members[i] = decode.Member{Value: val}
	}
	typ := reflect.StructOf(fields)
	for i := range members {
		members[i].Offset = typ.Field(i).Offset
	}
	list, err := propertyListChecked(slices.Clone(p.keys), required...)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", place(at), err)
	}
	return typ, &decode.Value{Kind: decode.KindStruct, Struct: &decode.Struct{Fields: list, Members: members, Open: open}}, nil
}

// propertyLists holds each distinct property list compiled: decode.NewFields registers a list
// for the life of the process (problem paths name a property by its list and index), so lists
// are shared, and their number is bounded against a server that keeps changing its tools.
var propertyLists = struct {
	sync.Mutex
	m map[string]*decode.Fields
}{m: map[string]*decode.Fields{}}

func propertyListChecked(names []string, required ...int) (*decode.Fields, error) {
	var key strings.Builder
	for _, n := range names {
		key.WriteString(strconv.Quote(n))
	}
	key.WriteByte('|')
	for _, i := range required {
		key.WriteString(strconv.Itoa(i))
		key.WriteByte(',')
	}
	propertyLists.Lock()
	defer propertyLists.Unlock()
	if f, ok := propertyLists.m[key.String()]; ok {
		return f, nil
	}
	if len(propertyLists.m) >= MaxPropertyLists {
		return nil, fmt.Errorf("this process has compiled %d distinct property lists, the most it keeps", MaxPropertyLists)
	}
	f := decode.NewFields(names, required...)
	propertyLists.m[key.String()] = f
	return f, nil
}

// propertyList is propertyListChecked for the lists this package names itself.
func propertyList(names []string, required ...int) *decode.Fields {
	f, err := propertyListChecked(names, required...)
	if err != nil {
		panic(err) // the package's own lists are made first, long before the bound
	}
	return f
}

var _ = propertyList([]string{"value"}, 0) // registered at start-up, before any bound applies

func place(at string) string {
	if at == "" {
		return "schema root"
	}
	return "schema " + at
}

// didYouMean is the hint of a misspelled name. suggest.Closest costs time linear in a long
// name's length, and the hint is cut like the name, so a schema naming a property of 500 KB
// in required and defining another costs little.
func didYouMean(word string, candidates []string) string {
	if c := suggest.Closest(word, candidates); c != "" {
		return fmt.Sprintf(" (did you mean %s?)", quoted(c))
	}
	return ""
}

// quoted is a name of the schema as an error shows it: quoted and cut.
func quoted(name string) string {
	return decode.Shown([]byte(strconv.Quote(name)))
}

// shown is a literal of the schema as an error shows it: compacted and cut.
func shown(raw json.RawMessage) string {
	return decode.Shown(compact(raw))
}

func compact(raw []byte) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return slices.Clone(raw)
	}
	return b.Bytes()
}
