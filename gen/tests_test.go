package gen_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/gen"
	"github.com/toolgen-go/toolgen/internal/buildtest"
)

// testsModule holds three tool packages for the generated tests: one whose tests pass, one
// whose example's expected result is stale, one whose handler panics at a bound of its
// schema.
var testsModule = map[string]string{
	"good/good.go": `package good

import "context"

// EchoArgs are the arguments of echo.
type EchoArgs struct {
	// Text to echo.
	Text string ` + "`json:\"text\" tool:\"minLength=1,maxLength=20\"`" + `
	// Times to repeat it.
	Times int ` + "`json:\"times,omitempty\" tool:\"minimum=1,maximum=3,default=1\"`" + `
}

// Echoed is what echo returns.
type Echoed struct {
	// Text echoed.
	Text string ` + "`json:\"text\"`" + `
}

// Echo echoes its text.
//
//tool:example "Twice" {"text":"hi","times":2} => {"text":"hihi"}
func Echo(ctx context.Context, args EchoArgs) (Echoed, error) {
	out := ""
	for range args.Times {
		out += args.Text
	}
	return Echoed{Text: out}, nil
}
`,
	"stale/stale.go": `package stale

import "context"

// GreetArgs are the arguments of greet.
type GreetArgs struct {
	// Name to greet.
	Name string ` + "`json:\"name\"`" + `
}

// Greet greets someone. Its example says what it said before "Hello" became "Hi".
//
//tool:example {"name":"Ada"} => Hello, Ada
func Greet(ctx context.Context, args GreetArgs) (string, error) { return "Hi, " + args.Name, nil }
`,
	"panics/panics.go": `package panics

import "context"

// PageArgs are the arguments of page.
type PageArgs struct {
	// Page to read, from 1.
	Page int ` + "`json:\"page\" tool:\"minimum=1,maximum=50\"`" + `
}

// Page reads a page of a 49-page book.
//
//tool:hints readonly
func Page(ctx context.Context, args PageArgs) (string, error) {
	pages := make([]string, 49)
	return pages[args.Page-1], nil // page 50, the schema's maximum, is out of range
}
`,
}

// TestGeneratedTests generates with Config.Tests (toolgen -tests) into a scratch module and
// runs the generated tests with go test and a short fuzz run: they pass on good tools, fail
// naming the example's file:line on a stale expected result, and catch a handler that panics
// on a value at its schema's bound.
func TestGeneratedTests(t *testing.T) {
	buildtest.Require(t, "generates tests into a scratch module and runs them")
	root := repoRoot(t)
	dir := t.TempDir()
	files := map[string][]byte{"go.mod": []byte(goMod("example.com/gt", root))}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	files["go.sum"] = sum
	for name, src := range testsModule {
		files[name] = []byte(src)
	}
	writeFiles(t, dir, files)

	res, err := gen.Generate(context.Background(), gen.Config{Dir: dir, Patterns: []string{"./..."}, Tests: true})
	require.NoError(t, err)
	require.False(t, res.Failed(false), "diagnostics: %v", res.Diagnostics)
	var names []string
	for _, f := range res.Files {
		rel, _ := filepath.Rel(dir, f.Path)
		names = append(names, filepath.ToSlash(rel))
	}
	require.Equal(t, []string{"good/tools_gen.go", "good/tools_gen_test.go", "panics/tools_gen.go", "panics/tools_gen_test.go", "stale/tools_gen.go", "stale/tools_gen_test.go"}, names)
	_, err = res.Write()
	require.NoError(t, err)

	goTest := func(args ...string) (string, error) {
		cmd := exec.Command("go", append([]string{"test", "-count=1"}, args...)...)
		cmd.Dir = dir
		cmd.Env = os.Environ()
		for k, v := range goEnv {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	out, err := goTest("./good")
	require.NoError(t, err, out)
	out, err = goTest("-run=^$", "-fuzz=^FuzzEcho$", "-fuzztime=3000x", "./good")
	require.NoError(t, err, out)

	out, err = goTest("./stale")
	require.Error(t, err, out)
	assert.Contains(t, out, "stale.go:13: example of greet: the result differs from the example's => EXPECTED")
	assert.Contains(t, out, "-Hello, Ada\n")
	assert.Contains(t, out, "+Hi, Ada\n")

	// go test runs the seeds; page 50 is one, as the schema's maximum.
	out, err = goTest("./panics")
	require.Error(t, err, out)
	assert.Contains(t, out, "--- FAIL: FuzzPage")
	assert.Contains(t, out, "it panicked: runtime error: index out of range [49] with length 49")
	assert.True(t, strings.Contains(out, "panics.go:16"), "the stack names the handler's line:\n%s", out)
	out, err = goTest("-run=^$", "-fuzz=^FuzzPage$", "-fuzztime=3000x", "./panics")
	require.Error(t, err, out)
	assert.Contains(t, out, "it panicked")
}
