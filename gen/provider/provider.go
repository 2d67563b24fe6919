package provider

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/gen/diag"
	"github.com/toolgen-go/toolgen/internal/jsonpointer"
	"github.com/toolgen-go/toolgen/internal/suggest"
	"github.com/toolgen-go/toolgen/runtime"
)

// The providers toolgen targets, as -providers names them.
const (
	OpenAI    = "openai"
	Anthropic = "anthropic"
	Gemini    = "gemini"
	MCP       = "mcp"
)

// All lists every provider, in the order -providers documents them; it is the default.
var All = []string{OpenAI, Anthropic, Gemini, MCP}

// variantsOf maps a provider to the Tool.Variants keys it owns. MCP sends the canonical schemas
// and owns none.
var variantsOf = map[string][]string{
	OpenAI:    {runtime.VariantOpenAI},
	Anthropic: {runtime.VariantAnthropic, runtime.VariantAnthropicStrict},
	Gemini:    {runtime.VariantGeminiParameters, runtime.VariantGeminiJSONSchema},
	MCP:       nil,
}

// Parse reads a -providers list ("openai,gemini"): names separated by commas, each one of All,
// returned in the order of All without duplicates. An empty list means all providers.
func Parse(list string) ([]string, error) {
	if strings.TrimSpace(list) == "" {
		return slices.Clone(All), nil
	}
	want := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if !slices.Contains(All, name) {
			msg := fmt.Sprintf("unknown provider %q (known: %s)", name, strings.Join(All, ", "))
			if s := suggest.Closest(name, All); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			}
			return nil, fmt.Errorf("%s", msg)
		}
		want[name] = true
	}
	var out []string
	for _, p := range All {
		if want[p] {
			out = append(out, p)
		}
	}
	return out, nil
}

// Finding is one thing a conversion found out about a tool's schema.
//
// Errors mean an enabled provider cannot take the tool at all; warnings mean a provider loses
// something the user relies on (strict mode, a recursion level, a map's values); notes record
// what -explain shows and nothing else: keywords restated in a description, renamed
// properties, a strict variant left out where strict is optional.
type Finding struct {
	// Variant is the Tool.Variants key concerned, or the provider name for findings about the
	// provider as a whole.
	Variant string
	// Pointer is the JSON Pointer, in the canonical input schema's structure, of the schema
	// node (or keyword) concerned; "" is the whole tool. Locate maps it to a source position.
	Pointer  string
	Severity diag.Severity
	Message  string
	Hint     string
}

// Convert converts a canonical input schema (gen/schema.Input) into the variants of the
// enabled providers, keyed by the runtime.Variant* constants, and returns what it found out
// on the way. It is pure and deterministic: the generator calls it both to report findings
// and to emit the variants, and both see the same result. A provider that cannot take the
// schema at all gets no variant and an error finding; a strict variant that is impossible is
// left out (Anthropic) or sent as non-strict (OpenAI).
func Convert(canonical []byte, providers []string) (map[string]runtime.Variant, []Finding) {
	v, err := parse(canonical)
	root, _ := v.(*object)
	if err != nil || root == nil {
		return nil, []Finding{{Severity: diag.Error, Message: "internal error: the canonical input schema is not a JSON object (please report)"}}
	}
	variants := map[string]runtime.Variant{}
	var findings []Finding
	if fs := checkShape(root, providers); len(fs) > 0 {
		// A root that is not a plain object is refused by every provider: nothing to convert.
		return nil, fs
	}
	add := func(key string, variant runtime.Variant, ok bool, fs []Finding) {
		findings = append(findings, fs...)
		if ok {
			variants[key] = variant
		}
	}
	for _, p := range providers {
		switch p {
		case OpenAI:
			v, fs := convertOpenAI(root)
			add(runtime.VariantOpenAI, v, true, fs)
		case Anthropic:
			variants[runtime.VariantAnthropic] = runtime.Variant{Schema: encode(root)}
			v, ok, fs := convertAnthropicStrict(root)
			add(runtime.VariantAnthropicStrict, v, ok, fs)
		case Gemini:
			v, fs := convertGeminiParameters(root)
			add(runtime.VariantGeminiParameters, v, true, fs)
			v, fs = convertGeminiJSONSchema(root)
			add(runtime.VariantGeminiJSONSchema, v, true, fs)
		}
	}
	return variants, findings
}

// checkShape runs the checks every provider shares: the root is {"type":"object",…} without a
// root union, and every "required" names declared properties.
func checkShape(root *object, providers []string) []Finding {
	var out []Finding
	who := strings.Join(providers, ", ")
	if t := types(root); !slices.Equal(t, []string{"object"}) || root.has("anyOf") || root.has("oneOf") || root.has("allOf") {
		out = append(out, Finding{Variant: who, Severity: diag.Error,
			Message: "the input schema's root must be a plain {\"type\":\"object\"} without anyOf, oneOf or allOf; " + who + " refuse anything else",
			Hint:    "take the arguments as a struct"})
	}
	eachNode(root, "", func(ptr string, n *object) {
		props := n.obj("properties")
		for _, r := range n.list("required") {
			name, _ := r.(string)
			if props == nil || !props.has(name) {
				out = append(out, Finding{Pointer: ptr, Variant: who, Severity: diag.Error,
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

func (c *conversion) find(ptr string, sev diag.Severity, hint, format string, args ...any) {
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
		if slices.Contains(keys, k) {
			removed[k] = src.vals[k]
			c.moved = append(c.moved, ptr+"/"+jsonpointer.Escape(k))
		}
	}
	for k := range removed {
		src.del(k)
	}
	if text := phrases(removed); text != "" {
		appendNote(n, prefix+text)
	}
}

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
