package runtime

import "encoding/json"

// Keys of Tool.Variants: the provider dialects toolgen precomputes when it generates code.
const (
	VariantOpenAI           = "openai"            // OpenAI Chat Completions and Responses parameters
	VariantAnthropic        = "anthropic"         // Anthropic input_schema
	VariantAnthropicStrict  = "anthropic_strict"  // Anthropic input_schema for strict tool use, when possible
	VariantGeminiParameters = "gemini"            // Gemini parameters (OpenAPI 3.0 subset)
	VariantGeminiJSONSchema = "gemini_jsonschema" // Gemini parametersJsonSchema
)

// Variant is a tool's input schema as one provider must receive it, converted from the
// canonical schema when the code was generated, with what the runtime needs to undo the
// conversion on the arguments that come back.
type Variant struct {
	// Schema is the schema to send.
	Schema json.RawMessage
	// Strict says whether to send the tool as strict (OpenAI strict mode, Anthropic strict
	// tool use). OpenAI tools are always sent with strict set explicitly.
	Strict bool
	// NullMeansAbsent lists the properties that were optional in the canonical schema and are
	// required but nullable in this variant (OpenAI strict). A null received there means the
	// model left the property out, so the runtime removes it and the field's default applies.
	// Each entry is a JSON Pointer; "*" stands for every item of an array or every value of a
	// map.
	NullMeansAbsent []string
	// Renames lists properties renamed because the provider rejects their names (Gemini).
	Renames []Rename
	// Moved lists the keywords the provider cannot express: restated in the description and
	// still enforced by the decoder, or dropped.
	Moved []string
}

// Rename is one renamed property: in the object at Path (a JSON Pointer in canonical names,
// "*" for every item), the provider sees To where the schema says From.
type Rename struct {
	Path string
	From string
	To   string
}
