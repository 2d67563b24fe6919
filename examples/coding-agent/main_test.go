package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/internal/buildtest"
)

// TestAgentFixesTheBug runs the whole agent: its scripted model checks every tool result it
// relies on (grep finds Add, go test fails, the edit shows the fix, go test passes).
func TestAgentFixesTheBug(t *testing.T) {
	buildtest.Require(t, "runs go test in the sandbox, with a cold build cache")
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command:", err)
	}
	dir := t.TempDir()
	var out strings.Builder
	require.NoError(t, run(t.Context(), dir, &out), out.String())
	assert.Contains(t, out.String(), "--- FAIL: TestAdd")
	assert.Contains(t, out.String(), "(approved edit_file ")
	assert.Contains(t, out.String(), "== answer\nAdd subtracted instead of adding")
	assert.NotContains(t, out.String(), dir, "the model saw a host path")
	fixed, err := os.ReadFile(filepath.Join(dir, "calc.go"))
	require.NoError(t, err)
	assert.Contains(t, string(fixed), "return a + b")
}
