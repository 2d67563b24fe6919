package subagent_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/subagent"
	"github.com/toolgen-go/toolgen/toolkit/todos"
)

var agents = []subagent.Agent{
	{Name: "researcher", Description: "finds facts on the web", Tools: []string{"todo_list"}},
	{Name: "planner", Description: "plans and delegates", Tools: []string{"task", "todo_add"}},
}

// newRegistry holds the todo tools and the subagent tools, whose sub-agents draw their tools
// from the same registry.
func newRegistry(t *testing.T, k *subagent.Toolkit) *runtime.Registry {
	t.Helper()
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(new(todos.Toolkit).Tools()...))
	require.NoError(t, reg.Add(subagent.ToolkitTools(k)...))
	k.Tools = reg
	return reg
}

func task(agent, prompt string) []byte {
	return fmt.Appendf(nil, `{"description":"a task","prompt":%q,"agent":%q}`, prompt, agent)
}

func TestTaskRoutesToTheRunner(t *testing.T) {
	var got subagent.Request
	var gotDepth int
	k := &subagent.Toolkit{Agents: agents, Runner: subagent.RunnerFunc(func(ctx context.Context, req subagent.Request) (string, error) {
		got, gotDepth = req, subagent.Depth(ctx)
		return "Go 1.26 shipped in February.", nil
	})}
	reg := newRegistry(t, k)

	res := reg.Invoke(t.Context(), runtime.Call{ID: "call_7", Session: "s", Name: "task", Args: task("researcher", "When did Go 1.26 ship?")})
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, "Go 1.26 shipped in February.", res.Text)
	assert.Equal(t, []runtime.Effect{subagent.Route{Agent: "researcher", Description: "a task", Depth: 1, Session: "s/researcher/call_7"}}, res.Effects)

	assert.Equal(t, agents[0], got.Agent)
	assert.Equal(t, "When did Go 1.26 ship?", got.Prompt)
	assert.Equal(t, []string{"todo_list"}, got.Tools.Names(), "the sub-agent's own tools only")
	assert.Equal(t, 1, got.Depth)
	assert.Equal(t, 1, gotDepth)
	assert.Equal(t, "s/researcher/call_7", got.Session)

	// call_subagent is the same tool.
	res = reg.Invoke(t.Context(), runtime.Call{Name: "call_subagent", Args: task("researcher", "again")})
	assert.Equal(t, "Go 1.26 shipped in February.", res.Text)
}

func TestUnknownAgentListsTheAgents(t *testing.T) {
	ran := false
	reg := newRegistry(t, &subagent.Toolkit{Agents: agents, Runner: subagent.RunnerFunc(func(context.Context, subagent.Request) (string, error) {
		ran = true
		return "", nil
	})})
	res := reg.Invoke(t.Context(), runtime.Call{Name: "task", Args: task("reseacher", "x")})
	require.True(t, res.IsError)
	assert.False(t, ran, "validate, then route")
	assert.Equal(t, runtime.KindNotFound, res.Kind)
	assert.Equal(t, "unknown agent \"reseacher\". Available agents:\n- researcher: finds facts on the web\n- planner: plans and delegates", res.Text)
}

// The runner runs the sub-agent's calls through its own tools with the ctx it got, so a
// sub-agent that delegates again is held to the depth limit.
func TestDepthLimit(t *testing.T) {
	for _, c := range []struct {
		maxDepth int
		want     []string // what each level's nested task call returned, innermost first
	}{
		{0, []string{"limit"}},
		{2, []string{"limit", "ok"}}, // the innermost finishes first
	} {
		t.Run(fmt.Sprint(c.maxDepth), func(t *testing.T) {
			var outcomes []string
			k := &subagent.Toolkit{Agents: agents, MaxDepth: c.maxDepth}
			k.Runner = subagent.RunnerFunc(func(ctx context.Context, req subagent.Request) (string, error) {
				res := req.Tools.Invoke(ctx, runtime.Call{Name: "task", Session: req.Session, Args: task("planner", "go deeper")})
				if res.IsError {
					require.Equal(t, runtime.KindLimit, res.Kind, res.Text)
					assert.Contains(t, res.Text, "do the task yourself")
					outcomes = append(outcomes, "limit")
					return "stopped", nil
				}
				outcomes = append(outcomes, "ok")
				return "went deeper", nil
			})
			reg := newRegistry(t, k)
			res := reg.Invoke(t.Context(), runtime.Call{Name: "task", Args: task("planner", "plan")})
			require.False(t, res.IsError, res.Text)
			assert.Equal(t, c.want, outcomes)
		})
	}
}

func TestRunnerFailures(t *testing.T) {
	reg := newRegistry(t, &subagent.Toolkit{Agents: agents, Runner: subagent.RunnerFunc(func(context.Context, subagent.Request) (string, error) {
		return "", runtime.Permanent(errors.New("model quota exhausted"))
	})})
	res := reg.Invoke(t.Context(), runtime.Call{Name: "task", Args: task("researcher", "x")})
	require.True(t, res.IsError)
	assert.Equal(t, "sub-agent researcher failed: model quota exhausted", res.Text)
	assert.Empty(t, res.Effects)

	res = newRegistry(t, &subagent.Toolkit{Agents: agents}).Invoke(t.Context(), runtime.Call{Name: "task", Args: task("researcher", "x")})
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, "sub-agents cannot run here")

	bad := []subagent.Agent{{Name: "broken", Tools: []string{"no_such_tool"}}}
	res = newRegistry(t, &subagent.Toolkit{Agents: bad, Runner: subagent.RunnerFunc(func(context.Context, subagent.Request) (string, error) { return "", nil })}).
		Invoke(t.Context(), runtime.Call{Name: "task", Args: task("broken", "x")})
	require.True(t, res.IsError)
	assert.Contains(t, res.Err.Error(), `sub-agent broken is misconfigured`)
}

func TestCatalog(t *testing.T) {
	assert.Equal(t, "No agents are available.", (&subagent.Toolkit{}).Catalog())
}

// Both forms the XML agent shows: with a prompt the sub-agent runs; with only the agent's
// name the conversation is handed to it through the host's Handoff, and refused without one.
func TestCallWithOnlyTheAgentHandsOff(t *testing.T) {
	ran := false
	k := &subagent.Toolkit{Agents: agents, Runner: subagent.RunnerFunc(func(context.Context, subagent.Request) (string, error) {
		ran = true
		return "done", nil
	})}
	res := newRegistry(t, k).Invoke(t.Context(), runtime.Call{Name: "call_subagent", Args: []byte(`{"agent":"researcher"}`)})
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, "give a prompt")
	assert.False(t, ran)

	var got subagent.Handoff
	k.Handoff = func(_ context.Context, h subagent.Handoff) error { got = h; return nil }
	res = newRegistry(t, k).Invoke(t.Context(), runtime.Call{Name: "call_subagent", Args: []byte(`{"agent":"researcher"}`)})
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, subagent.Handoff{Agent: "researcher"}, got)
	assert.Equal(t, []runtime.Effect{got}, res.Effects)
	assert.Contains(t, res.Text, "Handed off to researcher")
	assert.False(t, ran, "a handoff does not run the sub-agent")

	res = newRegistry(t, k).Invoke(t.Context(), runtime.Call{Name: "call_subagent", Args: task("researcher", "run it")})
	require.False(t, res.IsError, res.Text)
	assert.True(t, ran, "with a prompt it runs")
}
