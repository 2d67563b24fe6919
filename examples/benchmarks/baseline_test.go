package benchmarks

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	vsBaseline = flag.Bool("baseline", false, "measure Bind against the frozen baseline decoders and print the ratios (slow)")
	rounds     = flag.Int("rounds", 6, "rounds of -baseline; the report compares medians")
)

// variants are the documents of each size: the valid one and one problem of each kind.
var variants = []string{"", "_missing", "_wrongtype", "_range"}

// TestBaselineAgrees holds the compact decoders to the ones they replaced: on every benchmark
// document, Bind accepts the same documents and words the same problems at the same paths.
func TestBaselineAgrees(t *testing.T) {
	ctx := context.Background()
	for _, p := range payloads(t) {
		for _, variant := range variants {
			data := readDoc(t, p.size+variant+".json")
			_, got := p.tool.Bind(ctx, data)
			_, want := p.baseline(data)
			if want == nil {
				assert.NoError(t, got, p.size+variant)
				continue
			}
			require.Error(t, got, p.size+variant)
			assert.Equal(t, want.Error(), got.Error(), p.size+variant)
		}
	}
}

// BenchmarkBindVsBaseline measures Bind and the frozen baseline on every document, for
// benchstat: go test ./examples/benchmarks -run '^$' -bench BindVsBaseline -count 6.
func BenchmarkBindVsBaseline(b *testing.B) {
	ctx := context.Background()
	for _, p := range payloads(b) {
		for _, variant := range variants {
			data := readDoc(b, p.size+variant+".json")
			b.Run(p.size+variant+"/toolgen", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					_, _ = p.tool.Bind(ctx, data)
				}
			})
			b.Run(p.size+variant+"/baseline", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					_, _ = p.baseline(data)
				}
			})
		}
	}
}

// TestBaselineReport measures Bind and the baseline alternately, -rounds times each, and
// prints the median time of each and their ratio per document:
//
//	go test ./examples/benchmarks -run TestBaselineReport -baseline -rounds 6 -v
func TestBaselineReport(t *testing.T) {
	if !*vsBaseline {
		t.Skip("run with -baseline to measure Bind against the frozen baseline")
	}
	ctx := context.Background()
	median := func(xs []float64) float64 {
		slices.Sort(xs)
		return xs[len(xs)/2]
	}
	fmt.Println("| document | Bind ns | baseline ns | ratio | allocs Bind / baseline |")
	fmt.Println("|---|---:|---:|---:|---:|")
	for _, p := range payloads(t) {
		for _, variant := range variants {
			data := readDoc(t, p.size+variant+".json")
			var gen, base []float64
			var genAllocs, baseAllocs int64
			for range *rounds {
				g := testing.Benchmark(func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						_, _ = p.tool.Bind(ctx, data)
					}
				})
				r := testing.Benchmark(func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						_, _ = p.baseline(data)
					}
				})
				gen = append(gen, float64(g.T.Nanoseconds())/float64(g.N))
				base = append(base, float64(r.T.Nanoseconds())/float64(r.N))
				genAllocs, baseAllocs = g.AllocsPerOp(), r.AllocsPerOp()
			}
			mg, mb := median(gen), median(base)
			fmt.Printf("| %s | %.0f | %.0f | %.3f | %d / %d |\n", p.size+variant, mg, mb, mg/mb, genAllocs, baseAllocs)
		}
	}
}
