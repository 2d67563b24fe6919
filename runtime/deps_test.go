package runtime_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/internal/buildtest"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
)

const module = "github.com/toolgen-go/toolgen/"

// The core and the adapters that speak wire JSON compile no provider SDK: a program that only
// declares and dispatches tools must not wait for (or ship) openai-go, anthropic-sdk-go, genai
// or the MCP go-sdk. The SDK-typed helpers live in the *sdk packages.
func TestNoProviderSDKOutsideTheSDKPackages(t *testing.T) {
	for _, pkg := range []string{
		"runtime", "runtime/decode", "runtime/encode", "runtime/disclosure", "runtime/xmlcall",
		"runtime/openai", "runtime/anthropic", "runtime/gemini", "runtime/toolsearch",
	} {
		t.Run(pkg, func(t *testing.T) {
			buildtest.Require(t, "runs go list -deps")
			sdk, err := fixture.ProviderSDKDeps("", module+pkg)
			require.NoError(t, err)
			assert.Empty(t, sdk, "%s compiles a provider SDK: keep SDK-typed helpers in the *sdk package", pkg)
		})
	}
}

// The check sees an SDK where there is one, so the test above can fail. The SDK forms are
// modules of their own, so that toolgen's go.mod requires no SDK: go list runs in theirs.
func TestProviderSDKDepsSeesTheSDKPackages(t *testing.T) {
	buildtest.Require(t, "runs go list -deps")
	for pkg, sdk := range map[string]string{
		"runtime/openai/openaisdk":       "github.com/openai/openai-go/v3",
		"runtime/anthropic/anthropicsdk": "github.com/anthropics/anthropic-sdk-go",
		"runtime/gemini/geminisdk":       "google.golang.org/genai",
		"runtime/mcp":                    "github.com/modelcontextprotocol/go-sdk/mcp",
	} {
		dir := filepath.FromSlash(strings.TrimPrefix(pkg, "runtime/")) // the test runs in runtime/
		if pkg == "runtime/mcp" {
			dir = ""
		}
		deps, err := fixture.ProviderSDKDeps(dir, module+pkg)
		require.NoError(t, err)
		assert.Contains(t, deps, sdk, pkg)
	}
}
