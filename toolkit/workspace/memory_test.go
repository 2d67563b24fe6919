package workspace_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/internal/testcost"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
	"github.com/toolgen-go/toolgen/toolkit/workspace"
)

// TestReadFileMemory: read_file streams; a page of a 1 GiB file (sparse: 200 text lines, then
// a hole) and a page of a file that is one 64 MiB line allocate about a page, not the file.
func TestReadFileMemory(t *testing.T) {
	h, dir, _ := localWithOutside(t)
	f, err := os.Create(filepath.Join(dir, "huge.log"))
	require.NoError(t, err)
	for i := range 200 {
		fmt.Fprintf(f, "%05d %s\n", i+1, strings.Repeat("x", 54))
	}
	require.NoError(t, f.Truncate(1<<30))
	require.NoError(t, f.Close())
	require.NoError(t, os.WriteFile(filepath.Join(dir, "one-line.txt"), []byte(strings.Repeat("y", 64<<20)), 0o644))

	var text string
	bytes := testcost.Allocated(func() { text = h.call("read_file", `{"path":"huge.log","offset":50,"limit":100}`).Text })
	assert.True(t, strings.HasPrefix(text, "    50\t00050 xxx"), text[:min(len(text), 100)])
	assert.True(t, strings.HasSuffix(text, "[huge.log: lines 50-149 of more than 200; read_file with offset=150 reads on]"), text[max(len(text)-200, 0):])
	assert.Less(t, bytes, uint64(2<<20), "reading 100 lines of a 1 GiB file allocated %d bytes", bytes)
	t.Logf("100 lines of a 1 GiB file: %d bytes allocated", bytes)

	bytes = testcost.Allocated(func() { text = h.call("read_file", `{"path":"one-line.txt"}`).Text })
	assert.Equal(t, "     1\t"+strings.Repeat("y", 2000)+" […line cut at 2000 bytes]\n[one-line.txt: lines 1-1 of 1]", text)
	assert.Less(t, bytes, uint64(2<<20), "reading a 64 MiB line allocated %d bytes", bytes)
	t.Logf("a page of a 64 MiB line: %d bytes allocated", bytes)
}

// TestReplaceAllIsLinear: replace_all over 4 million occurrences (an 8 MiB file of "a\n")
// finishes within the tool's timeout and allocates a few copies of the file. Numbering each
// replacement from the start of the file made it quadratic (hours here); keeping every
// line and every replacement's range made it allocate over 150 MB.
func TestReplaceAllIsLinear(t *testing.T) {
	const size = 8 << 20
	h, dir, _ := localWithOutside(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "dense.txt"), []byte(strings.Repeat("a\n", size/2)), 0o644))
	var res runtime.Result
	bytes := testcost.Allocated(func() {
		res = h.call("edit_file", `{"path":"dense.txt","old_string":"a","new_string":"b","replace_all":true}`)
	})
	require.False(t, res.IsError, res.Text)
	assert.True(t, strings.HasPrefix(res.Text, "edited dense.txt: 4194304 replacements. The changed lines:\n     1\tb\n"), res.Text[:min(len(res.Text), 200)])
	assert.True(t, strings.HasSuffix(res.Text, "    60\tb\n   ... (more changes; read_file shows them)\n"), res.Text)
	assert.Less(t, bytes, uint64(6*size), "replace_all allocated %d bytes for an %d-byte file", bytes, size)
	t.Logf("replace_all of 4M occurrences: %d bytes allocated", bytes)
	data, err := os.ReadFile(filepath.Join(dir, "dense.txt"))
	require.NoError(t, err)
	assert.Equal(t, strings.Repeat("b\n", size/2), string(data))
}

// TestGrepLineDenseFile: grep over a file of 4 million empty lines, every one matching,
// allocates about the file (read whole, once), not an entry per line; the lines shown and
// the count are those of a whole search.
func TestGrepLineDenseFile(t *testing.T) {
	const size = 4 << 20
	h, dir, _ := localWithOutside(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "dense.txt"), []byte(strings.Repeat("\n", size)), 0o644))
	for _, args := range []string{`{"pattern":"^$"}`, `{"pattern":"^$","context":20,"max_results":1000}`} {
		var res runtime.Result
		bytes := testcost.Allocated(func() { res = h.call("grep", args) })
		require.False(t, res.IsError, res.Text)
		assert.True(t, strings.HasPrefix(res.Text, "dense.txt:1: \ndense.txt:2: \n"), res.Text[:min(len(res.Text), 100)])
		assert.Contains(t, res.Text, "[4194304 matching lines in 1 file; the first ")
		if !raceEnabled { // it drops regexp's pooled matchers: one allocated per line
			assert.Less(t, bytes, uint64(size+8<<20), "grep %s over 4M lines allocated %d bytes", args, bytes)
		}
		t.Logf("grep %s over 4M lines: %d bytes allocated", args, bytes)
	}
}

// cancelOnRead is a sandbox that cancels its call's ctx when a file is first read: the file
// is then read whole, and the search must stop inside it.
type cancelOnRead struct {
	sandbox.Sandbox
	cancel context.CancelFunc
}

func (s cancelOnRead) Open(name string) (fs.File, error) {
	f, err := s.Sandbox.Open(name)
	if err != nil || name == "." {
		return f, err
	}
	return cancellingFile{f, s.cancel}, nil
}

type cancellingFile struct {
	fs.File
	cancel context.CancelFunc
}

func (f cancellingFile) Read(p []byte) (int, error) {
	f.cancel()
	return f.File.Read(p)
}

// TestGrepStopsInsideAFile: a grep whose ctx ends while it goes through a file's lines
// stops there (the old code went through all of them, and answered).
func TestGrepStopsInsideAFile(t *testing.T) {
	h, dir, _ := localWithOutside(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "dense.txt"), []byte(strings.Repeat("x\n", 1<<20)), 0o644))
	ctx, cancel := context.WithCancel(t.Context())
	tools := workspace.New(cancelOnRead{Sandbox: h.sb, cancel: cancel}).Tools()
	for i := range tools {
		tools[i].NoTimeout = true // the handler's own answer, not the registry's at the cancellation
	}
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(tools...))
	res := reg.Invoke(ctx, runtime.Call{Name: "grep", Args: []byte(`{"pattern":"x"}`)})
	require.True(t, res.IsError, res.Text)
	assert.ErrorIs(t, res.Err, context.Canceled)
}

// heapWatch is a sandbox that measures the live heap (after a collection) each time a
// directory has been read, keeping the largest.
type heapWatch struct {
	sandbox.Sandbox
	peak *uint64
}

func liveHeap() uint64 {
	var m goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&m)
	return m.HeapAlloc
}

func (s heapWatch) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := s.Sandbox.ReadDir(name)
	*s.peak = max(*s.peak, liveHeap())
	return entries, err
}

func (s heapWatch) Open(name string) (fs.File, error) {
	f, err := s.Sandbox.Open(name)
	if d, ok := f.(fs.ReadDirFile); ok {
		return watchedDir{d, s.peak}, nil
	}
	return f, err
}

type watchedDir struct {
	fs.ReadDirFile
	peak *uint64
}

func (d watchedDir) ReadDir(n int) ([]fs.DirEntry, error) {
	entries, err := d.ReadDirFile.ReadDir(n)
	*d.peak = max(*d.peak, liveHeap())
	return entries, err
}

// TestWalksHoldAChunkOfADirectory: glob and grep over a directory of 30,000 files hold a
// chunk of its entries at a time, not the whole listing (the old walk held all of them:
// 11 MB live here, against 0.4 MB now).
func TestWalksHoldAChunkOfADirectory(t *testing.T) {
	const files = 30000
	h, dir, _ := localWithOutside(t)
	require.NoError(t, os.Mkdir(filepath.Join(dir, "big"), 0o755))
	for i := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "big", fmt.Sprintf("f%05d.txt", i)), nil, 0o644))
	}
	var peak uint64
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(workspace.New(heapWatch{Sandbox: h.sb, peak: &peak}).Tools()...))
	for _, c := range []struct{ tool, args, want string }{
		{"glob", `{"pattern":"big/*.txt"}`, "[30000 files match big/*.txt; the first 200 shown, 29800 more: narrow the pattern or path]"},
		{"grep", `{"pattern":"x"}`, "[no lines match x]"},
	} {
		before := liveHeap()
		peak = 0
		res := reg.Invoke(t.Context(), runtime.Call{Name: c.tool, Args: []byte(c.args)})
		require.False(t, res.IsError, res.Text)
		assert.True(t, strings.HasSuffix(res.Text, c.want), res.Text[max(len(res.Text)-200, 0):])
		held := int64(peak) - int64(before)
		assert.Less(t, held, int64(3<<20), "%s held %d bytes while it read a directory of %d files", c.tool, held, files)
		t.Logf("%s over %d files: %d bytes live at most while reading the directory", c.tool, files, held)
	}
}

// TestWalkDepthIsBounded: glob and grep walk at most 128 levels below where they start, and
// say how many directories they left out.
func TestWalkDepthIsBounded(t *testing.T) {
	h, dir, _ := localWithOutside(t)
	deep := filepath.Join(dir, strings.Repeat("d/", 130))
	require.NoError(t, os.MkdirAll(deep, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(deep, "bottom.txt"), []byte("x\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "top.txt"), []byte("x\n"), 0o644))
	note := "; 1 directory more than 128 levels deep not searched: search from deeper down]"
	res := h.call("glob", `{"pattern":"**/*.txt"}`)
	assert.Equal(t, "top.txt\n[1 file matches **/*.txt"+note, res.Text)
	res = h.call("grep", `{"pattern":"x"}`)
	assert.Equal(t, "top.txt:1: x\n[1 matching line in 1 file"+note, res.Text)
	res = h.call("glob", `{"pattern":"**/*.txt","path":"`+strings.Repeat("d/", 10)+`"}`)
	assert.True(t, strings.HasSuffix(res.Text, "bottom.txt\n[1 file matches **/*.txt]"), res.Text)
}

// TestGrepOutputIsBounded: with wide context and many results, grep keeps at most 1 MiB of
// text, and says so.
func TestGrepOutputIsBounded(t *testing.T) {
	h, dir, _ := localWithOutside(t)
	var b strings.Builder
	for i := range 41 * 1000 {
		if i%41 == 0 {
			b.WriteString("match ")
		}
		b.WriteString(strings.Repeat("y", 290) + "\n")
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "wide.txt"), []byte(b.String()), 0o644))
	res := h.call("grep", `{"pattern":"match","context":20,"max_results":1000}`)
	require.False(t, res.IsError, res.Text)
	require.NotNil(t, res.Offloaded)
	assert.LessOrEqual(t, res.Offloaded.Size, 1<<20+200)
	assert.Greater(t, res.Offloaded.Size, 1<<20-20<<10)
}
