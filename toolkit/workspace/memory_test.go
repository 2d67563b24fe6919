package workspace_test

import (
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/runtime"
)

// allocated returns the bytes the process allocated while fn ran.
func allocated(fn func()) uint64 {
	var before, after goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&before)
	fn()
	goruntime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

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
	bytes := allocated(func() { text = h.call("read_file", `{"path":"huge.log","offset":50,"limit":100}`).Text })
	assert.True(t, strings.HasPrefix(text, "    50\t00050 xxx"), text[:min(len(text), 100)])
	assert.True(t, strings.HasSuffix(text, "[huge.log: lines 50-149 of more than 200; read_file with offset=150 reads on]"), text[max(len(text)-200, 0):])
	assert.Less(t, bytes, uint64(2<<20), "reading 100 lines of a 1 GiB file allocated %d bytes", bytes)
	t.Logf("100 lines of a 1 GiB file: %d bytes allocated", bytes)

	bytes = allocated(func() { text = h.call("read_file", `{"path":"one-line.txt"}`).Text })
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
	bytes := allocated(func() {
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
