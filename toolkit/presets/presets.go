// Package presets returns ready tool sets, each in one call, for a registry or an MCP
// server:
//
//		reg := runtime.NewRegistry()
//		if err := reg.Add(presets.Research(presets.ResearchOptions{})...); err != nil { … }
//		// or: toolmcp.AddTools(server, reg, reg.Tools())
//
//	  - [Research]: web_search, web_fetch and the four artifact tools.
//	  - [Coding]: the workspace tools, the todo tools, ask_user and task.
//
// Each option left nil gets the toolkit's defaults: web search from the environment
// (web.SearcherFromEnv: Serper, else Firecrawl, else none), the address guard on, artifacts
// and todos in memory, a workspace whose sandbox each call brings, no one to ask and no
// sub-agents (ask_user and task then say so). A preset holds one name per tool: the aliases human_input and
// call_subagent are left out (add them from their packages when a model expects them).
package presets

import (
	"slices"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/artifacts"
	"github.com/toolgen-go/toolgen/toolkit/ask"
	"github.com/toolgen-go/toolgen/toolkit/subagent"
	"github.com/toolgen-go/toolgen/toolkit/todos"
	"github.com/toolgen-go/toolgen/toolkit/web"
	"github.com/toolgen-go/toolgen/toolkit/workspace"
)

// ResearchOptions configure Research; nil fields get defaults.
type ResearchOptions struct {
	Web       *web.Toolkit       // nil: the guard on, the searcher from the environment
	Artifacts *artifacts.Toolkit // nil: artifacts in memory
}

// Research returns web_search, web_fetch, create_artifact, read_artifact, update_artifact,
// rewrite_artifact and read_result (a long page is cut to web_fetch's cap and kept by the
// registry; read_result reads on).
func Research(o ResearchOptions) []runtime.Tool {
	if o.Web == nil {
		o.Web = &web.Toolkit{Searcher: web.SearcherFromEnv()}
	}
	if o.Artifacts == nil {
		o.Artifacts = &artifacts.Toolkit{}
	}
	readResult := slices.DeleteFunc(workspace.WorkspaceTools(workspace.New(nil)), func(t runtime.Tool) bool { return t.Name != "read_result" })
	return slices.Concat(web.ToolkitTools(o.Web), artifacts.ToolkitTools(o.Artifacts), readResult)
}

// AgentOptions configure Agent; nil fields get defaults.
type AgentOptions struct {
	Todos *todos.Toolkit // nil: at most one item in progress
	// Ask answers ask_user; nil: no one can be asked (ask_user says so).
	Ask *ask.Toolkit
	// Subagents runs task; nil: task says sub-agents cannot run.
	Subagents *subagent.Toolkit
}

// Agent returns the tools every agent needs whatever its work: the todo tools (write_todos,
// todo_add, todo_update, todo_list), ask_user and task. Coding includes them.
func Agent(o AgentOptions) []runtime.Tool {
	if o.Todos == nil {
		o.Todos = &todos.Toolkit{}
	}
	if o.Ask == nil {
		o.Ask = &ask.Toolkit{}
	}
	if o.Subagents == nil {
		o.Subagents = &subagent.Toolkit{}
	}
	return slices.Concat(todos.ToolkitTools(o.Todos), without(ask.ToolkitTools(o.Ask), "human_input"),
		without(subagent.ToolkitTools(o.Subagents), "call_subagent"))
}

// without returns tools except those named.
func without(tools []runtime.Tool, names ...string) []runtime.Tool {
	return slices.DeleteFunc(tools, func(t runtime.Tool) bool { return slices.Contains(names, t.Name) })
}

// CodingOptions configure Coding; nil fields get defaults.
type CodingOptions struct {
	// Workspace holds the sandbox; nil: each call brings its own (its UserData or ctx, see
	// toolkit/workspace), and a call without one is refused.
	Workspace *workspace.Workspace
	AgentOptions
}

// Coding returns the workspace tools (read_file, write_file, edit_file, list_dir, glob, grep,
// shell, read_result) and Agent's (the todo tools, ask_user, task). write_file, edit_file and
// shell need approval: give the registry an approver (runtime.WithApprover, or
// the Workspace's AllowCommands around one).
func Coding(o CodingOptions) []runtime.Tool {
	if o.Workspace == nil {
		o.Workspace = workspace.New(nil)
	}
	return slices.Concat(workspace.WorkspaceTools(o.Workspace), Agent(o.AgentOptions))
}

// Union joins tool sets, keeping the first tool of each name: Research and Coding both hold
// read_result, which serves any result the registry kept.
func Union(sets ...[]runtime.Tool) []runtime.Tool {
	var out []runtime.Tool
	seen := map[string]bool{}
	for _, set := range sets {
		for _, t := range set {
			if !seen[t.Name] {
				seen[t.Name] = true
				out = append(out, t)
			}
		}
	}
	return out
}
