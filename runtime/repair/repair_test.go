package repair_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/orders/orders"
	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/repair"
	"github.com/toolgen-go/toolgen/runtime/variant"
)

// recorder keeps the observer's repair events.
type recorder struct {
	mu     sync.Mutex
	events []runtime.Event
}

func (r *recorder) observe(_ context.Context, e runtime.Event) {
	if e.Kind != runtime.EventRepair {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func newRegistry(t *testing.T, opts ...runtime.Option) *runtime.Registry {
	t.Helper()
	approve := runtime.ApproverFunc(func(context.Context, runtime.ApprovalRequest) (runtime.Decision, error) {
		return runtime.Decision{Approved: true, By: "test"}, nil
	})
	reg := runtime.NewRegistry(append([]runtime.Option{runtime.WithApprover(approve)}, opts...)...)
	require.NoError(t, reg.Add(weather.Tools()...))
	require.NoError(t, reg.Add(new(orders.Service).Tools()...))
	return reg
}

func repairsOf(res runtime.Result) []runtime.Repair {
	rs, _ := res.Metadata[runtime.MetadataRepairs].([]runtime.Repair)
	return rs
}

func kinds(rs []runtime.Repair) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Path + " " + r.Kind
	}
	return out
}

func TestRepairsWhatTheSchemaMakesClear(t *testing.T) {
	tests := []struct {
		name, tool, args string
		want             []string
	}{
		{"fenced", "get_weather", "```json\n{\"city\":\"Tokyo\"}\n```", []string{" markdown_fence"}},
		{"trailing comma", "get_weather", `{"city":"Tokyo","days":2,}`, []string{" trailing_comma"}},
		{"double encoded", "get_weather", `"{\"city\":\"Tokyo\"}"`, []string{" json_in_string"}},
		{"number as string", "get_weather", `{"city":"Tokyo","days":"3"}`, []string{"/days number_as_string"}},
		{"exact decimal", "get_weather", `{"city":"Tokyo","days":"3.0"}`, []string{"/days number_as_string"}},
		{"null optional", "get_weather", `{"city":"Tokyo","unit":null}`, []string{"/unit null_for_optional"}},
		{"array as string", "create_order", `{"customer":{"id":"c1","name":"Ann","email":"ann@example.com"},
			"items":"[{\"sku\":\"ABC-1234\",\"name\":\"Pen\",\"qty\":\"2\",\"price\":1.5},]",
			"shipping":{"lines":["1 Main St"],"city":"Oslo","postal_code":"0150","country":"SE"}}`,
			[]string{"/items trailing_comma", "/items json_in_string", "/items/0/qty number_as_string"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			reg := newRegistry(t, runtime.WithRepair(repair.New()), runtime.WithObserver(rec.observe))
			res := reg.Invoke(context.Background(), runtime.Call{ID: "1", Name: tt.tool, Args: []byte(tt.args)})
			require.False(t, res.IsError, res.Text)
			assert.Equal(t, tt.want, kinds(repairsOf(res)))
			require.Len(t, rec.events, 1)
			assert.Equal(t, tt.want, kinds(rec.events[0].Repairs))
		})
	}
}

func TestRefusesWhatItCannotBeSureOf(t *testing.T) {
	tests := []struct {
		name, args string
		problems   []string
	}{
		{"leading zero", `{"city":"Tokyo","days":"03"}`, []string{"/days"}},
		{"plus sign", `{"city":"Tokyo","days":"+3"}`, []string{"/days"}},
		{"spaces", `{"city":"Tokyo","days":" 3"}`, []string{"/days"}},
		{"inexact", `{"city":"Tokyo","days":"2.5"}`, []string{"/days", "/days"}},
		{"word", `{"city":"Tokyo","days":"three"}`, []string{"/days"}},
		{"typo key", `{"citty":"Tokyo"}`, []string{"/citty", "/city"}},
		{"null required", `{"city":null}`, []string{"/city"}},
		{"out of range after repair", `{"city":"Tokyo","days":"9"}`, []string{"/days", "/days"}},
		{"number for a string", `{"city":42}`, []string{"/city"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := newRegistry(t, runtime.WithRepair(repair.New()))
			res := reg.Invoke(context.Background(), runtime.Call{ID: "1", Name: "get_weather", Args: []byte(tt.args)})
			require.True(t, res.IsError, res.Text)
			assert.Equal(t, runtime.KindInvalidInput, res.Kind)
			var argsErr *runtime.ArgsError
			require.ErrorAs(t, res.Err, &argsErr)
			var paths []string
			for _, p := range argsErr.Problems {
				paths = append(paths, p.Path)
			}
			assert.Equal(t, tt.problems, paths, res.Text)
			assert.Empty(t, repairsOf(res))
		})
	}
}

func TestValidCallsAreNotTouched(t *testing.T) {
	reg := newRegistry(t, runtime.WithRepair(repair.New()))
	res := reg.Invoke(context.Background(), runtime.Call{Name: "get_weather", Args: []byte(`{"city":"Tokyo","days":3}`)})
	require.False(t, res.IsError, res.Text)
	assert.Empty(t, repairsOf(res))
}

func TestWithoutRepairNothingIsRepaired(t *testing.T) {
	reg := newRegistry(t)
	res := reg.Invoke(context.Background(), runtime.Call{Name: "get_weather", Args: []byte(`{"city":"Tokyo","days":"3"}`)})
	require.True(t, res.IsError)
	res = reg.Invoke(context.Background(), runtime.Call{Name: "getWeather", Args: []byte(`{"city":"Tokyo"}`)})
	require.True(t, res.IsError)
	assert.Equal(t, runtime.KindNotFound, res.Kind)
}

func TestToolNames(t *testing.T) {
	r := repair.New()
	names := []string{"create_order", "get_order", "get_weather", "list_orders"}
	for _, name := range []string{"getWeather", "GetWeather", "get-weather", "GET_WEATHER", "get.weather"} {
		got, ok := r.RepairName(name, names)
		assert.True(t, ok, name)
		assert.Equal(t, "get_weather", got, name)
	}
	for _, name := range []string{"weather", "get_wether", "get_weather", ""} {
		_, ok := r.RepairName(name, names)
		assert.False(t, ok, name)
	}
	_, ok := r.RepairName("getOrder", []string{"get_order", "get-order"})
	assert.False(t, ok, "two tools fold to the same name")

	rec := &recorder{}
	reg := newRegistry(t, runtime.WithRepair(r), runtime.WithObserver(rec.observe))
	res := reg.Invoke(context.Background(), runtime.Call{Name: "GetWeather", Args: []byte(`{"city":"Tokyo"}`)})
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, []runtime.Repair{{Kind: repair.ToolName, From: "GetWeather", To: "get_weather"}}, repairsOf(res))
	require.Len(t, rec.events, 1)
	assert.Equal(t, "get_weather", rec.events[0].Tool)
}

func TestRepairedFailureNamesEveryProblem(t *testing.T) {
	reg := newRegistry(t, runtime.WithRepair(repair.New()))
	res := reg.Invoke(context.Background(), runtime.Call{Name: "get_weather",
		Args: []byte(`{"citty":"Tokyo","days":"9",}`)})
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, "a comma before a closing")
	assert.Contains(t, res.Text, `/days: a number was sent as the string "9"; write 9 without quotes`)
	assert.Contains(t, res.Text, "/days: must be at most 7")
	assert.Contains(t, res.Text, `/citty: unknown property, did you mean "city"?`)
	assert.Contains(t, res.Text, "/city: required property is missing")
}

func TestAnnotate(t *testing.T) {
	reg := newRegistry(t, runtime.WithArgsFeedback(repair.Annotate))
	res := reg.Invoke(context.Background(), runtime.Call{Name: "get_weather",
		Args: []byte(`{"citty":"Tokyo","unit":"kelvin","days":9}`)})
	require.True(t, res.IsError)
	want := "invalid arguments for get_weather; your arguments, each problem marked with ❌:\n```json\n{\n" +
		`  "citty": "Tokyo", // ❌ unknown property, did you mean "city"?` + "\n" +
		`  "unit": "kelvin", // ❌ must be one of "celsius", "fahrenheit", got "kelvin" (schema: {"default":"celsius","enum":["celsius","fahrenheit"],"type":"string"})` + "\n" +
		`  "days": 9, // ❌ must be at most 7, got 9 (schema: {"default":0,"maximum":7,"minimum":0,"type":"integer"})` + "\n" +
		`  "city": undefined // ❌ required property is missing (schema: {"minLength":1,"type":"string"})` + "\n" +
		"}\n```\nCorrect the arguments and call get_weather again."
	assert.Equal(t, want, res.Text)
	var argsErr *runtime.ArgsError
	require.ErrorAs(t, res.Err, &argsErr)
	assert.Len(t, argsErr.Problems, 4)
}

func TestAnnotateNested(t *testing.T) {
	reg := newRegistry(t, runtime.WithArgsFeedback(repair.Annotate))
	args := `{"customer":{"id":"c1","name":"Ann","email":"not-an-email"},
		"items":[{"sku":"abc","name":"Pen","qty":0,"price":1.5}],
		"shipping":{"lines":[],"city":"Oslo","postal_code":"0150","country":"NO"}}`
	res := reg.Invoke(context.Background(), runtime.Call{Name: "create_order", Args: []byte(args)})
	require.True(t, res.IsError)
	var argsErr *runtime.ArgsError
	require.ErrorAs(t, res.Err, &argsErr)
	for _, p := range argsErr.Problems {
		assert.Contains(t, res.Text, p.Message, "every problem is shown")
	}
	assert.Contains(t, res.Text, `    "email": "not-an-email" // ❌ must be an email address`)
	assert.Contains(t, res.Text, `      "qty": 0, // ❌ must be at least 1, got 0`)
	assert.Contains(t, res.Text, `    "lines": [], // ❌`)
	var shown any
	assert.Error(t, json.Unmarshal([]byte(res.Text), &shown), "feedback is annotated text, not JSON")
}

func TestAnnotateUnreadableArgs(t *testing.T) {
	reg := newRegistry(t, runtime.WithArgsFeedback(repair.Annotate))
	res := reg.Invoke(context.Background(), runtime.Call{Name: "get_weather", Args: []byte(`{"city":`)})
	require.True(t, res.IsError)
	assert.NotContains(t, res.Text, "```")
	assert.Contains(t, res.Text, "Correct the arguments and call get_weather again.")
}

func TestSanitizers(t *testing.T) {
	rec := &recorder{}
	reg := runtime.NewRegistry(runtime.WithObserver(rec.observe),
		runtime.WithMiddleware(repair.TrimStrings(), repair.StripControl()))
	require.NoError(t, reg.Add(weather.Tools()...))
	res := reg.Invoke(context.Background(), runtime.Call{Name: "get_weather",
		Args: []byte("{\"city\":\"  To\\u0000ky\\u200bo\\n\",\"unit\":\" celsius\"}")})
	require.False(t, res.IsError, res.Text)
	assert.Contains(t, res.Text, `"city":"Tokyo"`)
	assert.Equal(t, []string{"/city sanitized", "/unit sanitized", "/city sanitized"}, kinds(repairsOf(res)))
	assert.Len(t, rec.events, 2, "one event per filter that changed something")

	// Before validation: a value that is only white space is then too short.
	res = reg.Invoke(context.Background(), runtime.Call{Name: "get_weather", Args: []byte(`{"city":"   "}`)})
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, "/city: must be at least 1 character")
}

func TestSanitizersByName(t *testing.T) {
	reg := runtime.NewRegistry()
	for name, mw := range repair.Sanitizers() {
		reg.RegisterFilter(name, mw)
	}
	tool := weather.Tools()[0]
	tool.Filters = []string{repair.FilterTrim}
	require.NoError(t, reg.Add(tool))
	res := reg.Invoke(context.Background(), runtime.Call{Name: "get_weather", Args: []byte(`{"city":" Tokyo "}`)})
	require.False(t, res.IsError, res.Text)
	assert.Contains(t, res.Text, `"city":"Tokyo"`)
}

func TestMaxStringLength(t *testing.T) {
	reg := runtime.NewRegistry(runtime.WithMiddleware(repair.MaxStringLength(5)))
	require.NoError(t, reg.Add(weather.Tools()...))
	res := reg.Invoke(context.Background(), runtime.Call{Name: "get_weather", Args: []byte(`{"city":"Tokyo"}`)})
	require.False(t, res.IsError, res.Text)
	res = reg.Invoke(context.Background(), runtime.Call{Name: "get_weather", Args: []byte(`{"city":"Beijing","unit":"fahrenheit"}`)})
	require.True(t, res.IsError)
	assert.Equal(t, runtime.KindInvalidInput, res.Kind)
	assert.Contains(t, res.Text, "/city: the string is 7 characters long; at most 5 are allowed")
	assert.Contains(t, res.Text, "/unit: the string is 10 characters long")
	assert.Equal(t, 0, res.Attempts)
}

func TestAnnotateAfterRepair(t *testing.T) {
	reg := newRegistry(t, runtime.WithRepair(repair.New()), runtime.WithArgsFeedback(repair.Annotate))
	res := reg.Invoke(context.Background(), runtime.Call{Name: "get_weather", Args: []byte(`{"citty":"Tokyo","days":"9"}`)})
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, "```json\n{\n")
	assert.Contains(t, res.Text, `  "days": "9", // ❌ a number was sent as the string "9"; write 9 without quotes; must be at most 7, got 9 (schema: {"default":0,"maximum":7,"minimum":0,"type":"integer"})`)
	assert.Contains(t, res.Text, `  "citty": "Tokyo", // ❌ unknown property, did you mean "city"?`)
	assert.Contains(t, res.Text, `"city": undefined // ❌ required property is missing`)
	assert.Empty(t, repairsOf(res), "nothing ran, so nothing was repaired")
}

// FuzzRepair checks that whatever a model sends, repair and feedback never panic, a repaired
// document is JSON, and every repair names a kind.
func FuzzRepair(f *testing.F) {
	for _, seed := range []string{
		`{"city":"Tokyo","days":"3"}`, "```json\n{\"city\":\"x\",}\n```", `"{\"city\":\"x\"}"`,
		`{"customer":"{\"id\":1,}","items":"[{\"qty\":\"2\"}]"}`, `{"unit":null,"days":"1e999999"}`, `{`, `[1,]`, `"\ud800"`,
	} {
		f.Add(seed)
	}
	tools := append(weather.Tools(), new(orders.Service).Tools()...)
	r := repair.New()
	f.Fuzz(func(t *testing.T, args string) {
		for i := range tools {
			out, repairs := r.RepairArgs(&tools[i], []byte(args))
			if len(repairs) > 0 && !json.Valid(out) {
				t.Fatalf("%s: repaired %q into invalid JSON %q", tools[i].Name, args, out)
			}
			for _, fix := range repairs {
				if fix.Kind == "" {
					t.Fatalf("a repair without a kind: %+v", fix)
				}
			}
			_ = repair.Annotate(&tools[i], []byte(args), &runtime.ArgsError{Problems: []runtime.Problem{{Path: "/city", Message: "x"}, {Path: "", Message: "y"}, {Path: "/items/0/qty", Message: "z"}}})
		}
	})
}

// TestDispatchRestoresARepairedName checks that a misspelled name still gets its provider
// variant undone: OpenAI strict nulls are absent properties there, not repairs.
func TestDispatchRestoresARepairedName(t *testing.T) {
	reg := newRegistry(t, runtime.WithRepair(repair.New()))
	openAI := func(tool runtime.Tool) (variant.Variant, bool) { return tool.Variant(variant.OpenAI) }
	outs := reg.Dispatch(context.Background(), []runtime.Call{{ID: "1", Name: "getWeather", Args: []byte(`{"city":"Oslo","unit":null,"days":null}`)}}, openAI)
	require.Len(t, outs, 1)
	res := outs[0].Result
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, []string{" tool_name"}, kinds(repairsOf(res)))
}

// Arguments over Annotate's bound get the plain problem list without being read into a
// tree first: a model sending a large document must not cost a parse of all of it.
func TestAnnotateDoesNotParseLargeArgs(t *testing.T) {
	tool, ok := newRegistry(t).Tool("get_weather")
	require.True(t, ok)
	args := []byte(`{"city":[` + strings.Repeat(`1,`, 256<<10) + `1]}`)
	argsErr := &runtime.ArgsError{Problems: []runtime.Problem{{Path: "/city", Message: "must be a string"}}}
	var text string
	allocs := testing.AllocsPerRun(3, func() { text = repair.Annotate(&tool, args, argsErr) })
	assert.NotContains(t, text, "```", "large arguments get the plain list")
	assert.Contains(t, text, "must be a string")
	assert.Less(t, allocs, 100.0, "the arguments are not parsed")
}

// A document nested 8,000 deep fits Annotate's 16 KiB bound; annotating it level by level
// would write 64 MB of indentation. Past the parser's depth bound the model gets the plain
// problem list instead.
func TestAnnotateDeepDocument(t *testing.T) {
	tool, ok := newRegistry(t).Tool("get_weather")
	require.True(t, ok)
	const depth = 8000
	args := []byte(`{"city":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}`)
	argsErr := &runtime.ArgsError{Problems: []runtime.Problem{{Path: "", Message: "the arguments nest arrays and objects more than 128 levels deep"}}}
	text := repair.Annotate(&tool, args, argsErr)
	assert.NotContains(t, text, "```", "the plain list")
	assert.Less(t, len(text), 1024)
}
