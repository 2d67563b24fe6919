package mcp_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/anthropic"
	"github.com/toolgen-go/toolgen/runtime/gemini"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/runtime/openai"
	"github.com/toolgen-go/toolgen/runtime/variant"
	"github.com/toolgen-go/toolgen/runtime/xmlcall"
)

// A tool's warnings (//tool:warning) reach the model in the description each provider sends,
// not only in the level-2 detail that a model may never ask for. (Here rather than in runtime's
// tests, which the nested modules' go mod tidy reads: they would need the go-sdk's sums.)
func TestWarningsReachEveryProvidersDescription(t *testing.T) {
	tool := runtime.Tool{Name: "delete_file", Description: "Deletes a file.  ",
		Warnings:    []string{"It cannot be undone.", "It follows\nsymbolic links."},
		InputSchema: []byte(`{"type":"object","properties":{},"additionalProperties":false}`)}
	want := "Deletes a file.\n\nWarning: It cannot be undone.\nWarning: It follows symbolic links."
	assert.Equal(t, want, tool.ModelDescription())
	assert.Equal(t, "Warning: Alone.", runtime.Tool{Warnings: []string{"Alone."}}.ModelDescription())
	assert.Equal(t, "Plain.", runtime.Tool{Description: "Plain."}.ModelDescription())

	schema := variant.Variant{Schema: tool.InputSchema}
	tool.Variants = map[string]variant.Variant{variant.OpenAI: schema, variant.Anthropic: schema, variant.GeminiParameters: schema, variant.GeminiJSONSchema: schema}
	tools := []runtime.Tool{tool}
	oa, err := openai.Declarations(tools)
	require.NoError(t, err)
	an, err := anthropic.Declarations(tools)
	require.NoError(t, err)
	ge, err := gemini.Declarations(tools)
	require.NoError(t, err)
	for provider, got := range map[string]string{
		"openai": oa[0].Description, "anthropic": an[0].Description, "gemini": ge[0].Description,
		"mcp": toolmcp.Tools(tools)[0].Description,
	} {
		assert.Equal(t, want, got, provider)
	}
	assert.Contains(t, xmlcall.Instructions(tools), "Warning: It cannot be undone.")
	assert.Contains(t, xmlcall.InstructionsMarkdown(tools), "Warning: It follows symbolic links.\n")
}
