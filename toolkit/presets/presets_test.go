package presets_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolanthropic "github.com/toolgen-go/toolgen/runtime/anthropic"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	toolopenai "github.com/toolgen-go/toolgen/runtime/openai"
	"github.com/toolgen-go/toolgen/toolkit/ask"
	"github.com/toolgen-go/toolgen/toolkit/presets"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
	"github.com/toolgen-go/toolgen/toolkit/web"
	"github.com/toolgen-go/toolgen/toolkit/workspace"
)

func names(tools []runtime.Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name
	}
	slices.Sort(out)
	return out
}

// declarable checks that every adapter can declare the tools.
func declarable(t *testing.T, tools []runtime.Tool) {
	t.Helper()
	_, err := toolanthropic.ToolsJSON(tools)
	require.NoError(t, err)
	_, err = toolopenai.ChatToolsJSON(tools)
	require.NoError(t, err)
	_, err = toolmcp.ToolsJSON(tools)
	require.NoError(t, err)
}

func TestResearch(t *testing.T) {
	t.Setenv("SERPER_API_KEY", "")
	t.Setenv("FIRECRAWL_API_KEY", "")
	tools := presets.Research(presets.ResearchOptions{})
	assert.Equal(t, []string{"create_artifact", "read_artifact", "read_result", "rewrite_artifact", "update_artifact", "web_fetch", "web_search"}, names(tools))
	declarable(t, tools)

	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(tools...))
	// The defaults: the address guard on, no searcher without a key, artifacts in memory.
	local := httptest.NewServer(http.NotFoundHandler())
	defer local.Close()
	res := reg.Invoke(t.Context(), runtime.Call{Name: "web_fetch", Args: []byte(`{"url":"` + local.URL + `"}`)})
	require.True(t, res.IsError)
	assert.Equal(t, runtime.KindPermission, res.Kind)
	res = reg.Invoke(t.Context(), runtime.Call{Name: "web_search", Args: []byte(`{"query":"go"}`)})
	assert.Contains(t, res.Text, "web search is not configured")
	res = reg.Invoke(t.Context(), runtime.Call{Name: "create_artifact", Args: []byte(`{"id":"notes","content":"x"}`)})
	require.False(t, res.IsError, res.Text)
}

func TestAgent(t *testing.T) {
	tools := presets.Agent(presets.AgentOptions{Ask: &ask.Toolkit{Answerer: ask.AnswererFunc(func(context.Context, ask.Question) (ask.Answer, error) {
		return ask.Answer{Text: "yes"}, nil
	})}})
	assert.Equal(t, []string{"ask_user", "task", "todo_add", "todo_list", "todo_update", "write_todos"}, names(tools), "one name per tool: no aliases")
	declarable(t, tools)

	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(tools...))
	require.NoError(t, reg.Add(presets.Research(presets.ResearchOptions{})...), "the presets combine")
	res := reg.Invoke(t.Context(), runtime.Call{Name: "ask_user", Args: []byte(`{"question":"Go on?"}`)})
	assert.Equal(t, "The user answered: yes", res.Text)
	res = reg.Invoke(t.Context(), runtime.Call{Name: "task", Args: []byte(`{"description":"d","prompt":"p","agent":"x"}`)})
	assert.Contains(t, res.Text, "unknown agent")
	res = reg.Invoke(t.Context(), runtime.Call{Name: "todo_add", Args: []byte(`{"content":"c"}`)})
	assert.Equal(t, "Added todo 1: c (pending).", res.Text)
}

// A page over web_fetch's cap is kept by the registry, and the preset's read_result reads on.
func TestResearchReadsOnInALongPage(t *testing.T) {
	page := strings.Repeat("line of a long page\n", 3000) + "THE END\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, page)
	}))
	defer srv.Close()
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(presets.Research(presets.ResearchOptions{
		Web: &web.Toolkit{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}},
	})...))
	res := reg.Invoke(t.Context(), runtime.Call{Name: "web_fetch", Session: "s", Args: []byte(`{"url":"` + srv.URL + `"}`)})
	require.False(t, res.IsError, res.Text)
	require.NotNil(t, res.Offloaded)
	require.NotEmpty(t, res.Offloaded.ID)
	assert.Contains(t, res.Text, "read_result", "the note says how to read on")
	assert.NotContains(t, res.Text, "THE END")

	offset := int64(len(res.Text) / 2) // somewhere inside the preview
	for range 10 {
		more := reg.Invoke(t.Context(), runtime.Call{Name: "read_result", Session: "s",
			Args: fmt.Appendf(nil, `{"id":%q,"offset":%d}`, res.Offloaded.ID, offset)})
		require.False(t, more.IsError, more.Text)
		if strings.Contains(more.Text, "THE END") {
			return
		}
		offset += 16000
	}
	t.Fatal("read_result never reached the end of the page")
}

func TestCoding(t *testing.T) {
	sb := sandbox.NewMemory(map[string]string{"main.go": "package main\n"})
	tools := presets.Coding(presets.CodingOptions{Workspace: workspace.New(sb)})
	assert.Equal(t, []string{"ask_user", "edit_file", "glob", "grep", "list_dir", "read_file", "read_result", "shell",
		"task", "todo_add", "todo_list", "todo_update", "write_file", "write_todos"}, names(tools))
	declarable(t, tools)

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
	both := presets.Union(presets.Research(presets.ResearchOptions{}), presets.Coding(presets.CodingOptions{}))
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(both...), "one read_result")
	assert.Len(t, both, 7+14-1)
	require.Error(t, runtime.NewRegistry().Add(slices.Concat(presets.Research(presets.ResearchOptions{}), presets.Coding(presets.CodingOptions{}))...),
		"without Union the two read_result tools clash")
}
