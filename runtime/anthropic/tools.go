package anthropic

import (
	"encoding/json"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/packages/param"

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

// declaration is one tool as Anthropic receives it.
type declaration struct {
	name        string
	description string
	schema      json.RawMessage
	strict      bool
}

func declarations(tools []runtime.Tool, opts []Option) ([]declaration, error) {
	var cfg config
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	out := make([]declaration, 0, len(tools))
	strict := 0
	for _, t := range tools {
		if cfg.strict {
			if v, ok := t.Variants[runtime.VariantAnthropicStrict]; ok && len(v.Schema) > 0 {
				out = append(out, declaration{name: t.Name, description: t.Description, schema: v.Schema, strict: true})
				strict++
				continue
			}
		}
		v, ok := t.Variants[runtime.VariantAnthropic]
		if !ok || len(v.Schema) == 0 {
			return nil, fmt.Errorf("anthropic: tool %q has no %q schema variant: regenerate it with toolgen -providers including anthropic", t.Name, runtime.VariantAnthropic)
		}
		out = append(out, declaration{name: t.Name, description: t.Description, schema: v.Schema})
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
	decls, err := declarations(tools, opts)
	if err != nil {
		return nil, err
	}
	wire := make([]tool, len(decls))
	for i, d := range decls {
		wire[i] = tool{Name: d.name, Description: d.description, InputSchema: d.schema, Strict: d.strict}
	}
	return json.Marshal(wire)
}

// Tools returns tools as the SDK's tool params, for anthropic.MessageNewParams.Tools.
func Tools(tools []runtime.Tool, opts ...Option) ([]anthropic.ToolUnionParam, error) {
	decls, err := declarations(tools, opts)
	if err != nil {
		return nil, err
	}
	out := make([]anthropic.ToolUnionParam, len(decls))
	for i, d := range decls {
		schema, err := inputSchema(d)
		if err != nil {
			return nil, err
		}
		p := &anthropic.ToolParam{Name: d.name, InputSchema: schema}
		if d.description != "" {
			p.Description = param.NewOpt(d.description)
		}
		if d.strict {
			p.Strict = param.NewOpt(true)
		}
		out[i] = anthropic.ToolUnionParam{OfTool: p}
	}
	return out, nil
}

// inputSchema splits a schema into the SDK's fields. Values stay raw JSON, so nothing is
// reordered or reformatted on the way (the model writes inputs in properties order).
func inputSchema(d declaration) (anthropic.ToolInputSchemaParam, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(d.schema, &top); err != nil {
		return anthropic.ToolInputSchemaParam{}, fmt.Errorf("anthropic: tool %q: the schema variant is not a JSON object: %w", d.name, err)
	}
	var s anthropic.ToolInputSchemaParam
	for k, v := range top {
		switch k {
		case "type": // always "object"; the SDK writes it
		case "properties":
			s.Properties = v
		case "required":
			if err := json.Unmarshal(v, &s.Required); err != nil {
				return s, fmt.Errorf("anthropic: tool %q: required is not a list of names: %w", d.name, err)
			}
		default:
			if s.ExtraFields == nil {
				s.ExtraFields = make(map[string]any)
			}
			s.ExtraFields[k] = v
		}
	}
	return s, nil
}
