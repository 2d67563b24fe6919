package toolimpl_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/internal/buildtest"
)

// Code generated for the runtime before the bindings moved here (testdata/stalev3, the weather
// example as toolgen generated it then) fails to build, and the first error, the one the go
// command prints first, names what to do.
func TestStaleGeneratedCodeSaysRunGoGenerate(t *testing.T) {
	buildtest.Require(t, "builds a package with the go command")
	out, err := exec.Command("go", "build", "./testdata/stalev3").CombinedOutput()
	require.Error(t, err, "stale generated code must not build")
	var first string
	for line := range strings.SplitSeq(string(out), "\n") {
		if !strings.HasPrefix(line, "#") && strings.TrimSpace(line) != "" {
			first = line
			break
		}
	}
	assert.Contains(t, first, "tools_gen.go:19:")
	assert.Contains(t, first, "GeneratedCodeIsStaleRunGoGenerate", "the first error says to run go generate: %s", out)
}

// The functions of decode.go stand in for runtime/decode's and runtime/encode's in generated
// code; each must be inlined at its call, or a generated encoder pays a call the code
// generated before decode.go did not (AcquireWriter is called once per tool call). The
// generic ones are inlined where they are instantiated and the compiler says so there, so
// this checks the others, which -m reports here.
func TestDecodeWrappersInline(t *testing.T) {
	buildtest.Require(t, "builds this package with the go command")
	f, err := parser.ParseFile(token.NewFileSet(), "decode.go", nil, parser.SkipObjectResolution)
	require.NoError(t, err)
	out, err := exec.Command("go", "build", "-gcflags=-m", ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	checked := 0
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Type.TypeParams != nil {
			continue
		}
		checked++
		assert.True(t, strings.Contains(string(out), ": can inline "+fn.Name.Name+"\n"), "toolimpl.%s is not inlined", fn.Name.Name)
	}
	assert.Greater(t, checked, 20, "functions checked")
}
