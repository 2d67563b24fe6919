package toolimpl_test

import (
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
