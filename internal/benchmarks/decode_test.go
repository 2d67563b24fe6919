// Package benchmarks measures the generated decoders of the example tools against
// encoding/json.Unmarshal into the same structs, on the argument documents of
// testdata/benchdata (a copy of the shared benchmark payloads, so every figure compares with
// the reference implementations measured on them).
//
//	go test ./internal/benchmarks -run '^$' -bench .          # raw figures
//	go test ./internal/benchmarks -run TestReport -report     # the docs/benchmarks.md table, with ratios
//
// The generated side is Tool.Bind, the path every call takes: decode, validate every
// constraint, and allocate the bound call (json.Unmarshal allocates its destination too).
// encoding/json validates nothing. Where the Go in use has encoding/json/v2 (from Go 1.27,
// where encoding/json runs on it too), its Unmarshal is measured beside encoding/json's. Every
// report and benchmark run says which Go it ran on (runtime.Version): the ratios to
// encoding/json hold for that Go only.
package benchmarks

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"sync"
	"testing"

	"github.com/toolgen-go/toolgen/examples/email/email"
	"github.com/toolgen-go/toolgen/examples/orders/orders"
	"github.com/toolgen-go/toolgen/examples/weather/weather"
	baselineemail "github.com/toolgen-go/toolgen/internal/benchmarks/internal/baseline/email"
	baselineorders "github.com/toolgen-go/toolgen/internal/benchmarks/internal/baseline/orders"
	baselineweather "github.com/toolgen-go/toolgen/internal/benchmarks/internal/baseline/weather"
	"github.com/toolgen-go/toolgen/internal/benchmarks/internal/handwritten"
	"github.com/toolgen-go/toolgen/runtime"
)

var report = flag.Bool("report", false, "print the benchmark table of the README (slow)")

const benchdata = "../../testdata/benchdata"

// payload is one size of the benchmark: the tool that decodes it and a plain unmarshal into
// the same args type.
type payload struct {
	size        string
	tool        runtime.Tool
	unmarshal   func([]byte) error
	baseline    func([]byte) (any, error) // Bind with the decoder generated before it was compact
	unmarshalV2 func([]byte) error        // encoding/json/v2's; nil where this Go has none
	handwritten func([]byte) error        // the hand-written limit (internal/handwritten)
}

// unmarshalV2Into is encoding/json/v2.Unmarshal into a new T, nil without encoding/json/v2.
func unmarshalV2Into[T any]() func([]byte) error {
	if !haveJSONv2 {
		return nil
	}
	return func(b []byte) error { var v T; return unmarshalV2(b, &v) }
}

// goLine says which Go the figures were measured on, and what its encoding/json runs on.
func goLine() string {
	return fmt.Sprintf("%s %s/%s, GOMAXPROCS %d, %s", goruntime.Version(), goruntime.GOOS, goruntime.GOARCH,
		goruntime.GOMAXPROCS(0), jsonEngine())
}

// jsonEngine says what encoding/json runs on, from what it writes for an invalid UTF-8 byte:
// the escape \ufffd (its own v1 code, Go 1.26) or the character U+FFFD itself (the json/v2
// engine: Go 1.27's default, or GOEXPERIMENT=jsonv2 before).
func jsonEngine() string {
	if b, _ := json.Marshal("\xff"); string(b) == `"\ufffd"` {
		return "encoding/json v1"
	}
	return "encoding/json on the json/v2 engine"
}

var printGoOnce sync.Once

// printGoConfig prints, once a run, the Go version and what encoding/json runs on as
// benchmark configuration lines ("go: go1.27.3"), which benchstat reads as it reads goos and
// cpu.
func printGoConfig() {
	printGoOnce.Do(func() {
		fmt.Printf("go: %s\njson: %s\n", goruntime.Version(), jsonEngine())
	})
}

func payloads(t testing.TB) []payload {
	find := func(tools []runtime.Tool, name string) runtime.Tool {
		for _, tl := range tools {
			if tl.Name == name {
				return tl
			}
		}
		t.Fatalf("no tool %s", name)
		return runtime.Tool{}
	}
	return []payload{
		{"small", find(weather.Tools(), "get_weather"), func(b []byte) error { var v weather.WeatherArgs; return json.Unmarshal(b, &v) }, baselineweather.Bind, unmarshalV2Into[weather.WeatherArgs](), discard(handwritten.Weather)},
		{"medium", find(new(email.Outbox).Tools(), "send_email"), func(b []byte) error { var v email.SendEmailArgs; return json.Unmarshal(b, &v) }, baselineemail.Bind, unmarshalV2Into[email.SendEmailArgs](), discard(handwritten.Email)},
		{"large", find(new(orders.Service).Tools(), "create_order"), func(b []byte) error { var v orders.CreateOrderArgs; return json.Unmarshal(b, &v) }, baselineorders.Bind, unmarshalV2Into[orders.CreateOrderArgs](), discard(handwritten.Order)},
	}
}

// discard is decode without its value.
func discard[T any](decode func([]byte) (T, error)) func([]byte) error {
	return func(b []byte) error { _, err := decode(b); return err }
}

func readDoc(t testing.TB, name string) []byte {
	data, err := os.ReadFile(filepath.Join(benchdata, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestPayloadContracts checks that each tool accepts its valid document and rejects each
// invalid variant with a problem at the right place, so the benchmark measures real
// validation, and that the copy of the payloads matches the shared originals when present.
func TestPayloadContracts(t *testing.T) {
	ctx := context.Background()
	want := map[string]map[string]string{ // size → variant → the one problem the document has
		"small": {
			"missing":   "/city: required property is missing",
			"wrongtype": "/unit: must be a string, got 42",
			"range":     `/unit: must be one of "celsius", "fahrenheit", got "kelvin"`,
		},
		"medium": {
			"missing":   "/subject: required property is missing",
			"wrongtype": `/priority: must be an integer, got "high"`,
			"range":     "/priority: must be at most 5, got 9",
		},
		"large": {
			"missing":   "/items/12/qty: required property is missing",
			"wrongtype": `/items/10/price: must be a number, got "19.99"`,
			"range":     "/items/15/qty: must be at least 1, got 0",
		},
	}
	for _, p := range payloads(t) {
		if _, err := p.tool.BindArgs(ctx, readDoc(t, p.size+".json")); err != nil {
			t.Errorf("%s: valid document refused: %v", p.size, err)
		}
		if err := p.unmarshal(readDoc(t, p.size+".json")); err != nil {
			t.Errorf("%s: encoding/json refused the valid document: %v", p.size, err)
		}
		for variant, problem := range want[p.size] {
			_, err := p.tool.BindArgs(ctx, readDoc(t, p.size+"_"+variant+".json"))
			if err == nil || err.Error() != "invalid arguments: "+problem {
				t.Errorf("%s_%s: got %v, want a problem containing %q", p.size, variant, err, problem)
			}
		}
	}
	shared := filepath.Join("..", "..", "..", "shared", "benchdata")
	entries, err := os.ReadDir(shared)
	if err != nil {
		t.Skipf("no shared benchdata beside the repository (%v); the copy is not compared", err)
	}
	for _, e := range entries {
		orig, _ := os.ReadFile(filepath.Join(shared, e.Name()))
		copied, err := os.ReadFile(filepath.Join(benchdata, e.Name()))
		if err != nil || !bytes.Equal(orig, copied) {
			t.Errorf("testdata/benchdata/%s differs from the shared benchmark payload; copy it again", e.Name())
		}
	}
}

func BenchmarkDecode(b *testing.B) {
	printGoConfig()
	ctx := context.Background()
	for _, p := range payloads(b) {
		for _, variant := range []string{"", "_missing", "_wrongtype", "_range"} {
			data := readDoc(b, p.size+variant+".json")
			name := p.size + variant
			b.Run(name+"/toolgen", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					_, _ = p.tool.BindArgs(ctx, data)
				}
			})
			b.Run(name+"/handwritten", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					_ = p.handwritten(data)
				}
			})
			b.Run(name+"/encoding_json", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					_ = p.unmarshal(data)
				}
			})
			if p.unmarshalV2 == nil {
				continue
			}
			b.Run(name+"/encoding_json_v2", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					_ = p.unmarshalV2(data)
				}
			})
		}
	}
}

// TestReport measures each valid payload with every decoder, in -rounds rounds that take each
// decoder in turn, and prints the docs/benchmarks.md table: each decoder's best time a call,
// its ratio to encoding/json.Unmarshal in the same run and its allocations, after a line
// saying which Go measured them. Say the load (uptime) beside what it prints:
//
//	go test ./internal/benchmarks -run TestReport -report -rounds 3 -test.benchtime 200ms -v
func TestReport(t *testing.T) {
	if !*report {
		t.Skip("run with -report to measure and print the benchmark table")
	}
	ctx := context.Background()
	fmt.Printf("Go: %s; best of %d interleaved rounds\n\n", goLine(), *rounds)
	fmt.Println("| payload | bytes | decoder | time | ratio to encoding/json | allocs |")
	fmt.Println("|---|---:|---|---:|---:|---:|")
	for _, p := range payloads(t) {
		data := readDoc(t, p.size+".json")
		decoders := []struct {
			name string
			op   func()
		}{
			{"toolgen Bind (decode + validate)", func() { _, _ = p.tool.BindArgs(ctx, data) }},
			{"encoding/json.Unmarshal (decode only)", func() { _ = p.unmarshal(data) }},
		}
		if p.unmarshalV2 != nil {
			decoders = append(decoders, struct {
				name string
				op   func()
			}{"encoding/json/v2.Unmarshal (decode only)", func() { _ = p.unmarshalV2(data) }})
		}
		decoders = append(decoders, struct {
			name string
			op   func()
		}{"hand-written limit (jx, one pass, first problem only)", func() { _ = p.handwritten(data) }})
		best := make([]float64, len(decoders))
		allocs := make([]int64, len(decoders))
		for i := range best {
			best[i] = 1e18
		}
		for range *rounds {
			for i, d := range decoders {
				r := testing.Benchmark(func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						d.op()
					}
				})
				best[i] = min(best[i], float64(r.T.Nanoseconds())/float64(r.N))
				allocs[i] = r.AllocsPerOp()
			}
		}
		for i, d := range decoders {
			fmt.Printf("| %s (%s) | %d | %s | %.0f ns | %.2f× | %d |\n", p.size, p.tool.Name, len(data),
				d.name, best[i], best[i]/best[1], allocs[i])
		}
		limit := best[len(best)-1]
		fmt.Printf("| %s | | toolgen Bind / the hand-written limit | | %.2f× (goal: at most 1.1×) | |\n", p.size, best[0]/limit)
	}
}
