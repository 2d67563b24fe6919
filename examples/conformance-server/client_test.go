package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clientScenarios is how many client scenarios @modelcontextprotocol/conformance 0.1.16 has.
const clientScenarios = 26

// clientFailures are the client scenarios the mount fails, all four for what the go-sdk's
// OAuth client (auth.AuthorizationCodeHandler, behind mount.Server.OAuth) does not do: the
// client-credentials grants (with a secret and with a JWT), cross-app access (an enterprise
// identity provider's token exchange), and a 2025-03-26 server whose authorization server
// metadata names another issuer than its URL, which the go-sdk refuses. Every other scenario
// passes: the handshake, a tool call, SSE resumption with Last-Event-ID after the server's
// retry delay, a question the server asks accepted with the form's defaults (Options.Elicit
// and ElicitUntied), and the authorization code flow in all its variants (metadata discovery
// and fallbacks, pre-registered, metadata-document and dynamic client registration, token
// endpoint authentication, scopes and step-up, offline access, issuer checks).
var clientFailures = []string{
	"auth/2025-03-26-oauth-metadata-backcompat",
	"auth/client-credentials-basic",
	"auth/client-credentials-jwt",
	"auth/cross-app-access-complete-flow",
}

// clientWarnings may appear: sse-retry warns when the reconnection comes more than 200ms
// after the retry delay, which a loaded machine can cause.
var clientWarnings = []string{"sse-retry/client-sse-retry-timing"}

// TestConformanceClient runs every client scenario of the official MCP conformance suite
// against ./client, which mounts the suite's test server into a registry with
// runtime/mcp/mount and calls its tools through Registry.Invoke. The scenarios run one at a
// time: sse-retry measures the client's reconnection delay.
func TestConformanceClient(t *testing.T) {
	node := suiteNode(t)
	names := listScenarios(t, node, "client")
	require.Len(t, names, clientScenarios, "the suite's client scenarios: %v", names)

	client := filepath.Join(t.TempDir(), "client")
	build := exec.Command("go", "build", "-o", client, "./client")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.NotContains(t, client, " ", "the suite splits its --command at spaces")

	dir := t.TempDir()
	for _, name := range names {
		cmd := exec.Command(node, suiteScript(), "client", "--command", client, "--scenario", name, "--output-dir", dir)
		cmd.Dir = suiteDir
		cmd.Env = suiteEnv(node)
		log, err := cmd.CombinedOutput()
		if !slices.Contains(clientFailures, name) {
			assert.NoError(t, err, "%s: %s", name, log)
		}
	}
	ran, failed, warned := results(t, dir, "")
	assert.ElementsMatch(t, names, ran, "every client scenario ran")
	assert.Equal(t, clientFailures, failed)
	assert.Subset(t, clientWarnings, warned)

	// The sum came back through Registry.Invoke, as the model would read it.
	stdout, err := filepath.Glob(filepath.Join(dir, "tools_call-*", "stdout.txt"))
	require.NoError(t, err)
	require.Len(t, stdout, 1)
	data, err := os.ReadFile(stdout[0])
	require.NoError(t, err)
	assert.True(t, strings.Contains(string(data), "add_numbers: The sum of 5 and 3 is 8"), "%s", data)
}
