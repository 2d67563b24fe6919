package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// interopEnv, set to 1 (CI sets it), makes a missing node or npm ci a failure instead of a skip.
const interopEnv = "TOOLGEN_MCP_INTEROP"

// interopChecks is how many checks testdata/interop/client.mjs makes.
const interopChecks = 9

// TestInteropWithTheTypeScriptSDK runs a client from another implementation, the official
// TypeScript SDK installed by `npm ci` in testdata/interop, against the built server over
// stdio and over stateful and stateless HTTP: tools/list with pagination, valid, invalid and
// error calls, a structured result larger than its cap, progress, cancellation, approval and
// elicitation.
func TestInteropWithTheTypeScriptSDK(t *testing.T) {
	dir := filepath.Join("testdata", "interop")
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk"))
	}
	if err != nil {
		if os.Getenv(interopEnv) == "1" {
			t.Fatalf("%s=1 but the TypeScript client cannot run (install node and run `npm ci` in %s): %v", interopEnv, dir, err)
		}
		t.Skipf("no node or no `npm ci` in %s (set %s=1 to make this a failure): %v", dir, interopEnv, err)
	}
	run := func(t *testing.T, args ...string) {
		cmd := exec.Command(node, append([]string{"client.mjs"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		assert.NoError(t, err, "%s", out)
		assert.Equal(t, interopChecks, strings.Count(string(out), "\nok ")+boolInt(strings.HasPrefix(string(out), "ok ")), "%s", out)
		assert.NotContains(t, string(out), "FAIL")
	}
	t.Run("stdio", func(t *testing.T) { run(t, "stdio", binary(t), "-page-size", "4") })
	t.Run("stateful HTTP", func(t *testing.T) { run(t, "http", startHTTP(t, "-page-size", "4")) })
	t.Run("stateless HTTP", func(t *testing.T) { run(t, "http", startHTTP(t, "-page-size", "4", "-stateless"), "stateless") })
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestMain(m *testing.M) {
	code := m.Run()
	if builtDir != "" {
		os.RemoveAll(builtDir)
	}
	os.Exit(code)
}
