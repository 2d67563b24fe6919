package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// interopEnv, set to 1 (CI sets it), makes a missing node or npm ci a failure instead of a skip.
const interopEnv = "TOOLGEN_MCP_INTEROP"

// interopChecks is how many checks testdata/interop/checks.mjs makes.
const interopChecks = 9

// interopToken is the bearer token of the stateless server: with it every request of the
// user is in one session (-token), so a check can read what an earlier request left.
const interopToken = "s3cret"

// interopClients are the TypeScript SDK's clients installed by `npm ci` in testdata/interop
// (pinned in its lock file), each with the protocol revision it negotiates by transport.
var interopClients = []struct {
	name    string
	script  string   // in testdata/interop
	options []string // for the script, before the transport
	module  string   // under node_modules
	// protocol by transport: what the client and the server agree on.
	protocol map[string]string
}{
	{
		// 1.32.2 is a 2025-11-25 client: it offers 2025-11-25 only.
		name: "1.32.2", script: "client.mjs", module: "@modelcontextprotocol/sdk",
		protocol: map[string]string{"stdio": "2025-11-25", "stateful HTTP": "2025-11-25", "stateless HTTP": "2025-11-25"},
	},
	{
		// v2 probes with server/discover ('auto') and speaks 2026-07-28 where the server
		// offers it; the go-sdk refuses 2026-07-28 over stateful HTTP, where v2 falls back
		// to the initialize handshake and 2025-11-25 (docs/mcp.md, "What differs by protocol").
		name: "2.4.0", script: "client-v2.mjs", module: "@modelcontextprotocol/client",
		protocol: map[string]string{"stdio": "2026-07-28", "stateful HTTP": "2025-11-25", "stateless HTTP": "2026-07-28"},
	},
	{
		// v2 as a 2025-era client offering 2025-06-18 only, the oldest revision the go-sdk
		// client speaks in runtime/mcp's matrix.
		name: "2.4.0 on 2025-06-18", script: "client-v2.mjs", options: []string{"--protocol=2025-06-18"}, module: "@modelcontextprotocol/client",
		protocol: map[string]string{"stdio": "2025-06-18", "stateful HTTP": "2025-06-18", "stateless HTTP": "2025-06-18"},
	},
}

// TestInteropWithTheTypeScriptSDK runs clients from another implementation, the official
// TypeScript SDK (1.32.2 and the v2 line), against the built server over stdio and over
// stateful and stateless HTTP, on each revision they negotiate: tools/list with pagination,
// valid, invalid and error calls, a structured result larger than its cap, progress,
// cancellation, approval and elicitation (requests to the client up to 2025-11-25,
// input-required results on 2026-07-28). Each run prints the protocol it negotiated, asserted
// here with the count of checks that passed.
func TestInteropWithTheTypeScriptSDK(t *testing.T) {
	dir := filepath.Join("testdata", "interop")
	node, err := exec.LookPath("node")
	for _, c := range interopClients {
		if err == nil {
			_, err = os.Stat(filepath.Join(dir, "node_modules", filepath.FromSlash(c.module)))
		}
	}
	if err != nil {
		if os.Getenv(interopEnv) == "1" {
			t.Fatalf("%s=1 but the TypeScript clients cannot run (install node and run `npm ci` in %s): %v", interopEnv, dir, err)
		}
		t.Skipf("no node or no `npm ci` in %s (set %s=1 to make this a failure): %v", dir, interopEnv, err)
	}
	// transports start a server for a client and return the client's arguments after its
	// options.
	transports := []struct {
		name  string
		start func(t *testing.T) []string
	}{
		{"stdio", func(t *testing.T) []string { return []string{"stdio", binary(t), "-page-size", "4"} }},
		{"stateful HTTP", func(t *testing.T) []string { return []string{"http", startHTTP(t, "-page-size", "4")} }},
		{"stateless HTTP", func(t *testing.T) []string {
			url := startHTTP(t, "-page-size", "4", "-stateless", "-token", interopToken)
			return []string{"--stateless", "--token=" + interopToken, "http", url}
		}},
	}
	for _, c := range interopClients {
		for _, tr := range transports {
			t.Run(c.name+"/"+tr.name, func(t *testing.T) {
				args := append([]string{c.script}, c.options...)
				cmd := exec.Command(node, append(args, tr.start(t)...)...)
				cmd.Dir = dir
				out, err := cmd.CombinedOutput()
				assert.NoError(t, err)
				assert.Equal(t, c.protocol[tr.name], negotiated(string(out)), "the protocol negotiated")
				assert.Equal(t, interopChecks, len(okLine.FindAllString(string(out), -1)), "the checks passed")
				assert.Empty(t, failLine.FindAllString(string(out), -1), "no check failed")
				if t.Failed() {
					t.Logf("%s printed:\n%s", c.script, out)
				}
			})
		}
	}
}

// okLine and failLine are a check that passed and one that failed in the output of checks.mjs.
var (
	okLine   = regexp.MustCompile(`(?m)^ok `)
	failLine = regexp.MustCompile(`(?m)^FAIL .*`)
)

// negotiated returns the revision checks.mjs says the client negotiated ("protocol VERSION").
func negotiated(out string) string {
	for line := range strings.Lines(out) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "protocol "); ok {
			return v
		}
	}
	return ""
}

func TestMain(m *testing.M) {
	code := m.Run()
	if builtDir != "" {
		os.RemoveAll(builtDir)
	}
	os.Exit(code)
}
