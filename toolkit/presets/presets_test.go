package presets_test

import (
	"context"
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/internal/buildtest"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/ask"
	"github.com/toolgen-go/toolgen/toolkit/presets"
	"github.com/toolgen-go/toolgen/toolkit/presets/internal/presettest"
	"github.com/toolgen-go/toolgen/toolkit/presets/research"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
	"github.com/toolgen-go/toolgen/toolkit/workspace"
)

func TestAgent(t *testing.T) {
	tools := presets.Agent(presets.AgentOptions{Ask: &ask.Toolkit{Answerer: ask.AnswererFunc(func(context.Context, ask.Question) (ask.Answer, error) {
		return ask.Answer{Text: "yes"}, nil
	})}})
	assert.Equal(t, []string{"ask_user", "task", "todo_add", "todo_list", "todo_update", "write_todos"}, presettest.Names(tools), "one name per tool: no aliases")
	presettest.Declarable(t, tools)

	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(tools...))
	require.NoError(t, reg.Add(research.Tools(research.Options{})...), "the presets combine")
	res := reg.Invoke(t.Context(), runtime.Call{Name: "ask_user", Args: []byte(`{"question":"Go on?"}`)})
	assert.Equal(t, "The user answered: yes", res.Text)
	res = reg.Invoke(t.Context(), runtime.Call{Name: "task", Args: []byte(`{"description":"d","prompt":"p","agent":"x"}`)})
	assert.Contains(t, res.Text, "unknown agent")
	res = reg.Invoke(t.Context(), runtime.Call{Name: "todo_add", Args: []byte(`{"content":"c"}`)})
	assert.Equal(t, "Added todo 1: c (pending).", res.Text)
}

func TestCoding(t *testing.T) {
	sb := sandbox.NewMemory(map[string]string{"main.go": "package main\n"})
	tools := presets.Coding(presets.CodingOptions{Workspace: workspace.New(sb)})
	assert.Equal(t, []string{"ask_user", "edit_file", "glob", "grep", "list_dir", "read_file", "read_result", "shell",
		"task", "todo_add", "todo_list", "todo_update", "write_file", "write_todos"}, presettest.Names(tools))
	presettest.Declarable(t, tools)

	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(tools...))
	res := reg.Invoke(t.Context(), runtime.Call{Name: "read_file", Args: []byte(`{"path":"main.go"}`)})
	require.False(t, res.IsError, res.Text)
	assert.Contains(t, res.Text, "package main")
	res = reg.Invoke(t.Context(), runtime.Call{Name: "write_file", Args: []byte(`{"path":"x.go","content":"x"}`)})
	assert.True(t, res.IsError, "writes need approval, and this registry has no approver")

	// Without a workspace, each call must bring its sandbox.
	reg = runtime.NewRegistry()
	require.NoError(t, reg.Add(presets.Coding(presets.CodingOptions{})...))
	res = reg.Invoke(t.Context(), runtime.Call{Name: "read_file", Args: []byte(`{"path":"main.go"}`), UserData: sandbox.Sandbox(sb)})
	require.False(t, res.IsError, res.Text)
	res = reg.Invoke(t.Context(), runtime.Call{Name: "read_file", Args: []byte(`{"path":"main.go"}`)})
	assert.True(t, res.IsError)
}

func TestUnion(t *testing.T) {
	both, err := presets.Union(research.Tools(research.Options{}), presets.Coding(presets.CodingOptions{}))
	require.NoError(t, err, "read_result is the same tool in both")
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(both...), "one read_result")
	assert.Len(t, both, 7+14-1)
	require.Error(t, runtime.NewRegistry().Add(slices.Concat(research.Tools(research.Options{}), presets.Coding(presets.CodingOptions{}))...),
		"without Union the two read_result tools clash")
}

// A user's own grep beside Coding's is refused, naming both, never dropped in silence; with
// the preset's left out by Without, the user's is the one the registry runs.
func TestUnionRefusesTwoToolsOfOneName(t *testing.T) {
	mine := runtime.Tool{Name: "grep", Origin: "example.com/me.Grep", Bind: func(context.Context, []byte) (runtime.BoundCall, error) {
		return nil, errors.New("unused")
	}}
	coding := presets.Coding(presets.CodingOptions{})
	_, err := presets.Union(coding, []runtime.Tool{mine})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"grep"`)
	assert.Contains(t, err.Error(), "example.com/me.Grep")
	assert.Contains(t, err.Error(), "toolkit/workspace")
	assert.Contains(t, err.Error(), "presets.Without")

	tools, err := presets.Union(presets.Without(coding, "grep"), []runtime.Tool{mine})
	require.NoError(t, err)
	i := slices.IndexFunc(tools, func(t runtime.Tool) bool { return t.Name == "grep" })
	require.GreaterOrEqual(t, i, 0)
	assert.Equal(t, "example.com/me.Grep", tools[i].Origin)
	assert.Len(t, tools, len(coding))
	assert.Contains(t, presettest.Names(coding), "grep", "Without leaves the preset's slice as it was")
}

// A program using Coding or Agent does not link the web toolkit or its converters: a preset
// brings only what it uses.
func TestPresetsDoNotLinkTheWebToolkit(t *testing.T) {
	buildtest.Require(t, "runs go list -deps")
	out, err := exec.Command("go", "list", "-deps", "github.com/toolgen-go/toolgen/toolkit/presets").Output()
	require.NoError(t, err)
	deps := strings.Fields(string(out))
	require.Contains(t, deps, "github.com/toolgen-go/toolgen/toolkit/workspace", "the check sees the preset's own toolkits")
	for _, d := range deps {
		assert.NotContains(t, d, "toolkit/web", "presets links %s", d)
		assert.NotContains(t, d, "html-to-markdown", "presets links %s", d)
		assert.NotContains(t, d, "ledongthuc/pdf", "presets links %s", d)
	}
}
