package provider_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/gen/diag"
	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/gen/provider"
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
	obj.Result = ptr(containersTool().Args) // a *Struct result: object or null passes
	got := runChecks(provider.All, list, obj)
	if want := "tools.go:1:6: warning: tool list: its result is not a JSON object, and MCP output schemas must have an object root"; !strings.Contains(got, want) || strings.Contains(got, "tool get:") {
		t.Errorf("got:\n%s\nwant only %q", got, want)
	}
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
		"annotations: {}",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	buf.Reset()
	provider.Explain(&buf, recursiveTool(), []string{provider.Anthropic}, "")
	if want := "variant anthropic_strict: none\ntools.go:56:2: note: no Anthropic strict variant: property /tree is recursive\ntools.go:57:2: note: no Anthropic strict variant: property /sub is recursive"; !strings.Contains(buf.String(), want) {
		t.Errorf("missing %q in:\n%s", want, buf.String())
	}
}
