// Code generated from ../anthropicsdk/catalog_test.go by go test -run TestFilesFollowV1 -update. DO NOT EDIT.

package anthropicsdkv2_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	toolanthropic "github.com/toolgen-go/toolgen/runtime/anthropic"
	anthropicsdk "github.com/toolgen-go/toolgen/runtime/anthropic/anthropicsdkv2"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
)

// TestCatalogFields checks the wire JSON of deferred, code-callable tools with examples
// against what the SDK's own types marshal to.
func TestCatalogFields(t *testing.T) {
	tools := fixture.CatalogTools()
	for _, opts := range [][]toolanthropic.Option{nil, {toolanthropic.CodeExecution("code_execution_20250825")}} {
		wire, err := toolanthropic.ToolsJSON(tools, opts...)
		require.NoError(t, err)
		sdk, err := anthropicsdk.Tools(tools, opts...)
		require.NoError(t, err)
		sdkJSON, err := json.Marshal(sdk)
		require.NoError(t, err)
		assert.JSONEq(t, string(sdkJSON), string(wire))
	}

	wire, err := toolanthropic.ToolsJSON(tools)
	require.NoError(t, err)
	const want = `[
	 {"name":"forecast","description":"Gets the current weather for a city.","input_schema":` + fixture.WeatherSchema + `,"defer_loading":true,"allowed_callers":["code_execution_20260521"],"input_examples":[{"city":"Tokyo"}]},
	 {"name":"get_weather","description":"Gets the current weather for a city.","input_schema":` + fixture.WeatherSchema + `},
	 {"name":"history","description":"Gets the current weather for a city.","input_schema":` + fixture.WeatherSchema + `,"allowed_callers":["direct","code_execution_20260521"]},
	 {"type":"tool_search_tool_bm25_20251119","name":"tool_search_tool_bm25"}]`
	assert.JSONEq(t, want, string(wire))
}
