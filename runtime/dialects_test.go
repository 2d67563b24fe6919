package runtime_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	"github.com/toolgen-go/toolgen/runtime/variant"
)

// derivingTool is get_weather as generated code declares it: the canonical schema and the
// dialects to derive, no variant literals.
func derivingTool(schema string) runtime.Tool {
	return runtime.Tool{Name: "get_weather", InputSchema: json.RawMessage(schema),
		Dialects: []string{variant.OpenAI, variant.Anthropic, variant.AnthropicStrict,
			variant.GeminiParameters, variant.GeminiJSONSchema}}
}

func TestVariantDerivesTheDialects(t *testing.T) {
	tool := derivingTool(fixture.WeatherSchema)
	oa, ok := tool.Variant(variant.OpenAI)
	require.True(t, ok)
	assert.True(t, oa.Strict)
	assert.Equal(t, []string{"/unit"}, oa.NullMeansAbsent, "the optional unit is nullable in strict mode")
	assert.JSONEq(t, `{"type":"object","properties":{"city":{"description":"(at least 1 char)","type":"string"},`+
		`"unit":{"description":"(default: \"celsius\")","type":["string","null"],"enum":["celsius","fahrenheit",null]}},`+
		`"required":["city","unit"],"additionalProperties":false}`, string(oa.Schema))

	an, ok := tool.Variant(variant.Anthropic)
	require.True(t, ok)
	assert.JSONEq(t, fixture.WeatherSchema, string(an.Schema), "Anthropic takes the canonical schema")

	ge, ok := tool.Variant(variant.GeminiParameters)
	require.True(t, ok)
	assert.Contains(t, string(ge.Schema), `"format":"enum"`)

	_, ok = tool.Variant("cohere")
	assert.False(t, ok, "an unknown key")

	tool.Dialects = []string{variant.OpenAI}
	_, ok = tool.Variant(variant.GeminiParameters)
	assert.False(t, ok, "a provider the code was not generated for")
}

// A variant the tool carries wins over the derivation; a tool with neither has none, and the
// adapters refuse it as before.
func TestVariantPrefersTheToolsOwn(t *testing.T) {
	tool := fixture.WeatherTool()
	tool.Dialects = derivingTool("").Dialects
	v, ok := tool.Variant(variant.OpenAI)
	require.True(t, ok)
	assert.Equal(t, fixture.WeatherOpenAISchema, string(v.Schema))

	tool.Variants, tool.Dialects = nil, nil
	_, ok = tool.Variant(variant.OpenAI)
	assert.False(t, ok)
}

// A schema no provider takes (a root that is not an object) has no variant, and an
// impossible Anthropic strict variant is absent, as in the generator.
func TestVariantAbsentWhereTheConversionRefuses(t *testing.T) {
	_, ok := derivingTool(`{"type":"string"}`).Variant(variant.OpenAI)
	assert.False(t, ok)
	_, ok = derivingTool(`not json`).Variant(variant.Anthropic)
	assert.False(t, ok)
	recursive := `{"type":"object","properties":{"next":{"$ref":"#"}},"additionalProperties":false}`
	_, ok = derivingTool(recursive).Variant(variant.AnthropicStrict)
	assert.False(t, ok, "strict tool use cannot take a recursive schema")
	_, ok = derivingTool(recursive).Variant(variant.Anthropic)
	assert.True(t, ok)
}
