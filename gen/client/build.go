package client

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/internal/jsonpointer"
	"github.com/toolgen-go/toolgen/internal/suggest"
)

// reserved are the package-level names the generated file declares besides the tools' types.
var reserved = []string{"Client", "New", "ToolError", "Text"}

// Build turns a listing into the IR of package name. Problems holds every error (nothing
// should be written then) and warning (a construct typed by a fallback, a name renamed).
func Build(l *Listing, name string) (*Package, *Problems) {
	b := &builder{
		pkg:      &Package{Name: name},
		problems: &Problems{},
		types:    newNamespace(reserved...),
		methods:  newNamespace(),
		defs:     map[string]*Type{},
	}
	type entry struct {
		name string
		n    *node
		ptr  string
	}
	var tools []entry
	seen := map[string]string{}
	for i, t := range l.tools {
		ptr := pointerIndex(l.pointer, i)
		if t.kind != kindObject {
			b.problems.errorf(ptr, "a tool must be an object, not %s", t.kind)
			continue
		}
		nameNode := t.get("name")
		if nameNode == nil || nameNode.kind != kindString || nameNode.str == "" {
			b.problems.errorf(ptr, "the tool has no name")
			continue
		}
		if !b.checkName(pointerTo(ptr, "name"), "tool name", nameNode.str) {
			continue
		}
		if prev, dup := seen[nameNode.str]; dup {
			b.problems.errorf(pointerTo(ptr, "name"), "tool %q is listed twice (first at %s)", nameNode.str, prev)
			continue
		}
		seen[nameNode.str] = ptr
		tools = append(tools, entry{nameNode.str, t, ptr})
	}
	// By name, so that a server listing its tools in another order generates the same code.
	slices.SortFunc(tools, func(a, c entry) int { return strings.Compare(a.name, c.name) })
	for _, e := range tools {
		b.tool(e.name, e.n, e.ptr)
	}
	b.dedupe()
	return b.pkg, b.problems
}

type builder struct {
	pkg      *Package
	problems *Problems
	types    *namespace // package-level names: types and constants
	methods  *namespace // the Client's methods

	// Per schema document (one inputSchema or outputSchema):
	doc     *node
	docPtr  string
	docName string            // "the inputSchema of get_weather", for doc comments
	output  bool              // typing an outputSchema
	root    *Type             // the root's struct type, for "$ref":"#"
	local   map[string]GoType // resolved same-document references other than $defs
	pending map[*node]bool    // schemas being typed, to find recursion through a reference
	// defs holds $defs types by name and content, across documents: two tools that share a
	// $defs entry byte for byte share its Go type.
	defs map[string]*Type
}

// checkName reports a name too long or not valid UTF-8 to be a Go identifier's source.
func (b *builder) checkName(ptr, what, s string) bool {
	switch {
	case len(s) > MaxNameBytes:
		b.problems.errorf(ptr, "the %s is %d bytes, over the limit of %d", what, len(s), MaxNameBytes)
		return false
	case !utf8.ValidString(s):
		b.problems.errorf(ptr, "the %s is not valid UTF-8", what)
		return false
	}
	return true
}

// claimType names a package-level declaration, reporting a rename.
func (b *builder) claimType(want, ptr string) string {
	got, takenBy := b.types.claim(want, ptr)
	if takenBy != "" {
		b.problems.warnf(ptr, "Go name %s is taken by %s; named %s", want, takenBy, got)
	}
	return got
}

func (b *builder) tool(name string, t *node, ptr string) {
	method, takenBy := b.methods.claim(goName(name), ptr)
	if takenBy != "" {
		b.problems.warnf(pointerTo(ptr, "name"), "method %s is taken by the tool at %s; named %s", goName(name), takenBy, method)
	}
	tool := &Tool{Name: name, Method: method, Pointer: ptr, Doc: description(t)}
	b.pkg.Tools = append(b.pkg.Tools, tool)

	in := t.get("inputSchema")
	inPtr := pointerTo(ptr, "inputSchema")
	switch {
	case in == nil:
		b.problems.errorf(ptr, "the tool has no inputSchema")
	case in.kind != kindObject:
		b.problems.errorf(inPtr, "the inputSchema must be an object schema, not %s", in.kind)
	case in.get("type") != nil && !(in.get("type").kind == kindString && in.get("type").str == "object"):
		b.problems.errorf(pointerTo(inPtr, "type"), `the inputSchema's type must be "object"`)
	default:
		b.startDoc(in, inPtr, "the inputSchema of "+name)
		if props := in.get("properties"); props != nil && props.kind == kindObject && len(props.members) > 0 ||
			hasSchema(in.get("additionalProperties")) || in.get("$ref") != nil {
			tool.Args, tool.HasArgs = b.schema(in, inPtr, method+"Args", 0), true
		}
	}

	if out := t.get("outputSchema"); out != nil {
		outPtr := pointerTo(ptr, "outputSchema")
		if out.kind != kindObject && out.kind != kindBool {
			b.problems.errorf(outPtr, "the outputSchema must be a schema, not %s", out.kind)
			return
		}
		b.startDoc(out, outPtr, "the outputSchema of "+name)
		tool.Result, tool.HasResult = b.schema(out, outPtr, method+"Result", 0), true
		if tool.Result.Kind != KindNamed && !tool.Result.nilable() {
			// A root that may be null decodes into a pointer, so null is not a zero value.
			if nullable(out) {
				tool.Result = ptrTo(tool.Result)
			}
		}
	}
}

// hasSchema reports whether an additionalProperties value is a schema that admits values:
// not absent, not false.
func hasSchema(n *node) bool {
	return n != nil && (n.kind == kindObject || n.kind == kindBool && n.boolean)
}

func (b *builder) startDoc(doc *node, ptr, name string) {
	b.doc, b.docPtr, b.docName, b.root = doc, ptr, name, nil
	b.output = strings.HasPrefix(name, "the outputSchema")
	b.local = map[string]GoType{}
	b.pending = map[*node]bool{}
}

// description is a schema's description, or its title.
func description(n *node) string {
	for _, key := range []string{"description", "title"} {
		if d := n.get(key); d != nil && d.kind == kindString && strings.TrimSpace(d.str) != "" {
			return cutDoc(d.str)
		}
	}
	return ""
}

// nullable reports whether a schema's type admits null.
func nullable(n *node) bool {
	t := n.get("type")
	if t == nil {
		return false
	}
	if t.kind == kindString {
		return t.str == "null"
	}
	for _, it := range t.items {
		if it.kind == kindString && it.str == "null" {
			return true
		}
	}
	return false
}

// validationOnly lists the keywords that constrain values without changing their Go type.
var typing = []string{"type", "properties", "additionalProperties", "patternProperties", "items",
	"prefixItems", "$ref", "anyOf", "oneOf", "allOf", "enum", "const"}

func validationOnly(n *node) bool {
	if n.kind == kindBool {
		return n.boolean
	}
	for _, k := range typing {
		if n.get(k) != nil {
			return false
		}
	}
	return true
}

// schema returns the Go type of the schema n at ptr; hint names the type it declares, if any.
func (b *builder) schema(n *node, ptr, hint string, depth int) GoType {
	if depth > MaxSchemaDepth {
		b.problems.errorf(ptr, "schemas are nested deeper than %d levels", MaxSchemaDepth)
		return GoType{}
	}
	switch n.kind {
	case kindBool:
		if !n.boolean {
			b.problems.warnf(ptr, "the schema false accepts no value; typed json.RawMessage")
		}
		return GoType{}
	case kindObject:
	default:
		b.problems.errorf(ptr, "a schema must be an object or a boolean, not %s", n.kind)
		return GoType{}
	}
	if ref := n.get("$ref"); ref != nil {
		return b.ref(ref, pointerTo(ptr, "$ref"), depth)
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if alt := n.get(k); alt != nil {
			return b.union(k, alt, pointerTo(ptr, k), hint, depth)
		}
	}
	if all := n.get("allOf"); all != nil {
		if all.kind != kindArray {
			b.problems.errorf(pointerTo(ptr, "allOf"), "allOf must be an array")
			return GoType{}
		}
		if !slices.ContainsFunc(all.items, func(s *node) bool { return !validationOnly(s) }) {
			// Only constraints (toolgen writes a pattern of a tag and one of a type so): they
			// do not change the type.
		} else if len(all.items) == 1 && n.get("type") == nil && n.get("properties") == nil {
			return b.schema(all.items[0], pointerIndex(pointerTo(ptr, "allOf"), 0), hint, depth+1)
		} else {
			b.problems.warnf(pointerTo(ptr, "allOf"), "allOf of schemas that declare types is not typed; json.RawMessage")
			return GoType{}
		}
	}
	types, null, ok := b.typeNames(n, ptr)
	if !ok {
		return GoType{}
	}
	if e := n.get("enum"); e != nil {
		t, enumNull := b.enum(n, e, types, pointerTo(ptr, "enum"), hint)
		if (null || enumNull) && !t.nilable() {
			return ptrTo(t)
		}
		return t
	}
	if c := n.get("const"); c != nil && len(types) == 0 {
		types = []string{jsonType(c)}
	}
	if len(types) == 0 {
		switch {
		case n.get("properties") != nil || n.get("additionalProperties") != nil || n.get("patternProperties") != nil:
			types = []string{"object"}
		case n.get("items") != nil || n.get("prefixItems") != nil:
			types = []string{"array"}
		default:
			return GoType{} // {}: any JSON value
		}
	}
	if len(types) > 1 {
		b.problems.warnf(pointerTo(ptr, "type"), "a value of several types (%s) is not typed; json.RawMessage", strings.Join(types, ", "))
		return GoType{}
	}
	var t GoType
	switch types[0] {
	case "string":
		t = GoType{Kind: KindString}
		if f := n.get("format"); f != nil && f.kind == kindString && f.str == "date-time" {
			t = GoType{Kind: KindTime}
		} else if e := n.get("contentEncoding"); e != nil && e.kind == kindString && e.str == "base64" {
			return GoType{Kind: KindBytes}
		}
	case "integer":
		t = GoType{Kind: KindInt}
	case "number":
		t = GoType{Kind: KindFloat}
	case "boolean":
		t = GoType{Kind: KindBool}
	case "null":
		return GoType{}
	case "array":
		return b.array(n, ptr, hint, depth)
	case "object":
		t = b.object(n, ptr, hint, depth, "")
		if t.nilable() {
			return t
		}
	}
	if null {
		return ptrTo(t)
	}
	return t
}

var jsonTypes = []string{"string", "integer", "number", "boolean", "null", "array", "object"}

// typeNames reads "type": the types other than null, and whether null is one.
func (b *builder) typeNames(n *node, ptr string) (types []string, null, ok bool) {
	t := n.get("type")
	if t == nil {
		return nil, false, true
	}
	var names []*node
	switch t.kind {
	case kindString:
		names = []*node{t}
	case kindArray:
		names = t.items
	default:
		b.problems.errorf(pointerTo(ptr, "type"), "type must be a string or an array of strings, not %s", t.kind)
		return nil, false, false
	}
	ok = true
	for i, name := range names {
		p := pointerTo(ptr, "type")
		if t.kind == kindArray {
			p = pointerIndex(p, i)
		}
		switch {
		case name.kind != kindString || !slices.Contains(jsonTypes, name.str):
			if s := suggest.Closest(name.str, jsonTypes); name.kind == kindString && s != "" {
				b.problems.errorf(p, "unknown type %s; did you mean %q?", name.src, s)
			} else {
				b.problems.errorf(p, "unknown type %s; want one of %s", name.src, strings.Join(jsonTypes, ", "))
			}
			ok = false
		case name.str == "null":
			null = true
		case !slices.Contains(types, name.str):
			types = append(types, name.str)
		}
	}
	return types, null, ok
}

// jsonType is the JSON Schema type of a value.
func jsonType(v *node) string {
	switch v.kind {
	case kindNumber:
		if !strings.ContainsAny(string(v.num), ".eE") {
			return "integer"
		}
		return "number"
	case kindBool:
		return "boolean"
	}
	return v.kind.String()
}

// union types anyOf and oneOf: [X, {"type":"null"}] is a nullable X; anything else is
// json.RawMessage, as Go has no union type.
func (b *builder) union(keyword string, alt *node, ptr, hint string, depth int) GoType {
	if alt.kind != kindArray || len(alt.items) == 0 {
		b.problems.errorf(ptr, "%s must be a non-empty array of schemas", keyword)
		return GoType{}
	}
	if len(alt.items) == 2 {
		for i, s := range alt.items {
			if t := s.get("type"); t != nil && t.kind == kindString && t.str == "null" && len(s.members) == 1 {
				other := 1 - i
				t := b.schema(alt.items[other], pointerIndex(ptr, other), hint, depth+1)
				if t.nilable() {
					return t
				}
				return ptrTo(t)
			}
		}
	}
	b.problems.warnf(ptr, "%s of %d schemas is not typed (Go has no union type); json.RawMessage", keyword, len(alt.items))
	return GoType{}
}

// ref follows a same-document reference: "#" (the root), "#/$defs/NAME" (a named type) or
// another pointer into the document. References to other documents are not fetched.
func (b *builder) ref(ref *node, ptr string, depth int) GoType {
	if ref.kind != kindString {
		b.problems.errorf(ptr, "$ref must be a string")
		return GoType{}
	}
	p, ok := jsonpointer.RefPointer(ref.str)
	if !ok {
		b.problems.warnf(ptr, "$ref %q is not in this document and is not fetched; json.RawMessage", ref.str)
		return GoType{}
	}
	if p == "" {
		if b.root == nil {
			b.problems.warnf(ptr, `$ref "#" to a root that is not an object with properties; json.RawMessage`)
			return GoType{}
		}
		return named(b.root)
	}
	if t, done := b.local[p]; done {
		return t
	}
	target := b.doc
	for _, tok := range jsonpointer.Tokens(p) {
		switch target.kind {
		case kindObject:
			target = target.get(tok)
		case kindArray:
			i := -1
			fmt.Sscan(tok, &i)
			if i < 0 || i >= len(target.items) {
				target = nil
			} else {
				target = target.items[i]
			}
		default:
			target = nil
		}
		if target == nil {
			b.problems.errorf(ptr, "$ref %q points at nothing in this document", ref.str)
			return GoType{}
		}
	}
	toks := jsonpointer.Tokens(p)
	if name, ok := defName(ref.str, toks); ok {
		key := name + "\x00" + target.compact()
		if strings.Contains(key, `"$ref":"#"`) {
			key += "\x00" + b.docPtr // "#" is another root in another document
		}
		if t, ok := b.defs[key]; ok {
			return named(t)
		}
		if !b.pending[target] {
			b.pending[target] = true
			defer delete(b.pending, target)
			t := b.schemaDef(target, b.docPtr+p, goName(name), key, depth+1)
			b.local[p] = t
			return t
		}
	}
	if b.pending[target] {
		// Recursion through a schema that names no type: only objects with properties, in
		// $defs or at the root, are spelled as Go types that can refer to themselves.
		b.problems.warnf(ptr, "$ref %q is recursive through a schema that is not an object type; json.RawMessage", ref.str)
		return GoType{}
	}
	b.pending[target] = true
	defer delete(b.pending, target)
	t := b.schema(target, b.docPtr+p, goName(toks[len(toks)-1]), depth+1)
	b.local[p] = t
	return t
}

// defName returns the name of the $defs (or draft-7 definitions) entry a reference names.
func defName(ref string, toks []string) (string, bool) {
	if name, ok := jsonpointer.DefName(ref); ok {
		return name, true
	}
	if len(toks) == 2 && toks[0] == "definitions" {
		return toks[1], true
	}
	return "", false
}

// schemaDef types a $defs entry, recording its named type before its fields are typed so that
// a recursive entry refers to itself.
func (b *builder) schemaDef(n *node, ptr, hint, key string, depth int) GoType {
	if isPlainObject(n) {
		return b.object(n, ptr, hint, depth, key)
	}
	return b.schema(n, ptr, hint, depth)
}

// isPlainObject reports whether a schema is an object with properties and nothing that makes
// schema type it otherwise.
func isPlainObject(n *node) bool {
	if n.kind != kindObject || n.get("properties") == nil || n.get("enum") != nil {
		return false
	}
	for _, k := range []string{"$ref", "anyOf", "oneOf"} {
		if n.get(k) != nil {
			return false
		}
	}
	types := n.get("type")
	return types == nil || types.kind == kindString && types.str == "object"
}

// cutDoc bounds a description at MaxDocBytes, at a character boundary.
func cutDoc(s string) string {
	if len(s) <= MaxDocBytes {
		return s
	}
	cut := MaxDocBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + " […]"
}
