package mcp

import (
	"fmt"
	"testing"
)

// BenchmarkOpenRoundState opens a state while many nonces are spent and live: the cost of an
// answer does not grow with them. Run with a fixed count, so that the set grows by as little
// as possible during the run:
//
//	go test -run '^$' -bench OpenRoundState -benchtime 2000x ./runtime/mcp
func BenchmarkOpenRoundState(b *testing.B) {
	for _, spent := range []int{100, 20_000} {
		b.Run(fmt.Sprintf("spent=%d", spent), func(b *testing.B) {
			s := newRoundStates(nil)
			for range spent {
				if _, err := s.open(s.sign(roundState{Tool: "t", Scope: "u"}), "t", "u"); err != nil {
					b.Fatal(err)
				}
			}
			tokens := make([]string, b.N)
			for i := range tokens {
				tokens[i] = s.sign(roundState{Tool: "t", Scope: "u"})
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if _, err := s.open(tokens[i], "t", "u"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
