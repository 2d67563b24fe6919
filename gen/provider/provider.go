package provider

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/gen/diag"
	"github.com/toolgen-go/toolgen/internal/dialect"
	"github.com/toolgen-go/toolgen/internal/suggest"
	"github.com/toolgen-go/toolgen/runtime/variant"
)

// The providers toolgen targets, as -providers names them.
const (
	OpenAI    = dialect.OpenAI
	Anthropic = dialect.Anthropic
	Gemini    = dialect.Gemini
	MCP       = dialect.MCP
)

// All lists every provider, in the order -providers documents them; it is the default.
var All = []string{OpenAI, Anthropic, Gemini, MCP}

// variantsOf maps a provider to the Tool.Variants keys it owns. MCP sends the canonical schemas
// and owns none.
var variantsOf = dialect.KeysOf

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
// enabled providers, keyed by runtime/variant's constants, and returns what it found out
// on the way. It is pure and deterministic: the generator reports its findings, and the
// runtime derives the same variants on first use (runtime.Tool.Variant), from the same
// conversion (internal/dialect). A provider that cannot take the schema at all gets no
// variant and an error finding; a strict variant that is impossible is left out (Anthropic)
// or sent as non-strict (OpenAI).
func Convert(canonical []byte, providers []string) (map[string]variant.Variant, []Finding) {
	vs, fs := dialect.Convert(canonical, providers)
	var variants map[string]variant.Variant
	if vs != nil {
		variants = make(map[string]variant.Variant, len(vs))
		for k, v := range vs {
			variants[k] = runtimeVariant(v)
		}
	}
	var findings []Finding
	for _, f := range fs {
		findings = append(findings, Finding{Variant: f.Variant, Pointer: f.Pointer, Severity: diag.Severity(f.Severity),
			Message: f.Message, Hint: f.Hint})
	}
	return variants, findings
}

// runtimeVariant is v as variant.Variant, field for field, nil lists kept nil.
func runtimeVariant(v dialect.Variant) variant.Variant {
	out := variant.Variant{Schema: v.Schema, Strict: v.Strict, NullMeansAbsent: v.NullMeansAbsent, Moved: v.Moved}
	for _, r := range v.Renames {
		out.Renames = append(out.Renames, variant.Rename(r))
	}
	for _, l := range v.Loops {
		out.Loops = append(out.Loops, variant.Loop(l))
	}
	return out
}
