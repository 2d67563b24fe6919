// Package benchmarks measures the generated decoders of the example tools against
// encoding/json.Unmarshal into the same structs, on the argument documents of
// testdata/benchdata (a copy of the shared benchmark payloads, so every figure compares with
// the reference implementations measured on them).
//
//	go test ./examples/benchmarks -run '^$' -bench .          # raw figures
//	go test ./examples/benchmarks -run TestReport -report     # the README table, with ratios
//
// The generated side is Tool.Bind, the path every call takes: decode, validate every
// constraint, and allocate the bound call (json.Unmarshal allocates its destination too).
// encoding/json validates nothing.
package benchmarks

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	baselineemail "github.com/toolgen-go/toolgen/examples/benchmarks/internal/baseline/email"
	baselineorders "github.com/toolgen-go/toolgen/examples/benchmarks/internal/baseline/orders"
	baselineweather "github.com/toolgen-go/toolgen/examples/benchmarks/internal/baseline/weather"
	"github.com/toolgen-go/toolgen/examples/email/email"
	"github.com/toolgen-go/toolgen/examples/orders/orders"
	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
)

var report = flag.Bool("report", false, "print the benchmark table of the README (slow)")

const benchdata = "../../testdata/benchdata"

// payload is one size of the benchmark: the tool that decodes it and a plain unmarshal into
// the same args type.
type payload struct {
	size      string
	tool      runtime.Tool
	unmarshal func([]byte) error
	baseline  func([]byte) (any, error) // Bind with the decoder generated before it was compact
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
		{"small", find(weather.Tools(), "get_weather"), func(b []byte) error { var v weather.WeatherArgs; return json.Unmarshal(b, &v) }, baselineweather.Bind},
		{"medium", find(email.OutboxTools(&email.Outbox{}), "send_email"), func(b []byte) error { var v email.SendEmailArgs; return json.Unmarshal(b, &v) }, baselineemail.Bind},
		{"large", find(orders.ServiceTools(&orders.Service{}), "create_order"), func(b []byte) error { var v orders.CreateOrderArgs; return json.Unmarshal(b, &v) }, baselineorders.Bind},
	}
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
			b.Run(name+"/encoding_json", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					_ = p.unmarshal(data)
				}
			})
		}
	}
}

// TestReport measures each valid payload with both decoders in this one run and prints the
// README's table: time and allocations, and the ratio to encoding/json.
func TestReport(t *testing.T) {
	if !*report {
		t.Skip("run with -report to measure and print the benchmark table")
	}
	ctx := context.Background()
	fmt.Println("| payload | bytes | toolgen (decode + validate) | encoding/json (decode only) | ratio | allocs toolgen / json |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, p := range payloads(t) {
		data := readDoc(t, p.size+".json")
		gen := testing.Benchmark(func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = p.tool.BindArgs(ctx, data)
			}
		})
		std := testing.Benchmark(func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = p.unmarshal(data)
			}
		})
		ratio := float64(gen.NsPerOp()) / float64(std.NsPerOp())
		fmt.Printf("| %s (%s) | %d | %d ns | %d ns | %.2f× | %d / %d |\n", p.size, p.tool.Name, len(data),
			gen.NsPerOp(), std.NsPerOp(), ratio, gen.AllocsPerOp(), std.AllocsPerOp())
	}
}
