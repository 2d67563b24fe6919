package anthropic

import (
	"encoding/json"
	"fmt"

	"github.com/toolgen-go/toolgen/runtime"
)

// maxStrictTools is the API's limit on strict tools in one request.
const maxStrictTools = 20

// Option changes how tools are declared.
type Option func(*config)

type config struct{ strict bool }

// Strict declares every tool that has a strict variant (runtime.VariantAnthropicStrict) with
// "strict": true, so that the model's inputs are guaranteed to match the schema. Tools
// without one are declared as usual.
func Strict() Option { return func(c *config) { c.strict = true } }

// Declaration is one tool as Anthropic receives it.
type Declaration struct {
	Name        string
	Description string
	Schema      json.RawMessage // the input_schema: the Anthropic (or, strict, the strict) variant
	Strict      bool
}

// Declarations reads the Anthropic variant of every tool (the strict one under Strict, where
// the tool has it), refusing the whole set when one lacks it: a tool silently left out would
// be a tool the model never hears of.
func Declarations(tools []runtime.Tool, opts ...Option) ([]Declaration, error) {
	var cfg config
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	out := make([]Declaration, 0, len(tools))
	strict := 0
	for _, t := range tools {
		if cfg.strict {
			if v, ok := t.Variants[runtime.VariantAnthropicStrict]; ok && len(v.Schema) > 0 {
				out = append(out, Declaration{Name: t.Name, Description: t.Description, Schema: v.Schema, Strict: true})
				strict++
				continue
			}
		}
		v, ok := t.Variants[runtime.VariantAnthropic]
		if !ok || len(v.Schema) == 0 {
			return nil, fmt.Errorf("anthropic: tool %q has no %q schema variant: regenerate it with toolgen -providers including anthropic", t.Name, runtime.VariantAnthropic)
		}
		out = append(out, Declaration{Name: t.Name, Description: t.Description, Schema: v.Schema})
	}
	if strict > maxStrictTools {
		return nil, fmt.Errorf("anthropic: %d strict tools, but a request may hold at most %d: declare fewer tools (Registry.Subset) or drop the Strict option", strict, maxStrictTools)
	}
	return out, nil
}

// tool is a tool definition on the wire.
type tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
	Strict      bool            `json:"strict,omitempty"`
}

// ToolsJSON returns the "tools" array of a Messages request declaring tools:
// [{"name","description","input_schema","strict"?}].
func ToolsJSON(tools []runtime.Tool, opts ...Option) ([]byte, error) {
	decls, err := Declarations(tools, opts...)
	if err != nil {
		return nil, err
	}
	wire := make([]tool, len(decls))
	for i, d := range decls {
		wire[i] = tool{Name: d.Name, Description: d.Description, InputSchema: d.Schema, Strict: d.Strict}
	}
	return json.Marshal(wire)
}
