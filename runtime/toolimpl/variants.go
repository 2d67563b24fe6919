package toolimpl

import "github.com/toolgen-go/toolgen/runtime/variant"

// The runtime/variant keys generated code lists in runtime.Tool.Dialects, so that a generated
// file names them without importing runtime/variant.
const (
	VariantOpenAI           = variant.OpenAI
	VariantAnthropic        = variant.Anthropic
	VariantAnthropicStrict  = variant.AnthropicStrict
	VariantGeminiParameters = variant.GeminiParameters
	VariantGeminiJSONSchema = variant.GeminiJSONSchema
)
