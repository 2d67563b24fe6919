package tooleval_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/orders/orders"
	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/tooleval"
)

// fakeModel is an OpenAI-compatible endpoint answering each user request with the call (or
// text) scripted for it: the provider's API cannot run here.
func fakeModel(t *testing.T, answers map[string]string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, "/v1/chat/completions", r.URL.Path)
		assert.Equal(t, "Bearer key", r.Header.Get("Authorization"))
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Model    string
			Messages []struct{ Role, Content string }
			Tools    []struct{ Function struct{ Name string } }
		}
		require.NoError(t, json.Unmarshal(body, &req))
		assert.Equal(t, "test-model", req.Model)
		assert.Len(t, req.Tools, 4, "every tool of the registry is declared")
		user := req.Messages[len(req.Messages)-1].Content
		answer, ok := answers[user]
		if !ok {
			http.Error(w, "unscripted request", http.StatusBadRequest)
			return
		}
		message := fmt.Sprintf(`{"role":"assistant","content":%q}`, answer)
		if name, args, isCall := strings.Cut(answer, " "); isCall && !strings.HasPrefix(answer, "text:") {
			message = fmt.Sprintf(`{"role":"assistant","tool_calls":[{"id":"call_1","type":"function","function":{"name":%q,"arguments":%q}}]}`, name, args)
		}
		fmt.Fprintf(w, `{"choices":[{"message":%s}]}`, message)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestRunScoresChoicesArgumentsAndConfusions(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(weather.Tools()...))
	require.NoError(t, reg.Add(new(orders.Service).Tools()...))
	cases, err := tooleval.LoadCases(strings.NewReader(`
{"request": "weather in Oslo?", "tool": "get_weather", "args": {"city": "Oslo"}}
{"request": "weather in Paris, in kelvin", "tool": "get_weather"}
{"request": "is it raining in Rome?", "tool": "get_weather", "args": {"city": "Rome"}}
{"request": "show order 7", "tool": "get_order"}
{"request": "my orders", "tool": "list_orders"}
{"request": "hello", "tool": "get_order"}
`))
	require.NoError(t, err)
	model := fakeModel(t, map[string]string{
		"weather in Oslo?":            `get_weather {"city":"Oslo"}`,
		"weather in Paris, in kelvin": `get_weather {"city":"Paris","unit":"kelvin"}`,
		"is it raining in Rome?":      `get_weather {"city":"Roma"}`,
		"show order 7":                `list_orders {}`,
		"my orders":                   `list_orders {}`,
		"hello":                       `text: hi`,
	})

	report, err := tooleval.Run(context.Background(), reg, cases, tooleval.Model{BaseURL: model.URL + "/v1/", APIKey: "key", Name: "test-model"})
	require.NoError(t, err)

	byTool := map[string]tooleval.ToolScore{}
	for _, s := range report.Tools {
		byTool[s.Tool] = s
	}
	assert.Equal(t, tooleval.ToolScore{Tool: "get_weather", Cases: 3, Chosen: 3, Valid: 2, Right: 1}, byTool["get_weather"])
	assert.Equal(t, tooleval.ToolScore{Tool: "get_order", Cases: 2, TakenFor: map[string]int{"list_orders": 1, "": 1}}, byTool["get_order"])
	assert.Equal(t, tooleval.ToolScore{Tool: "list_orders", Cases: 1, Chosen: 1, Valid: 1, Right: 1}, byTool["list_orders"])

	require.Len(t, report.Outcomes, 6)
	assert.Contains(t, report.Outcomes[1].Problem, "/unit", "invalid arguments say where, as the registry would")
	assert.Equal(t, `arguments differ: city: want "Rome", got "Roma"`, report.Outcomes[2].Problem)
	assert.Equal(t, "the model answered without calling a tool", report.Outcomes[5].Problem)

	table := report.Table()
	assert.Contains(t, table, "TOOL")
	assert.Regexp(t, `get_order\s+2\s+0\s+0\s+0\s+\(no call\) ×1, list_orders ×1`, table)
	data, err := json.Marshal(report)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"taken_for":{"":1,"list_orders":1}`)
}

func TestRunSaysWhenTheEndpointFails(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(weather.Tools()...))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "no", http.StatusTooManyRequests)
	}))
	defer srv.Close()
	report, err := tooleval.Run(context.Background(), reg, []tooleval.Case{{Request: "x", Tool: "get_weather"}}, tooleval.Model{BaseURL: srv.URL})
	require.NoError(t, err)
	assert.Equal(t, "the model's endpoint answered 429 Too Many Requests", report.Outcomes[0].Problem)
}

func TestLoadCasesNamesEachBadCase(t *testing.T) {
	_, err := tooleval.LoadCases(strings.NewReader(`[{"request":"a"},{"tool":"b"},{"request":"c","tool":"d"}]`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "case 1: needs both")
	assert.Contains(t, err.Error(), "case 2: needs both")
	assert.NotContains(t, err.Error(), "case 3")
	_, err = tooleval.LoadCases(strings.NewReader("{\"request\":\"a\",\"tool\":\"b\"}\n{oops\n"))
	assert.ErrorContains(t, err, "line 2")
}

func TestSimilarDescriptions(t *testing.T) {
	tools := []runtime.Tool{
		{Name: "get_weather", Description: "Returns the current weather for a city: temperature and conditions."},
		{Name: "get_forecast", Description: "Returns the weather for a city: temperature and conditions for the coming days."},
		{Name: "create_order", Description: "Places an order for a customer."},
		{Name: "send_email", Description: "Sends an email to a customer."},
	}
	pairs := tooleval.SimilarDescriptions(tools, 0)
	require.Len(t, pairs, 1, "%+v", pairs)
	assert.Equal(t, "get_weather", pairs[0].A)
	assert.Equal(t, "get_forecast", pairs[0].B)
	assert.Contains(t, pairs[0].Shared, "weather")
	assert.Contains(t, pairs[0].Advice(), "say in each description when to use it")
}
