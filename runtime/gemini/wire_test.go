package gemini_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolgemini "github.com/toolgen-go/toolgen/runtime/gemini"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
)

// One turn on the wire alone: declarations, calls from a response, results.
func TestWireTurn(t *testing.T) {
	reg := fixture.NewRegistry(fixture.WeatherTool())
	tools, err := toolgemini.ToolsJSON(reg.Tools())
	require.NoError(t, err)
	assert.JSONEq(t, `[{"functionDeclarations":[{"name":"get_weather","description":"Gets the current weather for a city.","parametersJsonSchema":`+fixture.WeatherSchema+`}]}]`, string(tools))

	calls, err := toolgemini.ParseCalls([]byte(`{"candidates":[{"content":{"role":"model","parts":[
		{"functionCall":{"id":"fc_1","name":"get_weather","args":{"city":"Tokyo"}}},
		{"functionCall":{"id":"fc_2","name":"get_weather","args":{"city":"Atlantis"}}}]}}]}`))
	require.NoError(t, err)
	require.Len(t, calls, 2)
	outs := toolgemini.Dispatch(context.Background(), reg, calls)
	parts, err := toolgemini.ResponsesJSON(outs)
	require.NoError(t, err)
	assert.JSONEq(t, `[
		{"functionResponse":{"id":"fc_1","name":"get_weather","response":{"output":{"city":"Tokyo","temperature":21,"unit":"celsius"}}}},
		{"functionResponse":{"id":"fc_2","name":"get_weather","response":{"error":"no weather station in Atlantis"}}}]`, string(parts))

	_, err = toolgemini.ParseCalls([]byte(`{"candidates":`))
	assert.Error(t, err, "truncated response")
}

// A structured output goes out as the handler wrote it: numbers keep their text.
func TestResponseObjectKeepsNumberText(t *testing.T) {
	obj := toolgemini.ResponseObject(runtime.StructuredResult([]byte(`{"big": 12345678901234567890, "mean": 1.50}`)))
	out, err := json.Marshal(obj)
	require.NoError(t, err)
	assert.Equal(t, `{"output":{"big":12345678901234567890,"mean":1.50}}`, string(out))
	assert.Equal(t, map[string]any{"output": `{"cut`}, toolgemini.ResponseObject(runtime.Result{Text: `{"cut`, Structured: json.RawMessage(`{"cut`)}))
}
