//go:build race

package benchmarks

// raceEnabled is set when the tests run under the race detector, which drops pooled values at
// random and so changes allocation counts.
const raceEnabled = true
