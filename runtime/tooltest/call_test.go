package tooltest_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/tooltest"
)

// weatherRegistry holds the generated get_weather of examples/weather.
func weatherRegistry(t testing.TB, opts ...runtime.Option) *runtime.Registry {
	reg := runtime.NewRegistry(opts...)
	require.NoError(t, reg.Add(weather.Tools()...))
	return reg
}

const tokyo = `{"city":"Tokyo","unit":"celsius","temperature":17,"conditions":"partly cloudy"}`

func TestCallReturnsWhatTheRegistryReturns(t *testing.T) {
	reg := weatherRegistry(t)
	res := tooltest.Call(t, reg, "get_weather", `{"city":"Tokyo"}`).RequireOK(t).RequireJSON(t, tokyo)
	assert.Equal(t, "get_weather", res.Tool)
	assert.JSONEq(t, tokyo, res.Text, "a structured result's text is its JSON")
	assert.Equal(t, 1, res.Runtime.Attempts, "the registry's own result")
	assert.Nil(t, res.Problems)

	// Arguments given as a value are marshaled; as a string or bytes, sent as they are.
	tooltest.Call(t, reg, "get_weather", map[string]any{"city": "Tokyo"}).RequireJSON(t, tokyo)
	tooltest.Call(t, reg, "get_weather", weather.WeatherArgs{City: "Tokyo"}).RequireJSON(t, tokyo)
	tooltest.Call(t, reg, "get_weather", []byte(`{"city":"Tokyo"}`)).RequireJSON(t, tokyo)

	var w weather.Weather
	tooltest.Call(t, reg, "get_weather", `{"city":"Oslo","days":2}`).DecodeJSON(t, &w)
	assert.Len(t, w.Forecast, 2)

	tooltest.Call(t, reg, "get_weather", `{"city":"Atlantis"}`).RequireError(t, "no weather station in Atlantis")
}

func TestRequireProblemsListsEveryPath(t *testing.T) {
	reg := weatherRegistry(t)
	bad := tooltest.Call(t, reg, "get_weather", `{"city":"","unit":"kelvin","days":9,"citty":"x"}`)
	bad.RequireError(t, "Correct the arguments").RequireProblems(t, "/city", "/unit", "/days", "/citty")
	msg, ok := bad.Problem("/unit")
	assert.True(t, ok)
	assert.Contains(t, msg, `"kelvin"`)
	_, ok = bad.Problem("/nowhere")
	assert.False(t, ok)

	// Each Require fails the test when the result is not what it says.
	for name, wrong := range map[string]func(t testing.TB){
		"a path missing":         func(t testing.TB) { bad.RequireProblems(t, "/city", "/unit", "/days") },
		"paths in another order": func(t testing.TB) { bad.RequireProblems(t, "/unit", "/city", "/days", "/citty") },
		"problems of a success": func(t testing.TB) {
			tooltest.Call(t, reg, "get_weather", `{"city":"Tokyo"}`).RequireProblems(t, "/city")
		},
		"problems of a handler error": func(t testing.TB) {
			tooltest.Call(t, reg, "get_weather", `{"city":"Atlantis"}`).RequireProblems(t)
		},
		"OK of an error":          func(t testing.TB) { bad.RequireOK(t) },
		"error of a success":      func(t testing.TB) { tooltest.Call(t, reg, "get_weather", `{"city":"Tokyo"}`).RequireError(t) },
		"error with another text": func(t testing.TB) { bad.RequireError(t, "no weather station") },
		"other JSON":              func(t testing.TB) { tooltest.Call(t, reg, "get_weather", `{"city":"Oslo"}`).RequireJSON(t, tokyo) },
		"text of a structured result": func(t testing.TB) {
			tooltest.Call(t, reg, "get_weather", `{"city":"Tokyo"}`).RequireText(t, "Sunny")
		},
		"arguments that do not marshal": func(t testing.TB) { tooltest.Call(t, reg, "get_weather", func() {}) },
	} {
		t.Run(name, func(t *testing.T) {
			failures := record(t, "TestWrong", func(t testing.TB) {
				wrong(t)
				t.Errorf("not stopped") // a Require stops the test
			})
			require.Len(t, failures, 1, "%q", failures)
			assert.NotContains(t, failures[0], "not stopped")
		})
	}
}

func TestCallsOfATestShareItsSession(t *testing.T) {
	seen := runtime.Tool{Name: "whoami", InputSchema: []byte(`{"type":"object"}`), Bind: func(context.Context, []byte) (runtime.BoundCall, error) {
		return whoami{}, nil
	}}
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(seen))
	first := tooltest.Call(t, reg, "whoami", nil).RequireOK(t)
	second := tooltest.Call(t, reg, "whoami", nil).RequireOK(t)
	assert.Regexp(t, `^TestCallsOfATestShareItsSession tooltest_call_\d+$`, first.Text, "the test's session, a fresh call id")
	assert.NotEqual(t, first.Text, second.Text)
	tooltest.Call(t, reg, "whoami", nil, tooltest.InSession("conv-2"), tooltest.WithCallID("c1"), tooltest.WithUserData("ana")).
		RequireText(t, "conv-2 c1 ana")
}

type whoami struct{}

func (whoami) Args() any { return nil }
func (whoami) Run(ctx context.Context) runtime.Result {
	info, _ := runtime.CallInfoFrom(ctx)
	text := info.Session + " " + info.CallID
	if user, ok := info.UserData.(string); ok {
		text += " " + user
	}
	return runtime.TextResult(text)
}

func TestProblemsFromText(t *testing.T) {
	for text, want := range map[string][]runtime.Problem{
		"invalid arguments for get_weather: /city: required\nCorrect the arguments and call get_weather again.": {{Path: "/city", Message: "required"}},
		"invalid arguments for get_weather:\n- /city: required\n- /unit: must be one of \"celsius\", got \"k\"\nCorrect the arguments and call get_weather again.": {
			{Path: "/city", Message: "required"}, {Path: "/unit", Message: `must be one of "celsius", got "k"`}},
		"Error: invalid arguments for x: arguments are not a JSON object\nCorrect the arguments and call x again.": {{Message: "arguments are not a JSON object"}},
		"invalid arguments: /a/0: must be a number":                                                                {{Path: "/a/0", Message: "must be a number"}},
		"no weather station in Atlantis":                                                                           nil,
		"invalid argumentsX":                                                                                       nil,
	} {
		assert.Equal(t, want, tooltest.ProblemsFromText(text), "%q", text)
	}
}
