package workspace

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/runtime"
)

// TestReplaceAllBounded: replace_all with a long new_string over many short occurrences is
// refused before the result is built, not grown to len(content) times len(new_string).
func TestReplaceAllBounded(t *testing.T) {
	content := strings.Repeat("a", 1<<10)
	edited, _, err := replace("f.txt", content, "a", strings.Repeat("b", 20<<10), true)
	var me *runtime.ModelError
	require.True(t, errors.As(err, &me), "%v", err)
	assert.Equal(t, runtime.KindLimit, me.Kind)
	assert.Contains(t, me.Message, "1024 occurrences")
	assert.Empty(t, edited)

	edited, _, err = replace("f.txt", content, "a", "bb", true)
	require.NoError(t, err)
	assert.Len(t, edited, 2<<10)
}
