//go:build !race

package runtime_test

import "testing"

// 10,000 calls at once at a hung tool (3,485 handlers were left running). Without -race,
// whose detector allows at most 8,128 goroutines.
func TestAbandonBoundHoldsUnderHeavyConcurrency(t *testing.T) {
	testAbandonBoundUnderConcurrency(t, 10000)
}
