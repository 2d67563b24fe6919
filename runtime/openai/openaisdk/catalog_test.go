package openaisdk_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	toolopenai "github.com/toolgen-go/toolgen/runtime/openai"
	"github.com/toolgen-go/toolgen/runtime/openai/openaisdk"
)

// TestResponsesCatalogFields checks the wire JSON of deferred, namespaced and code-callable
// tools against what the SDK's own types marshal to.
func TestResponsesCatalogFields(t *testing.T) {
	tools := fixture.CatalogTools()
	wire, err := toolopenai.ResponsesToolsJSON(tools)
	require.NoError(t, err)
	sdk, err := openaisdk.ResponsesTools(tools)
	require.NoError(t, err)
	sdkJSON, err := json.Marshal(sdk)
	require.NoError(t, err)
	assert.JSONEq(t, string(sdkJSON), string(wire))

	const want = `[
	 {"type":"namespace","name":"weather","description":"The weather tools: forecast, history.","tools":[
	   {"type":"function","name":"forecast","description":"Gets the current weather for a city.","parameters":` + fixture.WeatherOpenAISchema + `,"strict":true,
	    "defer_loading":true,"allowed_callers":["programmatic"],"output_schema":{"type":"object","properties":{"temperature":{"type":"number"}},"required":["temperature"],"additionalProperties":false}},
	   {"type":"function","name":"history","description":"Gets the current weather for a city.","parameters":` + fixture.WeatherOpenAISchema + `,"strict":true,
	    "allowed_callers":["direct","programmatic"]}]},
	 {"type":"function","name":"get_weather","description":"Gets the current weather for a city.","parameters":` + fixture.WeatherOpenAISchema + `,"strict":true},
	 {"type":"tool_search"}]`
	assert.JSONEq(t, want, string(wire))
}

func TestLongNamesRefused(t *testing.T) {
	tool := fixture.WeatherTool()
	tool.Name = "a_very_long_name_that_goes_past_the_sixty_four_characters_openai_allows" // 70, within the registry's 128
	_, err := toolopenai.ResponsesToolsJSON(fixture.NewRegistry(tool).Tools())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "over 64 characters")
}
