package provider_test

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/examples/email/email"
	"github.com/toolgen-go/toolgen/examples/mcp-server/demo"
	"github.com/toolgen-go/toolgen/examples/orders/orders"
	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/gen/agreement"
	"github.com/toolgen-go/toolgen/gen/provider"
	"github.com/toolgen-go/toolgen/gen/schema"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/variant"
	"github.com/toolgen-go/toolgen/toolkit/artifacts"
	"github.com/toolgen-go/toolgen/toolkit/ask"
	"github.com/toolgen-go/toolgen/toolkit/compact"
	"github.com/toolgen-go/toolgen/toolkit/subagent"
	"github.com/toolgen-go/toolgen/toolkit/todos"
	"github.com/toolgen-go/toolgen/toolkit/web"
	"github.com/toolgen-go/toolgen/toolkit/workspace"
)

// exampleTools are the tools of the example packages, as generated.
func exampleTools() []runtime.Tool {
	tools := weather.Tools()
	tools = append(tools, new(email.Outbox).Tools()...)
	return append(tools, new(orders.Service).Tools()...)
}

// schemaCase is one canonical schema under test, with the decoder when there is one.
type schemaCase struct {
	name      string
	canonical []byte
	bind      func(context.Context, []byte) (runtime.BoundCall, error)
}

func allCases() []schemaCase {
	var out []schemaCase
	for _, t := range exampleTools() {
		out = append(out, schemaCase{name: t.Name, canonical: t.InputSchema, bind: t.BindArgs})
	}
	for _, t := range handBuilt() {
		out = append(out, schemaCase{name: t.Name, canonical: schema.Input(t)})
	}
	return out
}

func TestVariantsKeepToTheProviderSubsets(t *testing.T) {
	// Which tools strict modes can take: maps and any values rule out OpenAI strict;
	// recursion rules out Anthropic strict too.
	wantOpenAIStrict := map[string]bool{"list_orders": false, "loose": false}
	wantAnthropicStrict := map[string]bool{"list_orders": false, "loose": false, "recursive": false}
	for _, c := range allCases() {
		t.Run(c.name, func(t *testing.T) {
			variants, _ := provider.Convert(c.canonical, provider.All)
			for _, key := range []string{variant.OpenAI, variant.Anthropic, variant.GeminiParameters, variant.GeminiJSONSchema} {
				if _, ok := variants[key]; !ok {
					t.Fatalf("no %s variant", key)
				}
			}
			oa := variants[variant.OpenAI]
			if want, listed := wantOpenAIStrict[c.name]; oa.Strict != (want || !listed) {
				t.Errorf("openai Strict = %v", oa.Strict)
			}
			if oa.Strict {
				for _, p := range checkOpenAIStrict(oa.Schema) {
					t.Errorf("openai strict: %s", p)
				}
			} else if !bytes.Contains(c.canonical, oa.Schema[1:]) || len(oa.NullMeansAbsent) > 0 {
				t.Errorf("non-strict openai variant is not the canonical schema without $schema: %s", oa.Schema)
			}
			if got := variants[variant.Anthropic].Schema; !bytes.Equal(got, c.canonical) {
				t.Errorf("anthropic variant differs from the canonical schema:\n%s", got)
			}
			as, ok := variants[variant.AnthropicStrict]
			if want, listed := wantAnthropicStrict[c.name]; ok != (want || !listed) {
				t.Errorf("anthropic_strict present = %v", ok)
			}
			if ok {
				for _, p := range checkAnthropicStrict(as.Schema) {
					t.Errorf("anthropic strict: %s", p)
				}
			}
			for _, p := range checkGeminiParameters(variants[variant.GeminiParameters].Schema) {
				t.Errorf("gemini parameters: %s", p)
			}
			for _, p := range checkGeminiJSONSchema(variants[variant.GeminiJSONSchema].Schema) {
				t.Errorf("gemini jsonschema: %s", p)
			}
			// Every variant is still a JSON Schema a 2020-12 validator compiles.
			for key, v := range variants {
				if _, err := compile(v.Schema); err != nil {
					t.Errorf("%s: does not compile: %v", key, err)
				}
			}
		})
	}
}

// Generated tools carry no variant literals: Tool.Variant derives each of their Dialects at
// run time, and what it derives must be exactly what the generator converted and checked.
func TestDerivedVariantsEqualTheConversion(t *testing.T) {
	tools := append(exampleTools(), demo.Tools()...)
	tools = append(tools, new(artifacts.Toolkit).Tools()...)
	tools = append(tools, new(ask.Toolkit).Tools()...)
	tools = append(tools, compact.Tools()...)
	tools = append(tools, subagent.ToolkitTools(&subagent.Toolkit{})...)
	tools = append(tools, new(todos.Toolkit).Tools()...)
	tools = append(tools, new(web.Toolkit).Tools()...)
	tools = append(tools, new(workspace.Workspace).Tools()...)
	require.Greater(t, len(tools), 20)
	allKeys := []string{variant.OpenAI, variant.Anthropic, variant.AnthropicStrict,
		variant.GeminiParameters, variant.GeminiJSONSchema}
	for _, tool := range tools {
		require.Empty(t, tool.Variants, "%s: generated code carries no variant literals", tool.Name)
		require.Equal(t, allKeys, tool.Dialects, "%s: every provider's variants, as -providers defaults", tool.Name)
		want, _ := provider.Convert(tool.InputSchema, provider.All)
		for _, key := range allKeys {
			got, ok := tool.Variant(key)
			w, wantOK := want[key]
			require.Equal(t, wantOK, ok, "%s %s: present", tool.Name, key)
			// Deep equality, nil and empty lists apart.
			require.True(t, reflect.DeepEqual(w, got), "%s %s:\nwant %+v\ngot  %+v", tool.Name, key, w, got)
		}
	}
}

func compile(doc []byte) (*jsonschema.Schema, error) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource("schema.json", v); err != nil {
		return nil, err
	}
	return c.Compile("schema.json")
}

func valid(s *jsonschema.Schema, doc []byte) bool {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	return err == nil && s.Validate(v) == nil
}

// strictForm writes doc as OpenAI strict mode would: every optional property the document
// leaves out is present with null. explicitNull reports a null the document itself has there.
func strictForm(t *testing.T, doc []byte, v variant.Variant) (out []byte, explicitNull bool) {
	var val any
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&val); err != nil {
		t.Fatalf("corpus document %s: %v", doc, err)
	}
	loops := map[string]string{}
	for _, l := range v.Loops {
		loops[l.Path] = l.Target
	}
	at := func(p string) string {
		if t, ok := loops[p]; ok {
			return t
		}
		return p
	}
	var fill func(val any, path string)
	fill = func(val any, path string) {
		switch val := val.(type) {
		case map[string]any:
			for _, p := range v.NullMeansAbsent {
				i := strings.LastIndex(p, "/")
				if p[:i] == path {
					if e, ok := val[p[i+1:]]; !ok {
						val[p[i+1:]] = nil
					} else if e == nil {
						explicitNull = true
					}
				}
			}
			for k, e := range val {
				fill(e, at(path+"/"+k))
			}
		case []any:
			for _, e := range val {
				fill(e, at(path+"/*"))
			}
		}
	}
	fill(val, "")
	out, _ = json.Marshal(val)
	return out, explicitNull
}

func accepts(bind func(context.Context, []byte) (runtime.BoundCall, error), doc []byte) bool {
	_, err := bind(context.Background(), doc)
	return err == nil
}

// TestOpenAIStrictAgreement: a document valid under the canonical schema, written the strict
// way (absent ↔ null), is valid under the strict variant; after Restore the canonical
// validator and the generated decoder say what they said of the original.
func TestOpenAIStrictAgreement(t *testing.T) {
	for _, c := range allCases() {
		t.Run(c.name, func(t *testing.T) {
			variants, _ := provider.Convert(c.canonical, provider.All)
			v := variants[variant.OpenAI]
			if !v.Strict {
				t.Skip("not strict: nothing to undo")
			}
			canonical, err := compile(c.canonical)
			if err != nil {
				t.Fatal(err)
			}
			strict, err := compile(v.Schema)
			if err != nil {
				t.Fatal(err)
			}
			docs := agreement.Corpus(c.canonical, agreement.CheckSeed)
			checked := 0
			for _, doc := range docs {
				if !bytes.HasPrefix(bytes.TrimSpace(doc), []byte("{")) {
					continue
				}
				sf, explicitNull := strictForm(t, doc, v)
				if explicitNull {
					// Strict mode cannot tell such a null from a left-out property: both are
					// written null, and Restore reads null as left out, by design.
					continue
				}
				ok := valid(canonical, doc)
				if ok {
					checked++
					if !valid(strict, sf) {
						t.Errorf("valid document %s: its strict form %s fails the strict variant", doc, sf)
					}
				}
				restored, err := v.Restore(sf)
				if err != nil {
					t.Errorf("Restore(%s): %v", sf, err)
					continue
				}
				if valid(canonical, restored) != ok {
					t.Errorf("document %s (valid: %v): restored %s is not", doc, ok, restored)
				}
				if c.bind != nil && accepts(c.bind, restored) != accepts(c.bind, doc) {
					t.Errorf("document %s: the decoder accepts it %v, restored %s %v", doc, accepts(c.bind, doc), restored, accepts(c.bind, restored))
				}
			}
			if checked == 0 {
				t.Fatalf("no valid document in a corpus of %d", len(docs))
			}
		})
	}
}

// TestGeminiRenamesRoundTrip: arguments written with the names Gemini sees come back in
// canonical names, at every depth of a recursive type.
func TestGeminiRenamesRoundTrip(t *testing.T) {
	variants, _ := provider.Convert(schema.Input(recursiveTool()), provider.All)
	for _, key := range []string{variant.GeminiParameters, variant.GeminiJSONSchema} {
		v := variants[key]
		if len(v.Renames) == 0 {
			t.Fatalf("%s: no renames for child-nodes", key)
		}
		sent := `{"tree":{"label":"a","child_nodes":[{"child_nodes":[{"label":"c"}],"next":{"child_nodes":[]}}]},"sub":{"tree":{"child_nodes":[]}}}`
		want := `{"tree":{"label":"a","child-nodes":[{"child-nodes":[{"label":"c"}],"next":{"child-nodes":[]}}]},"sub":{"tree":{"child-nodes":[]}}}`
		got, err := v.Restore([]byte(sent))
		if err != nil || string(got) != want {
			t.Errorf("%s: Restore = %s, %v; want %s", key, got, err, want)
		}
		if !strings.Contains(string(v.Schema), `"child_nodes"`) || strings.Contains(string(v.Schema), `"child-nodes"`) {
			t.Errorf("%s: schema does not use the new name: %s", key, v.Schema)
		}
	}
	c, _ := provider.Convert(schema.Input(containersTool()), []string{provider.Gemini})
	want := []variant.Rename{{Path: "", From: "x-trace", To: "x_trace"}, {Path: "/inner", From: "deep-name", To: "deep_name"}, {Path: "/inner", From: "2nd", To: "_2nd"}}
	got := c[variant.GeminiParameters].Renames
	if !reflect.DeepEqual(sortedRenames(got), sortedRenames(want)) {
		t.Errorf("renames = %+v, want %+v", got, want)
	}
}

func sortedRenames(r []variant.Rename) string {
	var s []string
	for _, x := range r {
		s = append(s, x.Path+"|"+x.From+"|"+x.To)
	}
	slicesSort(s)
	return strings.Join(s, ",")
}

func TestProvidersLimitTheVariants(t *testing.T) {
	canonical := schema.Input(scalarsTool())
	cases := map[string][]string{
		"openai":         {variant.OpenAI},
		"anthropic":      {variant.Anthropic, variant.AnthropicStrict},
		"gemini":         {variant.GeminiParameters, variant.GeminiJSONSchema},
		"mcp":            nil,
		"openai,gemini":  {variant.GeminiParameters, variant.GeminiJSONSchema, variant.OpenAI},
		"mcp,anthropic ": {variant.Anthropic, variant.AnthropicStrict},
	}
	for list, want := range cases {
		providers, err := provider.Parse(list)
		if err != nil {
			t.Fatalf("Parse(%q): %v", list, err)
		}
		variants, _ := provider.Convert(canonical, providers)
		var got []string
		for k := range variants {
			got = append(got, k)
		}
		slicesSort(got)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("-providers %s: variants %v, want %v", list, got, want)
		}
	}
}

func TestParse(t *testing.T) {
	if got, err := provider.Parse(""); err != nil || !reflect.DeepEqual(got, provider.All) {
		t.Errorf("Parse(\"\") = %v, %v", got, err)
	}
	if got, err := provider.Parse("gemini,openai,gemini"); err != nil || !reflect.DeepEqual(got, []string{"openai", "gemini"}) {
		t.Errorf("Parse = %v, %v; want known order without duplicates", got, err)
	}
	_, err := provider.Parse("openai,antropic")
	if err == nil || !strings.Contains(err.Error(), `did you mean "anthropic"?`) {
		t.Errorf("Parse(antropic) error = %v", err)
	}
}

func slicesSort(s []string) { sort.Strings(s) }
