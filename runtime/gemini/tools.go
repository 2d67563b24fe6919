package gemini

import (
	"encoding/json"
	"fmt"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/variant"
)

// pick returns the schema variant a tool is declared with, whether it is the
// parametersJsonSchema one, and whether the tool has a Gemini variant at all. Dispatch
// restores arguments with the same variant.
func pick(t runtime.Tool) (v variant.Variant, jsonSchema, ok bool) {
	if v, ok := t.Variant(variant.GeminiJSONSchema); ok && len(v.Schema) > 0 {
		return v, true, true
	}
	if v, ok := t.Variant(variant.GeminiParameters); ok && len(v.Schema) > 0 {
		return v, false, true
	}
	return variant.Variant{}, false, false
}

// declared is pick for declaring a tool: a tool without a Gemini variant is an error.
func declared(t runtime.Tool) (variant.Variant, bool, error) {
	if v, jsonSchema, ok := pick(t); ok {
		return v, jsonSchema, nil
	}
	return variant.Variant{}, false, fmt.Errorf("gemini: tool %q has neither a %q nor a %q schema variant: regenerate it with toolgen -providers including gemini",
		t.Name, variant.GeminiJSONSchema, variant.GeminiParameters)
}

// Declaration is a function declaration on the wire: exactly one of the two schema fields,
// and the result's schema when the tool has a structured result Gemini can read.
type Declaration struct {
	Name                 string          `json:"name"`
	Description          string          `json:"description,omitempty"`
	Parameters           json.RawMessage `json:"parameters,omitempty"`
	ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema,omitempty"`
	ResponseJSONSchema   json.RawMessage `json:"responseJsonSchema,omitempty"`
}

// Declarations returns the function declaration of every tool, refusing the whole set when one
// has no Gemini variant: a tool silently left out would be a tool the model never hears of.
func Declarations(tools []runtime.Tool) ([]Declaration, error) {
	decls := make([]Declaration, 0, len(tools))
	for _, t := range tools {
		v, jsonSchema, err := declared(t)
		if err != nil {
			return nil, err
		}
		d := Declaration{Name: t.Name, Description: t.ModelDescription(), ResponseJSONSchema: responseSchema(t.OutputSchema)}
		if jsonSchema {
			d.ParametersJSONSchema = v.Schema
		} else {
			d.Parameters = v.Schema
		}
		decls = append(decls, d)
	}
	return decls, nil
}

// ToolsJSON returns the "tools" array of a generateContent request declaring tools:
// [{"functionDeclarations":[{"name","description","parametersJsonSchema"|"parameters"}]}].
func ToolsJSON(tools []runtime.Tool) ([]byte, error) {
	decls, err := Declarations(tools)
	if err != nil {
		return nil, err
	}
	return json.Marshal([]struct {
		FunctionDeclarations []Declaration `json:"functionDeclarations"`
	}{{decls}})
}

// responseKeywords are the keywords Gemini documents for responseJsonSchema.
var responseKeywords = map[string]bool{
	"$id": true, "$defs": true, "$ref": true, "$anchor": true, "type": true, "format": true,
	"title": true, "description": true, "enum": true, "items": true, "prefixItems": true,
	"minItems": true, "maxItems": true, "minimum": true, "maximum": true, "anyOf": true,
	"oneOf": true, "properties": true, "additionalProperties": true, "required": true,
	"propertyOrdering": true,
}

// responseSchema is the responseJsonSchema of a tool whose result has schema out: the schema
// without "$schema", when every keyword in it is one Gemini documents; nil otherwise (the
// result then goes without a declared shape rather than with a request Gemini may refuse).
func responseSchema(out json.RawMessage) json.RawMessage {
	if len(out) == 0 {
		return nil
	}
	bare := variant.WithoutSchemaKeyword(out)
	var root any
	if json.Unmarshal(bare, &root) != nil || !onlyResponseKeywords(root, 0) {
		return nil
	}
	return bare
}

// onlyResponseKeywords reports whether schema v uses only responseKeywords; the maps under
// properties and $defs hold names, not keywords.
func onlyResponseKeywords(v any, depth int) bool {
	if depth > 64 {
		return false
	}
	switch n := v.(type) {
	case map[string]any:
		for k, sub := range n {
			if !responseKeywords[k] {
				return false
			}
			if k == "properties" || k == "$defs" {
				names, _ := sub.(map[string]any)
				for _, s := range names {
					if !onlyResponseKeywords(s, depth+1) {
						return false
					}
				}
				continue
			}
			if k == "enum" || k == "required" || k == "propertyOrdering" {
				continue
			}
			if !onlyResponseKeywords(sub, depth+1) {
				return false
			}
		}
	case []any:
		for _, s := range n {
			if !onlyResponseKeywords(s, depth+1) {
				return false
			}
		}
	}
	return true
}
