package sandbox

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/internal/testcost"
)

func TestClean(t *testing.T) {
	for p, want := range map[string]string{
		"": ".", ".": ".", "./": ".", "a": "a", "./a//b/": "a/b", "a/../b": "b", "a/..": ".",
		`a\b`: `a\b`, `..\x`: `..\x`, "C:/x": "C:/x", "-rf": "-rf",
	} {
		got, err := Clean(p)
		require.NoError(t, err, p)
		assert.Equal(t, want, got, p)
		assert.True(t, fs.ValidPath(got), got)
	}
	for _, p := range []string{"/", "/etc/passwd", "..", "../x", "a/../../x", "./../x"} {
		_, err := Clean(p)
		assert.ErrorIs(t, err, ErrEscape, p)
		assert.Contains(t, err.Error(), p)
	}
}

// TestLocalErrorsNameNoHostPath: every error of a local sandbox names files by their sandbox
// names.
func TestLocalErrorsNameNoHostPath(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "file"), []byte("x"), 0o644))
	require.NoError(t, os.Symlink("/", filepath.Join(dir, "up")))
	l, err := OpenLocal(dir, LocalOptions{})
	require.NoError(t, err)
	defer l.Close()

	_, err1 := l.Open("missing")
	_, err2 := l.Open("up/etc/passwd")
	_, err3 := l.ReadDir("file")
	err4 := l.WriteFile(t.Context(), "file/x", nil)
	err5 := l.WriteFile(t.Context(), "up/x", nil)
	_, err6 := l.Stat("up")
	f, err := l.Open("file")
	require.NoError(t, err)
	_, err7 := f.(fs.ReadDirFile).ReadDir(-1)
	f.Close()
	for i, err := range []error{err1, err2, err3, err4, err5, err6, err7} {
		require.Error(t, err, i)
		assert.NotContains(t, err.Error(), dir, "error %d", i+1)
	}
	assert.ErrorIs(t, err1, fs.ErrNotExist)
	for _, err := range []error{err2, err5, err6} {
		assert.ErrorIs(t, err, ErrEscape)
	}
}

func TestMemory(t *testing.T) {
	m := NewMemory(map[string]string{"a/b.txt": "b"})
	require.NoError(t, m.WriteFile(t.Context(), "a/c/d.txt", []byte("d")))
	data, err := fs.ReadFile(m, "a/c/d.txt")
	require.NoError(t, err)
	assert.Equal(t, "d", string(data))
	assert.Error(t, m.WriteFile(t.Context(), "a/b.txt/x", nil), "a file is not a directory")
	assert.Error(t, m.WriteFile(t.Context(), "a", nil), "a directory is not a file")
	assert.ErrorIs(t, m.WriteFile(t.Context(), "../x", nil), fs.ErrInvalid)
	_, err = m.Run(t.Context(), Command{Script: "ls"})
	assert.True(t, errors.Is(err, ErrNoRun))
	entries, err := m.ReadDir("a")
	require.NoError(t, err)
	require.Len(t, entries, 2)
	assert.Equal(t, "b.txt", entries[0].Name())
	assert.Equal(t, "c", entries[1].Name())
}

// TestLocalErrorsScrubResolvedRoot: when the sandbox directory is reached through a symlink,
// an error naming only its resolved host path is scrubbed too.
func TestLocalErrorsScrubResolvedRoot(t *testing.T) {
	target := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	require.NoError(t, os.Symlink(target, link))
	l, err := OpenLocal(link, LocalOptions{})
	require.NoError(t, err)
	defer l.Close()
	resolved, err := filepath.EvalSymlinks(link)
	require.NoError(t, err)
	err = l.pathError("read", "f", errors.New("cannot read "+resolved+"/f"))
	assert.NotContains(t, err.Error(), resolved)
	assert.Contains(t, err.Error(), "cannot read ./f")
}

// TestWriteFileGivesUpWhenItsContextEnds: a write whose ctx ended before the rename, here
// while the data was being written, leaves the file as it was and no temporary file behind;
// the old code renamed it into place anyway, after its caller had reported the call failed.
func TestWriteFileGivesUpWhenItsContextEnds(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "f"), []byte("old"), 0o644))
	l, err := OpenLocal(dir, LocalOptions{})
	require.NoError(t, err)
	defer l.Close()
	mem := NewMemory(map[string]string{"f": "old"})
	// Local checks ctx at the start and before the rename (after the data was written);
	// Memory, whose write is one step, at the start.
	for name, c := range map[string]struct {
		sb    Sandbox
		steps []int
	}{"local": {l, []int{0, 1}}, "memory": {mem, []int{0}}} {
		sb := c.sb
		for _, steps := range c.steps {
			err := sb.WriteFile(&testcost.EndingContext{Context: t.Context(), N: steps}, "f", []byte("new"))
			assert.ErrorIs(t, err, context.Canceled, "%s after %d", name, steps)
			err = sb.WriteFile(&testcost.EndingContext{Context: t.Context(), N: steps}, "g", []byte("new"))
			assert.ErrorIs(t, err, context.Canceled, "%s after %d", name, steps)
			data, err := fs.ReadFile(sb, "f")
			require.NoError(t, err)
			assert.Equal(t, "old", string(data), "%s after %d", name, steps)
			_, err = sb.Stat("g")
			assert.ErrorIs(t, err, fs.ErrNotExist, "%s after %d", name, steps)
		}
		require.NoError(t, sb.WriteFile(t.Context(), "f", []byte("new")), name)
		data, err := fs.ReadFile(sb, "f")
		require.NoError(t, err)
		assert.Equal(t, "new", string(data), name)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "only f: no temporary file is left")
}

// TestWriteQuota: writes count their growth of the sandbox (data less what they replace, and
// 4 KiB for each file and directory they create) against the quota; a write past it fails
// with a QuotaError and changes nothing, and a shrinking write gives bytes back.
func TestWriteQuota(t *testing.T) {
	dir := t.TempDir()
	l, err := OpenLocal(dir, LocalOptions{WriteQuota: 30000})
	require.NoError(t, err)
	defer l.Close()
	for name, sb := range map[string]Sandbox{"local": l, "memory": &Memory{WriteQuota: 30000}} {
		write := func(name string, size int) error {
			return sb.WriteFile(t.Context(), name, []byte(strings.Repeat("x", size)))
		}
		require.NoError(t, write("a", 100), name)       // 100 + 4096: 4196
		require.NoError(t, write("d1/d2/b", 100), name) // + 3×4096 + 100: 16584
		require.NoError(t, write("a", 10000), name)     // + 9900: 26484
		err := write("c", 1000)                         // + 5096: over
		var qe *QuotaError
		require.ErrorAs(t, err, &qe, name)
		assert.ErrorIs(t, err, ErrQuota)
		assert.Equal(t, QuotaError{Limit: 30000, Used: 26484, Need: 5096}, *qe, name)
		assert.Equal(t, "write c: the write would add 5096 bytes to the workspace, and its write quota of 30000 bytes has 3516 left", err.Error())
		_, err = sb.Stat("c")
		assert.ErrorIs(t, err, fs.ErrNotExist, name)
		err = write("d3/c", 0) // a new directory counts before anything is written
		assert.ErrorIs(t, err, ErrQuota, name)
		_, err = sb.Stat("d3")
		assert.ErrorIs(t, err, fs.ErrNotExist, name)

		require.NoError(t, write("a", 0), name) // - 10000: 16484
		require.NoError(t, write("c", 1000), name)
		data, err := fs.ReadFile(sb, "a")
		require.NoError(t, err)
		assert.Empty(t, data, name)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 3, "a, c and d1: no temporary file is left")

	unlimited, err := OpenLocal(t.TempDir(), LocalOptions{WriteQuota: -1})
	require.NoError(t, err)
	defer unlimited.Close()
	require.NoError(t, unlimited.WriteFile(t.Context(), "big", make([]byte, 1<<20)))
	assert.Equal(t, int64(1<<30), newQuota(0).limit, "the default")
	assert.Equal(t, int64(30000), l.quota.limit)
}

// TestTotalMemoryDefault: Limits.TotalMemory defaults to Memory + Tmp, each negative one
// counting as its default, and MemoryBound says none where no cgroup is made for a command.
func TestTotalMemoryDefault(t *testing.T) {
	const mib = 1 << 20
	for lim, want := range map[Limits]int64{
		{}:                               DefaultMemory + DefaultTmp,
		{Memory: 1 << 30, Tmp: 16 * mib}: 1<<30 + 16*mib,
		{Memory: -1, Tmp: -1}:            DefaultMemory + DefaultTmp,
		{TotalMemory: 96 * mib}:          96 * mib,
		{TotalMemory: -1}:                -1,
	} {
		assert.Equal(t, want, lim.withDefaults().TotalMemory, "%+v", lim)
	}
	l, err := OpenLocal(t.TempDir(), LocalOptions{UnconfinedHostExecution: true})
	require.NoError(t, err)
	defer l.Close()
	assert.Equal(t, "none: commands run on the host", l.MemoryBound())
	l2, err := OpenLocal(t.TempDir(), LocalOptions{Limits: Limits{TotalMemory: -1}})
	require.NoError(t, err)
	defer l2.Close()
	assert.Equal(t, boundNone, l2.MemoryBound())
}
