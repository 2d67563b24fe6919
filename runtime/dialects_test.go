package runtime_test

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
)

// derivingTool is get_weather as generated code declares it: the canonical schema and the
// dialects to derive, no variant literals.
func derivingTool(schema string) runtime.Tool {
	return runtime.Tool{Name: "get_weather", InputSchema: json.RawMessage(schema),
		Dialects: []string{runtime.VariantOpenAI, runtime.VariantAnthropic, runtime.VariantAnthropicStrict,
			runtime.VariantGeminiParameters, runtime.VariantGeminiJSONSchema}}
}

func TestVariantDerivesTheDialects(t *testing.T) {
	tool := derivingTool(fixture.WeatherSchema)
	oa, ok := tool.Variant(runtime.VariantOpenAI)
	require.True(t, ok)
	assert.True(t, oa.Strict)
	assert.Equal(t, []string{"/unit"}, oa.NullMeansAbsent, "the optional unit is nullable in strict mode")
	assert.JSONEq(t, `{"type":"object","properties":{"city":{"description":"(at least 1 char)","type":"string"},`+
		`"unit":{"description":"(default: \"celsius\")","type":["string","null"],"enum":["celsius","fahrenheit",null]}},`+
		`"required":["city","unit"],"additionalProperties":false}`, string(oa.Schema))

	an, ok := tool.Variant(runtime.VariantAnthropic)
	require.True(t, ok)
	assert.JSONEq(t, fixture.WeatherSchema, string(an.Schema), "Anthropic takes the canonical schema")

	ge, ok := tool.Variant(runtime.VariantGeminiParameters)
	require.True(t, ok)
	assert.Contains(t, string(ge.Schema), `"format":"enum"`)

	_, ok = tool.Variant("cohere")
	assert.False(t, ok, "an unknown key")

	tool.Dialects = []string{runtime.VariantOpenAI}
	_, ok = tool.Variant(runtime.VariantGeminiParameters)
	assert.False(t, ok, "a provider the code was not generated for")
}

// A variant the tool carries wins over the derivation; a tool with neither has none, and the
// adapters refuse it as before.
func TestVariantPrefersTheToolsOwn(t *testing.T) {
	tool := fixture.WeatherTool()
	tool.Dialects = derivingTool("").Dialects
	v, ok := tool.Variant(runtime.VariantOpenAI)
	require.True(t, ok)
	assert.Equal(t, fixture.WeatherOpenAISchema, string(v.Schema))

	tool.Variants, tool.Dialects = nil, nil
	_, ok = tool.Variant(runtime.VariantOpenAI)
	assert.False(t, ok)
}

// A schema no provider takes (a root that is not an object) has no variant, and an
// impossible Anthropic strict variant is absent, as in the generator.
func TestVariantAbsentWhereTheConversionRefuses(t *testing.T) {
	_, ok := derivingTool(`{"type":"string"}`).Variant(runtime.VariantOpenAI)
	assert.False(t, ok)
	_, ok = derivingTool(`not json`).Variant(runtime.VariantAnthropic)
	assert.False(t, ok)
	recursive := `{"type":"object","properties":{"next":{"$ref":"#"}},"additionalProperties":false}`
	_, ok = derivingTool(recursive).Variant(runtime.VariantAnthropicStrict)
	assert.False(t, ok, "strict tool use cannot take a recursive schema")
	_, ok = derivingTool(recursive).Variant(runtime.VariantAnthropic)
	assert.True(t, ok)
}

// Concurrent first uses get one derivation, the same for everyone (run under -race).
func TestVariantDerivesOnceUnderConcurrentFirstUse(t *testing.T) {
	defer runtime.SetMaxDerivedSchemas(4096)()
	tool := derivingTool(fixture.WeatherSchema)
	const n = 16
	schemas := make([][]byte, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			v, ok := tool.Variant(runtime.VariantGeminiJSONSchema)
			if ok {
				schemas[i] = v.Schema
			}
		})
	}
	wg.Wait()
	for i := range n {
		require.NotEmpty(t, schemas[i])
		assert.Same(t, &schemas[0][0], &schemas[i][0], "goroutine %d got a derivation of its own", i)
	}
	assert.Equal(t, 1, runtime.DerivedSchemas())
}

// Past the bound, variants are still derived, just not kept.
func TestVariantCacheIsBounded(t *testing.T) {
	defer runtime.SetMaxDerivedSchemas(3)()
	for i := range 5 {
		schema := fmt.Sprintf(`{"type":"object","properties":{"p%d":{"type":"string"}},"additionalProperties":false}`, i)
		v, ok := derivingTool(schema).Variant(runtime.VariantOpenAI)
		require.True(t, ok)
		assert.Contains(t, string(v.Schema), fmt.Sprintf(`"p%d"`, i))
	}
	assert.Equal(t, 3, runtime.DerivedSchemas())
	first, _ := derivingTool(fixture.WeatherSchema).Variant(runtime.VariantAnthropic)
	second, _ := derivingTool(fixture.WeatherSchema).Variant(runtime.VariantAnthropic)
	assert.NotSame(t, &first.Schema[0], &second.Schema[0], "an uncached schema is derived on each use")
}

// BenchmarkVariant measures Tool.Variant for a tool that derives its variants: the first use
// of a schema (the conversion, measured with the cache off) and every later one.
func BenchmarkVariant(b *testing.B) {
	tool := derivingTool(fixture.WeatherSchema)
	for _, key := range []string{runtime.VariantOpenAI, runtime.VariantAnthropicStrict, runtime.VariantGeminiParameters} {
		b.Run(key+"/derive", func(b *testing.B) {
			defer runtime.SetMaxDerivedSchemas(0)()
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := tool.Variant(key); !ok {
					b.Fatal("no variant")
				}
			}
		})
		b.Run(key+"/cached", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := tool.Variant(key); !ok {
					b.Fatal("no variant")
				}
			}
		})
	}
}
