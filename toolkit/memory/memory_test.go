package memory_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/memory"
)

func setup(t testing.TB, k *memory.Toolkit) (*runtime.Registry, string) {
	t.Helper()
	dir := t.TempDir()
	opened, err := memory.Open(dir)
	require.NoError(t, err)
	t.Cleanup(func() { _ = opened.Close() })
	if k != nil {
		opened.Scope, opened.MaxFileSize, opened.MaxTotalSize, opened.MaxFiles = k.Scope, k.MaxFileSize, k.MaxTotalSize, k.MaxFiles
	}
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(opened.Tools()...))
	return reg, dir
}

func call(t *testing.T, reg *runtime.Registry, session, name, args string) runtime.Result {
	t.Helper()
	return reg.Invoke(t.Context(), runtime.Call{ID: "c", Name: name, Args: []byte(args), Session: session})
}

func ok(t *testing.T, reg *runtime.Registry, name, args string) string {
	t.Helper()
	res := call(t, reg, "s1", name, args)
	require.False(t, res.IsError, "%s %s: %s", name, args, res.Text)
	return res.Text
}

func TestCommands(t *testing.T) {
	reg, _ := setup(t, nil)
	assert.Equal(t, "/memories is empty: nothing has been recorded yet.", ok(t, reg, "memory_view", `{"path":"/memories"}`))
	ok(t, reg, "memory_create", `{"path":"/memories/progress.md","file_text":"- [ ] one\n- [ ] two\n"}`)
	ok(t, reg, "memory_str_replace", `{"path":"/memories/progress.md","old_str":"- [ ] one","new_str":"- [x] one"}`)
	ok(t, reg, "memory_insert", `{"path":"progress.md","insert_line":0,"insert_text":"# Task"}`)
	ok(t, reg, "memory_insert", `{"path":"progress.md","insert_line":3,"insert_text":"- [ ] three"}`)
	assert.Equal(t, "     1\t# Task\n     2\t- [x] one\n     3\t- [ ] two\n     4\t- [ ] three\n",
		ok(t, reg, "memory_view", `{"path":"/memories/progress.md"}`))
	assert.Equal(t, "     2\t- [x] one\n     3\t- [ ] two\n", ok(t, reg, "memory_view", `{"path":"/memories/progress.md","view_range":[2,3]}`))
	assert.Equal(t, "     4\t- [ ] three\n", ok(t, reg, "memory_view", `{"path":"/memories/progress.md","view_range":[4,-1]}`))

	ok(t, reg, "memory_rename", `{"old_path":"/memories/progress.md","new_path":"/memories/task/progress.md"}`)
	assert.Equal(t, "The files and directories up to 2 levels deep in /memories, with sizes:\n-\t/memories/\n-\t/memories/task/\n39B\t/memories/task/progress.md\n",
		ok(t, reg, "memory_view", `{"path":"/memories"}`))
	ok(t, reg, "memory_delete", `{"path":"/memories/task"}`)
	assert.Contains(t, ok(t, reg, "memory_view", `{"path":"/memories"}`), "is empty")
}

func TestScopes(t *testing.T) {
	reg, dir := setup(t, nil)
	ok(t, reg, "memory_create", `{"path":"/memories/a.md","file_text":"session one"}`)
	other := call(t, reg, "s2", "memory_view", `{"path":"/memories/a.md"}`)
	require.True(t, other.IsError, "another session sees nothing of s1's memory")
	assert.Equal(t, runtime.KindNotFound, other.Kind)
	assert.Contains(t, other.Text, "/memories/a.md does not exist")

	none := call(t, reg, "", "memory_view", `{"path":"/memories"}`)
	require.True(t, none.IsError)
	assert.Contains(t, none.Text, "has no session")

	data, err := os.ReadFile(filepath.Join(dir, "s1", "a.md"))
	require.NoError(t, err)
	assert.Equal(t, "session one", string(data))

	// A per-user scope with a key that is no file name is hashed, never used as a path.
	byUser, dir := setup(t, &memory.Toolkit{Scope: func(context.Context) (string, error) { return "../alice@example.com", nil }})
	ok(t, byUser, "memory_create", `{"path":"/memories/a.md","file_text":"x"}`)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	assert.True(t, strings.HasPrefix(entries[0].Name(), "h-"), entries[0].Name())
}

func TestRefusals(t *testing.T) {
	reg, dir := setup(t, &memory.Toolkit{MaxFileSize: 100, MaxTotalSize: 250, MaxFiles: 3})
	ok(t, reg, "memory_create", `{"path":"/memories/a.md","file_text":"alpha alpha\n"}`)
	require.NoError(t, os.Symlink("/etc", filepath.Join(dir, "s1", "etc")))
	require.NoError(t, os.Symlink("../s2", filepath.Join(dir, "s1", "other")))
	require.NoError(t, os.Symlink("a.md", filepath.Join(dir, "s1", "link.md")))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "s2"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "s2", "secret.md"), []byte("s2's"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "s1", "big.md"), []byte(strings.Repeat("x", 101)), 0o600))

	tests := []struct {
		name, tool, args string
		kind             runtime.ErrorKind
		text             string
	}{
		{"climbing out", "memory_view", `{"path":"/memories/../s2/secret.md"}`, runtime.KindPermission, "outside the memory directory"},
		{"relative climb", "memory_create", `{"path":"../s2/x.md","file_text":"x"}`, runtime.KindPermission, "outside the memory directory"},
		{"absolute", "memory_view", `{"path":"/etc/passwd"}`, runtime.KindPermission, "outside the memory directory"},
		{"link out of the directory", "memory_view", `{"path":"/memories/etc/passwd"}`, runtime.KindPermission, "leads outside"},
		{"link into another scope", "memory_view", `{"path":"/memories/other/secret.md"}`, runtime.KindPermission, "leads outside"},
		{"write through a link out", "memory_create", `{"path":"/memories/other/new.md","file_text":"x"}`, runtime.KindPermission, "leads outside"},
		{"a link itself", "memory_view", `{"path":"/memories/link.md"}`, runtime.KindPermission, "not a regular file"},
		{"edit through a link", "memory_str_replace", `{"path":"/memories/link.md","old_str":"alpha","new_str":"b"}`, runtime.KindPermission, "not a regular file"},
		{"dot name", "memory_create", `{"path":"/memories/.write-x","file_text":"x"}`, runtime.KindInvalidInput, "reserved"},
		{"NUL", "memory_create", `{"path":"/memories/a\u0000b","file_text":"x"}`, runtime.KindPermission, "outside"},
		{"oversized file to read", "memory_view", `{"path":"/memories/big.md"}`, runtime.KindLimit, "over the limit of 100 bytes"},
		{"oversized write", "memory_create", `{"path":"/memories/b.md","file_text":"` + strings.Repeat("y", 101) + `"}`, runtime.KindLimit, "would be 101 bytes"},
		{"too many files", "memory_create", `{"path":"/memories/c.md","file_text":"c"}`, runtime.KindLimit, "at most 3 files"},
		{"str_replace twice", "memory_str_replace", `{"path":"/memories/a.md","old_str":"alpha","new_str":"b"}`, runtime.KindInvalidInput, "occurs 2 times"},
		{"str_replace absent", "memory_str_replace", `{"path":"/memories/a.md","old_str":"beta","new_str":"b"}`, runtime.KindInvalidInput, "does not occur"},
		{"str_replace missing file", "memory_str_replace", `{"path":"/memories/none.md","old_str":"a","new_str":"b"}`, runtime.KindNotFound, "memory_create"},
		{"insert past the end", "memory_insert", `{"path":"/memories/a.md","insert_line":5,"insert_text":"x"}`, runtime.KindInvalidInput, "past the end"},
		{"bad range", "memory_view", `{"path":"/memories/a.md","view_range":[2,1]}`, runtime.KindInvalidInput, "view_range"},
		{"delete the root", "memory_delete", `{"path":"/memories"}`, runtime.KindInvalidInput, "cannot be deleted"},
		{"delete missing", "memory_delete", `{"path":"/memories/none.md"}`, runtime.KindNotFound, "does not exist"},
		{"rename onto a file", "memory_rename", `{"old_path":"/memories/a.md","new_path":"/memories/big.md"}`, runtime.KindInvalidInput, "already exists"},
		{"rename into itself", "memory_rename", `{"old_path":"/memories/d","new_path":"/memories/d/e"}`, runtime.KindInvalidInput, "into itself"},
		{"delete through a link", "memory_delete", `{"path":"/memories/other/secret.md"}`, runtime.KindPermission, "leads outside"},
		{"rename through a link", "memory_rename", `{"old_path":"/memories/a.md","new_path":"/memories/other/a.md"}`, runtime.KindPermission, "leads outside"},
		{"rename out of a link", "memory_rename", `{"old_path":"/memories/other/secret.md","new_path":"/memories/stolen.md"}`, runtime.KindPermission, "leads outside"},
		{"a file as a directory", "memory_create", `{"path":"/memories/a.md/b.md","file_text":"x"}`, runtime.KindInvalidInput, "a file is in the way"},
		{"create the root", "memory_create", `{"path":"/memories","file_text":"x"}`, runtime.KindInvalidInput, "directory itself"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, reg, "s1", tt.tool, tt.args)
			require.True(t, res.IsError, res.Text)
			assert.Equal(t, tt.kind, res.Kind, res.Text)
			assert.Contains(t, res.Text, tt.text)
			assert.NotContains(t, res.Text, dir, "no host path reaches the model")
		})
	}
	// Deleting a link deletes the link, not what it points to.
	ok(t, reg, "memory_delete", `{"path":"/memories/other"}`)
	data, err := os.ReadFile(filepath.Join(dir, "s2", "secret.md"))
	require.NoError(t, err)
	assert.Equal(t, "s2's", string(data), "nothing reached another scope")
	_, err = os.Stat(filepath.Join(dir, "s2", "new.md"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

func TestTotalSize(t *testing.T) {
	reg, _ := setup(t, &memory.Toolkit{MaxFileSize: 100, MaxTotalSize: 150})
	ok(t, reg, "memory_create", `{"path":"a.md","file_text":"`+strings.Repeat("a", 100)+`"}`)
	res := call(t, reg, "s1", "memory_create", `{"path":"b.md","file_text":"`+strings.Repeat("b", 60)+`"}`)
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, "at most 150 bytes in all")
	// Replacing a file counts its new size, not both.
	ok(t, reg, "memory_create", `{"path":"a.md","file_text":"`+strings.Repeat("a", 90)+`"}`)
	ok(t, reg, "memory_create", `{"path":"b.md","file_text":"`+strings.Repeat("b", 60)+`"}`)
}

func TestViewOfManyShortLinesIsBounded(t *testing.T) {
	reg, _ := setup(t, &memory.Toolkit{MaxFileSize: 1 << 20})
	ok(t, reg, "memory_create", `{"path":"lines.md","file_text":"`+strings.Repeat(`\n`, 100000)+`"}`)
	text := ok(t, reg, "memory_view", `{"path":"lines.md"}`)
	assert.Less(t, len(text), 70<<10)
	assert.Regexp(t, `\[lines \d+-100000 not shown: view_range \[\d+, -1\] shows them\]\n$`, text)
}

func TestAnthropicShape(t *testing.T) {
	dir := t.TempDir()
	mem, err := memory.Open(dir)
	require.NoError(t, err)
	t.Cleanup(func() { _ = mem.Close() })
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add((&memory.Anthropic{Toolkit: mem}).Tools()...))

	for _, step := range []struct{ args, want string }{
		{`{"command":"create","path":"/memories/a.md","file_text":"one\nthree\n"}`, "Wrote /memories/a.md."},
		{`{"command":"insert","path":"/memories/a.md","insert_line":1,"insert_text":"two"}`, "Inserted the text into /memories/a.md."},
		{`{"command":"str_replace","path":"/memories/a.md","old_str":"three","new_str":"3"}`, "Replaced the text in /memories/a.md."},
		{`{"command":"view","path":"/memories/a.md","view_range":[2,-1]}`, "     2\ttwo\n     3\t3\n"},
		{`{"command":"rename","old_path":"/memories/a.md","new_path":"/memories/b.md"}`, "Renamed /memories/a.md to /memories/b.md."},
		{`{"command":"delete","path":"/memories/b.md"}`, "Deleted /memories/b.md."},
	} {
		res := call(t, reg, "s1", "memory", step.args)
		require.False(t, res.IsError, "%s: %s", step.args, res.Text)
		assert.Equal(t, step.want, res.Text)
	}

	for _, bad := range []struct{ args, want string }{
		{`{"command":"str_replace","path":"/memories/a.md","new_str":"x"}`, "the str_replace command needs old_str"},
		{`{"command":"insert","path":"/memories/a.md","insert_line":0}`, "the insert command needs insert_text"},
		{`{"command":"rename","old_path":"/memories/a.md"}`, "the rename command needs new_path"},
		{`{"command":"create","file_text":"x"}`, "the create command needs path"},
		{`{"command":"format","path":"/memories"}`, "command"},
		{`{"command":"view","path":"/memories/../../etc/passwd"}`, "outside the memory directory"},
	} {
		res := call(t, reg, "s1", "memory", bad.args)
		require.True(t, res.IsError, bad.args)
		assert.Contains(t, res.Text, bad.want, bad.args)
	}
}
