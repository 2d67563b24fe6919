package decode

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// suiteFormatDir holds the format tests of the JSON Schema Test Suite (draft 2020-12),
// vendored at the repository's root.
const suiteFormatDir = "../../testdata/jsonschema-test-suite/tests/draft2020-12/optional/format"

// TestFormatsFollowTheSuite runs every string test of the suite's format files through the
// checker of its format: each checker must say what the suite says. Non-string data is the
// decoder's type check, not the checker's; internal/jsonschemasuite runs the whole suite
// through generated code.
func TestFormatsFollowTheSuite(t *testing.T) {
	for _, name := range FormatNames() {
		check, _, _ := FormatFunc(name)
		data, err := os.ReadFile(filepath.Join(suiteFormatDir, name+".json"))
		require.NoError(t, err, "the suite has a file for every format toolgen supports")
		var groups []struct {
			Schema struct{ Format string }
			Tests  []struct {
				Description string
				Data        any
				Valid       bool
			}
		}
		require.NoError(t, json.Unmarshal(data, &groups))
		strings := 0
		for _, g := range groups {
			require.Equal(t, name, g.Schema.Format)
			for _, tc := range g.Tests {
				s, ok := tc.Data.(string)
				if !ok {
					continue
				}
				strings++
				assert.Equal(t, tc.Valid, check(s), "format %s, %q: %s", name, s, tc.Description)
			}
		}
		assert.NotZero(t, strings, "format %s: no string test in the suite", name)
	}
}
