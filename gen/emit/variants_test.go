package emit_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/gen/emit"
	"github.com/toolgen-go/toolgen/gen/model"
)

func pingPackage() *model.Package {
	args := &model.Type{Kind: model.KindStruct, Named: &model.GoName{Path: "example.com/m", Name: "PingArgs"},
		Fields: []*model.Field{{GoName: "Host", JSONName: "host-name", Type: &model.Type{Kind: model.KindString}, Description: "Host."}}}
	return &model.Package{Path: "example.com/m", Name: "m", Tools: []*model.Tool{{
		Name: "ping", Description: "Pings.", Args: args,
		Handler: model.Handler{Name: "Ping", Context: true, Args: model.ArgsValue, Returns: model.ReturnText},
	}}}
}

// The generated tools name the variants to derive (runtime.Tool.Dialects) rather than carry
// them: those of the enabled providers, none for MCP alone.
func TestFileEmitsTheEnabledDialects(t *testing.T) {
	cases := []struct {
		name      string
		opts      []emit.Option
		want, not []string
	}{
		{"default: all", nil, []string{"toolgenBindings[:], toolgenToolsSchemas[:], toolgenDialects)", "var toolgenDialects = []string{toolimpl.VariantOpenAI, toolimpl.VariantAnthropic, " +
			"toolimpl.VariantAnthropicStrict, toolimpl.VariantGeminiParameters, toolimpl.VariantGeminiJSONSchema}"}, []string{"Variants:"}},
		{"openai only", []emit.Option{emit.Providers("openai")}, []string{"var toolgenDialects = []string{toolimpl.VariantOpenAI}"}, []string{"VariantGemini", "VariantAnthropic"}},
		{"mcp only", []emit.Option{emit.Providers("mcp")}, []string{"toolgenBindings[:], toolgenToolsSchemas[:], nil)"}, []string{"Variants:", "Dialects:", "toolgenDialects"}},
	}
	for _, c := range cases {
		src, err := emit.File(pingPackage(), c.opts...)
		require.NoError(t, err, c.name)
		for _, w := range c.want {
			assert.Contains(t, string(src), w, c.name)
		}
		for _, n := range c.not {
			assert.NotContains(t, string(src), n, c.name)
		}
	}
}

// A schema text several tools share is written once, as a constant each tool refers to; a
// schema of one tool stays inline.
func TestFileWritesASharedSchemaOnce(t *testing.T) {
	pkg := pingPackage()
	pong := *pkg.Tools[0]
	pong.Name, pong.Handler.Name = "pong", "Pong"
	pkg.Tools = append(pkg.Tools, &pong)
	src, err := emit.File(pkg)
	require.NoError(t, err)
	text := string(src)
	assert.Equal(t, 1, strings.Count(text, "json-schema.org"), "the shared input schema once:\n%s", text)
	assert.Contains(t, text, "const toolgenSchemaPingArgs = `")
	assert.Contains(t, text, "var toolgenToolsSchemas = [...][2][]string{\n\t{{toolgenSchemaPingArgs}, {}},\n\t{{toolgenSchemaPingArgs}, {}},\n}")

	src, err = emit.File(pingPackage())
	require.NoError(t, err)
	assert.NotContains(t, string(src), "toolgenSchemaPingArgs")
	assert.Contains(t, string(src), "var toolgenToolsSchemas = [...][2][]string{\n\t{{\n\t\t`{")
}
