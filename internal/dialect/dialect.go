// Package dialect converts a canonical input schema (gen/schema.Input) into the dialects of
// the providers: OpenAI strict mode, Anthropic strict tool use, Gemini parameters (an OpenAPI
// 3.0 subset) and Gemini parametersJsonSchema. It is a pure function of the schema's JSON, so
// the generator (gen/provider, which turns its findings into diagnostics) and the runtime
// (runtime.Tool.Variant, which derives a variant on first use) get the same result. It
// imports neither: runtime/variant.Variant mirrors Variant.
package dialect

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/internal/jsonpointer"
)

// The providers, as -providers names them.
const (
	OpenAI    = "openai"
	Anthropic = "anthropic"
	Gemini    = "gemini"
	MCP       = "mcp"
)

// The variant keys, equal to runtime/variant's constants.
const (
	VariantOpenAI           = "openai"
	VariantAnthropic        = "anthropic"
	VariantAnthropicStrict  = "anthropic_strict"
	VariantGeminiParameters = "gemini"
	VariantGeminiJSONSchema = "gemini_jsonschema"
)

// Keys lists every variant key, in a fixed order. An array, so that its length is a constant
// (runtime sizes its cache of derived variants by it).
var Keys = [...]string{VariantOpenAI, VariantAnthropic, VariantAnthropicStrict, VariantGeminiParameters, VariantGeminiJSONSchema}

// KeysOf maps a provider to the variant keys it owns. MCP sends the canonical schemas and owns
// none.
var KeysOf = map[string][]string{
	OpenAI:    {VariantOpenAI},
	Anthropic: {VariantAnthropic, VariantAnthropicStrict},
	Gemini:    {VariantGeminiParameters, VariantGeminiJSONSchema},
	MCP:       nil,
}

// Variant mirrors runtime/variant.Variant field for field (see there).
type Variant struct {
	Schema          []byte
	Strict          bool
	NullMeansAbsent []string
	Renames         []Rename
	Loops           []Loop
	Moved           []string
}

// Rename mirrors runtime/variant.Rename.
type Rename struct{ Path, From, To string }

// Loop mirrors runtime/variant.Loop.
type Loop struct{ Path, Target string }

// Severity grades a Finding; its values equal gen/diag's.
type Severity int

const (
	Error Severity = iota
	Warning
	Note
)

// Finding is one thing a conversion found out about a schema; gen/provider documents it.
type Finding struct {
	Variant  string
	Pointer  string
	Severity Severity
	Message  string
	Hint     string
}

// Convert converts a canonical input schema into the variants of the enabled providers,
// keyed by runtime/variant's constants, and returns what it found out on the way. It is pure
// and deterministic. A provider that cannot take the schema at all gets no variant and an error
// finding; a strict variant that is impossible is left out (Anthropic) or sent as non-strict
// (OpenAI).
func Convert(canonical []byte, providers []string) (map[string]Variant, []Finding) {
	root, fs := parseRoot(canonical, providers)
	if root == nil {
		return nil, fs
	}
	variants := map[string]Variant{}
	var findings []Finding
	for _, p := range providers {
		for _, key := range KeysOf[p] {
			v, ok, fs := convert(root, key)
			findings = append(findings, fs...)
			if ok {
				variants[key] = v
			}
		}
	}
	return variants, findings
}

// Derive converts a canonical input schema into the one variant key names: what Convert
// returns under key for a provider list that enables it. ok is false when there is no such
// variant (an unknown key, a schema no provider takes, an impossible Anthropic strict
// variant).
func Derive(canonical []byte, key string) (v Variant, ok bool) {
	root, _ := parseRoot(canonical, []string{key})
	if root == nil {
		return Variant{}, false
	}
	v, ok, _ = convert(root, key)
	return v, ok
}

// parseRoot parses the canonical schema and runs the checks every provider shares; a nil root
// means nothing can be converted.
func parseRoot(canonical []byte, providers []string) (*object, []Finding) {
	v, err := parse(canonical)
	root, _ := v.(*object)
	if err != nil || root == nil {
		return nil, []Finding{{Severity: Error, Message: "internal error: the canonical input schema is not a JSON object (please report)"}}
	}
	if fs := checkShape(root, providers); len(fs) > 0 {
		// A root that is not a plain object is refused by every provider: nothing to convert.
		return nil, fs
	}
	return root, nil
}

// convert runs the conversion of one variant key on the parsed canonical schema.
func convert(root *object, key string) (Variant, bool, []Finding) {
	switch key {
	case VariantOpenAI:
		v, fs := convertOpenAI(root)
		return v, true, fs
	case VariantAnthropic:
		return Variant{Schema: encode(root)}, true, nil
	case VariantAnthropicStrict:
		return convertAnthropicStrict(root)
	case VariantGeminiParameters:
		v, fs := convertGeminiParameters(root)
		return v, true, fs
	case VariantGeminiJSONSchema:
		v, fs := convertGeminiJSONSchema(root)
		return v, true, fs
	}
	return Variant{}, false, nil
}

// RootTypes returns the "type" of a schema's root (a list even when the schema has one
// string), or false when the document is not a JSON object.
func RootTypes(doc []byte) ([]string, bool) {
	v, err := parse(doc)
	root, _ := v.(*object)
	if err != nil || root == nil {
		return nil, false
	}
	return types(root), true
}

// checkShape runs the checks every provider shares: the root is {"type":"object",…} without a
// root union, and every "required" names declared properties.
func checkShape(root *object, providers []string) []Finding {
	var out []Finding
	who := strings.Join(providers, ", ")
	if t := types(root); !slices.Equal(t, []string{"object"}) || root.has("anyOf") || root.has("oneOf") || root.has("allOf") {
		out = append(out, Finding{Variant: who, Severity: Error,
			Message: "the input schema's root must be a plain {\"type\":\"object\"} without anyOf, oneOf or allOf; " + who + " refuse anything else",
			Hint:    "take the arguments as a struct"})
	}
	eachNode(root, "", func(ptr string, n *object) {
		props := n.obj("properties")
		for _, r := range n.list("required") {
			name, _ := r.(string)
			if props == nil || !props.has(name) {
				out = append(out, Finding{Pointer: ptr, Variant: who, Severity: Error,
					Message: fmt.Sprintf("internal error: %q is required but not a property (please report)", name)})
			}
		}
	})
	return out
}

// eachNode calls fn for every schema object in the tree of n, with its JSON Pointer, parents
// first, following properties, items, additionalProperties, anyOf, oneOf, allOf and $defs.
func eachNode(n *object, ptr string, fn func(ptr string, n *object)) {
	if n == nil {
		return
	}
	fn(ptr, n)
	for _, kw := range []string{"properties", "$defs"} {
		if m := n.obj(kw); m != nil {
			for _, k := range m.keys {
				eachNode(m.obj(k), ptr+"/"+kw+"/"+jsonpointer.Escape(k), fn)
			}
		}
	}
	for _, kw := range []string{"items", "additionalProperties", "propertyNames"} {
		eachNode(n.obj(kw), ptr+"/"+kw, fn)
	}
	for _, kw := range []string{"anyOf", "oneOf", "allOf"} {
		for i, b := range n.list(kw) {
			if b, ok := b.(*object); ok {
				eachNode(b, fmt.Sprintf("%s/%s/%d", ptr, kw, i), fn)
			}
		}
	}
}

// resolve returns the node a local $ref ("#" or "#/$defs/Name") points at, or nil.
func resolve(root *object, ref string) *object {
	if ref == "#" {
		return root
	}
	name, ok := jsonpointer.DefName(ref)
	if !ok {
		return nil
	}
	if defs := root.obj("$defs"); defs != nil {
		return defs.obj(name)
	}
	return nil
}

// refPointer turns a local $ref into the JSON Pointer of its target.
func refPointer(ref string) string {
	if p, ok := jsonpointer.RefPointer(ref); ok {
		return p
	}
	return strings.TrimPrefix(ref, "#")
}

// recursiveRefs returns the local $refs whose target can reach itself: "#" when anything
// refers to the root, and every $defs entry on a cycle. Inlining one of them would not end.
func recursiveRefs(root *object) map[string]bool {
	edges := map[string][]string{}
	collect := func(from string, n *object) {
		eachNode(n, "", func(_ string, m *object) {
			if r := m.str("$ref"); r != "" {
				edges[from] = append(edges[from], r)
			}
		})
	}
	// The root without its $defs: the $defs are their own nodes.
	rootOnly := clone(root).(*object)
	rootOnly.del("$defs")
	collect("#", rootOnly)
	if defs := root.obj("$defs"); defs != nil {
		for _, k := range defs.keys {
			collect(jsonpointer.DefRef(k), defs.obj(k))
		}
	}
	out := map[string]bool{}
	for start := range edges {
		seen := map[string]bool{}
		stack := slices.Clone(edges[start])
		for len(stack) > 0 {
			r := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if r == start {
				out[start] = true
				break
			}
			if seen[r] {
				continue
			}
			seen[r] = true
			stack = append(stack, edges[r]...)
		}
	}
	return out
}

// conversion collects what one variant's conversion moved and found.
type conversion struct {
	variant  string
	root     *object // the canonical schema, never changed
	findings []Finding
	moved    []string
}

func (c *conversion) find(ptr string, sev Severity, hint, format string, args ...any) {
	c.findings = append(c.findings, Finding{Variant: c.variant, Pointer: ptr, Severity: sev, Message: fmt.Sprintf(format, args...), Hint: hint})
}

// mergeAllOf flattens allOf into n: a member keyword n lacks moves up, one n already has (a
// second pattern) is restated in the description. The providers that take allOf poorly or not
// at all get one schema node instead.
func (c *conversion) mergeAllOf(n *object, ptr string) {
	members := n.list("allOf")
	if members == nil {
		return
	}
	n.del("allOf")
	for i, m := range members {
		m, ok := m.(*object)
		if !ok {
			continue
		}
		mptr := fmt.Sprintf("%s/allOf/%d", ptr, i)
		var clash []string
		for _, k := range m.keys {
			if n.has(k) {
				clash = append(clash, k)
			} else {
				n.set(k, m.vals[k])
			}
		}
		if len(clash) > 0 {
			c.restateFrom(n, m, mptr, "also: ", clash...)
		}
	}
}

// restate removes keys from n, records each as moved, and says in n's description what they
// required, compactly: "(1–64 chars; format: uuid)". The decoder still enforces them.
func (c *conversion) restate(n *object, ptr string, keys ...string) {
	c.restateFrom(n, n, ptr, "", keys...)
}

// restateFrom is restate for keywords that sit in src (n itself, or an allOf member of n).
func (c *conversion) restateFrom(n, src *object, ptr, prefix string, keys ...string) {
	removed := map[string]any{}
	for _, k := range src.keys {
		if k == mcpHeader {
			continue
		}
		if slices.Contains(keys, k) {
			removed[k] = src.vals[k]
			c.moved = append(c.moved, ptr+"/"+jsonpointer.Escape(k))
		}
	}
	for k := range removed {
		src.del(k)
	}
	if slices.Contains(keys, mcpHeader) {
		// Transport, not a constraint: a model has nothing to read in it, so it goes without
		// a note (and without a loss to warn of).
		src.del(mcpHeader)
	}
	if text := phrases(removed); text != "" {
		appendNote(n, prefix+text)
	}
}

// mcpHeader is the MCP keyword (2026-07-28) marking a property mirrored into an Mcp-Param
// HTTP header (tool:"header=NAME"); only an MCP client reads it.
const mcpHeader = "x-mcp-header"

// unsupported returns the keys of n that are not in allowed, in n's order.
func unsupported(n *object, allowed map[string]bool) []string {
	var out []string
	for _, k := range n.keys {
		if !allowed[k] {
			out = append(out, k)
		}
	}
	return out
}

func set(keys ...string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}

// optionalProperties returns the properties of object n that are not required, in order.
func optionalProperties(n *object) []string {
	props := n.obj("properties")
	if props == nil {
		return nil
	}
	req := map[string]bool{}
	for _, r := range n.list("required") {
		if s, ok := r.(string); ok {
			req[s] = true
		}
	}
	var out []string
	for _, k := range props.keys {
		if !req[k] {
			out = append(out, k)
		}
	}
	return out
}

// acceptsAnything reports whether n has no keyword that restricts the kind of value: the
// schema of json.RawMessage and any.
func acceptsAnything(n *object) bool {
	for _, k := range []string{"type", "$ref", "anyOf", "oneOf", "allOf", "enum", "const", "properties", "items"} {
		if n.has(k) {
			return false
		}
	}
	return true
}
