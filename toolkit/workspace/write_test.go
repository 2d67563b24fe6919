package workspace_test

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
	"github.com/toolgen-go/toolgen/toolkit/workspace"
)

func TestWriteAndEdit(t *testing.T) {
	sandboxes(t, map[string]string{"main.go": "package main\n\nfunc main() {\n\tprintln(\"hi\")\n\tprintln(\"hi\")\n}\n"}, func(t *testing.T, h *harness) {
		steps := []toolCase{
			{tool: "write_file", args: `{"path":"notes/deep/todo.md","content":"- one\n- two"}`, want: "created notes/deep/todo.md (11 bytes, 2 lines)"},
			{tool: "read_file", args: `{"path":"notes/deep/todo.md"}`, want: "     1\t- one\n     2\t- two\n[notes/deep/todo.md: lines 1-2 of 2]"},
			{tool: "write_file", args: `{"path":"notes/deep/todo.md","content":"- three\n"}`, want: "replaced notes/deep/todo.md (8 bytes, 1 line)"},
			{tool: "read_file", args: `{"path":"notes/deep/todo.md"}`, want: "     1\t- three\n[notes/deep/todo.md: lines 1-1 of 1]"},
			{tool: "write_file", args: `{"path":"notes","content":"x"}`, kind: runtime.KindInvalidInput, want: "notes is a directory; list_dir lists it"},
			{tool: "write_file", args: `{"path":"main.go/x","content":"x"}`, kind: runtime.KindInvalidInput},
			{tool: "write_file", args: `{"path":"../escape.txt","content":"x"}`, kind: runtime.KindPermission},
			{tool: "write_file", args: `{"path":".","content":"x"}`, kind: runtime.KindInvalidInput},
			{tool: "edit_file", args: `{"path":"main.go","old_string":"func main() {\n\tprintln(\"hi\")","new_string":"func main() {\n\tprintln(\"hello\")"}`,
				want: "edited main.go: 1 replacement. The changed lines:\n     1\tpackage main\n     2\t\n     3\tfunc main() {\n     4\t\tprintln(\"hello\")\n     5\t\tprintln(\"hi\")\n     6\t}\n"},
			{tool: "edit_file", args: `{"path":"main.go","old_string":"println","new_string":"fmt.Println","replace_all":true}`,
				contains: []string{"edited main.go: 2 replacements.", "     4\t\tfmt.Println(\"hello\")\n     5\t\tfmt.Println(\"hi\")\n"}},
			{tool: "read_file", args: `{"path":"main.go","offset":4,"limit":2}`, contains: []string{"fmt.Println(\"hello\")", "fmt.Println(\"hi\")"}},
		}
		for i, c := range steps {
			t.Run(fmt.Sprintf("%d_%s", i, c.tool), func(t *testing.T) { c.check(t, h) })
		}
		// Edits leave no temporary file behind.
		entries, err := fs.ReadDir(h.sb, ".")
		require.NoError(t, err)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		assert.Equal(t, []string{"main.go", "notes"}, names)
	})
}

// TestCaps: list_dir, glob and grep show the first entries in order and count the rest.
func TestCaps(t *testing.T) {
	files := map[string]string{}
	for i := range 620 {
		files[fmt.Sprintf("many/f%03d.txt", i)] = "match\n"
	}
	sandboxes(t, files, func(t *testing.T, h *harness) {
		res := h.call("list_dir", `{"path":"many"}`)
		lines := strings.Split(res.Text, "\n")
		require.Len(t, lines, 501, res.Text)
		assert.Equal(t, "f000.txt (6 bytes)", lines[0])
		assert.Equal(t, "f499.txt (6 bytes)", lines[499])
		assert.Equal(t, "[many: 620 entries, the first 500 shown; glob finds files by pattern]", lines[500])

		res = h.call("glob", `{"pattern":"many/*.txt"}`)
		lines = strings.Split(res.Text, "\n")
		require.Len(t, lines, 201)
		assert.Equal(t, "many/f000.txt", lines[0])
		assert.Equal(t, "many/f199.txt", lines[199])
		assert.Equal(t, "[620 files match many/*.txt; the first 200 shown, 420 more: narrow the pattern or path]", lines[200])

		res = h.call("grep", `{"pattern":"match","max_results":3}`)
		assert.Equal(t, "many/f000.txt:1: match\nmany/f001.txt:1: match\nmany/f002.txt:1: match\n"+
			"[620 matching lines in 620 files; the first 3 shown, 617 more: narrow the pattern, path or glob, or raise max_results]", res.Text)
	})
}

// TestEditLongLine: the changed lines are cut as read_file cuts them, and a long name still
// gets its temporary file.
func TestEditLongLine(t *testing.T) {
	long := strings.Repeat("x", 5000)
	name := strings.Repeat("n", 250)
	sandboxes(t, map[string]string{name: "a " + long + "\n"}, func(t *testing.T, h *harness) {
		res := h.call("edit_file", `{"path":"`+name+`","old_string":"a ","new_string":"b "}`)
		require.False(t, res.IsError, res.Text)
		assert.Less(t, len(res.Text), 2600) // the name, one line cut at 2000 bytes and the frame
		assert.Contains(t, res.Text, "     1\tb xxx")
	})
}

// lateWrites is a sandbox whose writes start only after their call's ctx has ended, as a
// slow disk's would: wrote receives each write's outcome.
type lateWrites struct {
	sandbox.Sandbox
	wrote chan error
}

func (s lateWrites) WriteFile(ctx context.Context, name string, data []byte) error {
	<-ctx.Done()
	err := s.Sandbox.WriteFile(ctx, name, data)
	s.wrote <- err
	return err
}

// TestTimedOutWritesDoNotLand: a write_file or edit_file reported as timed out leaves the
// file as it was, also after its abandoned handler has finished writing.
func TestTimedOutWritesDoNotLand(t *testing.T) {
	sandboxes(t, map[string]string{"f.txt": "old\n"}, func(t *testing.T, h *harness) {
		late := lateWrites{Sandbox: h.sb, wrote: make(chan error, 1)}
		tools := workspace.New(late).Tools()
		for i := range tools {
			tools[i].Timeout = 20 * time.Millisecond
		}
		reg := runtime.NewRegistry(runtime.WithApprover(approveAll))
		require.NoError(t, reg.Add(tools...))
		for _, c := range []struct{ tool, args string }{
			{"write_file", `{"path":"f.txt","content":"new\n"}`},
			{"edit_file", `{"path":"f.txt","old_string":"old","new_string":"new"}`},
			{"write_file", `{"path":"g.txt","content":"new\n"}`},
		} {
			res := reg.Invoke(t.Context(), runtime.Call{Name: c.tool, Args: []byte(c.args)})
			assert.Equal(t, runtime.KindTimeout, res.Kind, res.Text)
			assert.ErrorIs(t, <-late.wrote, context.DeadlineExceeded, c.tool)
			data, err := fs.ReadFile(h.sb, "f.txt")
			require.NoError(t, err)
			require.Equal(t, "old\n", string(data), c.tool) // else the next call may not write
			_, err = fs.Stat(h.sb, "g.txt")
			assert.ErrorIs(t, err, fs.ErrNotExist, c.tool)
		}
	})
}

// TestWriteQuota: past the sandbox's write quota, write_file and edit_file fail with a limit
// error that says what is left and what to do, and change nothing.
func TestWriteQuota(t *testing.T) {
	dir := t.TempDir()
	sb, err := sandbox.OpenLocal(dir, sandbox.LocalOptions{WriteQuota: 10000})
	require.NoError(t, err)
	t.Cleanup(func() { sb.Close() })
	h := newHarness(t, sb, dir)
	res := h.call("write_file", `{"path":"a.txt","content":"`+strings.Repeat("x", 5000)+`"}`) // 9096
	require.False(t, res.IsError, res.Text)
	res = h.call("write_file", `{"path":"b.txt","content":"y"}`)
	assert.Equal(t, runtime.KindLimit, res.Kind)
	assert.Equal(t, "b.txt was not written: it would add 4097 bytes to the workspace, and the file tools may add at most 10000 bytes to it in all, of which 904 are left. "+
		"Write less, or empty files no longer needed (an emptied file gives its bytes back)", res.Text)
	res = h.call("edit_file", `{"path":"a.txt","old_string":"x","new_string":"yy","replace_all":true}`)
	assert.Equal(t, runtime.KindLimit, res.Kind, res.Text)
	data, err := fs.ReadFile(sb, "a.txt")
	require.NoError(t, err)
	assert.Equal(t, strings.Repeat("x", 5000), string(data))
	res = h.call("write_file", `{"path":"a.txt","content":"`+strings.Repeat("x", 1000)+`"}`) // gives 4000 back
	require.False(t, res.IsError, res.Text)
	res = h.call("write_file", `{"path":"b.txt","content":"y"}`)
	require.False(t, res.IsError, res.Text)
}
