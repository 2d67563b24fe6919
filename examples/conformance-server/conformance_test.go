package main

import (
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/internal/buildtest"
)

// conformanceEnv, set to 1 (CI sets it), makes a missing `npm ci` a failure instead of a skip.
const conformanceEnv = "TOOLGEN_MCP_CONFORMANCE"

// suiteDir holds the suite and the Node.js it needs (>= 22), installed by `npm ci` from the
// committed lock file.
var suiteDir = filepath.Join("testdata", "conformance")

// serverScenarios is how many server scenarios @modelcontextprotocol/conformance 0.1.16 has.
const serverScenarios = 32

// statelessFailures are the scenarios stateless HTTP fails, and must: on protocols up to
// 2025-11-25 a server reaches the client with requests of its own (sampling/createMessage,
// elicitation/create), which need the session stateless HTTP does not keep.
var statelessFailures = []string{"elicitation-sep1034-defaults", "elicitation-sep1330-enums", "tools-call-elicitation", "tools-call-sampling"}

// knownWarnings are the warnings every run has: the suite's server-sse-polling sends its raw
// tools/call with MCP-Protocol-Version 2025-03-26, and the go-sdk writes the SSE priming event
// (with its retry field) only for 2025-11-25, which defined it (SEP-1699).
var knownWarnings = []string{"server-sse-polling/server-sse-priming-event", "server-sse-polling/server-sse-retry-field"}

// statelessWarnings are the known warnings and those of the SSE scenarios that want a session
// (Mcp-Session-Id), which stateless HTTP has not. The polling scenario's priming-event checks
// do not apply: HTTPHandler answers its plain tools/call in JSON (runtime/mcp's calls served
// beside the SDK), which the suite reports as information.
var statelessWarnings = []string{"server-sse-multiple-streams/server-sse-multiple-streams-session", "server-sse-polling/server-sse-polling-session"}

// TestConformanceSuite runs every server scenario of the official MCP conformance suite
// against the server, written only with toolgen's API, over streamable HTTP: stateful, where
// every scenario passes, and stateless, where those that need a request to the client fail.
func TestConformanceSuite(t *testing.T) {
	node := suiteNode(t)
	names := listScenarios(t, node, "server")
	require.Len(t, names, serverScenarios, "the suite's server scenarios: %v", names)

	for _, mode := range []struct {
		name      string
		stateless bool
		failures  []string
		warnings  []string
	}{{"stateful", false, nil, knownWarnings}, {"stateless", true, statelessFailures, statelessWarnings}} {
		t.Run(mode.name, func(t *testing.T) {
			handler, err := newHandler(mode.stateless)
			require.NoError(t, err)
			mux := http.NewServeMux()
			mux.Handle("/mcp", handler)
			srv := httptest.NewServer(mux)
			t.Cleanup(srv.Close)

			out := t.TempDir()
			cmd := exec.Command(node, suiteScript(), "server", "--url", srv.URL+"/mcp", "--suite", "all", "--output-dir", out)
			cmd.Dir = suiteDir
			cmd.Env = suiteEnv(node)
			log, err := cmd.CombinedOutput()
			if len(mode.failures) == 0 {
				require.NoError(t, err, "%s", log)
			}
			ran, failed, warned := results(t, out, "server-")
			assert.ElementsMatch(t, names, ran, "every server scenario ran")
			assert.Equal(t, mode.failures, failed, "%s", log)
			assert.Equal(t, mode.warnings, warned)
		})
	}
}

// suiteNode returns the path of the suite's Node.js, skipping the test when the suite is not
// installed (failing it under TOOLGEN_MCP_CONFORMANCE=1).
func suiteNode(t *testing.T) string {
	buildtest.Require(t, "runs the MCP conformance suite under Node.js")
	if _, err := os.Stat(filepath.Join(suiteDir, "node_modules", "@modelcontextprotocol", "conformance")); err != nil {
		if os.Getenv(conformanceEnv) == "1" {
			t.Fatalf("%s=1 but the suite is not installed (run `npm ci` in %s): %v", conformanceEnv, suiteDir, err)
		}
		t.Skipf("the suite is not installed (run `npm ci` in %s; set %s=1 to make this a failure): %v", suiteDir, conformanceEnv, err)
	}
	node, err := filepath.Abs(filepath.Join(suiteDir, "node_modules", ".bin", "node"))
	require.NoError(t, err)
	return node
}

func suiteScript() string {
	return filepath.Join("node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
}

// suiteEnv puts the suite's Node.js first on PATH, for anything the suite starts.
func suiteEnv(node string) []string {
	return append(os.Environ(), "PATH="+filepath.Dir(node)+string(os.PathListSeparator)+os.Getenv("PATH"))
}

var listed = regexp.MustCompile(`(?m)^\s*- (\S+) \[`)

// listScenarios returns the names of the suite's scenarios of one side: "server" or "client".
func listScenarios(t *testing.T, node, side string) []string {
	cmd := exec.Command(node, suiteScript(), "list", "--"+side)
	cmd.Dir = suiteDir
	cmd.Env = suiteEnv(node)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	var names []string
	for _, m := range listed.FindAllStringSubmatch(string(out), -1) {
		names = append(names, m[1])
	}
	return names
}

// results reads the checks the suite saved, a directory per scenario (server runs:
// server-NAME-TIMESTAMP/checks.json; client runs: NAME-TIMESTAMP/checks.json, where an auth/
// scenario's NAME makes a subdirectory), and returns the scenarios that ran, those with a
// failed check and the warnings (scenario/check), sorted.
func results(t *testing.T, dir, prefix string) (ran, failed, warned []string) {
	stamp := regexp.MustCompile(`^` + prefix + `(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$`)
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, filepath.Dir(path))
		if err != nil {
			return err
		}
		m := stamp.FindStringSubmatch(filepath.ToSlash(rel))
		require.NotNil(t, m, "unexpected result %s", rel)
		if e.Name() != "checks.json" {
			return nil // the client's stdout.txt and stderr.txt
		}
		name := m[1]
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		var checks []struct {
			ID, Status, ErrorMessage string
		}
		require.NoError(t, json.Unmarshal(data, &checks))
		ran = append(ran, name)
		for _, c := range checks {
			switch c.Status {
			case "FAILURE":
				if !slices.Contains(failed, name) {
					failed = append(failed, name)
				}
				t.Logf("%s: %s failed: %s", name, c.ID, c.ErrorMessage)
			case "WARNING":
				warned = append(warned, name+"/"+c.ID)
				t.Logf("%s: %s warns: %s", name, c.ID, c.ErrorMessage)
			}
		}
		return nil
	})
	require.NoError(t, err)
	slices.Sort(ran)
	slices.Sort(failed)
	slices.Sort(warned)
	return ran, failed, slices.Compact(warned)
}

// TestServedWithTheGoSDK checks, without Node.js, what the generated prompts and resources
// give a client: the go-sdk's, over streamable HTTP.
func TestServedWithTheGoSDK(t *testing.T) {
	handler, err := newHandler(false)
	require.NoError(t, err)
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	ctx := t.Context()

	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	for _, tool := range tools.Tools {
		if tool.Name == "json_schema_2020_12_tool" {
			schema, _ := json.Marshal(tool.InputSchema)
			assert.JSONEq(t, `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
				"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"}},"additionalProperties":false,
				"$defs":{"address":{"description":"address is a postal address. Its type name is the $defs key the suite expects.",
					"type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}},"additionalProperties":false}}}`, string(schema))
		}
	}
	prompts, err := cs.ListPrompts(ctx, nil)
	require.NoError(t, err)
	require.Len(t, prompts.Prompts, 4)
	got, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "test_prompt_with_arguments", Arguments: map[string]string{"arg1": "a", "arg2": "b"}})
	require.NoError(t, err)
	assert.Equal(t, "Prompt with arguments: arg1='a', arg2='b'", got.Messages[0].Content.(*mcp.TextContent).Text)
	for _, p := range prompts.Prompts {
		if p.Name == "test_prompt_with_arguments" {
			args, _ := json.Marshal(p.Arguments)
			assert.JSONEq(t, `[{"name":"arg1","description":"First test argument.","required":true},{"name":"arg2","description":"Second test argument.","required":true}]`, string(args))
		}
	}

	resources, err := cs.ListResources(ctx, nil)
	require.NoError(t, err)
	assert.Len(t, resources.Resources, 3)
	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://template/123/data"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"id":"123","templateTest":true,"data":"Data for ID: 123"}`, read.Contents[0].Text)
	assert.Equal(t, "application/json", read.Contents[0].MIMEType)
}
