package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
)

type weatherArgs struct {
	City string `json:"city"`
	Days int    `json:"days"`
}

func weatherTool() runtime.Tool {
	return jsonTool("get_weather", func(_ context.Context, a weatherArgs) runtime.Result {
		if a.City == "Atlantis" {
			return runtime.ErrorResult(fmt.Errorf("no weather station in %s", a.City))
		}
		return runtime.StructuredResult(fmt.Appendf(nil, `{"city":%q,"days":%d,"sky":"clear"}`, a.City, a.Days))
	})
}

func newRegistry(t *testing.T, tools ...runtime.Tool) *runtime.Registry {
	t.Helper()
	reg := runtime.NewRegistry()
	must(t, reg.Add(tools...))
	return reg
}

func TestInvokeSuccess(t *testing.T) {
	reg := newRegistry(t, weatherTool(), runTool("slow", func(context.Context) runtime.Result {
		time.Sleep(5 * time.Millisecond)
		return runtime.Result{Text: "done", Metadata: map[string]any{"rows": 3}}
	}))

	res := reg.Invoke(t.Context(), runtime.Call{ID: "call_1", Name: "get_weather", Args: []byte(`{"city":"Tokyo","days":2}`)})
	want := `{"city":"Tokyo","days":2,"sky":"clear"}`
	if res.IsError || res.Err != nil || res.Text != want || string(res.Structured) != want {
		t.Errorf("Invoke = %+v, want text and structured %s", res, want)
	}
	if res.Attempts != 1 {
		t.Errorf("Attempts = %d, want 1", res.Attempts)
	}

	res = reg.Invoke(t.Context(), runtime.Call{Name: "slow"})
	if res.Text != "done" || res.Metadata["rows"] != 3 {
		t.Errorf("Invoke did not pass the handler's result through: %+v", res)
	}
	if res.Duration < 5*time.Millisecond {
		t.Errorf("Duration = %v, want at least the handler's 5ms", res.Duration)
	}
}

func TestInvokeUnknownTool(t *testing.T) {
	reg := newRegistry(t, weatherTool(), constTool("search_web", ""), constTool("add_note", ""))
	cases := []struct{ name, want string }{
		{"get_wether", `unknown tool "get_wether"; did you mean "get_weather"? Available tools: add_note, get_weather, search_web`},
		{"launch_rocket", `unknown tool "launch_rocket". Available tools: add_note, get_weather, search_web`},
		{"", `the call names no tool. Available tools: add_note, get_weather, search_web`},
	}
	for _, c := range cases {
		res := reg.Invoke(t.Context(), runtime.Call{Name: c.name})
		if !res.IsError || res.Text != c.want {
			t.Errorf("Invoke(%q).Text =\n%s\nwant\n%s", c.name, res.Text, c.want)
		}
		if !errors.Is(res.Err, runtime.ErrUnknownTool) || res.Attempts != 0 {
			t.Errorf("Invoke(%q): Err = %v, Attempts = %d", c.name, res.Err, res.Attempts)
		}
	}

	empty := runtime.NewRegistry()
	if res := empty.Invoke(t.Context(), runtime.Call{Name: "x"}); res.Text != `unknown tool "x". No tools are available.` {
		t.Errorf("empty registry: Text = %q", res.Text)
	}
}

func TestInvokeUnknownToolCapsTheList(t *testing.T) {
	reg := runtime.NewRegistry()
	for i := range 60 {
		must(t, reg.Add(constTool(fmt.Sprintf("tool_%02d", i), "")))
	}
	res := reg.Invoke(t.Context(), runtime.Call{Name: "nothing_like_it"})
	listed := strings.TrimPrefix(res.Text, `unknown tool "nothing_like_it". Available tools: `)
	parts := strings.Split(listed, ", ")
	if len(parts) != 51 || parts[0] != "tool_00" || parts[49] != "tool_49" || parts[50] != "…" {
		t.Errorf("list of 60 tools not capped at 50 then …: %q", listed)
	}
}

func TestInvokeInvalidArguments(t *testing.T) {
	shared := &runtime.ArgsError{Problems: []runtime.Problem{
		{Path: "/citty", Message: `unknown property, did you mean "city"?`},
		{Path: "/unit", Message: `must be one of "celsius", "fahrenheit", got "kelvin"`},
	}}
	reg := newRegistry(t, weatherTool(),
		bindFunc("strict", func(context.Context, []byte) (runtime.BoundCall, error) { return nil, shared }),
		bindFunc("wrapped", func(context.Context, []byte) (runtime.BoundCall, error) {
			return nil, fmt.Errorf("decoding: %w", shared)
		}),
	)

	res := reg.Invoke(t.Context(), runtime.Call{Name: "strict", Args: []byte(`{"citty":"Tokyo","unit":"kelvin"}`)})
	want := `invalid arguments for strict:
- /citty: unknown property, did you mean "city"?
- /unit: must be one of "celsius", "fahrenheit", got "kelvin"
Correct the arguments and call strict again.`
	if !res.IsError || res.Text != want {
		t.Errorf("Text =\n%s\nwant\n%s", res.Text, want)
	}
	var argsErr *runtime.ArgsError
	if !errors.As(res.Err, &argsErr) || argsErr.Tool != "strict" || len(argsErr.Problems) != 2 {
		t.Errorf("Err = %#v, want the *ArgsError with Tool set", res.Err)
	}
	if res.Attempts != 0 {
		t.Errorf("Attempts = %d, want 0: the handler never ran", res.Attempts)
	}
	if shared.Tool != "" {
		t.Errorf("Invoke wrote to the *ArgsError Bind returned: Tool = %q", shared.Tool)
	}

	res = reg.Invoke(t.Context(), runtime.Call{Name: "wrapped"})
	if !strings.HasPrefix(res.Text, "invalid arguments for wrapped:\n- /citty:") {
		t.Errorf("a wrapped *ArgsError is not reported as one: %q", res.Text)
	}

	// One problem fits on one line.
	res = reg.Invoke(t.Context(), runtime.Call{Name: "get_weather", Args: []byte(`{"city":"Tokyo","citty":"Tokyo"}`)})
	want = "invalid arguments for get_weather: /citty: unknown property\nCorrect the arguments and call get_weather again."
	if res.Text != want {
		t.Errorf("Text =\n%s\nwant\n%s", res.Text, want)
	}
}

func TestInvokeOtherBindErrors(t *testing.T) {
	syntax := errors.New("unexpected end of JSON input at offset 9")
	reg := newRegistry(t,
		bindFunc("plain", func(context.Context, []byte) (runtime.BoundCall, error) { return nil, syntax }),
		bindFunc("cancelled", func(ctx context.Context, _ []byte) (runtime.BoundCall, error) { return nil, ctx.Err() }),
	)

	res := reg.Invoke(t.Context(), runtime.Call{Name: "plain", Args: []byte(`{"city":`)})
	want := "invalid arguments for plain: unexpected end of JSON input at offset 9\nCorrect the arguments and call plain again."
	if !res.IsError || res.Text != want || !errors.Is(res.Err, syntax) {
		t.Errorf("Invoke = %+v, want Text\n%s", res, want)
	}

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	res = reg.Invoke(ctx, runtime.Call{Name: "cancelled"})
	if !res.IsError || res.Text != "cancelled did not run: the call was cancelled or timed out." || !errors.Is(res.Err, context.Canceled) {
		t.Errorf("a cancelled Bind is blamed on the arguments: %+v", res)
	}
}

func TestInvokeNormalisesEmptyArguments(t *testing.T) {
	var got []byte
	reg := newRegistry(t, bindFunc("echo", func(_ context.Context, raw []byte) (runtime.BoundCall, error) {
		got = raw
		return runFunc(func(context.Context) runtime.Result { return runtime.TextResult("ok") }), nil
	}), constTool("no_args", "fine"))

	for _, args := range []string{"", " \n\t", "null", " null\n"} {
		reg.Invoke(t.Context(), runtime.Call{Name: "echo", Args: []byte(args)})
		if string(got) != "{}" {
			t.Errorf("args %q reached Bind as %q, want {}", args, got)
		}
	}
	reg.Invoke(t.Context(), runtime.Call{Name: "echo", Args: nil})
	if string(got) != "{}" {
		t.Errorf("nil args reached Bind as %q, want {}", got)
	}
	reg.Invoke(t.Context(), runtime.Call{Name: "echo", Args: []byte(` {"a":null} `)})
	if string(got) != ` {"a":null} ` {
		t.Errorf("real arguments were changed: %q", got)
	}

	// The end-to-end reason: a no-argument tool accepts what models send for "no arguments".
	if res := reg.Invoke(t.Context(), runtime.Call{Name: "no_args", Args: []byte("null")}); res.IsError || res.Text != "fine" {
		t.Errorf("no-argument tool with null args = %+v", res)
	}
}

func TestInvokeHandlerError(t *testing.T) {
	reg := newRegistry(t, weatherTool())
	res := reg.Invoke(t.Context(), runtime.Call{Name: "get_weather", Args: []byte(`{"city":"Atlantis"}`)})
	if !res.IsError || res.Text != "no weather station in Atlantis" || res.Err == nil || res.Err.Error() != res.Text {
		t.Errorf("handler error result = %+v", res)
	}
	if res.Attempts != 1 {
		t.Errorf("Attempts = %d, want 1: the handler ran", res.Attempts)
	}
}

func TestInvokeRecoversPanics(t *testing.T) {
	const secret = "postgres://admin:hunter2@db"
	reg := newRegistry(t,
		runTool("crash", func(context.Context) runtime.Result { panic("cannot reach " + secret) }),
		runTool("nil_map", func(context.Context) runtime.Result {
			var m map[string]int
			//lint:ignore SA5000 the test needs a runtime error panic
			m["x"] = 1
			return runtime.Result{}
		}),
		bindFunc("bad_decoder", func(context.Context, []byte) (runtime.BoundCall, error) { panic(secret) }),
	)

	res := reg.Invoke(t.Context(), runtime.Call{Name: "crash"})
	if !res.IsError || res.Text != "crash failed with an internal error." {
		t.Errorf("Text = %q", res.Text)
	}
	if strings.Contains(res.Text, "hunter2") {
		t.Errorf("the panic value reached the model: %q", res.Text)
	}
	var pe *runtime.PanicError
	if !errors.As(res.Err, &pe) {
		t.Fatalf("Err = %v, want a *PanicError", res.Err)
	}
	if pe.Tool != "crash" || pe.Value != "cannot reach "+secret {
		t.Errorf("PanicError = {Tool: %q, Value: %v}", pe.Tool, pe.Value)
	}
	if !strings.Contains(string(pe.Stack), "TestInvokeRecoversPanics") {
		t.Errorf("Stack does not show where the panic happened:\n%s", pe.Stack)
	}
	if pe.Error() != `tool "crash" panicked: cannot reach `+secret {
		t.Errorf("PanicError.Error() = %q", pe.Error())
	}
	if res.Attempts != 1 {
		t.Errorf("Attempts = %d, want 1: the handler ran", res.Attempts)
	}

	// A runtime error stays reachable through the PanicError.
	res = reg.Invoke(t.Context(), runtime.Call{Name: "nil_map"})
	var runtimeErr interface{ RuntimeError() }
	if !errors.As(res.Err, &runtimeErr) {
		t.Errorf("Err = %v, want it to unwrap to the runtime error", res.Err)
	}

	res = reg.Invoke(t.Context(), runtime.Call{Name: "bad_decoder"})
	if !res.IsError || res.Text != "bad_decoder failed with an internal error." || !errors.As(res.Err, &pe) || res.Attempts != 0 {
		t.Errorf("a panicking Bind = %+v", res)
	}
}

func TestInvokeBindWithoutCallOrError(t *testing.T) {
	reg := newRegistry(t, bindFunc("broken", func(context.Context, []byte) (runtime.BoundCall, error) { return nil, nil }))
	res := reg.Invoke(t.Context(), runtime.Call{Name: "broken"})
	if !res.IsError || res.Text != "broken failed with an internal error." || res.Err == nil {
		t.Errorf("Invoke = %+v", res)
	}
}

// TestConcurrentAddAndInvoke is meant for -race: calls run while tools are added.
func TestConcurrentAddAndInvoke(t *testing.T) {
	reg := newRegistry(t, weatherTool())
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 50 {
				if err := reg.Add(constTool(fmt.Sprintf("tool_%d_%d", w, i), "ok")); err != nil {
					t.Error(err) // not must: t.Fatal may not be called off the test goroutine
				}
			}
		})
		wg.Go(func() {
			for range 50 {
				res := reg.Invoke(t.Context(), runtime.Call{Name: "get_weather", Args: []byte(`{"city":"Oslo"}`)})
				if res.IsError {
					t.Errorf("Invoke during Add = %+v", res)
				}
				reg.Invoke(t.Context(), runtime.Call{Name: "missing"})
				reg.Tools()
				reg.ByTag("x")
			}
		})
	}
	wg.Wait()
	if n := len(reg.Names()); n != 201 {
		t.Errorf("%d tools after concurrent Adds, want 201", n)
	}
}
