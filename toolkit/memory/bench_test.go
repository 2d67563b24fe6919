package memory_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
)

// BenchmarkCreateInFullScope measures a write into a scope of 199 files: each write walks
// the scope to check the bounds, so this is its worst case under the default MaxFiles.
func BenchmarkCreateInFullScope(b *testing.B) {
	reg, _ := setup(b, nil)
	for i := range 199 {
		res := reg.Invoke(b.Context(), runtime.Call{Name: "memory_create", Session: "s", Args: fmt.Appendf(nil, `{"path":"f%d.md","file_text":"note %d"}`, i, i)})
		require.False(b, res.IsError, res.Text)
	}
	args := []byte(`{"path":"f0.md","file_text":"rewritten"}`)
	b.ReportAllocs()
	for b.Loop() {
		if res := reg.Invoke(b.Context(), runtime.Call{Name: "memory_create", Session: "s", Args: args}); res.IsError {
			b.Fatal(res.Text)
		}
	}
}
