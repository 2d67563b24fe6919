package openai

import (
	"encoding/json"
	"fmt"

	"github.com/toolgen-go/toolgen/runtime"
)

// Declaration is one tool as OpenAI receives it, whichever API carries it.
type Declaration struct {
	Name        string
	Description string
	Schema      json.RawMessage // the OpenAI variant of the input schema
	Strict      bool
}

// Declarations reads the OpenAI variant of every tool, refusing the whole set when one lacks
// it: a tool silently left out would be a tool the model never hears of.
func Declarations(tools []runtime.Tool) ([]Declaration, error) {
	out := make([]Declaration, 0, len(tools))
	for _, t := range tools {
		v, ok := t.Variants[runtime.VariantOpenAI]
		if !ok || len(v.Schema) == 0 {
			return nil, fmt.Errorf("openai: tool %q has no %q schema variant: regenerate it with toolgen -providers including openai", t.Name, runtime.VariantOpenAI)
		}
		out = append(out, Declaration{Name: t.Name, Description: t.Description, Schema: v.Schema, Strict: v.Strict})
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
	decls, err := Declarations(tools)
	if err != nil {
		return nil, err
	}
	wire := make([]chatTool, len(decls))
	for i, d := range decls {
		wire[i] = chatTool{Type: "function", Function: functionDef{Name: d.Name, Description: d.Description, Parameters: d.Schema, Strict: d.Strict}}
	}
	return json.Marshal(wire)
}

// ResponsesToolsJSON returns the "tools" array of a Responses request declaring tools:
// [{"type":"function","name","description","parameters","strict"}].
func ResponsesToolsJSON(tools []runtime.Tool) ([]byte, error) {
	decls, err := Declarations(tools)
	if err != nil {
		return nil, err
	}
	wire := make([]responsesTool, len(decls))
	for i, d := range decls {
		wire[i] = responsesTool{Type: "function", Name: d.Name, Description: d.Description, Parameters: d.Schema, Strict: d.Strict}
	}
	return json.Marshal(wire)
}
