package emit

import (
	"slices"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/gen/provider"
	"github.com/toolgen-go/toolgen/gen/schema"
	"github.com/toolgen-go/toolgen/runtime"
)

// Option adjusts what File emits.
type Option func(*options)

type options struct {
	providers []string
}

// Providers limits the provider variants File emits into each runtime.Tool's Variants to
// those of the named providers (gen/provider names); without this option every provider's
// variants are emitted.
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

// variantConstants names the runtime constant of each Variants key, so the generated map
// reads runtime.VariantOpenAI rather than "openai".
var variantConstants = map[string]string{
	runtime.VariantOpenAI:           "VariantOpenAI",
	runtime.VariantAnthropic:        "VariantAnthropic",
	runtime.VariantAnthropicStrict:  "VariantAnthropicStrict",
	runtime.VariantGeminiParameters: "VariantGeminiParameters",
	runtime.VariantGeminiJSONSchema: "VariantGeminiJSONSchema",
}

// variantsLiteral renders the Variants map of one tool, keys sorted, or nil when no enabled
// provider has a variant. The conversion is gen/provider's, the same the pipeline checked.
func variantsLiteral(t *model.Tool, o options) jen.Code {
	variants, _ := provider.Convert(schema.Input(t), o.providers)
	if len(variants) == 0 {
		return nil
	}
	keys := make([]string, 0, len(variants))
	for k := range variants {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	d := jen.Dict{}
	for _, k := range keys {
		v := variants[k]
		vd := jen.Dict{jen.Id("Schema"): jen.Qual("encoding/json", "RawMessage").Call(rawString(v.Schema))}
		if v.Strict {
			vd[jen.Id("Strict")] = jen.True()
		}
		if len(v.NullMeansAbsent) > 0 {
			vd[jen.Id("NullMeansAbsent")] = stringsLit(v.NullMeansAbsent)
		}
		if len(v.Renames) > 0 {
			var items []jen.Code
			for _, r := range v.Renames {
				items = append(items, jen.Values(jen.Dict{jen.Id("Path"): jen.Lit(r.Path), jen.Id("From"): jen.Lit(r.From), jen.Id("To"): jen.Lit(r.To)}))
			}
			vd[jen.Id("Renames")] = jen.Index().Qual(runtimePath, "Rename").Values(items...)
		}
		if len(v.Loops) > 0 {
			var items []jen.Code
			for _, l := range v.Loops {
				items = append(items, jen.Values(jen.Dict{jen.Id("Path"): jen.Lit(l.Path), jen.Id("Target"): jen.Lit(l.Target)}))
			}
			vd[jen.Id("Loops")] = jen.Index().Qual(runtimePath, "Loop").Values(items...)
		}
		if len(v.Moved) > 0 {
			vd[jen.Id("Moved")] = stringsLit(v.Moved)
		}
		key := jen.Lit(k)
		if name, ok := variantConstants[k]; ok {
			key = jen.Qual(runtimePath, name)
		}
		d[key] = jen.Values(vd)
	}
	return jen.Map(jen.String()).Qual(runtimePath, "Variant").Values(d)
}

func stringsLit(list []string) jen.Code {
	items := make([]jen.Code, len(list))
	for i, s := range list {
		items[i] = jen.Lit(s)
	}
	return jen.Index().String().Values(items...)
}
