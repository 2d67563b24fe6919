package anthropic

import (
	"cmp"
	"encoding/json"
	"fmt"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/variant"
)

// maxStrictTools is the API's limit on strict tools in one request.
const maxStrictTools = 20

// Option changes how tools are declared.
type Option func(*config)

type config struct {
	strict        bool
	codeExecution string
}

// DefaultCodeExecution is the code-execution tool version a //tool:callers code tool allows
// calls from, unless CodeExecution names another.
const DefaultCodeExecution = "code_execution_20260521"

// CodeExecution names the code-execution tool version (e.g. "code_execution_20250825") whose
// code may call //tool:callers code tools: Anthropic's allowed_callers names the version, and
// it must match the code-execution tool the request declares.
func CodeExecution(version string) Option { return func(c *config) { c.codeExecution = version } }

// Strict declares every tool that has a strict variant (variant.AnthropicStrict) with
// "strict": true, so that the model's inputs are guaranteed to match the schema. Tools
// without one are declared as usual.
func Strict() Option { return func(c *config) { c.strict = true } }

// Declaration is one tool as Anthropic receives it.
type Declaration struct {
	Name        string
	Description string
	Schema      json.RawMessage // the input_schema: the Anthropic (or, strict, the strict) variant
	Strict      bool

	DeferLoading   bool              // //tool:defer: Anthropic's tool search loads it when needed
	AllowedCallers []string          // //tool:callers: "direct", the code-execution tool version
	InputExamples  []json.RawMessage // the arguments of //tool:example lines (JSON objects)
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
		d := Declaration{Name: t.Name, Description: t.ModelDescription(), DeferLoading: t.Deferred,
			AllowedCallers: cfg.allowedCallers(t.Callers), InputExamples: inputExamples(t.Examples)}
		if v, ok := strictVariant(cfg, t); ok {
			d.Schema, d.Strict = v.Schema, true
			strict++
		} else {
			v, ok := t.Variant(variant.Anthropic)
			if !ok || len(v.Schema) == 0 {
				return nil, fmt.Errorf("anthropic: tool %q has no %q schema variant: regenerate it with toolgen -providers including anthropic", t.Name, variant.Anthropic)
			}
			d.Schema = v.Schema
		}
		out = append(out, d)
	}
	if strict > maxStrictTools {
		return nil, fmt.Errorf("anthropic: %d strict tools, but a request may hold at most %d: declare fewer tools (Registry.Subset) or drop the Strict option", strict, maxStrictTools)
	}
	return out, nil
}

// allowedCallers is Anthropic's allowed_callers for c; nil leaves the default (direct calls).
func (cfg config) allowedCallers(c runtime.Callers) []string {
	var out []string
	if c.Direct {
		out = append(out, "direct")
	}
	if c.Code {
		out = append(out, cmp.Or(cfg.codeExecution, DefaultCodeExecution))
	}
	return out
}

// inputExamples returns the arguments of the examples that are JSON objects, as
// input_examples wants them.
func inputExamples(examples []runtime.Example) []json.RawMessage {
	var out []json.RawMessage
	for _, e := range examples {
		if len(e.Args) > 0 && e.Args[0] == '{' {
			out = append(out, e.Args)
		}
	}
	return out
}

// HasDeferred reports whether a declaration is deferred: the request then needs Anthropic's
// tool search tool, which ToolsJSON adds.
func HasDeferred(decls []Declaration) bool {
	for _, d := range decls {
		if d.DeferLoading {
			return true
		}
	}
	return false
}

// ToolSearchType and ToolSearchName are Anthropic's BM25 tool search tool, declared when tools
// are deferred.
const (
	ToolSearchType = "tool_search_tool_bm25_20251119"
	ToolSearchName = "tool_search_tool_bm25"
)

// tool is a tool definition on the wire.
type tool struct {
	Name           string            `json:"name"`
	Description    string            `json:"description,omitempty"`
	InputSchema    json.RawMessage   `json:"input_schema"`
	Strict         bool              `json:"strict,omitempty"`
	DeferLoading   bool              `json:"defer_loading,omitempty"`
	AllowedCallers []string          `json:"allowed_callers,omitempty"`
	InputExamples  []json.RawMessage `json:"input_examples,omitempty"`
}

// ToolsJSON returns the "tools" array of a Messages request declaring tools:
// [{"name","description","input_schema","strict"?}], with defer_loading, allowed_callers and
// input_examples where the directives ask for them; when any tool is deferred, Anthropic's
// BM25 tool search tool comes last, so the model can load them.
func ToolsJSON(tools []runtime.Tool, opts ...Option) ([]byte, error) {
	decls, err := Declarations(tools, opts...)
	if err != nil {
		return nil, err
	}
	wire := make([]any, 0, len(decls)+1)
	for _, d := range decls {
		wire = append(wire, tool{Name: d.Name, Description: d.Description, InputSchema: d.Schema, Strict: d.Strict,
			DeferLoading: d.DeferLoading, AllowedCallers: d.AllowedCallers, InputExamples: d.InputExamples})
	}
	if HasDeferred(decls) {
		wire = append(wire, map[string]string{"type": ToolSearchType, "name": ToolSearchName})
	}
	return json.Marshal(wire)
}

// strictVariant is t's strict variant when strict tool use is on and t has one; it is not
// derived otherwise.
func strictVariant(cfg config, t runtime.Tool) (variant.Variant, bool) {
	if !cfg.strict {
		return variant.Variant{}, false
	}
	v, ok := t.Variant(variant.AnthropicStrict)
	return v, ok && len(v.Schema) > 0
}
