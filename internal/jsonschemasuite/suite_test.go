package jsonschemasuite

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/gen"
	"github.com/toolgen-go/toolgen/internal/buildtest"
	"github.com/toolgen-go/toolgen/runtime"
)

// TestSuite runs every expressible test of the JSON Schema Test Suite through the generated
// decoder of json_schema_test_suite: it must accept exactly the data the suite calls valid,
// and refuse the rest with an *runtime.ArgsError (never another error).
func TestSuite(t *testing.T) {
	data, err := os.ReadFile(casesFile)
	require.NoError(t, err)
	var cases []testCase
	require.NoError(t, json.Unmarshal(data, &cases))
	require.NotEmpty(t, cases)
	tools := map[string]runtime.Tool{}
	for _, tool := range Tools() {
		tools[tool.Name] = tool
	}
	agree := 0
	for _, c := range cases {
		tool, ok := tools[c.Tool]
		require.True(t, ok, "no tool %s: run go generate ./internal/jsonschemasuite", c.Tool)
		_, err := tool.BindArgs(context.Background(), c.Args)
		var ae *runtime.ArgsError
		if err != nil && !errors.As(err, &ae) {
			t.Errorf("%s / %s / %s: %s: the decoder fails with %T: %v", c.File, c.Group, c.Test, c.Args, err, err)
			continue
		}
		if assert.Equal(t, c.Valid, err == nil, "%s / %s / %s: %s: %v", c.File, c.Group, c.Test, c.Args, err) {
			agree++
		}
	}
	t.Logf("%d of %d expressible tests agree with the suite", agree, len(cases))
}

// TestGeneratedCodeIsFresh: tools_gen.go is what the generator makes of suite_args.go now, so
// TestSuite runs the current generator's output (CI's go generate check says the same for
// every package).
func TestGeneratedCodeIsFresh(t *testing.T) {
	buildtest.Require(t, "loads the package with go list to run the generator")
	res, err := gen.Generate(context.Background(), gen.Config{Dir: "."})
	require.NoError(t, err)
	var diags strings.Builder
	res.Diagnostics.Print(&diags, ".")
	require.False(t, res.Failed(true), "the generator reports:\n%s", diags.String())
	require.Len(t, res.Files, 1)
	committed, err := os.ReadFile(gen.DefaultOutput)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(committed, res.Files[0].Content), "%s is stale: run go generate ./internal/jsonschemasuite", gen.DefaultOutput)
}
