package variant_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	"github.com/toolgen-go/toolgen/runtime/variant"
)

// Concurrent first uses get one derivation, the same for everyone (run under -race).
func TestVariantDerivesOnceUnderConcurrentFirstUse(t *testing.T) {
	defer variant.SetMaxDerivedSchemas(4096)()
	schema := []byte(fixture.WeatherSchema)
	const n = 16
	schemas := make([][]byte, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			v, ok := variant.Derive(schema, variant.GeminiJSONSchema)
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
	assert.Equal(t, 1, variant.DerivedSchemas())
}

// Past the bound, variants are still derived, just not kept.
func TestVariantCacheIsBounded(t *testing.T) {
	defer variant.SetMaxDerivedSchemas(3)()
	for i := range 5 {
		schema := fmt.Sprintf(`{"type":"object","properties":{"p%d":{"type":"string"}},"additionalProperties":false}`, i)
		v, ok := variant.Derive([]byte(schema), variant.OpenAI)
		require.True(t, ok)
		assert.Contains(t, string(v.Schema), fmt.Sprintf(`"p%d"`, i))
	}
	assert.Equal(t, 3, variant.DerivedSchemas())
	first, _ := variant.Derive([]byte(fixture.WeatherSchema), variant.Anthropic)
	second, _ := variant.Derive([]byte(fixture.WeatherSchema), variant.Anthropic)
	assert.NotSame(t, &first.Schema[0], &second.Schema[0], "an uncached schema is derived on each use")
}

// BenchmarkDerive measures Derive: the first use of a schema (the conversion, measured with
// the cache off) and every later one.
func BenchmarkDerive(b *testing.B) {
	schema := []byte(fixture.WeatherSchema)
	for _, key := range []string{variant.OpenAI, variant.AnthropicStrict, variant.GeminiParameters} {
		b.Run(key+"/derive", func(b *testing.B) {
			defer variant.SetMaxDerivedSchemas(0)()
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := variant.Derive(schema, key); !ok {
					b.Fatal("no variant")
				}
			}
		})
		b.Run(key+"/cached", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := variant.Derive(schema, key); !ok {
					b.Fatal("no variant")
				}
			}
		})
	}
}
