package runtime_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
)

// A handler names its toolkit's other tools as the registry holds them: renamed, under the
// new name; left out, not at all; outside a call, by the toolkit's own name.
func TestToolNameFollowsRenames(t *testing.T) {
	asks := func(ctx context.Context) runtime.Result {
		var out []string
		for _, declared := range []string{"list_dir", "glob", "grep"} {
			name, ok := runtime.ToolName(ctx, declared)
			if !ok {
				name = "-"
			}
			out = append(out, name)
		}
		return runtime.TextResult(strings.Join(out, " "))
	}
	listDir := constTool("file_list", "")
	listDir.DeclaredName = "list_dir"
	reg := newRegistry(t, runTool("file_read", asks), listDir, constTool("glob", ""))
	res := reg.Invoke(t.Context(), runtime.Call{Name: "file_read"})
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, "file_list glob -", res.Text)

	name, ok := runtime.ToolName(t.Context(), "grep")
	assert.True(t, ok)
	assert.Equal(t, "grep", name, "outside a call the toolkit's names stand")

	// A tool registered under the declared name of a renamed one is not it.
	other := constTool("list_dir", "")
	other.DeclaredName = "ls"
	name, ok = newRegistry(t, other).NameOf("list_dir")
	assert.False(t, ok, name)
}

// The note of a cut result names the result reader as registered, renamed or not.
func TestResultCapNoteNamesARenamedReader(t *testing.T) {
	big := strings.Repeat("x", runtime.DefaultMaxResult+1)
	reader := constTool("result_read", "")
	reader.DeclaredName = runtime.ReadResultTool
	reg := newRegistry(t, constTool("big", big), reader)
	res := reg.Invoke(t.Context(), runtime.Call{Name: "big", Session: "s"})
	require.NotNil(t, res.Offloaded)
	assert.Contains(t, res.Text, `call result_read with {"id":"`+res.Offloaded.ID+`"`)
	assert.NotContains(t, res.Text, "read_result")
}
