package tooltest_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/tooltest"
)

func TestRunExamples(t *testing.T) {
	tokyo := `{"city":"Tokyo","unit":"celsius","temperature":17,"conditions":"partly cloudy"}`
	t.Run("matching", func(t *testing.T) {
		failures := record(t, "matching", func(t testing.TB) {
			tooltest.RunExamples(t, weather.Tools, "get_weather",
				// Key order and spacing are not the result's: JSON is compared as JSON.
				tooltest.Example{At: "weather.go:62", Args: `{"city":"Tokyo"}`, Expected: `{"conditions":"partly cloudy", "city":"Tokyo","unit":"celsius","temperature":17}`},
				tooltest.Example{At: "weather.go:63", Args: `{"city":"Atlantis"}`, Expected: "no weather station in Atlantis; ask the user for a real city"},
			)
		})
		assert.Empty(t, failures)
	})
	t.Run("stale", func(t *testing.T) {
		failures := record(t, "stale", func(t testing.TB) {
			tooltest.RunExamples(t, weather.Tools, "get_weather",
				tooltest.Example{At: "weather.go:62", Scenario: "Weather in Tokyo", Args: `{"city":"Tokyo"}`, Expected: strings.Replace(tokyo, "17", "18", 1)},
				tooltest.Example{At: "weather.go:63", Args: `{"city":"Atlantis"}`, Expected: "sunny"},
			)
		})
		require.Len(t, failures, 2)
		assert.True(t, strings.HasPrefix(failures[0], `weather.go:62: example "Weather in Tokyo" of get_weather: the result differs`), failures[0])
		assert.Contains(t, failures[0], "-  \"temperature\": 18,\n+  \"temperature\": 17,\n")
		assert.True(t, strings.HasPrefix(failures[1], "weather.go:63: example of get_weather: the error result differs"), failures[1])
		assert.Contains(t, failures[1], "-sunny\n+no weather station in Atlantis")
	})
}

func TestFuzzCheckSeeds(t *testing.T) {
	fz := tooltest.Fuzz{Tools: weather.Tools, Tool: "get_weather", Seeds: []tooltest.Seed{
		{Note: "valid", Args: `{"city":"Tokyo","days":7,"unit":"fahrenheit"}`},
		{Note: "/unit off by one letter", Args: `{"city":"Tokyo","unit":"celsiut"}`, Problems: []string{"/unit"}},
		{Note: "every property of the wrong type", Args: `{"city":true,"days":true,"unit":true}`, Problems: []string{"/city", "/days", "/unit"}},
		// Seeds that say the wrong thing fail, naming the seed.
		{Note: "claimed invalid", Args: `{"city":"Oslo"}`, Problems: []string{"/city"}},
		{Note: "claimed valid", Args: `{"city":""}`},
		{Note: "one problem too few", Args: `{"city":"","days":8}`, Problems: []string{"/days"}},
	}}
	var failures []string
	for _, s := range fz.Seeds {
		failures = append(failures, record(t, s.Note, func(t testing.TB) { fz.Check(t, []byte(s.Args)) })...)
	}
	require.Len(t, failures, 3, "%q", failures)
	assert.Contains(t, failures[0], `seed "claimed invalid"`)
	assert.Contains(t, failures[0], "but not refused")
	assert.Contains(t, failures[1], `seed "claimed valid"`)
	assert.Contains(t, failures[1], "valid by the tool's schema, but refused")
	assert.Contains(t, failures[2], `refused with problems at ["/city" "/days"], want ["/days"]`)

	// Inputs that are no seed are held to the general assertions only.
	for _, doc := range []string{``, `null`, `{"city":"x","days":-1}`, `{"city":"\ud800"}`, `[1`, `{"city":"x","city":"y"}`} {
		assert.Empty(t, record(t, doc, func(t testing.TB) { fz.Check(t, []byte(doc)) }), doc)
	}
}

// echoArgs are the arguments of the hand-written tools below.
type echoArgs struct {
	Text  string         `json:"text"`
	Count *int           `json:"count,omitempty"`
	Tags  map[string]int `json:"tags,omitempty"`
}

type echoCall struct {
	args *echoArgs
	run  func(*echoArgs) runtime.Result
}

func (c echoCall) Args() any                          { return c.args }
func (c echoCall) Run(context.Context) runtime.Result { return c.run(c.args) }

// echoTool is a hand-written tool whose Bind decodes with encoding/json and then applies
// change to the arguments, and whose handler is run.
func echoTool(change func(*echoArgs), run func(*echoArgs) runtime.Result) func() []runtime.Tool {
	return func() []runtime.Tool {
		return []runtime.Tool{{
			Name: "echo", Description: "Echoes its text.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
			Bind: func(_ context.Context, data []byte) (runtime.BoundCall, error) {
				var args echoArgs
				if err := json.Unmarshal(data, &args); err != nil {
					return nil, &runtime.ArgsError{Tool: "echo", Problems: []runtime.Problem{{Message: err.Error()}}}
				}
				if args.Text == "" {
					return nil, &runtime.ArgsError{Tool: "echo", Problems: []runtime.Problem{{Path: "/nothing/deeper", Message: "required"}}}
				}
				change(&args)
				return echoCall{&args, run}, nil
			},
		}}
	}
}

func TestFuzzCheckFindsWhatIsWrong(t *testing.T) {
	ok := func(*echoArgs) runtime.Result { return runtime.Result{Text: "ok"} }
	check := func(tools func() []runtime.Tool, doc string) []string {
		fz := tooltest.Fuzz{Tools: tools, Tool: "echo"}
		return record(t, doc, func(t testing.TB) { fz.Check(t, []byte(doc)) })
	}
	t.Run("a faithful binding passes", func(t *testing.T) {
		assert.Empty(t, check(echoTool(func(*echoArgs) {}, ok), `{"text":"hi","count":2,"tags":{"a":1}}`))
	})
	t.Run("a handler may change its arguments", func(t *testing.T) {
		// They are compared as the handler got them, before it runs.
		edits := func(a *echoArgs) runtime.Result { a.Text += " (edited)"; return runtime.Result{Text: a.Text} }
		assert.Empty(t, check(echoTool(func(*echoArgs) {}, edits), `{"text":"hi"}`))
	})
	t.Run("a panicking handler", func(t *testing.T) {
		panics := func(a *echoArgs) runtime.Result {
			if a.Text == "boom" {
				panic("boom")
			}
			return runtime.Result{Text: a.Text}
		}
		assert.Empty(t, check(echoTool(func(*echoArgs) {}, panics), `{"text":"hi"}`))
		failures := check(echoTool(func(*echoArgs) {}, panics), `{"text":"boom"}`)
		require.Len(t, failures, 1)
		assert.Contains(t, failures[0], "it panicked: boom")
	})
	t.Run("values changed on the way", func(t *testing.T) {
		failures := check(echoTool(func(a *echoArgs) {
			a.Text += "!"
			*a.Count++
			a.Tags["b"] = a.Tags["a"]
			delete(a.Tags, "a")
		}, ok), `{"text":"hi","count":2,"tags":{"a":1}}`)
		require.Len(t, failures, 3, "%q", failures)
		// In document order.
		assert.Contains(t, failures[0], `/text: got "hi!", sent "hi"`)
		assert.Contains(t, failures[1], "/count: got 3, sent 2")
		assert.Contains(t, failures[2], "/tags/a: missing from the map")
	})
	t.Run("a problem outside the document", func(t *testing.T) {
		failures := check(echoTool(func(*echoArgs) {}, ok), `{"text":""}`)
		require.Len(t, failures, 1)
		assert.Contains(t, failures[0], `"/nothing/deeper: required" names a place that is not in the document`)
	})
}
