package geminisdk_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	toolgemini "github.com/toolgen-go/toolgen/runtime/gemini"
	"github.com/toolgen-go/toolgen/runtime/gemini/geminisdk"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
)

// TestResponseJSONSchema checks that a structured result's schema is declared as
// responseJsonSchema, as the SDK's own type marshals it, and only when Gemini can read it.
func TestResponseJSONSchema(t *testing.T) {
	tools := fixture.CatalogTools()
	wire, err := toolgemini.ToolsJSON(tools)
	require.NoError(t, err)
	sdk, err := geminisdk.Tool(tools)
	require.NoError(t, err)
	sdkJSON, err := json.Marshal([]any{sdk})
	require.NoError(t, err)
	assert.JSONEq(t, string(sdkJSON), string(wire))

	decls, err := toolgemini.Declarations(tools)
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"object","properties":{"temperature":{"type":"number"}},"required":["temperature"],"additionalProperties":false}`, string(decls[0].ResponseJSONSchema))
	assert.Nil(t, decls[1].ResponseJSONSchema, "a text result declares no response schema")

	tools[0].OutputSchema = json.RawMessage(`{"type":"object","properties":{"code":{"type":"string","pattern":"^[A-Z]+$"}}}`)
	decls, err = toolgemini.Declarations(tools)
	require.NoError(t, err)
	assert.Nil(t, decls[0].ResponseJSONSchema, "pattern is not among Gemini's response keywords")
}
