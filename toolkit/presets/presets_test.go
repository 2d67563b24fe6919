package presets_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolanthropic "github.com/toolgen-go/toolgen/runtime/anthropic"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	toolopenai "github.com/toolgen-go/toolgen/runtime/openai"
	"github.com/toolgen-go/toolgen/toolkit/ask"
	"github.com/toolgen-go/toolgen/toolkit/presets"
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
	assert.Equal(t, []string{"create_artifact", "read_artifact", "rewrite_artifact", "update_artifact", "web_fetch", "web_search"}, names(tools))
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
