package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// connect starts the server on a temporary directory and returns a client session to it.
func connect(t *testing.T, opts options) (*mcp.ClientSession, string) {
	opts.root = t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(opts.root, "hello.txt"), []byte("hello\n"), 0o644))
	server, sb, err := newServer(opts)
	require.NoError(t, err)
	t.Cleanup(func() { sb.Close() })
	serverSide, clientSide := mcp.NewInMemoryTransports()
	ss, err := server.Connect(t.Context(), serverSide, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(t.Context(), clientSide, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs, opts.root
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err)
	require.NotEmpty(t, res.Content)
	return res.Content[0].(*mcp.TextContent).Text, res.IsError
}

func TestServer(t *testing.T) {
	cs, root := connect(t, options{})
	list, err := cs.ListTools(t.Context(), nil)
	require.NoError(t, err)
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		if tool.Name == "shell" {
			assert.True(t, *tool.Annotations.DestructiveHint)
		}
	}
	assert.Equal(t, []string{"edit_file", "glob", "grep", "list_dir", "read_file", "read_result", "shell", "write_file"}, names)

	text, isErr := call(t, cs, "read_file", map[string]any{"path": "hello.txt"})
	assert.False(t, isErr)
	assert.Equal(t, "     1\thello\n[hello.txt: lines 1-1 of 1]", text)

	text, isErr = call(t, cs, "read_file", map[string]any{"path": "../../etc/passwd"})
	assert.True(t, isErr)
	assert.NotContains(t, text, root)

	// Without -yes, nothing that changes the workspace runs.
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"write_file", map[string]any{"path": "x.txt", "content": "x"}},
		{"edit_file", map[string]any{"path": "hello.txt", "old_string": "hello", "new_string": "bye"}},
		{"shell", map[string]any{"command": "touch y.txt"}},
	} {
		text, isErr := call(t, cs, c.tool, c.args)
		assert.True(t, isErr, text)
	}
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	assert.Len(t, entries, 1)
}

func TestServerYesAndAllow(t *testing.T) {
	cs, root := connect(t, options{yes: true})
	text, isErr := call(t, cs, "edit_file", map[string]any{"path": "hello.txt", "old_string": "hello", "new_string": "bye"})
	require.False(t, isErr, text)
	data, err := os.ReadFile(filepath.Join(root, "hello.txt"))
	require.NoError(t, err)
	assert.Equal(t, "bye\n", string(data))

	cs, _ = connect(t, options{allow: "ls,cat"})
	text, isErr = call(t, cs, "shell", map[string]any{"command": "cat hello.txt"})
	assert.False(t, isErr, text)
	assert.True(t, strings.HasSuffix(text, "\nhello\n"), text)
	text, isErr = call(t, cs, "shell", map[string]any{"command": "cat hello.txt; touch z"})
	assert.True(t, isErr, text)
}
