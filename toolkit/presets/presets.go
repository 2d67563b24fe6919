// Package presets returns ready tool sets, each in one call, for a registry or an MCP
// server:
//
//		reg := runtime.NewRegistry()
//		if err := reg.Add(presets.Coding(presets.CodingOptions{})...); err != nil { … }
//		// or: toolmcp.AddTools(server, reg, reg.Tools())
//
//	  - [Coding]: the workspace tools, the todo tools, ask_user and task.
//	  - [Agent]: the todo tools, ask_user and task, for agents that do not code.
//	  - research.Tools (package toolkit/presets/research): web_search, web_fetch and the four
//	    artifact tools. It is a package of its own so that a program that never fetches does
//	    not link the web toolkit (its HTML and PDF converters, about 14 MB of binary).
//
// The seed systems' names, so a prompt written for one works unchanged (each brings only the
// toolkit it renames):
//
//   - [BeamAI]: file_read, file_write, file_list, file_glob, shell_exec (the workspace's),
//     and read_result.
//   - [OpenAkita]: run_shell (the workspace's shell), and read_result.
//   - [XMLAgent]: call_subagent {agent_name, description, prompt} (subagent's task), and
//     research.XMLAgent: web_search {query, max_results, freshness}.
//
// [Rename] renames any tool and its arguments the same way; [RenameAll] renames the tools of
// a set it keeps, and rewrites their texts to name the tools as they are registered.
//
// Each option left nil gets the toolkit's defaults: artifacts and todos in memory, a
// workspace whose sandbox each call brings, no one to ask and no sub-agents (ask_user and
// task then say so). A preset holds one name per tool: the aliases human_input and
// call_subagent are left out (add them from their packages when a model expects them).
//
// # Your own tools beside a preset
//
// [Union] joins sets and refuses two different tools of one name, as Registry.Add does: a
// preset never drops your tool, nor yours the preset's, without a word. To let your tool
// replace the preset's, leave the preset's out with [Without]:
//
//	tools, err := presets.Union(presets.Without(presets.Coding(o), "grep"), mytools.Tools())
package presets

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/ask"
	"github.com/toolgen-go/toolgen/toolkit/subagent"
	"github.com/toolgen-go/toolgen/toolkit/todos"
	"github.com/toolgen-go/toolgen/toolkit/workspace"
)

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
	return slices.Concat(o.Todos.Tools(), Without(o.Ask.Tools(), "human_input"),
		Without(subagent.ToolkitTools(o.Subagents), "call_subagent"))
}

// Without returns tools except those named: to leave a preset's tool out, or to replace it by
// your own of the same name.
func Without(tools []runtime.Tool, names ...string) []runtime.Tool {
	return slices.DeleteFunc(slices.Clone(tools), func(t runtime.Tool) bool { return slices.Contains(names, t.Name) })
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
	return slices.Concat(o.Workspace.Tools(), Agent(o.AgentOptions))
}

// Union joins tool sets. The same tool in several sets (one name, one Origin: the read_result
// that research.Tools and Coding both hold) is kept once. Two different tools of one name are
// refused, listed in the error with where each comes from, as Registry.Add refuses them: to
// prefer one, leave the other out with Without.
func Union(sets ...[]runtime.Tool) ([]runtime.Tool, error) {
	var out []runtime.Tool
	first := map[string]int{} // name → index in out
	var clashes []string
	for i, set := range sets {
		for _, t := range set {
			j, seen := first[t.Name]
			switch {
			case !seen:
				first[t.Name] = len(out)
				out = append(out, t)
			case out[j].Origin != t.Origin || t.Origin == "":
				clashes = append(clashes, fmt.Sprintf("%q of set %d (%s) and of an earlier set (%s)", t.Name, i+1, origin(t), origin(out[j])))
			}
		}
	}
	if len(clashes) > 0 {
		return nil, fmt.Errorf("presets: two tools named %s; leave one out with presets.Without", strings.Join(clashes, "; "))
	}
	return out, nil
}

// origin says where t was declared, for Union's error.
func origin(t runtime.Tool) string {
	if t.Origin == "" {
		return "declared without an Origin"
	}
	return t.Origin
}
