package schema_test

import (
	"encoding/base64"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/gen/schema"
)

// TestDurationPattern checks the pattern against time.ParseDuration itself: on a corpus of
// edge cases, on every string of up to four symbols from an alphabet of digits, signs, points
// and unit letters, and on random strings of five to seven symbols (short enough that no
// value overflows).
func TestDurationPattern(t *testing.T) {
	re := regexp.MustCompile(schema.DurationPattern)
	agree := func(s string) {
		_, err := time.ParseDuration(s)
		if re.MatchString(s) != (err == nil) {
			t.Errorf("%q: pattern matches = %v, ParseDuration error = %v", s, re.MatchString(s), err)
		}
	}
	corpus := []string{
		"", "0", "+0", "-0", "00", "0.0", "1h30m", "1h30m45s", "-1.5h", "+2ms", "1.s", ".5s", ".s", "1", "1d",
		"1us", "1µs", "1μs", "1ns", "1ms", "1m", "1h", "1hs", "1h1", "1h.5m", "1.5.5s", "2h45m0.5s", "1H",
		" 1s", "1s ", "1 s", "--1s", "+-1s", "1e3s", "0x10s", "1_000s", "١s", "1S", "100000h", "1.000000000001s",
	}
	for _, s := range corpus {
		agree(s)
	}
	alphabet := []string{"0", "1", "9", ".", "+", "-", "n", "u", "µ", "μ", "m", "s", "h", "x"}
	var walk func(prefix string, depth int)
	walk = func(prefix string, depth int) {
		agree(prefix)
		if depth == 0 {
			return
		}
		for _, a := range alphabet {
			walk(prefix+a, depth-1)
		}
	}
	walk("", 4)
	rng := rand.New(rand.NewPCG(1, 2)) // fixed seed: a failure must reproduce
	for range 50000 {
		var b strings.Builder
		for range 5 + rng.IntN(3) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		agree(b.String())
	}
}

// TestDurationPatternOverflow documents the one difference: syntax is all a pattern checks,
// so a duration too large for int64 nanoseconds matches; the generated decoder rejects it.
func TestDurationPatternOverflow(t *testing.T) {
	const huge = "9999999999h"
	if _, err := time.ParseDuration(huge); err == nil {
		t.Fatalf("ParseDuration(%q) succeeded; the overflow case needs a new example", huge)
	}
	if !regexp.MustCompile(schema.DurationPattern).MatchString(huge) {
		t.Errorf("pattern rejects %q; update the DurationPattern doc", huge)
	}
}

// TestBase64Pattern checks the pattern against encoding/base64.StdEncoding, which
// encoding/json uses for []byte.
func TestBase64Pattern(t *testing.T) {
	re := regexp.MustCompile(schema.Base64Pattern)
	alphabet := []string{"A", "z", "0", "+", "/", "=", "-", "_", " "}
	var walk func(prefix string, depth int)
	walk = func(prefix string, depth int) {
		_, err := base64.StdEncoding.DecodeString(prefix)
		// StdEncoding skips \r and \n, which the pattern rejects (see Base64Pattern); the
		// alphabet leaves them out, and on everything else the two must agree.
		if re.MatchString(prefix) != (err == nil) {
			t.Errorf("%q: pattern matches = %v, base64 error = %v", prefix, re.MatchString(prefix), err)
		}
		if depth == 0 {
			return
		}
		for _, a := range alphabet {
			walk(prefix+a, depth-1)
		}
	}
	walk("", 5)
	for _, s := range []string{"aGVsbG8gd29ybGQ=", strings.Repeat("QUJD", 50)} {
		if !re.MatchString(s) {
			t.Errorf("pattern rejects %q", s)
		}
	}
}
