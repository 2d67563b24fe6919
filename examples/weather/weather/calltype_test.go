//go:build !race

// Allocation counts are compared without the race detector, which drops pooled values.

package weather

import (
	"context"
	"testing"
	"unsafe"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/decode"
	"github.com/toolgen-go/toolgen/runtime/encode"
)

// The generated code once declared a call type per tool; it now declares a toolimpl.Binding.
// legacyCall is get_weather's call type as toolgen used to generate it, kept as the baseline
// the binding must match: BenchmarkCallType compares both in one run, and
// TestBindingAllocatesAsTheCallType holds the binding to the baseline's allocations.
type legacyCall struct {
	args WeatherArgs
}

func (c *legacyCall) Args() any { return &c.args }

func (c *legacyCall) Run(ctx context.Context) runtime.Result {
	out, err := GetWeather(ctx, c.args)
	if err != nil {
		return runtime.ErrorResult(err)
	}
	w := encode.Acquire()
	toolgenEncodeWeather(w, &out)
	return encode.Finish(w, "get_weather")
}

func (c *legacyCall) Bind(_ context.Context, data []byte) error {
	return decode.Into(data, unsafe.Pointer(&c.args), &toolgenStructWeatherArgs)
}

func legacyTool() runtime.Tool {
	tool := Tools()[0]
	tool.Bind = func(ctx context.Context, data []byte) (runtime.BoundCall, error) {
		c := &legacyCall{}
		if err := c.Bind(ctx, data); err != nil {
			return nil, err
		}
		return c, nil
	}
	return tool
}

const callArgs = `{"city":"Tokyo","unit":"fahrenheit","days":3}`

// callers returns, for a tool, its Bind and Run called directly, and a call through a registry
// (the handler on the caller's goroutine, as under //tool:timeout none).
func callers(tb testing.TB, tool runtime.Tool) (bare, invoke func()) {
	ctx := context.Background()
	args := []byte(callArgs)
	bare = func() {
		bound, err := tool.BindArgs(ctx, args)
		if err != nil {
			tb.Fatal(err)
		}
		if res := bound.Run(ctx); res.IsError {
			tb.Fatal(res.Text)
		}
	}
	tool.NoTimeout = true
	reg := runtime.NewRegistry()
	if err := reg.Add(tool); err != nil {
		tb.Fatal(err)
	}
	call := runtime.Call{ID: "call_1", Name: tool.Name, Args: args}
	invoke = func() {
		if res := reg.Invoke(ctx, call); res.IsError {
			tb.Fatal(res.Text)
		}
	}
	return bare, invoke
}

// The binding allocates no more than the call type did, and a call through the registry no
// more than one bound and run directly: the registry's state of the call is allocated with it.
func TestBindingAllocatesAsTheCallType(t *testing.T) {
	legacyBare, _ := callers(t, legacyTool())
	bare, invoke := callers(t, Tools()[0])
	if got, want := testing.AllocsPerRun(200, bare), testing.AllocsPerRun(200, legacyBare); got > want {
		t.Errorf("Bind and Run: %.1f allocations, the call type %.1f", got, want)
	}
	if got, want := testing.AllocsPerRun(200, invoke), testing.AllocsPerRun(200, bare); got > want {
		t.Errorf("Invoke: %.1f allocations, Bind and Run directly %.1f", got, want)
	}
}

// BenchmarkCallType compares get_weather's binding with its former generated call type:
// Bind and Run called directly, and Registry.Invoke.
func BenchmarkCallType(b *testing.B) {
	for _, c := range []struct {
		name string
		tool runtime.Tool
	}{{"call_type", legacyTool()}, {"binding", Tools()[0]}} {
		bare, invoke := callers(b, c.tool)
		b.Run(c.name+"/bare", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				bare()
			}
		})
		b.Run(c.name+"/invoke", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				invoke()
			}
		})
	}
}
