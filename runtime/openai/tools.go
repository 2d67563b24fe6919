package openai

import (
	"encoding/json"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"

	"github.com/toolgen-go/toolgen/runtime"
)

// declaration is one tool as OpenAI receives it, whichever API carries it.
type declaration struct {
	name        string
	description string
	schema      json.RawMessage
	strict      bool
}

// declarations reads the OpenAI variant of every tool, refusing the whole set when one lacks
// it: a tool silently left out would be a tool the model never hears of.
func declarations(tools []runtime.Tool) ([]declaration, error) {
	out := make([]declaration, 0, len(tools))
	for _, t := range tools {
		v, ok := t.Variants[runtime.VariantOpenAI]
		if !ok || len(v.Schema) == 0 {
			return nil, fmt.Errorf("openai: tool %q has no %q schema variant: regenerate it with toolgen -providers including openai", t.Name, runtime.VariantOpenAI)
		}
		out = append(out, declaration{name: t.Name, description: t.Description, schema: v.Schema, strict: v.Strict})
	}
	return out, nil
}

// chatTool is a Chat Completions tool on the wire.
type chatTool struct {
	Type     string      `json:"type"`
	Function functionDef `json:"function"`
}

type functionDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      bool            `json:"strict"`
}

// responsesTool is a Responses tool on the wire: the same fields, flat.
type responsesTool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      bool            `json:"strict"`
}

// ChatToolsJSON returns the "tools" array of a Chat Completions request declaring tools:
// [{"type":"function","function":{"name","description","parameters","strict"}}].
func ChatToolsJSON(tools []runtime.Tool) ([]byte, error) {
	decls, err := declarations(tools)
	if err != nil {
		return nil, err
	}
	wire := make([]chatTool, len(decls))
	for i, d := range decls {
		wire[i] = chatTool{Type: "function", Function: functionDef{Name: d.name, Description: d.description, Parameters: d.schema, Strict: d.strict}}
	}
	return json.Marshal(wire)
}

// ResponsesToolsJSON returns the "tools" array of a Responses request declaring tools:
// [{"type":"function","name","description","parameters","strict"}].
func ResponsesToolsJSON(tools []runtime.Tool) ([]byte, error) {
	decls, err := declarations(tools)
	if err != nil {
		return nil, err
	}
	wire := make([]responsesTool, len(decls))
	for i, d := range decls {
		wire[i] = responsesTool{Type: "function", Name: d.name, Description: d.description, Parameters: d.schema, Strict: d.strict}
	}
	return json.Marshal(wire)
}

// ChatTools returns tools as the SDK's Chat Completions tool params, for
// openai.ChatCompletionNewParams.Tools.
func ChatTools(tools []runtime.Tool) ([]openai.ChatCompletionToolUnionParam, error) {
	decls, err := declarations(tools)
	if err != nil {
		return nil, err
	}
	out := make([]openai.ChatCompletionToolUnionParam, len(decls))
	for i, d := range decls {
		params, err := schemaParams(d)
		if err != nil {
			return nil, err
		}
		def := shared.FunctionDefinitionParam{Name: d.name, Parameters: params, Strict: param.NewOpt(d.strict)}
		if d.description != "" {
			def.Description = param.NewOpt(d.description)
		}
		out[i] = openai.ChatCompletionFunctionTool(def)
	}
	return out, nil
}

// ResponsesTools returns tools as the SDK's Responses tool params, for
// responses.ResponseNewParams.Tools. Strict is always set, as the Responses API otherwise
// decides on its own whether to enforce the schema.
func ResponsesTools(tools []runtime.Tool) ([]responses.ToolUnionParam, error) {
	decls, err := declarations(tools)
	if err != nil {
		return nil, err
	}
	out := make([]responses.ToolUnionParam, len(decls))
	for i, d := range decls {
		params, err := schemaParams(d)
		if err != nil {
			return nil, err
		}
		fn := &responses.FunctionToolParam{Name: d.name, Parameters: params, Strict: param.NewOpt(d.strict)}
		if d.description != "" {
			fn.Description = param.NewOpt(d.description)
		}
		out[i] = responses.ToolUnionParam{OfFunction: fn}
	}
	return out, nil
}

// schemaParams turns a schema into the map the SDK wants. Each top-level value stays raw
// JSON, so the order of "properties" (which OpenAI follows when it writes arguments) survives
// the SDK's map.
func schemaParams(d declaration) (map[string]any, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(d.schema, &top); err != nil {
		return nil, fmt.Errorf("openai: tool %q: the %q schema variant is not a JSON object: %w", d.name, runtime.VariantOpenAI, err)
	}
	params := make(map[string]any, len(top))
	for k, v := range top {
		params[k] = v
	}
	return params, nil
}
