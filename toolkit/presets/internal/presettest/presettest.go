// Package presettest holds what the tests of the presets share.
package presettest

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolanthropic "github.com/toolgen-go/toolgen/runtime/anthropic"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	toolopenai "github.com/toolgen-go/toolgen/runtime/openai"
)

// Names returns the tools' names, sorted.
func Names(tools []runtime.Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name
	}
	slices.Sort(out)
	return out
}

// Declarable checks that every adapter can declare the tools.
func Declarable(t *testing.T, tools []runtime.Tool) {
	t.Helper()
	_, err := toolanthropic.ToolsJSON(tools)
	require.NoError(t, err)
	_, err = toolopenai.ChatToolsJSON(tools)
	require.NoError(t, err)
	_, err = toolmcp.ToolsJSON(tools)
	require.NoError(t, err)
}
