package anthropic_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	toolanthropic "github.com/toolgen-go/toolgen/runtime/anthropic"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
)

// One turn on the wire alone: declarations, calls from a message, results.
func TestWireTurn(t *testing.T) {
	reg := fixture.NewRegistry(fixture.WeatherTool())
	tools, err := toolanthropic.ToolsJSON(reg.Tools())
	require.NoError(t, err)
	assert.JSONEq(t, `[{"name":"get_weather","description":"Gets the current weather for a city.","input_schema":`+fixture.WeatherSchema+`}]`, string(tools))

	calls, err := toolanthropic.ParseCalls([]byte(`{"role":"assistant","content":[
		{"type":"text","text":"I'll check."},
		{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Tokyo"}},
		{"type":"tool_use","id":"toolu_2","name":"get_weather","input":{"city":"Atlantis"}}]}`))
	require.NoError(t, err)
	results, err := toolanthropic.ToolResultsJSON(toolanthropic.Dispatch(context.Background(), reg, calls))
	require.NoError(t, err)
	assert.JSONEq(t, `[
		{"type":"tool_result","tool_use_id":"toolu_1","content":"{\"city\":\"Tokyo\",\"temperature\":21,\"unit\":\"celsius\"}"},
		{"type":"tool_result","tool_use_id":"toolu_2","content":"no weather station in Atlantis","is_error":true}]`, string(results))
}

// Only tool_use blocks are calls (not server_tool_use), and the input is kept as the model
// wrote it: spacing and number text included.
func TestParseCallsKeepsInputText(t *testing.T) {
	const input = `{"city": "Tokyo",  "days": 1.50}`
	calls, err := toolanthropic.ParseCalls([]byte(`{"type":"message","role":"assistant","content":[
		{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"weather"}},
		{"type":"tool_use","id":"toolu_1","name":"get_weather","input":` + input + `}]}`))
	require.NoError(t, err)
	require.Len(t, calls, 1)
	assert.Equal(t, "toolu_1", calls[0].ID)
	assert.Equal(t, "get_weather", calls[0].Name)
	assert.Equal(t, input, string(calls[0].Args))

	for _, bad := range []string{`{"content":[`, `"x"`, `{"content":"x"}`} {
		_, err := toolanthropic.ParseCalls([]byte(bad))
		assert.Error(t, err, bad)
	}
}

func TestStreamToolWithoutInputFragments(t *testing.T) {
	var acc toolanthropic.Stream
	for _, ev := range []string{
		`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_9","name":"list_all","input":{}}}`,
		`{"type":"content_block_stop","index":0}`,
	} {
		_, _, err := acc.AddJSON([]byte(ev))
		require.NoError(t, err)
	}
	calls := acc.Calls()
	require.Len(t, calls, 1, "a tool called without arguments")
	assert.Equal(t, `{}`, string(calls[0].Args))
}
