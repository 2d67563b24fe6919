package otel_test

import (
	"context"
	"testing"

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
// Divide noop and sdk by plain for the ratio the README reports.
func BenchmarkOverhead(b *testing.B) {
	args := []byte(`{"city":"Tokyo","unit":"celsius","days":3}`)
	run := func(b *testing.B, opts ...runtime.Option) {
		reg := runtime.NewRegistry(opts...)
		if err := reg.Add(weather.Tools()...); err != nil {
			b.Fatal(err)
		}
		call := runtime.Call{ID: "call_1", Name: "get_weather", Args: args, Session: "s"}
		ctx := context.Background()
		b.ReportAllocs()
		for b.Loop() {
			if res := reg.Invoke(ctx, call); res.IsError {
				b.Fatal(res.Text)
			}
		}
	}
	b.Run("plain", func(b *testing.B) { run(b) })
	b.Run("noop", func(b *testing.B) {
		in, err := toolotel.New()
		if err != nil {
			b.Fatal(err)
		}
		run(b, in.RegistryOptions(nil)...)
	})
	b.Run("sdk", func(b *testing.B) {
		tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(discard{}), sdktrace.WithSampler(sdktrace.AlwaysSample()))
		mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
		defer tp.Shutdown(context.Background())
		defer mp.Shutdown(context.Background())
		in, err := toolotel.New(toolotel.WithTracerProvider(tp), toolotel.WithMeterProvider(mp))
		if err != nil {
			b.Fatal(err)
		}
		run(b, in.RegistryOptions(nil)...)
	})
}
