package benchmarks

import (
	"context"
	"testing"

	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
)

// BenchmarkInvoke measures what the registry adds to a call of get_weather (the small
// payload):
//
//   - bare: the generated Bind, then Run, called directly: decode, validate, run the handler,
//     encode the result.
//   - registry: Registry.Invoke with no options (the tool's 10s timeout still applies, so the
//     handler runs on its own goroutine).
//   - registry_no_timeout: the same, for the tool with //tool:timeout none.
//   - policies: Registry.Invoke with every registry policy configured but none triggered: an
//     observer, a middleware, a loop guard, safe errors, a default retry policy, an approver
//     (get_weather needs none), a session store and a result cap.
//
// The target is at most 25% over bare and no allocation beyond the Result.
func BenchmarkInvoke(b *testing.B) {
	tool := weather.Tools()[0]
	args := readDoc(b, "small.json")
	ctx := context.Background()

	b.Run("bare", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			bound, err := tool.Bind(ctx, args)
			if err != nil {
				b.Fatal(err)
			}
			if res := bound.Run(ctx); res.IsError {
				b.Fatal(res.Text)
			}
		}
	})

	bench := func(b *testing.B, reg *runtime.Registry) {
		if err := reg.Add(tool); err != nil {
			b.Fatal(err)
		}
		call := runtime.Call{ID: "call_1", Name: tool.Name, Args: args}
		b.ReportAllocs()
		for b.Loop() {
			if res := reg.Invoke(ctx, call); res.IsError {
				b.Fatal(res.Text)
			}
		}
	}
	b.Run("registry", func(b *testing.B) { bench(b, runtime.NewRegistry()) })
	// The same without a timeout: the handler runs on the caller's goroutine, which shows
	// what the timeout's goroutine hand-off costs.
	b.Run("registry_no_timeout", func(b *testing.B) {
		tool := tool
		tool.NoTimeout = true
		reg := runtime.NewRegistry()
		if err := reg.Add(tool); err != nil {
			b.Fatal(err)
		}
		call := runtime.Call{ID: "call_1", Name: tool.Name, Args: args}
		b.ReportAllocs()
		for b.Loop() {
			if res := reg.Invoke(ctx, call); res.IsError {
				b.Fatal(res.Text)
			}
		}
	})
	b.Run("policies", func(b *testing.B) {
		passThrough := func(next runtime.Handler) runtime.Handler { return next }
		bench(b, runtime.NewRegistry(
			runtime.WithObserver(func(context.Context, runtime.Event) {}),
			runtime.WithMiddleware(passThrough),
			runtime.WithLoopGuard(runtime.LoopGuard{MaxCalls: 1 << 60, MaxCallsPerTool: 1 << 60}),
			runtime.WithSafeErrors(),
			runtime.WithDefaultRetry(runtime.RetryPolicy{Max: 3}),
			runtime.WithApprover(runtime.ApproverFunc(func(context.Context, runtime.ApprovalRequest) (runtime.Decision, error) {
				return runtime.Decision{}, nil
			})),
			runtime.WithSessionStore(&runtime.MemoryStore{}),
			runtime.WithMaxResult(64<<10),
		))
	})
}
