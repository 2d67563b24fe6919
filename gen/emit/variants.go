package emit

import (
	"slices"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/gen/provider"
	"github.com/toolgen-go/toolgen/internal/dialect"
	"github.com/toolgen-go/toolgen/runtime/variant"
)

// Option adjusts what File emits.
type Option func(*options)

type options struct {
	providers []string
}

// Providers limits the provider variants each runtime.Tool derives (its Dialects) to those of
// the named providers (gen/provider names); without this option every provider's variants
// are derived.
func Providers(names ...string) Option {
	return func(o *options) { o.providers = slices.Clone(names) }
}

func newOptions(opts []Option) options {
	o := options{providers: provider.All}
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// variantConstants names the toolimpl constant of each variant key, so the generated list
// reads toolimpl.VariantOpenAI rather than "openai".
var variantConstants = map[string]string{
	variant.OpenAI:           "VariantOpenAI",
	variant.Anthropic:        "VariantAnthropic",
	variant.AnthropicStrict:  "VariantAnthropicStrict",
	variant.GeminiParameters: "VariantGeminiParameters",
	variant.GeminiJSONSchema: "VariantGeminiJSONSchema",
}

// dialectsVar names the package-level list of the variant keys every generated tool derives
// (runtime.Tool.Dialects).
const dialectsVar = "toolgenDialects"

// dialects declares dialectsVar, the variant keys of the enabled providers, and reports
// whether there are any. The variants are not emitted: runtime.Tool.Variant derives each from
// the canonical schema on first use, with the conversion gen/provider checked the schema with
// (internal/dialect).
func (g *generator) dialects() bool {
	var items []jen.Code
	for _, p := range g.opts.providers {
		for _, k := range dialect.KeysOf[p] {
			items = append(items, jen.Qual(toolimplPath, variantConstants[k]))
		}
	}
	if len(items) == 0 {
		return false
	}
	g.f.Commentf("%s lists the provider variants of every tool here (toolgen -providers), which", dialectsVar)
	g.f.Comment("runtime.Tool.Variant derives from the tool's InputSchema on first use.")
	g.f.Var().Id(dialectsVar).Op("=").Index().String().Values(items...)
	g.f.Line()
	return true
}
