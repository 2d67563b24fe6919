package runtime_test

import (
	"context"
	"fmt"
	goruntime "runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/variant"
)

func TestInvokeAllRunsConcurrentlyInCallOrder(t *testing.T) {
	// Each of the two calls waits for the other to start: they finish only if they run at
	// the same time, with no clock involved.
	a, b := make(chan struct{}), make(chan struct{})
	meet := func(mine, theirs chan struct{}, text string) runtime.Tool {
		return runTool(text, func(ctx context.Context) runtime.Result {
			close(mine)
			select {
			case <-theirs:
				return runtime.TextResult(text)
			case <-ctx.Done():
				return runtime.ErrorResult(ctx.Err())
			}
		})
	}
	reg := newRegistry(t, meet(a, b, "first"), meet(b, a, "second"))
	results := reg.InvokeAll(t.Context(), []runtime.Call{{Name: "first"}, {Name: "second"}, {Name: "nope"}})
	if len(results) != 3 || results[0].Text != "first" || results[1].Text != "second" || results[2].Kind != runtime.KindNotFound {
		t.Errorf("results = %+v", results)
	}
}

func TestInvokeAllSequentialIsABarrier(t *testing.T) {
	var tr tracer
	step := func(name string) runtime.Tool {
		return runTool(name, func(context.Context) runtime.Result {
			tr.add("start " + name)
			tr.add("end " + name)
			return runtime.TextResult(name)
		})
	}
	barrier := step("commit")
	barrier.Sequential = true
	reg := newRegistry(t, step("a"), step("b"), barrier, step("c"), step("d"))
	calls := []runtime.Call{{Name: "a"}, {Name: "b"}, {Name: "commit"}, {Name: "c"}, {Name: "d"}}
	for range 20 {
		tr.log = nil
		results := reg.InvokeAll(t.Context(), calls)
		for i, c := range calls {
			if results[i].Text != c.Name {
				t.Fatalf("result %d = %q, want %q", i, results[i].Text, c.Name)
			}
		}
		log := "," + strings.Join(tr.log, ",") + ","
		at := func(s string) int { return strings.Index(log, ","+s+",") }
		if !(at("end a") < at("start commit") && at("end b") < at("start commit") &&
			at("end commit") < at("start c") && at("end commit") < at("start d")) {
			t.Fatalf("the sequential call was not a barrier: %s", log)
		}
	}
}

func TestInvokeAllConcurrencyLimit(t *testing.T) {
	var running, peak atomic.Int32
	tool := runTool("work", func(context.Context) runtime.Result {
		n := running.Add(1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		for range 100 {
			goruntime.Gosched() // stay running while the others start
		}
		running.Add(-1)
		return runtime.TextResult("ok")
	})
	reg := runtime.NewRegistry(runtime.WithLimits(runtime.Limits{BatchConcurrency: 2}))
	must(t, reg.Add(tool))
	calls := make([]runtime.Call, 8)
	for i := range calls {
		calls[i] = runtime.Call{ID: fmt.Sprint(i), Name: "work"}
	}
	for i, res := range reg.InvokeAll(t.Context(), calls) {
		if res.IsError {
			t.Errorf("call %d: %+v", i, res)
		}
	}
	if p := peak.Load(); p > 2 || p < 1 {
		t.Errorf("%d calls ran at once, want at most 2", p)
	}
}

// Dispatch undoes the variant a tool was sent with before validation: here an OpenAI strict
// null for an optional property, which the tool's own decoder refuses.
func TestDispatchRestoresVariantArguments(t *testing.T) {
	tool := bindFunc("echo", func(ctx context.Context, raw []byte) (runtime.BoundCall, error) {
		if strings.Contains(string(raw), "null") {
			return nil, &runtime.ArgsError{Problems: []runtime.Problem{{Path: "/note", Message: "must be a string, got null"}}}
		}
		return runFunc(func(context.Context) runtime.Result { return runtime.TextResult(string(raw)) }), nil
	})
	tool.Variants = map[string]variant.Variant{variant.OpenAI: {NullMeansAbsent: []string{"/note"}}}
	reg := runtime.NewRegistry()
	if err := reg.Add(tool); err != nil {
		t.Fatal(err)
	}
	calls := []runtime.Call{{ID: "a", Name: "echo", Args: []byte(`{"text":"hi","note":null}`)}, {ID: "b", Name: "nope"}}
	openAI := func(t runtime.Tool) (variant.Variant, bool) { return t.Variant(variant.OpenAI) }

	outs := reg.Dispatch(context.Background(), calls, openAI)
	if len(outs) != 2 || outs[0].Call.ID != "a" || string(outs[0].Call.Args) != `{"text":"hi","note":null}` {
		t.Fatalf("outcomes do not keep the calls as the model wrote them: %+v", outs)
	}
	if outs[0].Result.IsError || outs[0].Result.Text != `{"text":"hi"}` {
		t.Errorf("restored call: %+v", outs[0].Result)
	}
	if !outs[1].Result.IsError || !strings.Contains(outs[1].Result.Text, `unknown tool "nope"`) {
		t.Errorf("unknown tool: %+v", outs[1].Result)
	}
	if raw := reg.Dispatch(context.Background(), calls[:1], nil); !raw[0].Result.IsError {
		t.Errorf("without a variant the null must reach the decoder: %+v", raw[0].Result)
	}
}
