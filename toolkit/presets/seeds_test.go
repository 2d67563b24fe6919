package presets_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/presets"
	"github.com/toolgen-go/toolgen/toolkit/presets/internal/presettest"
	"github.com/toolgen-go/toolgen/toolkit/presets/research"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
	"github.com/toolgen-go/toolgen/toolkit/subagent"
	"github.com/toolgen-go/toolgen/toolkit/web"
	"github.com/toolgen-go/toolgen/toolkit/workspace"
)

func TestBeamAINames(t *testing.T) {
	sb := sandbox.NewMemory(map[string]string{"main.go": "package main\n", "docs/a.md": "# A\n"})
	tools := presets.BeamAI(workspace.New(sb))
	assert.Equal(t, []string{"file_glob", "file_list", "file_read", "file_write", "read_result", "shell_exec"}, presettest.Names(tools))
	presettest.Declarable(t, tools)
	reg := runtime.NewRegistry(runtime.WithApprover(runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
		return runtime.Decision{Approved: req.Tool == "file_write"}, nil
	})))
	require.NoError(t, reg.Add(tools...))

	res := reg.Invoke(t.Context(), runtime.Call{Name: "file_read", Args: []byte(`{"path":"main.go"}`)})
	require.False(t, res.IsError, res.Text)
	assert.Contains(t, res.Text, "package main")
	res = reg.Invoke(t.Context(), runtime.Call{Name: "file_write", Args: []byte(`{"path":"new.txt","content":"hi"}`)})
	require.False(t, res.IsError, res.Text)
	res = reg.Invoke(t.Context(), runtime.Call{Name: "file_glob", Args: []byte(`{"pattern":"**/*.md"}`)})
	require.False(t, res.IsError, res.Text)
	assert.Contains(t, res.Text, "docs/a.md")
	res = reg.Invoke(t.Context(), runtime.Call{Name: "file_list", Args: []byte(`{}`)})
	require.False(t, res.IsError, res.Text)
	assert.Contains(t, res.Text, "new.txt")
	// The old names are gone: read_file is an unknown tool.
	res = reg.Invoke(t.Context(), runtime.Call{Name: "read_file", Args: []byte(`{"path":"main.go"}`)})
	assert.True(t, res.IsError)
}

func TestXMLAgentNames(t *testing.T) {
	runner := subagent.RunnerFunc(func(_ context.Context, req subagent.Request) (string, error) {
		return "ran " + req.Agent.Name + ": " + req.Prompt, nil
	})
	tools := presets.XMLAgent(&subagent.Toolkit{Runner: runner, Agents: []subagent.Agent{{Name: "coder", Description: "writes code"}}})
	require.Len(t, tools, 1)
	presettest.Declarable(t, tools)
	var schema struct {
		Properties map[string]any `json:"properties"`
		Required   []string       `json:"required"`
	}
	require.NoError(t, json.Unmarshal(tools[0].InputSchema, &schema))
	assert.Contains(t, schema.Properties, "agent_name")
	assert.NotContains(t, schema.Properties, "agent")
	assert.Contains(t, schema.Required, "agent_name")

	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(tools...))
	res := reg.Invoke(t.Context(), runtime.Call{Name: "call_subagent", Args: []byte(`{"agent_name":"coder","description":"d","prompt":"fix it"}`)})
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, "ran coder: fix it", res.Text)
	// The toolkit's name is unknown under the seed's: the model is pointed to the new one.
	res = reg.Invoke(t.Context(), runtime.Call{Name: "call_subagent", Args: []byte(`{"agent":"coder","description":"d","prompt":"p"}`)})
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, `/agent: unknown property`)
	assert.Contains(t, res.Text, `/agent_name: required property is missing`)
	// The handler's own refusal still reaches the model.
	res = reg.Invoke(t.Context(), runtime.Call{Name: "call_subagent", Args: []byte(`{"agent_name":"nobody","description":"d","prompt":"p"}`)})
	assert.Contains(t, res.Text, "unknown agent")

	search := research.XMLAgent(&web.Toolkit{Searcher: searcher{}})
	require.Len(t, search, 1)
	reg = runtime.NewRegistry()
	require.NoError(t, reg.Add(search...))
	res = reg.Invoke(t.Context(), runtime.Call{Name: "web_search", Args: []byte(`{"query":"go","max_results":2,"freshness":"week"}`)})
	require.False(t, res.IsError, res.Text)
	assert.JSONEq(t, `{"results":[{"title":"go week 2","url":"https://example.com/","snippet":""}]}`, string(res.Structured))
	// Past the host's limit (20 unless set), the limit; the seed's Bocha-style call as written.
	res = reg.Invoke(t.Context(), runtime.Call{Name: "web_search", Args: []byte(`{"query":"go","max_results":50}`)})
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, "go any "+string(rune('0'+20)), firstTitle(t, res.Structured))
	res = reg.Invoke(t.Context(), runtime.Call{Name: "web_search", Args: []byte(`{"query":"go","freshness":"noLimit","count":3}`)})
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, "go any 3", firstTitle(t, res.Structured))
}

func TestOpenAkitaNames(t *testing.T) {
	tools := presets.OpenAkita(nil)
	assert.Equal(t, []string{"read_result", "run_shell"}, presettest.Names(tools))
	assert.Equal(t, runtime.PermissionConfirm, tools[0].Permission, "the shell's policies come along")
}

func TestRenameRefusesAnUnknownArgument(t *testing.T) {
	tool := presets.OpenAkita(nil)[0]
	_, err := presets.Rename(tool, "sh", map[string]string{"cmd": "command_line"})
	assert.ErrorContains(t, err, `no argument "cmd" to rename`)
	_, err = presets.Rename(tool, "sh", map[string]string{"command": "workdir"})
	assert.ErrorContains(t, err, "repeated")
}

// searcher answers with the freshness and count it was asked for.
// gjson returns the title of web_search's first result.
func firstTitle(t *testing.T, structured json.RawMessage) string {
	t.Helper()
	var r web.SearchResults
	require.NoError(t, json.Unmarshal(structured, &r))
	require.NotEmpty(t, r.Results)
	return r.Results[0].Title
}

type searcher struct{}

func (searcher) Search(ctx context.Context, q string, n int) ([]web.SearchResult, error) {
	return searcher{}.SearchFresh(ctx, q, n, web.FreshnessAny)
}

func (searcher) SearchFresh(_ context.Context, q string, n int, f web.Freshness) ([]web.SearchResult, error) {
	return []web.SearchResult{{Title: q + " " + string(f) + " " + string(rune('0'+n)), URL: "https://example.com/"}}, nil
}

// The workspace's approvers know BeamAI's file_write and shell_exec by their arguments, not
// their names: renamed, they are approved as write_file and shell are.
func TestBeamAIKeepsTheWorkspaceApprovers(t *testing.T) {
	sb := sandbox.NewMemory(map[string]string{"main.go": "package main\n"})
	w := workspace.New(sb)
	reg := runtime.NewRegistry(runtime.WithApprover(w.AllowWrites(w.AllowCommands(nil, "ls"))))
	require.NoError(t, reg.Add(presets.BeamAI(w)...))

	res := reg.Invoke(t.Context(), runtime.Call{Name: "file_write", Args: []byte(`{"path":"notes.txt","content":"hi"}`)})
	require.False(t, res.IsError, res.Text)
	res = reg.Invoke(t.Context(), runtime.Call{Name: "file_write", Args: []byte(`{"path":".bashrc","content":"x"}`)})
	assert.Equal(t, runtime.KindPermission, res.Kind, "a protected path still goes to the user: %s", res.Text)

	res = reg.Invoke(t.Context(), runtime.Call{Name: "shell_exec", Args: []byte(`{"command":"ls"}`)})
	assert.NotEqual(t, runtime.KindPermission, res.Kind, "ls is approved; the memory sandbox then cannot run it: %s", res.Text)
	assert.Contains(t, res.Text, "cannot run commands")
	res = reg.Invoke(t.Context(), runtime.Call{Name: "shell_exec", Args: []byte(`{"command":"rm main.go"}`)})
	assert.Equal(t, runtime.KindPermission, res.Kind, res.Text)
}
