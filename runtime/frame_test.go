package runtime_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
)

// A middleware that calls next twice, with other arguments the second time: the first bind
// uses the call the registry allocated with its state, the second a call of its own, and
// each run sees its own arguments.
func TestFramedCallIsBoundOnce(t *testing.T) {
	var decodes atomic.Int32
	var seen []string
	tool := framedTool("echo", &decodes, func(ctx context.Context, args string) runtime.Result {
		seen = append(seen, args)
		return runtime.TextResult(args)
	})
	twice := func(next runtime.Handler) runtime.Handler {
		return func(ctx context.Context, call runtime.Call) runtime.Result {
			next(ctx, call)
			call.Args = []byte(`{"n":2}`)
			return next(ctx, call)
		}
	}
	reg := runtime.NewRegistry(runtime.WithMiddleware(twice))
	must(t, reg.Add(tool))
	res := reg.Invoke(t.Context(), runtime.Call{Name: "echo", Args: []byte(`{"n":1}`)})
	if res.Text != `{"n":2}` || fmt.Sprint(seen) != `[{"n":1} {"n":2}]` {
		t.Errorf("result %q, runs saw %v; want the second arguments last and each run its own", res.Text, seen)
	}
	if decodes.Load() != 2 {
		t.Errorf("the arguments were decoded %d times; want 2, once for each next", decodes.Load())
	}
}

// Frames are never reused: a handler that keeps its ctx past its call keeps reading its own
// call, while other calls run at the same time.
func TestFrameBelongsToItsCall(t *testing.T) {
	var decodes atomic.Int32
	var mu sync.Mutex
	kept := map[string]context.Context{}
	tool := framedTool("keep", &decodes, func(ctx context.Context, args string) runtime.Result {
		info, ok := runtime.CallInfoFrom(ctx)
		if !ok || info.CallID != args {
			return runtime.ErrorResult(fmt.Errorf("call %s sees call %q", args, info.CallID))
		}
		mu.Lock()
		kept[args] = ctx
		mu.Unlock()
		return runtime.TextResult("ok")
	})
	for _, timeout := range []bool{false, true} {
		tool.NoTimeout = !timeout
		tool.Name = fmt.Sprintf("keep_%v", timeout)
		reg := runtime.NewRegistry()
		must(t, reg.Add(tool))
		var wg sync.WaitGroup
		for i := range 50 {
			wg.Go(func() {
				id := fmt.Sprintf(`"%s-%d"`, tool.Name, i)
				if res := reg.Invoke(t.Context(), runtime.Call{ID: id, Name: tool.Name, Args: []byte(id)}); res.IsError {
					t.Error(res.Text)
				}
			})
		}
		wg.Wait()
	}
	for id, ctx := range kept {
		if info, _ := runtime.CallInfoFrom(ctx); info.CallID != id {
			t.Errorf("the ctx kept by call %s now reads call %s", id, info.CallID)
		}
	}
	if len(kept) != 100 {
		t.Errorf("%d calls kept their ctx, want 100", len(kept))
	}
}

// A middleware that hands next a ctx of its own making still lets the handler find its call.
func TestMiddlewareWithNewContext(t *testing.T) {
	var decodes atomic.Int32
	tool := framedTool("who", &decodes, func(ctx context.Context, _ string) runtime.Result {
		info, ok := runtime.CallInfoFrom(ctx)
		if !ok {
			return runtime.TextResult("no call")
		}
		return runtime.TextResult(info.Tool + " " + info.CallID)
	})
	detach := func(next runtime.Handler) runtime.Handler {
		return func(_ context.Context, call runtime.Call) runtime.Result { return next(context.Background(), call) }
	}
	reg := runtime.NewRegistry(runtime.WithMiddleware(detach))
	must(t, reg.Add(tool))
	if res := reg.Invoke(t.Context(), runtime.Call{ID: "c1", Name: "who"}); res.Text != "who c1" {
		t.Errorf("handler read %q, want %q", res.Text, "who c1")
	}
}

// Chains are built once per tool and rebuilt when the configuration changes; a Subset, which
// shares the tool entries, runs calls under its own registry (its own session counters).
func TestMiddlewareChainFollowsConfiguration(t *testing.T) {
	var built atomic.Int32
	var tr tracer
	counting := func(next runtime.Handler) runtime.Handler {
		built.Add(1)
		return next
	}
	reg := runtime.NewRegistry(runtime.WithMiddleware(counting), runtime.WithLoopGuard(runtime.LoopGuard{MaxCalls: 1}))
	must(t, reg.Add(constTool("a", "ok"), constTool("b", "ok")))
	sub, err := reg.Subset("a")
	must(t, err)
	for range 3 {
		reg.Invoke(t.Context(), runtime.Call{Name: "a", Session: fmt.Sprint(time.Now().UnixNano())})
	}
	if built.Load() != 1 {
		t.Errorf("the middleware built %d chains for three calls of one tool, want 1", built.Load())
	}
	if res := sub.Invoke(t.Context(), runtime.Call{Name: "a", Session: "s"}); res.IsError {
		t.Errorf("the subset's first call in session s: %s", res.Text)
	}
	if res := reg.Invoke(t.Context(), runtime.Call{Name: "a", Session: "s"}); res.IsError {
		t.Errorf("the registry's first call in session s (the subset counts its own): %s", res.Text)
	}
	if res := reg.Invoke(t.Context(), runtime.Call{Name: "a", Session: "s"}); !res.IsError {
		t.Error("the registry's second call in session s passed its limit of 1")
	}
	reg.Use(tr.mw("late"))
	reg.Invoke(t.Context(), runtime.Call{Name: "b"})
	if len(tr.log) != 2 {
		t.Errorf("middleware added by Use after calls saw %v, want the next call", tr.log)
	}
}
