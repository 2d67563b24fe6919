package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// weatherPackage has a structured result and a method tool, so that a stale signature breaks
// generated code in several places: Run, the result encoder and the guard.
const weatherPackage = `package m

import "context"

// Args are the arguments.
type Args struct {
	// City to look up.
	City string ` + "`json:\"city\"`" + `
}

// Weather is a report.
type Weather struct {
	// Temperature in degrees.
	Temperature float64 ` + "`json:\"temperature\"`" + `
}

// GetWeather gets the weather.
//
//tool:name get_weather
func GetWeather(ctx context.Context, args Args) (Weather, error) { return Weather{}, nil }

// Station is a weather station.
type Station struct{}

// Ping pings the station.
//
//tool:name ping
func (s *Station) Ping(ctx context.Context, args Args) (string, error) { return "pong", nil }
`

// A handler whose result type changed after generating: the first error of a real go build
// says, in the guard's name, to run go generate.
func TestStaleSignatureFirstBuildError(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	dir := newModule(t, map[string]string{"weather.go": weatherPackage})
	code, _, stderr := toolgen(t)
	require.Equal(t, exitOK, code, stderr)

	for name, edit := range map[string][2]string{
		"result type": {"(Weather, error) { return Weather{}, nil }", "(string, error) { return \"\", nil }"},
		"args type":   {"func (s *Station) Ping(ctx context.Context, args Args)", "func (s *Station) Ping(ctx context.Context, args *Args)"},
		"no context":  {"func GetWeather(ctx context.Context, args Args)", "func GetWeather(args Args)"},
	} {
		t.Run(name, func(t *testing.T) {
			changed := strings.Replace(weatherPackage, edit[0], edit[1], 1)
			require.NotEqual(t, weatherPackage, changed)
			require.NoError(t, os.WriteFile(filepath.Join(dir, "weather.go"), []byte(changed), 0o644))
			cmd := exec.Command("go", "build", "./...")
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			require.Error(t, err, "the stale package built")
			var first string
			for line := range strings.Lines(string(out)) {
				if !strings.HasPrefix(line, "#") {
					first = line
					break
				}
			}
			assert.Contains(t, first, "tools_gen.go:", "the first error is in the generated file:\n%s", out)
			assert.Contains(t, first, "in argument to toolgenHandlerChangedRunGoGenerate", "the first error is the guard's:\n%s", out)
		})
	}
}

// checkDiffIsReadable fails unless a -check diff of a one-keyword change shows JSON one value
// a line: short changed lines (the schemas, their variants, the decoder), not whole schemas.
func checkDiffIsReadable(t *testing.T, diff string) {
	t.Helper()
	var changed []string
	for line := range strings.Lines(diff) {
		if (strings.HasPrefix(line, "+") || strings.HasPrefix(line, "-")) && !strings.HasPrefix(line, "+++") && !strings.HasPrefix(line, "---") {
			changed = append(changed, line)
			assert.Less(t, len(line), 120, "a changed line of the diff is long: %q", line)
		}
	}
	assert.NotEmpty(t, changed)
	assert.LessOrEqual(t, len(changed), 24, "diff:\n%s", diff)
}

// The README's quick start generates the bundled examples: it prints nothing, warnings
// included, and -strict passes.
func TestExamplesGenerateWithoutWarnings(t *testing.T) {
	code, stdout, stderr := toolgen(t, "-check", "-strict", "../../examples/...")
	assert.Equal(t, exitOK, code)
	assert.Empty(t, stdout, "the examples' generated files are stale")
	assert.Empty(t, stderr)
}
