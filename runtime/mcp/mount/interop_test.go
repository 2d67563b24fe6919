package mount_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/internal/buildtest"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/mcp/mount"
)

// interopEnv, set to 1 (CI sets it), makes a missing node or npm ci a failure instead of a
// skip, as in examples/mcp-server.
const interopEnv = "TOOLGEN_MCP_INTEROP"

// interopDir holds the TypeScript SDK (npm ci from the committed lock file) and server.mjs.
var interopDir = filepath.Join("..", "..", "..", "examples", "mcp-server", "testdata", "interop")

// TestMountTypeScriptServer mounts a server from another implementation, the official
// TypeScript SDK with zod schemas, over stdio: draft-07 schemas, open objects validated by
// the general validator, a structured result checked against its output schema, progress and
// cancellation reaching the server, tools/list_changed followed.
func TestMountTypeScriptServer(t *testing.T) {
	buildtest.Require(t, "runs node")
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(interopDir, "node_modules", "@modelcontextprotocol", "sdk"))
	}
	if err != nil {
		if os.Getenv(interopEnv) == "1" {
			t.Fatalf("%s=1 but the TypeScript server cannot run (install node and run `npm ci` in %s): %v", interopEnv, interopDir, err)
		}
		t.Skipf("no node or no `npm ci` in %s (set %s=1 to make this a failure): %v", interopDir, interopEnv, err)
	}
	reg := runtime.NewRegistry()
	m, err := mount.Mount(t.Context(), reg, mount.Server{Name: "ts", Command: []string{node, "server.mjs"}, Dir: interopDir, Stderr: os.Stderr},
		mount.Options{Logger: quiet})
	require.NoError(t, err)
	defer m.Close()
	assert.Equal(t, []string{"ts_add", "ts_cancelled", "ts_enable", "ts_shout", "ts_wait"}, m.Tools())
	assert.Empty(t, m.Skipped())

	res := invoke(reg, "ts_add", `{"a":2,"b":40}`)
	require.False(t, res.IsError, res.Text)
	assert.JSONEq(t, `{"sum":42}`, string(res.Structured))
	res = invoke(reg, "ts_add", `{"a":"two"}`)
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, "/a")
	assert.Contains(t, res.Text, "/b: required property is missing", "checked here, as schematool compiles the TypeScript SDK's open schemas: every problem at once")
	res = invoke(reg, "ts_shout", `{"text":"hi"}`)
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, "HI", res.Text)
	res = invoke(reg, "ts_shout", `{"text":"this text is far too long"}`)
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, "/text")

	// Progress comes back; cancellation goes out.
	var mu sync.Mutex
	var reports []string
	progressed := make(chan struct{})
	ctx, cancel := context.WithCancel(runtime.WithCallHooks(context.Background(), &runtime.CallHooks{
		Progress: func(_ context.Context, done, total float64, message string) {
			mu.Lock()
			defer mu.Unlock()
			if reports = append(reports, message); len(reports) == 1 {
				close(progressed)
			}
		},
	}))
	results := make(chan runtime.Result, 1)
	go func() { results <- reg.Invoke(ctx, runtime.Call{Name: "ts_wait", Args: []byte(`{}`)}) }()
	select {
	case <-progressed:
	case <-time.After(30 * time.Second):
		t.Fatal("no progress from the TypeScript server")
	}
	cancel()
	assert.Equal(t, runtime.KindCancelled, (<-results).Kind)
	eventually(t, "the TypeScript server saw the cancellation", func() bool { return invoke(reg, "ts_cancelled", `{}`).Text == "1" })
	assert.Equal(t, []string{"half way"}, reports)

	// tools/list_changed.
	require.False(t, invoke(reg, "ts_enable", `{}`).IsError)
	eventually(t, "the new tool is registered", func() bool { _, ok := reg.Tool("ts_later"); return ok })
	assert.Equal(t, "here", invoke(reg, "ts_later", `{}`).Text)
}
