package provider

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/gen/diag"
	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/gen/schema"
	"github.com/toolgen-go/toolgen/internal/dialect"
	"github.com/toolgen-go/toolgen/runtime/variant"
)

// Per-request limits that span tools: OpenAI refuses more than 128 tools, Gemini more than 128
// function declarations (Vertex), Anthropic more than 20 strict tools.
const (
	maxToolsPerRequest  = 128
	maxStrictAnthropic  = 20
	mcpOutputRootNeeded = "object"
	maxOpenAIName       = 64 // Anthropic, Gemini and MCP take 128
)

// Run converts every tool of the run for the enabled providers and records the errors and
// warnings of the conversions in diags, each at the source position of the field (or type,
// or tool) it concerns; notes stay for -explain. It also checks what spans tools or is not in
// the input schema: the per-request tool counts, and MCP's object root for output schemas.
// The counts are per package, the catalog one Tools() returns: a run over a tree of
// independent packages (./examples/...) is not one request.
func Run(pkgs []*model.Package, providers []string, diags *diag.List) {
	for _, p := range pkgs {
		var tools []*model.Tool
		for _, t := range p.Tools {
			// Prompts and resources are served over MCP only, never sent to a provider.
			if t != nil && t.Serve == model.ServeTool {
				tools = append(tools, t)
			}
		}
		checkCatalog(tools, providers, diags)
	}
}

// checkCatalog checks the tools of one package.
func checkCatalog(tools []*model.Tool, providers []string, diags *diag.List) {
	strictAnthropic := 0
	for _, t := range tools {
		variants, findings := Convert(schema.Input(t), providers)
		for _, f := range findings {
			record(diags, t, f)
		}
		if _, ok := variants[variant.AnthropicStrict]; ok {
			strictAnthropic++
		}
		if slices.Contains(providers, MCP) {
			checkMCPOutput(t, diags)
		}
		if len(t.Name) > maxOpenAIName && slices.Contains(providers, OpenAI) {
			diags.Warnf(t.Pos, "tool name %q has %d characters; OpenAI refuses names over %d", t.Name, len(t.Name), maxOpenAIName).
				WithHint("shorten it with //tool:name, or leave openai out of -providers")
		}
	}
	if len(tools) > maxToolsPerRequest && (slices.Contains(providers, OpenAI) || slices.Contains(providers, Gemini)) {
		diags.Warnf(tools[maxToolsPerRequest].Pos, "this run declares %d tools; OpenAI and Gemini take at most %d per request", len(tools), maxToolsPerRequest).
			WithHint("send a subset per request (runtime.Registry.Subset)")
	}
	if strictAnthropic > maxStrictAnthropic {
		diags.Warnf(tools[0].Pos, "%d tools have an Anthropic strict variant; a request takes at most %d strict tools", strictAnthropic, maxStrictAnthropic).
			WithHint("send a subset per request, or send the others non-strict")
	}
}

// record turns a finding into a diagnostic at its source position; notes are left out, and so
// are warnings about a field whose tag accepts the provider's loss (tool:"accept=gemini").
func record(diags *diag.List, t *model.Tool, f Finding) {
	pos, field := locate(t, f.Pointer)
	if f.Severity == diag.Warning && field != nil && slices.Contains(field.Accept, providerOf(f.Variant)) {
		return
	}
	var d *diag.Diagnostic
	switch f.Severity {
	case diag.Error:
		d = diags.Errorf(pos, "tool %s: %s", t.Name, f.Message)
	case diag.Warning:
		d = diags.Warnf(pos, "tool %s: %s", t.Name, f.Message)
	default:
		return
	}
	hint := f.Hint
	if p := providerOf(f.Variant); f.Severity == diag.Warning && field != nil && p != "" {
		accept := fmt.Sprintf("to keep field %s as it is, add accept=%s to its tool tag", field.GoName, p)
		hint = strings.TrimPrefix(hint+"; or, "+accept, "; or, ")
	}
	if hint != "" {
		d.WithHint("%s", hint)
	}
}

// providerOf names the provider that owns a variant key.
func providerOf(variant string) string {
	for p, variants := range variantsOf {
		if slices.Contains(variants, variant) {
			return p
		}
	}
	return ""
}

// checkMCPOutput warns when a structured result is not a JSON object: MCP (2025-06-18 and
// 2025-11-25) restricts outputSchema to type "object" at the root, so runtime/mcp declares
// the tool without it. A result that may also be null (a *R) is warned about too.
func checkMCPOutput(t *model.Tool, diags *diag.List) {
	out := schema.Output(t)
	if out == nil {
		return
	}
	ts, ok := dialect.RootTypes(out)
	if !ok {
		return
	}
	switch {
	case !slices.Contains(ts, mcpOutputRootNeeded):
		diags.Warnf(t.Pos, "tool %s: its result is not a JSON object, and MCP output schemas must have an object root", t.Name).
			WithHint("return a struct (wrap a list or a value in a field), or return text")
	case slices.Contains(ts, "null"):
		// A *T result: a nil result is null, which structuredContent cannot be, so MCP
		// clients get the tool without its output schema.
		diags.Warnf(t.Pos, "tool %s: its result is a pointer, which may be null, and MCP output schemas must have an object root: MCP clients get no output schema", t.Name).
			WithHint("return the struct itself rather than a pointer (return an error when there is no result)")
	}
}
