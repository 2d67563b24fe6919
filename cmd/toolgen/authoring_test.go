package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/internal/buildtest"
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
			first := firstBuildError(t, dir)
			assertGuardError(t, first, "StationPing", "GetWeather")
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
	buildtest.Require(t, "loads every example package")
	code, stdout, stderr := toolgen(t, "-check", "-strict", "../../examples/...")
	assert.Equal(t, exitOK, code)
	assert.Empty(t, stdout, "the examples' generated files are stale")
	assert.Empty(t, stderr)
}

// Paths in diagnostics are relative to the directory toolgen runs in, also above it (../),
// as the go command prints them; a problem that is not at a position has no "-:" in front;
// -v says when there are no tools.
func TestPathsAndQuietCases(t *testing.T) {
	dir := newModule(t, pathsModule())
	t.Chdir(filepath.Join(dir, "sub"))

	code, _, stderr := toolgen(t, "../tools")
	assert.Equal(t, exitUser, code)
	assert.Equal(t, `../tools/t.go:8:27: unknown tag key "minLenght"; did you mean minLength?
../tools/t.go:19:6: duplicate tool name "find"
	hint: ../tools/t.go:14:6 already declares it; tool names must be unique within a package (one Tools() catalog): rename one with //tool:name
`, stderr)

	code, _, stderr = toolgen(t, "./empty")
	assert.Equal(t, exitUser, code)
	assert.Equal(t, "toolgen: no Go files in empty\n", stderr)

	code, _, stderr = toolgen(t, "-v", "./plain")
	assert.Equal(t, exitOK, code)
	assert.Equal(t, "toolgen: no tools in ./plain: no func, method or type has a //tool: directive in its doc comment\n", stderr)

	code, _, stderr = toolgen(t, "./plain")
	assert.Equal(t, exitOK, code)
	assert.Empty(t, stderr, "quiet without -v outside go generate")

	// Run by go generate in a package without tools: the handler's directive is missing.
	t.Chdir("plain")
	t.Setenv("GOFILE", "p.go")
	t.Setenv("GOPACKAGE", "plain")
	code, _, stderr = toolgen(t)
	assert.Equal(t, exitOK, code)
	assert.Equal(t, "toolgen: no tools in plain: no func, method or type has a //tool: directive in its doc comment\n", stderr)
}

// Run by go generate, toolgen's directory is the package's, not the one the user ran the
// command in (go generate ./... from the module root, usually): paths are relative to the
// module root, as go vet ./... prints them from there, so that the lines of the packages one
// run generates say which package they are about.
func TestPathsUnderGoGenerateAreRelativeToTheModule(t *testing.T) {
	dir := newModule(t, pathsModule())
	t.Chdir(filepath.Join(dir, "tools"))
	t.Setenv("GOFILE", "t.go")
	t.Setenv("GOPACKAGE", "tools")

	code, _, stderr := toolgen(t)
	assert.Equal(t, exitUser, code)
	assert.Equal(t, `tools/t.go:8:27: unknown tag key "minLenght"; did you mean minLength?
tools/t.go:19:6: duplicate tool name "find"
	hint: tools/t.go:14:6 already declares it; tool names must be unique within a package (one Tools() catalog): rename one with //tool:name
`, stderr)
}

// pathsModule is a module with a package of tools that has two problems, one quoting another
// position, a package without tools and a directory without Go files.
func pathsModule() map[string]string {
	return map[string]string{
		"tools/t.go": `package tools

import "context"

// Args are arguments.
type Args struct {
	// Q is a query.
	Q string ` + "`json:\"q\" tool:\"minLenght=1\"`" + `
}

// Find finds.
//
//tool:name find
func Find(ctx context.Context, args Args) (string, error) { return "", nil }

// Search searches.
//
//tool:name find
func Search(ctx context.Context, args Args) (string, error) { return "", nil }
`,
		"sub/plain/p.go":   "package plain\n",
		"sub/empty/README": "nothing here\n",
	}
}

// forecastPackage has a named type of basic kind, a nested struct and tags toolgen reads, so
// that every kind of change to a type breaks the stale-type guard.
const forecastPackage = `package m

import "context"

// Unit is a temperature unit.
type Unit string

// Day is one day of a forecast.
type Day struct {
	// High is the day's highest temperature.
	High float64 ` + "`json:\"high\"`" + `
}

// Args are the arguments.
type Args struct {
	// City to look up.
	City string ` + "`json:\"city\"`" + `
	// Unit of the temperatures.
	Unit Unit ` + "`json:\"unit,omitempty\"`" + `
	// Days to forecast.
	Days int ` + "`json:\"days,omitempty\" tool:\"maximum=7\"`" + `
}

// Forecast is a forecast.
type Forecast struct {
	// Days of the forecast.
	Days []Day ` + "`json:\"days\"`" + `
}

// GetForecast gets a forecast.
//
//tool:name get_forecast
func GetForecast(ctx context.Context, args Args) (Forecast, error) { return Forecast{}, nil }
`

// A type changed after generating, in any way that makes the decoder tables or the schema
// stale, fails the build, and the first error is the guard's, which says to run go generate:
// the tables write at offsets of the type as compiled, so a retyped field would otherwise be
// written as its old type.
func TestStaleTypeFirstBuildError(t *testing.T) {
	buildtest.Require(t, "runs toolgen and go build in a scratch module")
	dir := newModule(t, map[string]string{"m.go": forecastPackage})
	code, _, stderr := toolgen(t)
	require.Equal(t, exitOK, code, stderr)

	days := "Days int `json:\"days,omitempty\" tool:\"maximum=7\"`"
	for name, edit := range map[string][3]string{
		"field added":      {days, days + "\n\tHours int `json:\"hours\"`", "Args"},
		"field removed":    {days, "", "Args"},
		"field retyped":    {days, strings.Replace(days, "int", "int8", 1), "Args"},
		"fields moved":     {"\t// City to look up.\n\tCity string `json:\"city\"`\n", "", "Args"},
		"tag changed":      {days, strings.Replace(days, "maximum=7", "maximum=8", 1), "Args"},
		"unexported added": {days, days + "\n\tcache map[string]int", "Args"},
		"nested retyped":   {"High float64", "High float32", "Day"},
		"basic kind":       {"type Unit string", "type Unit int", "Unit"},
	} {
		t.Run(name, func(t *testing.T) {
			changed := strings.Replace(forecastPackage, edit[0], edit[1], 1)
			if name == "fields moved" { // City goes last
				changed = strings.Replace(changed, days, days+"\n\t"+"City string `json:\"city\"`", 1)
			}
			require.NotEqual(t, forecastPackage, changed)
			require.NoError(t, os.WriteFile(filepath.Join(dir, "m.go"), []byte(changed), 0o644))
			first := firstBuildError(t, dir)
			assertGuardError(t, first, edit[2])
		})
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "m.go"), []byte(forecastPackage), 0o644))
	cmd := exec.Command("go", "build", "./...")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "the unchanged package builds:\n%s", out)
}

// assertGuardError checks that the first build error of a stale package is the guard's, at a
// position in the generated file, that its message starts with what to run and names what
// changed (one of names), and that it is short: the advice was at the end of a line of 200
// characters and more when the guard was an ordinary parameter, whose types (a whole struct
// with its tags, twice) were printed before it.
func assertGuardError(t *testing.T, first string, names ...string) {
	t.Helper()
	pos, msg, ok := strings.Cut(first, ": ")
	require.True(t, ok, first)
	assert.Contains(t, pos, "tools_gen.go:", "the first error is in the generated file")
	assert.True(t, strings.HasPrefix(msg, "in call to runGoGenerate_toolgen, "), "the first error leads with the advice: %s", first)
	assert.True(t, slices.ContainsFunc(names, func(n string) bool {
		return strings.Contains(msg, ", "+n+" (type ") && strings.Contains(msg, "does not satisfy toolgenSaw"+n)
	}), "the first error names what changed, one of %v: %s", names, first)
	// Less what the compiler prints of the handler or type now, which is the user's own.
	if i, j := strings.Index(first, " (type "), strings.LastIndex(first, ") does not satisfy"); i >= 0 && j > i {
		assert.Less(t, len(first)-(j+1-i), 120, first)
	}
}

// firstBuildError builds the module in dir, which must fail, and returns its first error line.
func firstBuildError(t *testing.T, dir string) string {
	t.Helper()
	cmd := exec.Command("go", "build", "./...")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "the stale package built")
	for line := range strings.Lines(string(out)) {
		if !strings.HasPrefix(line, "#") {
			return line
		}
	}
	t.Fatalf("no error line in:\n%s", out)
	return ""
}
