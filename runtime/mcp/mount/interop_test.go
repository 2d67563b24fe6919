package mount_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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

// typeScriptServers are the servers from another implementation in interopDir: the
// TypeScript SDK 1.32.2 (a 2025-11-25 server) and its v2 line (both eras from one factory;
// the mount's go-sdk client opens with server/discover and gets 2026-07-28).
var typeScriptServers = []struct {
	name, script, module string
	protocol             string // what the mount and the server agree on
	// asksForTheCall: the server's question can be tied to the call it belongs to. On
	// 2026-07-28 it is the call's input-required result; before it an elicitation/create
	// request, which names no call over stdio, so the mount declines it.
	asksForTheCall bool
}{
	{"1.32.2", "server.mjs", "@modelcontextprotocol/sdk", "2025-11-25", false},
	{"2.4.0", "server-v2.mjs", "@modelcontextprotocol/server", "2026-07-28", true},
}

// TestMountTypeScriptServer mounts servers from another implementation, the official
// TypeScript SDK (1.32.2 and the v2 line) with zod schemas, over stdio, on the revision each
// negotiates: draft-07 (1.32.2) and draft 2020-12 (v2) schemas, open objects validated by the
// general validator, a structured result checked against its output schema, progress and
// cancellation reaching the server, tools/list_changed followed, and a question for the user
// passed to Options.Elicit with the ctx of its call where it can be tied to it.
func TestMountTypeScriptServer(t *testing.T) {
	buildtest.Require(t, "runs node")
	node, err := exec.LookPath("node")
	for _, s := range typeScriptServers {
		if err == nil {
			_, err = os.Stat(filepath.Join(interopDir, "node_modules", filepath.FromSlash(s.module)))
		}
	}
	if err != nil {
		if os.Getenv(interopEnv) == "1" {
			t.Fatalf("%s=1 but the TypeScript servers cannot run (install node and run `npm ci` in %s): %v", interopEnv, interopDir, err)
		}
		t.Skipf("no node or no `npm ci` in %s (set %s=1 to make this a failure): %v", interopDir, interopEnv, err)
	}
	for _, s := range typeScriptServers {
		t.Run(s.name, func(t *testing.T) {
			var asked atomic.Int32
			reg := runtime.NewRegistry()
			m, err := mount.Mount(t.Context(), reg, mount.Server{Name: "ts", Command: []string{node, s.script}, Dir: interopDir, Stderr: os.Stderr},
				mount.Options{Logger: quiet, Elicit: answerWithNote(&asked)})
			require.NoError(t, err)
			defer m.Close()
			assert.Equal(t, []string{"ts_add", "ts_cancelled", "ts_confirm", "ts_enable", "ts_protocol", "ts_shout", "ts_wait"}, m.Tools())
			assert.Empty(t, m.Skipped())
			assert.Equal(t, s.protocol, invoke(reg, "ts_protocol", `{}`).Text, "the revision negotiated")
			checkTypeScriptServer(t, reg)

			// A question for the user, asked while the call runs.
			res := reg.Invoke(context.WithValue(context.Background(), callKey{}, "the deploy call"), runtime.Call{Name: "ts_confirm", Args: []byte(`{"step":"deploy"}`)})
			if s.asksForTheCall {
				require.False(t, res.IsError, res.Text)
				assert.Equal(t, "going on with deploy: the deploy call", res.Text, "answered with the ctx of its own call")
				assert.Equal(t, int32(1), asked.Load())
			} else {
				assert.True(t, res.IsError, res.Text)
				assert.Contains(t, res.Text, "names no call, so it is declined", "the server reports the mount's refusal")
				assert.Zero(t, asked.Load(), "a question that names no call never reaches Options.Elicit")
			}
		})
	}
}

// answerWithNote is an Options.Elicit that accepts every question, the answer's note naming
// the call its ctx carries (callKey).
func answerWithNote(asked *atomic.Int32) func(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	return func(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		asked.Add(1)
		name, _ := ctx.Value(callKey{}).(string)
		if name == "" {
			return nil, errors.New("not the call's ctx")
		}
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true, "note": name}}, nil
	}
}

// checkTypeScriptServer checks the tools of server-tools.mjs, mounted with the prefix ts.
func checkTypeScriptServer(t *testing.T, reg *runtime.Registry) {
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
	before := invoke(reg, "ts_cancelled", `{}`).Text
	go func() { results <- reg.Invoke(ctx, runtime.Call{Name: "ts_wait", Args: []byte(`{}`)}) }()
	select {
	case <-progressed:
	case <-time.After(30 * time.Second):
		t.Fatal("no progress from the TypeScript server")
	}
	cancel()
	assert.Equal(t, runtime.KindCancelled, (<-results).Kind)
	eventually(t, "the TypeScript server saw the cancellation", func() bool { return invoke(reg, "ts_cancelled", `{}`).Text != before })
	assert.Equal(t, []string{"half way"}, reports)

	// tools/list_changed.
	require.False(t, invoke(reg, "ts_enable", `{}`).IsError)
	eventually(t, "the new tool is registered", func() bool { _, ok := reg.Tool("ts_later"); return ok })
	assert.Equal(t, "here", invoke(reg, "ts_later", `{}`).Text)
}
