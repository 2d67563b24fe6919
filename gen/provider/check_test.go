package provider_test

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/pmezard/go-difflib/difflib"
	"github.com/stretchr/testify/assert"

	"github.com/toolgen-go/toolgen/gen/diag"
	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/gen/provider"
	"github.com/toolgen-go/toolgen/gen/schema"
)

func runChecks(providers []string, tools ...*model.Tool) string {
	var diags diag.List
	provider.Run([]*model.Package{{Path: "example.com/m", Name: "m", Tools: tools}}, providers, &diags)
	var buf bytes.Buffer
	diags.Print(&buf, "")
	return buf.String()
}

func TestRunReportsAtTheField(t *testing.T) {
	got := runChecks(provider.All, handBuilt()...)
	t.Log("\n" + got)
	for _, want := range []string{
		// OpenAI strict is impossible: at the map and the any value, not at the tool.
		"tools.go:60:2: warning: tool loose: OpenAI strict mode is impossible: property /meta is a map",
		"tools.go:63:2: warning: tool loose: OpenAI strict mode is impossible: property /anything accepts any JSON value",
		"tools.go:62:2: warning: tool loose: OpenAI strict mode is impossible: property /raw accepts any JSON value",
		// Gemini parameters lose the map's values.
		"tools.go:60:2: warning: tool loose: Gemini parameters cannot describe a map: property /meta",
		// Gemini parameters cut the recursion, at the recursive field.
		"warning: tool recursive: Gemini parameters cannot refer to a type",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q", want)
		}
	}
	// Notes (moved keywords, renames, no Anthropic strict variant) are for -explain only.
	for _, unwanted := range []string{"note:", "x_trace", "Anthropic"} {
		if strings.Contains(got, unwanted) {
			t.Errorf("unexpected %q in the diagnostics", unwanted)
		}
	}
	// Tools every provider takes whole give no diagnostic.
	if got := runChecks(provider.All, scalarsTool(), containersTool(), noArgsTool()); got != "" {
		t.Errorf("diagnostics for convertible tools:\n%s", got)
	}
	// A disabled provider is not checked.
	if got := runChecks([]string{provider.Anthropic, provider.MCP}, looseTool()); got != "" {
		t.Errorf("-providers anthropic,mcp reported:\n%s", got)
	}
}

func TestRunChecksMCPOutputAndToolCounts(t *testing.T) {
	list := tool("list", nil)
	list.Result = &model.Type{Kind: model.KindSlice, Elem: kind(model.KindString)}
	obj := tool("get", nil)
	obj.Result = containersTool().Args // a struct result: an object root
	nullable := tool("find", nil)
	nullable.Result = ptr(containersTool().Args) // a *Struct result: object or null
	got := runChecks(provider.All, list, obj, nullable)
	for _, want := range []string{
		"tools.go:1:6: warning: tool list: its result is not a JSON object, and MCP output schemas must have an object root",
		"tools.go:1:6: warning: tool find: its result is a pointer, which may be null, and MCP output schemas must have an object root: MCP clients get no output schema",
	} {
		assert.Contains(t, got, want)
	}
	assert.NotContains(t, got, "tool get:")
	if got := runChecks([]string{provider.OpenAI}, list); got != "" {
		t.Errorf("MCP checked while disabled:\n%s", got)
	}

	var many []*model.Tool
	for i := range 130 {
		m := tool("t", nil)
		m.Pos.Line = i + 1
		many = append(many, m)
	}
	got = runChecks(provider.All, many...)
	if want := "tools.go:129:6: warning: this run declares 130 tools; OpenAI and Gemini take at most 128 per request"; !strings.Contains(got, want) {
		t.Errorf("got:\n%s\nwant %q", got, want)
	}
	if got := runChecks([]string{provider.Anthropic}, many...); strings.Contains(got, "128") {
		t.Errorf("count checked for anthropic only:\n%s", got)
	}
}

func TestConvertRefusesANonObjectRoot(t *testing.T) {
	for _, doc := range []string{`{"type":"array","items":{}}`, `{"type":"object","anyOf":[{}]}`, `[]`, `{`} {
		variants, findings := provider.Convert([]byte(doc), provider.All)
		if len(variants) != 0 || len(findings) != 1 || findings[0].Severity != diag.Error {
			t.Errorf("Convert(%s) = %v, %+v; want one error and no variant", doc, variants, findings)
		}
	}
	_, findings := provider.Convert([]byte(`{"type":"object","properties":{},"required":["ghost"]}`), provider.All)
	if len(findings) != 1 || !strings.Contains(findings[0].Message, `"ghost" is required but not a property`) {
		t.Errorf("required not a property: %+v", findings)
	}
}

func TestLocate(t *testing.T) {
	c := containersTool()
	r := recursiveTool()
	cases := []struct {
		tool    *model.Tool
		pointer string
		want    string
	}{
		{c, "", "tools.go:1:6"},
		{c, "/properties/tags/minItems", "tools.go:30:2"},
		{c, "/properties/tags/items/minLength", "tools.go:30:2"},
		{c, "/properties/to/anyOf/0/properties/y", "tools.go:41:2"},
		{c, "/properties/points/items/properties/x/type", "tools.go:40:2"},
		{c, "/properties/inner/properties/deep-name", "tools.go:35:2"},
		{c, "/$defs/Point/properties/y", "tools.go:41:2"},
		{c, "/$defs/Point", "types.go:39:6"},
		{c, "/properties/nope/minLength", "tools.go:1:6"},
		{r, "/$defs/Node/properties/child-nodes/items", "tools.go:52:2"},
		{r, "/properties/sub/properties/tree/properties/next", "tools.go:53:2"},
		{noArgsTool(), "/properties/x", "tools.go:1:6"},
	}
	for _, tc := range cases {
		if got := provider.Locate(tc.tool, tc.pointer).String(); got != tc.want {
			t.Errorf("Locate(%s, %q) = %s, want %s", tc.tool.Name, tc.pointer, got, tc.want)
		}
	}
}

// TestLocateClashingDefNames: two types named Unit are $defs entries weather.Unit and
// units.Unit; each pointer leads to its own declaration, whichever the walk meets first.
func TestLocateClashingDefNames(t *testing.T) {
	unit := func(path string, line int) *model.Type {
		u := &model.Type{Kind: model.KindStruct, Fields: []*model.Field{field(line+1, "v", kind(model.KindString), true)}}
		u.Named = &model.GoName{Path: path, Name: "Unit"}
		u.Pos = model.Position{Filename: "types.go", Line: line, Column: 6}
		return u
	}
	theirs, ours := unit("example.com/units", 70), unit("example.com/weather", 80)
	args := named("ClashArgs", &model.Type{Kind: model.KindStruct, Fields: []*model.Field{
		field(91, "a", theirs, true), field(92, "b", theirs, true),
		field(93, "c", ours, true), field(94, "d", ours, true),
	}}, 90)
	tl := tool("clash", args)
	if in := string(schema.Input(tl)); !strings.Contains(in, `"#/$defs/weather.Unit"`) || !strings.Contains(in, `"#/$defs/units.Unit"`) {
		t.Fatalf("the schema does not have the qualified names this test is about:\n%s", in)
	}
	for pointer, want := range map[string]string{
		"/$defs/weather.Unit":              "types.go:80:6",
		"/$defs/units.Unit":                "types.go:70:6",
		"/$defs/weather.Unit/properties/v": "tools.go:81:2",
		"/$defs/units.Unit/properties/v":   "tools.go:71:2",
		"/$defs/Unit":                      "tools.go:1:6",
	} {
		if got := provider.Locate(tl, pointer).String(); got != want {
			t.Errorf("Locate(%q) = %s, want %s", pointer, got, want)
		}
	}
}

func TestExplain(t *testing.T) {
	var buf bytes.Buffer
	provider.Explain(&buf, scalarsTool(), []string{provider.OpenAI, provider.MCP}, "")
	got := buf.String()
	for _, want := range []string{
		"== tool scalars, provider openai ==\nvariant openai (strict: true):\n{\n",
		`"description": "The name. (1–64 chars)"`,
		"null means absent: /id, /site, /count,",
		"moved into the description (the decoder still enforces them):\n",
		"\ttools.go:10:2: /properties/name/minLength\n",
		"\ttools.go:12:2: /properties/site/format\n",
		"\ttools.go:18:2: /properties/wait/allOf/0/pattern\n",
		"== tool scalars, provider mcp ==\ninputSchema:\n{\n  \"$schema\"",
		`annotations: {"destructiveHint":false,"idempotentHint":false,"readOnlyHint":false}` + "\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	// The annotations are what runtime/mcp sends (runtime/mcp tests that it sends these):
	// the hints set, destructiveHint always, openWorldHint left out when unset (MCP's
	// cautious default applies), and the title in the definition, not in them.
	buf.Reset()
	hinted := scalarsTool()
	hinted.Title = "Scalars"
	hinted.Hints = model.Hints{ReadOnly: true}
	provider.Explain(&buf, hinted, []string{provider.MCP}, "")
	if want := "title: Scalars\nannotations: {\"destructiveHint\":false,\"idempotentHint\":false,\"readOnlyHint\":true}\n"; !strings.HasSuffix(buf.String(), want) {
		t.Errorf("MCP for a read-only tool: want the end %q in:\n%s", want, buf.String())
	}
	buf.Reset()
	provider.Explain(&buf, recursiveTool(), []string{provider.Anthropic}, "")
	if want := "variant anthropic_strict: none\ntools.go:56:2: note: no Anthropic strict variant: property /tree is recursive\ntools.go:57:2: note: no Anthropic strict variant: property /sub is recursive"; !strings.Contains(buf.String(), want) {
		t.Errorf("missing %q in:\n%s", want, buf.String())
	}
}

// TestNonASCIIRecursiveType: a recursive type whose $defs name is percent-encoded in its
// $refs (Größe) is recognised as recursive like an ASCII one, so every provider converts it
// the same way.
func TestNonASCIIRecursiveType(t *testing.T) {
	convert := func(name string) string {
		tl := recursiveTool()
		tl.Args.Fields[0].Type.Named.Name = name // the recursive Node
		variants, findings := provider.Convert(schema.Input(tl), provider.All)
		var b strings.Builder
		for _, key := range slices.Sorted(maps.Keys(variants)) {
			fmt.Fprintf(&b, "%s strict=%t loops=%v\n%s\n", key, variants[key].Strict, variants[key].Loops, variants[key].Schema)
		}
		for _, f := range findings {
			fmt.Fprintf(&b, "%s %s %s\n", f.Variant, f.Pointer, f.Message)
		}
		return strings.ReplaceAll(strings.ReplaceAll(b.String(), "Gr%C3%B6%C3%9Fe", name), "Größe", name)
	}
	ascii, other := convert("Node"), strings.ReplaceAll(convert("Größe"), "Größe", "Node")
	if ascii != other {
		diff, _ := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{A: difflib.SplitLines(ascii), B: difflib.SplitLines(other), FromFile: "Node", ToFile: "Größe", Context: 1})
		t.Errorf("conversions differ:\n%s", diff)
	}
}

func TestRunWarnsAboutNamesOpenAIRefuses(t *testing.T) {
	long := &model.Tool{Name: strings.Repeat("n", 65), Pos: model.Position{Filename: "tools.go", Line: 3, Column: 6}}
	got := runChecks(provider.All, long)
	if !strings.Contains(got, "tools.go:3:6: warning: tool name \""+long.Name+"\" has 65 characters; OpenAI refuses names over 64") {
		t.Errorf("no warning about the name:\n%s", got)
	}
	if got := runChecks([]string{provider.Anthropic, provider.Gemini, provider.MCP}, long); strings.Contains(got, "OpenAI") {
		t.Errorf("warned without OpenAI among the providers:\n%s", got)
	}
}
