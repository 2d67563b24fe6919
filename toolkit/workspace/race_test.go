//go:build race

package workspace_test

// raceEnabled is set when the tests run under the race detector, which drops pooled values at
// random (regexp's matchers among them), so allocation counts do not hold there.
const raceEnabled = true
