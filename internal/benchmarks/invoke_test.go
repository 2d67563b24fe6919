package benchmarks

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
)

// invokeCase is a registry set up for the get_weather call of the small payload.
type invokeCase struct {
	name      string
	noTimeout bool // the tool as if declared with //tool:timeout none
	opts      func() []runtime.Option
}

// allPolicies configures every registry policy, none of which the call triggers: an
// observer, a middleware, a loop guard, safe errors, a default retry policy, an approver
// (get_weather needs none), a session store and a result cap.
func allPolicies() []runtime.Option {
	passThrough := func(next runtime.Handler) runtime.Handler { return next }
	return []runtime.Option{
		runtime.WithObserver(func(context.Context, runtime.Event) {}),
		runtime.WithMiddleware(passThrough),
		runtime.WithLoopGuard(runtime.LoopGuard{MaxCalls: 1 << 60, MaxCallsPerTool: 1 << 60}),
		runtime.WithSafeErrors(),
		runtime.WithDefaultRetry(runtime.RetryPolicy{Max: 3}),
		runtime.WithApprover(runtime.ApproverFunc(func(context.Context, runtime.ApprovalRequest) (runtime.Decision, error) {
			return runtime.Decision{}, nil
		})),
		runtime.WithSessionStore(&runtime.MemoryStore{}),
		runtime.WithLimits(runtime.Limits{MaxResult: 64 << 10}),
	}
}

var invokeCases = []invokeCase{
	{name: "registry", opts: func() []runtime.Option { return nil }},
	{name: "registry_no_timeout", noTimeout: true, opts: func() []runtime.Option { return nil }},
	{name: "policies", opts: allPolicies},
	{name: "policies_no_timeout", noTimeout: true, opts: allPolicies},
}

// invoker returns a function making the case's call once, and checking its result.
func (c invokeCase) invoker(tb testing.TB) func() {
	tool := weather.Tools()[0]
	tool.NoTimeout = c.noTimeout
	reg := runtime.NewRegistry(c.opts()...)
	if err := reg.Add(tool); err != nil {
		tb.Fatal(err)
	}
	call := runtime.Call{ID: "call_1", Name: tool.Name, Args: readDoc(tb, "small.json")}
	ctx := context.Background()
	return func() {
		if res := reg.Invoke(ctx, call); res.IsError {
			tb.Fatal(res.Text)
		}
	}
}

// bareCall calls the generated Bind, then Run, directly: decode, validate, run the handler,
// encode the result.
func bareCall(tb testing.TB) func() {
	tool := weather.Tools()[0]
	args := readDoc(tb, "small.json")
	ctx := context.Background()
	return func() {
		bound, err := tool.BindArgs(ctx, args)
		if err != nil {
			tb.Fatal(err)
		}
		if res := bound.Run(ctx); res.IsError {
			tb.Fatal(res.Text)
		}
	}
}

// unmarshalSmall decodes the small document with encoding/json.Unmarshal into get_weather's
// arguments, without validation: the baseline of issue 25's Invoke target.
func unmarshalSmall(tb testing.TB) func() {
	data := readDoc(tb, "small.json")
	return func() {
		var v weather.WeatherArgs
		if err := json.Unmarshal(data, &v); err != nil {
			tb.Fatal(err)
		}
	}
}

// unmarshalSmallV2 is unmarshalSmall with encoding/json/v2, nil where this Go has none.
func unmarshalSmallV2(tb testing.TB) func() {
	if !haveJSONv2 {
		return nil
	}
	data := readDoc(tb, "small.json")
	return func() {
		var v weather.WeatherArgs
		if err := unmarshalV2(data, &v); err != nil {
			tb.Fatal(err)
		}
	}
}

// bareOnGoroutine is bareCall run on a parked goroutine reached through a channel: the
// cheapest hand-off there is, the floor of any timeout that holds for a handler ignoring its
// ctx. stop ends the goroutine.
func bareOnGoroutine(tb testing.TB) (call, stop func()) {
	bare := bareCall(tb)
	jobs, done := make(chan struct{}), make(chan struct{})
	go func() {
		for range jobs {
			bare()
			done <- struct{}{}
		}
	}()
	return func() { jobs <- struct{}{}; <-done }, func() { close(jobs) }
}

// BenchmarkInvoke measures what the registry adds to a call of get_weather (the small
// payload), against bare (Bind and Run called directly):
//
//   - registry: Registry.Invoke with no options. The tool's //tool:timeout 10s applies, so
//     the handler runs on a worker goroutine (a handler ignoring its ctx must not hold the
//     call past its deadline).
//   - registry_no_timeout: the same tool with //tool:timeout none: the handler runs on the
//     caller's goroutine.
//   - policies, policies_no_timeout: every registry policy configured, none triggered.
//   - bare_on_goroutine: bare, with Run on a parked goroutine reached through a channel, the
//     cheapest hand-off there is: what any timeout that holds for a handler ignoring its ctx
//     must cost at least.
//
// encoding_json_v2 is encoding_json with encoding/json/v2, where the Go in use has it.
//
// The target is at most 25% over bare, and no allocation beyond what Bind and Run make.
func BenchmarkInvoke(b *testing.B) {
	printGoConfig()
	b.Run("encoding_json", func(b *testing.B) {
		unmarshal := unmarshalSmall(b)
		b.ReportAllocs()
		for b.Loop() {
			unmarshal()
		}
	})
	if unmarshal := unmarshalSmallV2(b); unmarshal != nil {
		b.Run("encoding_json_v2", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				unmarshal()
			}
		})
	}
	b.Run("bare", func(b *testing.B) {
		call := bareCall(b)
		b.ReportAllocs()
		for b.Loop() {
			call()
		}
	})
	b.Run("bare_on_goroutine", func(b *testing.B) {
		call, stop := bareOnGoroutine(b)
		defer stop()
		b.ReportAllocs()
		for b.Loop() {
			call()
		}
	})
	for _, c := range invokeCases {
		b.Run(c.name, func(b *testing.B) {
			call := c.invoker(b)
			b.ReportAllocs()
			for b.Loop() {
				call()
			}
		})
	}
}

// The registry allocates nothing of its own on any of the benchmark's paths: a call through
// it allocates no more than Bind and Run do.
func TestInvokeAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector drops pooled values at random")
	}
	bare := testing.AllocsPerRun(500, bareCall(t))
	for _, c := range invokeCases {
		if got := testing.AllocsPerRun(500, c.invoker(t)); got > bare {
			t.Errorf("%s: %.2f allocations a call, bare Bind and Run %.0f", c.name, got, bare)
		}
	}
}

var invokeReport = flag.Bool("invoke-report", false, "measure Invoke against encoding/json.Unmarshal and the goroutine hand-off, interleaved, and print the ratios (issue 25 item 3; slow)")

// TestInvokeReport measures, in rounds that take each path in turn, encoding/json.Unmarshal
// of the small document, Invoke without a timeout, the plain goroutine hand-off
// (bare_on_goroutine) and Invoke with the tool's timeout (and encoding/json/v2.Unmarshal,
// where this Go has it), and prints which Go measured them, each path's best wall time and CPU
// time a call and the two ratios of issue 25: Invoke without a timeout over encoding/json
// (and over encoding/json/v2), and Invoke with its timeout over the hand-off. Say the load
// (uptime) beside what it prints:
//
//	go test ./internal/benchmarks -run TestInvokeReport -invoke-report -rounds 9
func TestInvokeReport(t *testing.T) {
	if !*invokeReport {
		t.Skip("run with -invoke-report to measure and print the ratios")
	}
	onGoroutine, stop := bareOnGoroutine(t)
	defer stop()
	paths := []struct {
		name string
		op   func()
	}{
		{"encoding/json.Unmarshal", unmarshalSmall(t)},
		{"Invoke, no timeout", invokeCase{noTimeout: true, opts: func() []runtime.Option { return nil }}.invoker(t)},
		{"hand-off to a goroutine (Bind+Run on it)", onGoroutine},
		{"Invoke, the tool's timeout", invokeCase{opts: func() []runtime.Option { return nil }}.invoker(t)},
		{"Bind and Run called directly (no registry)", bareCall(t)},
	}
	if v2 := unmarshalSmallV2(t); v2 != nil {
		paths = append(paths, struct {
			name string
			op   func()
		}{"encoding/json/v2.Unmarshal", v2})
	}
	fmt.Printf("Go: %s; best of %d interleaved rounds\n", goLine(), *rounds)
	wall := make([]float64, len(paths))
	cpu := make([]float64, len(paths))
	for i := range wall {
		wall[i], cpu[i] = 1e18, 1e18
	}
	const n = 200_000
	for range *rounds {
		for i, p := range paths {
			start := time.Now()
			c := cpuPerOp(p.op, n)
			wall[i] = min(wall[i], float64(time.Since(start).Nanoseconds())/n)
			cpu[i] = min(cpu[i], c)
		}
	}
	for i, p := range paths {
		fmt.Printf("%-45s %7.0f ns wall %7.0f ns CPU\n", p.name, wall[i], cpu[i])
	}
	fmt.Printf("Invoke without timeout / encoding/json: %.2f wall, %.2f CPU (goal: at most 1.0)\n", wall[1]/wall[0], cpu[1]/cpu[0])
	fmt.Printf("Invoke with timeout / hand-off:         %.2f wall, %.2f CPU (goal: at most 1.25)\n", wall[3]/wall[2], cpu[3]/cpu[2])
	if len(paths) > 5 {
		fmt.Printf("Invoke without timeout / encoding/json/v2: %.2f wall, %.2f CPU\n", wall[1]/wall[5], cpu[1]/cpu[5])
	}
	// Where the first goal's time goes: the tool's own Bind and Run (its handler and result)
	// against the decode alone, and what the registry adds to them.
	fmt.Printf("parts of Invoke without timeout: Bind and Run %.0f ns CPU (%.2f× encoding/json), the registry %.0f ns CPU\n",
		cpu[4], cpu[4]/cpu[0], cpu[1]-cpu[4])
}
