package benchmarks

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	vsBaseline = flag.Bool("baseline", false, "measure Bind against the frozen baseline decoders and print the ratios (slow)")
	rounds     = flag.Int("rounds", 6, "rounds of -baseline; the report compares medians")
	only       = flag.String("only", "", "with -baseline: measure only the documents of this size (small, medium, large)")
)

// cpuPerOp runs op n times and returns the CPU time of the process per call (user and system,
// garbage collection included): on a machine shared with other work it varies far less than
// the wall time, which counts the time other processes held the cores.
func cpuPerOp(op func(), n int) float64 {
	cpu := func() time.Duration {
		var u syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &u)
		return time.Duration(u.Utime.Nano() + u.Stime.Nano())
	}
	start := cpu()
	for range n {
		op()
	}
	return float64(cpu()-start) / float64(n)
}

// variants are the documents of each size: the valid one and one problem of each kind.
var variants = []string{"", "_missing", "_wrongtype", "_range"}

// TestBaselineAgrees holds the compact decoders to the ones they replaced: on every benchmark
// document, Bind accepts the same documents and words the same problems at the same paths.
func TestBaselineAgrees(t *testing.T) {
	ctx := context.Background()
	for _, p := range payloads(t) {
		for _, variant := range variants {
			data := readDoc(t, p.size+variant+".json")
			_, got := p.tool.BindArgs(ctx, data)
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
// benchstat: go test ./internal/benchmarks -run '^$' -bench BindVsBaseline -count 6.
func BenchmarkBindVsBaseline(b *testing.B) {
	printGoConfig()
	ctx := context.Background()
	for _, p := range payloads(b) {
		for _, variant := range variants {
			data := readDoc(b, p.size+variant+".json")
			b.Run(p.size+variant+"/toolgen", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					_, _ = p.tool.BindArgs(ctx, data)
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
// prints the median of each and their ratio per document, in wall time (testing.Benchmark)
// and in CPU time of the process per call:
//
//	go test ./internal/benchmarks -run TestBaselineReport -baseline -rounds 6 -v
func TestBaselineReport(t *testing.T) {
	if !*vsBaseline {
		t.Skip("run with -baseline to measure Bind against the frozen baseline")
	}
	ctx := context.Background()
	median := func(xs []float64) float64 {
		slices.Sort(xs)
		return xs[len(xs)/2]
	}
	fmt.Printf("Go: %s; medians of %d alternating rounds\n\n", goLine(), *rounds)
	fmt.Println("| document | Bind ns | baseline ns | ratio | Bind CPU ns | baseline CPU ns | CPU ratio | allocs Bind / baseline |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, p := range payloads(t) {
		if *only != "" && p.size != *only {
			continue
		}
		for _, variant := range variants {
			data := readDoc(t, p.size+variant+".json")
			bind := func() { _, _ = p.tool.BindArgs(ctx, data) }
			base := func() { _, _ = p.baseline(data) }
			var gen, ref, genCPU, refCPU []float64
			var genAllocs, refAllocs int64
			for range *rounds {
				g := testing.Benchmark(func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						bind()
					}
				})
				r := testing.Benchmark(func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						base()
					}
				})
				gen = append(gen, float64(g.T.Nanoseconds())/float64(g.N))
				ref = append(ref, float64(r.T.Nanoseconds())/float64(r.N))
				genAllocs, refAllocs = g.AllocsPerOp(), r.AllocsPerOp()
				n := max(g.N/4, 1)
				genCPU = append(genCPU, cpuPerOp(bind, n))
				refCPU = append(refCPU, cpuPerOp(base, n))
			}
			mg, mr, cg, cr := median(gen), median(ref), median(genCPU), median(refCPU)
			fmt.Printf("| %s | %.0f | %.0f | %.3f | %.0f | %.0f | %.3f | %d / %d |\n",
				p.size+variant, mg, mr, mg/mr, cg, cr, cg/cr, genAllocs, refAllocs)
		}
	}
}
