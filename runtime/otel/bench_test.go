package otel_test

import (
	"context"
	"testing"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
	toolotel "github.com/toolgen-go/toolgen/runtime/otel"
)

// discard is a span exporter that drops what it gets, so the benchmark measures recording,
// not export.
type discard struct{}

func (discard) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (discard) Shutdown(context.Context) error                             { return nil }

// BenchmarkOverhead is the cost of the instrumentation per call of get_weather (the generated
// example tool), in the same run:
//
//   - plain: Registry.Invoke without instrumentation;
//   - noop: instrumented, with OpenTelemetry's default no-op providers (tracing off);
//   - sdk: instrumented, every span sampled and batched to an exporter that drops it, and the
//     histogram aggregated by the SDK.
//
// BenchmarkOverheadRatio reports the ratios the README gives.
func BenchmarkOverhead(b *testing.B) {
	plain, noop, sdk := overheadCalls(b)
	for _, c := range []struct {
		name string
		call func()
	}{{"plain", plain}, {"noop", noop}, {"sdk", sdk}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.call()
			}
		})
	}
}

// BenchmarkOverheadRatio makes the three calls of BenchmarkOverhead in turn, in one loop, so
// that a noisy machine slows them alike, and reports the ratios of noop and sdk to plain.
func BenchmarkOverheadRatio(b *testing.B) {
	plain, noop, sdk := overheadCalls(b)
	var tPlain, tNoop, tSDK time.Duration
	for b.Loop() {
		t0 := time.Now()
		plain()
		t1 := time.Now()
		noop()
		t2 := time.Now()
		sdk()
		tPlain, tNoop, tSDK = tPlain+t1.Sub(t0), tNoop+t2.Sub(t1), tSDK+time.Since(t2)
	}
	b.ReportMetric(float64(tNoop)/float64(tPlain), "noop/plain")
	b.ReportMetric(float64(tSDK)/float64(tPlain), "sdk/plain")
}

// overheadCalls returns a call of get_weather through a registry without instrumentation,
// with it on the no-op providers, and with it on the SDK.
func overheadCalls(b *testing.B) (plain, noop, sdk func()) {
	args := []byte(`{"city":"Tokyo","unit":"celsius","days":3}`)
	caller := func(opts ...runtime.Option) func() {
		reg := runtime.NewRegistry(opts...)
		if err := reg.Add(weather.Tools()...); err != nil {
			b.Fatal(err)
		}
		call := runtime.Call{ID: "call_1", Name: "get_weather", Args: args, Session: "s"}
		ctx := context.Background()
		return func() {
			if res := reg.Invoke(ctx, call); res.IsError {
				b.Fatal(res.Text)
			}
		}
	}
	in, err := toolotel.New()
	if err != nil {
		b.Fatal(err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(discard{}), sdktrace.WithSampler(sdktrace.AlwaysSample()))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	b.Cleanup(func() {
		_ = tp.Shutdown(context.Background())
		_ = mp.Shutdown(context.Background())
	})
	traced, err := toolotel.New(toolotel.WithTracerProvider(tp), toolotel.WithMeterProvider(mp))
	if err != nil {
		b.Fatal(err)
	}
	return caller(), caller(in.RegistryOptions(nil)...), caller(traced.RegistryOptions(nil)...)
}
