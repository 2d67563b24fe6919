package workspace_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
	"github.com/toolgen-go/toolgen/toolkit/workspace"
)

// generous is how long a search that is meant to return at once may take before a test
// calls it stuck: far more than the work takes on a loaded machine, far less than what the
// unbounded code took (minutes to days).
const generous = 20 * time.Second

// returns runs f on a goroutine and reports whether it returned within generous. A failing
// f is left running: the unbounded code cannot be stopped, which is the bug.
func returns(t *testing.T, f func()) bool {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
		return true
	case <-time.After(generous):
		return false
	}
}

// TestGlobBracesAreNotExpanded: a pattern of k empty alternatives ({,}{,}…) cost 2^k per
// file name, uninterruptibly (82 bytes kept a core busy 10 s after the call's deadline);
// glob and grep's glob now match it in time linear in the name and pattern.
func TestGlobBracesAreNotExpanded(t *testing.T) {
	sb := sandbox.NewMemory(map[string]string{"a/b.go": "package b\n", "c.txt": "x\n"})
	w := workspace.New(sb)
	hostile := strings.Repeat("{,}", 300) + "x" // 2^300 expansions
	var out string
	var err error
	require.True(t, returns(t, func() {
		out, err = w.Glob(t.Context(), workspace.GlobArgs{Pattern: hostile, Path: "."})
	}), "glob with %d brace groups did not return", 300)
	require.NoError(t, err)
	assert.Equal(t, "[no files match "+hostile+"]", out)

	require.True(t, returns(t, func() {
		out, err = w.Glob(t.Context(), workspace.GlobArgs{Pattern: strings.Repeat("{,}", 300) + "**/*.go", Path: "."})
	}))
	require.NoError(t, err)
	assert.Contains(t, out, "a/b.go\n")

	require.True(t, returns(t, func() {
		out, err = w.Grep(t.Context(), workspace.GrepArgs{Pattern: "x", Glob: hostile, Path: ".", MaxResults: 10})
	}), "grep's glob with %d brace groups did not return", 300)
	require.NoError(t, err)
	assert.Equal(t, "[no lines match x]", out)

	require.True(t, returns(t, func() {
		out, err = w.Grep(t.Context(), workspace.GrepArgs{Pattern: "x", Glob: strings.Repeat("{,}", 300) + "*.txt", Path: ".", MaxResults: 10})
	}))
	require.NoError(t, err)
	assert.Contains(t, out, "c.txt:1: x\n")
}

// TestGlobStarsArePolynomial: many * and ** against a long, deep name that almost matches
// cost at most the name times the pattern.
func TestGlobStarsArePolynomial(t *testing.T) {
	deep := strings.Repeat("a/", 120) + strings.Repeat("a", 200)
	sb := sandbox.NewMemory(map[string]string{deep: "x\n"})
	w := workspace.New(sb)
	for _, pattern := range []string{
		strings.Repeat("*a", 100) + "b",
		strings.Repeat("**/a", 100) + "b",
		strings.Repeat("**/*a*", 60) + "b",
		strings.Repeat("{a,*,**/}", 100) + "b",
	} {
		var out string
		var err error
		require.True(t, returns(t, func() {
			out, err = w.Glob(t.Context(), workspace.GlobArgs{Pattern: pattern, Path: "."})
		}), pattern)
		require.NoError(t, err)
		assert.Equal(t, "[no files match "+pattern+"]", out)
	}
}

// TestGlobTooComplex: a pattern deeper than RE2 nests is refused with a message the model
// can act on (the schema's 1024 bytes keep a call below it; a Go caller may not be).
func TestGlobTooComplex(t *testing.T) {
	w := workspace.New(sandbox.NewMemory(map[string]string{"a": ""}))
	deep := strings.Repeat("{a,b", 1100) + strings.Repeat("}", 1100)
	_, err := w.Glob(t.Context(), workspace.GlobArgs{Pattern: deep, Path: "."})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "too complex to match")
	assert.Contains(t, err.Error(), "use fewer braces or nest them less")
	assert.Less(t, len(err.Error()), 400, "the message repeats the whole pattern")
}
