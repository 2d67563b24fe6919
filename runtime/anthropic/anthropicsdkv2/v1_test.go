package anthropicsdkv2_test

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "write this package's files from ../anthropicsdk")

// fromV1 maps each file of this package to the file of package anthropicsdk (v1) it is made
// from: the v1 code compiles unchanged against the v2 SDK, so there is one source to read and
// change, and this package follows it mechanically.
var fromV1 = map[string]string{
	"anthropicsdkv2.go": "anthropicsdk.go",
	"sdk_test.go":       "sdk_test.go",
	"catalog_test.go":   "catalog_test.go",
}

var sdkPath = regexp.MustCompile(`github\.com/anthropics/anthropic-sdk-go([/"\)])`)

// rewriteV1 turns a file of package anthropicsdk into this package's: the v2 SDK's import
// paths and this package's name (its tests import it under v1's name, so their bodies are v1's).
func rewriteV1(name, src string) string {
	src = sdkPath.ReplaceAllString(src, "github.com/anthropics/anthropic-sdk-go/v2$1")
	src = strings.ReplaceAll(src, "// Package anthropicsdk ", "// Package anthropicsdkv2 ")
	src = strings.ReplaceAll(src, "\npackage anthropicsdk\n", "\npackage anthropicsdkv2\n")
	src = strings.Replace(src, "package anthropicsdk_test\n", "package anthropicsdkv2_test\n", 1)
	src = strings.ReplaceAll(src, "\t\"github.com/toolgen-go/toolgen/runtime/anthropic/anthropicsdk\"\n",
		"\tanthropicsdk \"github.com/toolgen-go/toolgen/runtime/anthropic/anthropicsdkv2\"\n")
	return "// Code generated from ../anthropicsdk/" + name + " by go test -run TestFilesFollowV1 -update. DO NOT EDIT.\n\n" + src
}

// TestFilesFollowV1 fails when a file of this package is not what v1's makes: change v1 and
// run go test -run TestFilesFollowV1 -update here.
func TestFilesFollowV1(t *testing.T) {
	for mine, theirs := range fromV1 {
		src, err := os.ReadFile(filepath.Join("..", "anthropicsdk", theirs))
		require.NoError(t, err)
		want := rewriteV1(theirs, string(src))
		if *update {
			require.NoError(t, os.WriteFile(mine, []byte(want), 0o644))
			continue
		}
		got, err := os.ReadFile(mine)
		require.NoError(t, err)
		assert.Equal(t, want, string(got), "%s is not made from v1's %s: run go test -run TestFilesFollowV1 -update", mine, theirs)
	}
}
