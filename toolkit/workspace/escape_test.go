//go:build linux

package workspace_test

import (
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/runtime"
	"golang.org/x/sys/unix"
)

func TestSymlinkEscapes(t *testing.T) {
	h, dir, outside := localWithOutside(t)
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "out")))
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "secret-link.txt")))
	require.NoError(t, os.Symlink("../../"+filepath.Base(outside), filepath.Join(dir, "relative-out")))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "inside.txt"), []byte("inside\n"), 0o644))
	require.NoError(t, os.Symlink("inside.txt", filepath.Join(dir, "inside-link.txt")))

	for _, c := range []toolCase{
		{tool: "read_file", args: `{"path":"out/secret.txt"}`, kind: runtime.KindPermission, contains: []string{`"out/secret.txt" is outside the workspace`}},
		{tool: "read_file", args: `{"path":"secret-link.txt"}`, kind: runtime.KindPermission},
		{tool: "read_file", args: `{"path":"relative-out/secret.txt"}`, kind: runtime.KindPermission},
		{tool: "list_dir", args: `{"path":"out"}`, kind: runtime.KindPermission},
		{tool: "write_file", args: `{"path":"out/new.txt","content":"pwned"}`, kind: runtime.KindPermission},
		{tool: "edit_file", args: `{"path":"secret-link.txt","old_string":"SECRET","new_string":"pwned"}`, kind: runtime.KindPermission},
		{tool: "grep", args: `{"pattern":"SECRET","path":"out"}`, kind: runtime.KindPermission},
		{tool: "glob", args: `{"pattern":"*","path":"out"}`, kind: runtime.KindPermission},
		// Walks do not follow links, so the secret is not found from the root either.
		{tool: "grep", args: `{"pattern":"SECRET"}`, want: "[no lines match SECRET]"},
		{tool: "glob", args: `{"pattern":"**/secret.txt"}`, want: "[no files match **/secret.txt]"},
		// A link that stays inside is followed, as the kernel would.
		{tool: "read_file", args: `{"path":"inside-link.txt"}`, want: "     1\tinside\n[inside-link.txt: lines 1-1 of 1]"},
		// A write through a link replaces the link, never its target (which, being outside,
		// does not exist for the workspace).
		{tool: "write_file", args: `{"path":"secret-link.txt","content":"replaced"}`, want: "created secret-link.txt (8 bytes, 1 line)"},
	} {
		t.Run(c.tool+" "+c.args, func(t *testing.T) { c.check(t, h) })
	}
	secret, err := os.ReadFile(filepath.Join(outside, "secret.txt"))
	require.NoError(t, err)
	assert.Equal(t, "SECRET\n", string(secret))
	_, err = os.Stat(filepath.Join(outside, "new.txt"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

// TestSymlinkSwap swaps a directory and a link out of the sandbox under the same name,
// atomically and as fast as it can, while the tools read and write through that name: no
// call may reach the outside, whichever the name is at each step of the call.
func TestSymlinkSwap(t *testing.T) {
	h, dir, outside := localWithOutside(t)
	swapped, link := filepath.Join(dir, "d"), filepath.Join(dir, "link")
	require.NoError(t, os.Mkdir(swapped, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(swapped, "secret.txt"), []byte("inside\n"), 0o644))
	require.NoError(t, os.Symlink(outside, link))
	if err := unix.Renameat2(unix.AT_FDCWD, swapped, unix.AT_FDCWD, link, unix.RENAME_EXCHANGE); err != nil {
		t.Skip("no atomic exchange of names here:", err)
	}

	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		for !stop.Load() {
			unix.Renameat2(unix.AT_FDCWD, swapped, unix.AT_FDCWD, link, unix.RENAME_EXCHANGE)
		}
	})
	reads, writes := 0, 0
	for range 500 {
		res := h.call("read_file", `{"path":"d/secret.txt"}`)
		require.NotContains(t, res.Text, "SECRET")
		if !res.IsError {
			reads++
		}
		res = h.call("write_file", `{"path":"d/written.txt","content":"x"}`)
		if !res.IsError {
			writes++
		}
	}
	stop.Store(true)
	wg.Wait()
	t.Logf("%d of 500 reads and %d of 500 writes went through the directory; the others met the link and were refused", reads, writes)
	_, err := os.Stat(filepath.Join(outside, "written.txt"))
	assert.ErrorIs(t, err, os.ErrNotExist, "a write went through the link")
	entries, err := os.ReadDir(outside)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "only secret.txt is outside")
}

// TestHardLinks: a hard link planted in the sandbox may be another name of a file outside
// it; the tools refuse to read or edit it, and a write replaces the name, not the file.
func TestHardLinks(t *testing.T) {
	h, dir, outside := localWithOutside(t)
	if err := os.Link(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "hard.txt")); err != nil {
		t.Skip("no hard links across these directories:", err)
	}
	for _, c := range []toolCase{
		{tool: "read_file", args: `{"path":"hard.txt"}`, kind: runtime.KindPermission, want: "hard.txt has several hard links, and the workspace does not read or edit such files"},
		{tool: "edit_file", args: `{"path":"hard.txt","old_string":"SECRET","new_string":"pwned"}`, kind: runtime.KindPermission},
		{tool: "grep", args: `{"pattern":"SECRET"}`, want: "[no lines match SECRET]"},
		{tool: "write_file", args: `{"path":"hard.txt","content":"mine"}`, want: "replaced hard.txt (4 bytes, 1 line)"},
		{tool: "read_file", args: `{"path":"hard.txt"}`, want: "     1\tmine\n[hard.txt: lines 1-1 of 1]"},
	} {
		t.Run(c.tool, func(t *testing.T) { c.check(t, h) })
	}
	secret, err := os.ReadFile(filepath.Join(outside, "secret.txt"))
	require.NoError(t, err)
	assert.Equal(t, "SECRET\n", string(secret))
}

// TestNamedPipe: a named pipe in the sandbox (planted, or made by a command) would block a
// reader until a writer comes; the tools refuse it at once.
func TestNamedPipe(t *testing.T) {
	h, dir, _ := localWithOutside(t)
	require.NoError(t, unix.Mkfifo(filepath.Join(dir, "pipe"), 0o644))
	for _, c := range []toolCase{
		{tool: "read_file", args: `{"path":"pipe"}`, kind: runtime.KindInvalidInput, want: "pipe is not a file or a directory (a pipe, a device or a socket); the workspace does not open those"},
		{tool: "list_dir", args: `{"path":"pipe"}`, kind: runtime.KindInvalidInput},
		{tool: "edit_file", args: `{"path":"pipe","old_string":"a","new_string":"b"}`, kind: runtime.KindInvalidInput},
		{tool: "grep", args: `{"pattern":"a","path":"pipe"}`, want: "[no lines match a]"},
		{tool: "grep", args: `{"pattern":"a"}`, want: "[no lines match a]"},
	} {
		t.Run(c.tool, func(t *testing.T) { c.check(t, h) })
	}
}

// TestBackslashNames: on Unix a backslash is part of a name, for the checks as for the
// kernel, so `..\x` is a file name, not a way up.
func TestBackslashNames(t *testing.T) {
	h, dir, _ := localWithOutside(t)
	for _, c := range []toolCase{
		{tool: "write_file", args: `{"path":"a\\b.txt","content":"x"}`, want: `created a\b.txt (1 byte, 1 line)`},
		{tool: "read_file", args: `{"path":"..\\..\\secret.txt"}`, kind: runtime.KindNotFound},
		{tool: "write_file", args: `{"path":"..\\up.txt","content":"x"}`, want: `created ..\up.txt (1 byte, 1 line)`},
		{tool: "list_dir", args: `{}`, want: "..\\up.txt (1 byte)\na\\b.txt (1 byte)\n[.: 2 entries]"},
	} {
		t.Run(c.tool+" "+c.args, func(t *testing.T) { c.check(t, h) })
	}
	_, err := os.Stat(filepath.Join(filepath.Dir(dir), "up.txt"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}
