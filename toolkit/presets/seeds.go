package presets

import (
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/subagent"
	"github.com/toolgen-go/toolgen/toolkit/workspace"
)

// The seed systems' names for tools the toolkits have, so that a prompt written for one of
// them works unchanged. Each preset brings only the toolkits it names; research.XMLAgent
// (package toolkit/presets/research) has the XML agent's web_search, apart for the web
// toolkit's size. The arguments keep the toolkits' names unless the seed's differ.

// BeamAI returns the workspace tools under BeamAI's names: file_read (read_file),
// file_write (write_file), file_list (list_dir), file_glob (glob) and shell_exec (shell).
// w nil: each call brings its sandbox (see toolkit/workspace).
func BeamAI(w *workspace.Workspace) []runtime.Tool {
	if w == nil {
		w = workspace.New(nil)
	}
	return renamed(w.Tools(), []seedName{
		{"read_file", "file_read", nil},
		{"write_file", "file_write", nil},
		{"list_dir", "file_list", nil},
		{"glob", "file_glob", nil},
		{"shell", "shell_exec", nil},
	})
}

// OpenAkita returns run_shell, the workspace's shell under OpenAkita's name. w nil: each call
// brings its sandbox.
func OpenAkita(w *workspace.Workspace) []runtime.Tool {
	if w == nil {
		w = workspace.New(nil)
	}
	return renamed(w.Tools(), []seedName{{"shell", "run_shell", nil}})
}

// XMLAgent returns the XML agent's call_subagent {agent_name, description, prompt}: the
// subagent toolkit's task with agent named agent_name. s nil: sub-agents cannot run (the
// tool says so).
func XMLAgent(s *subagent.Toolkit) []runtime.Tool {
	if s == nil {
		s = &subagent.Toolkit{}
	}
	return renamed(subagent.ToolkitTools(s), []seedName{{"task", "call_subagent", map[string]string{"agent": "agent_name"}}})
}

// seedName renames one tool of a toolkit, and its arguments.
type seedName struct {
	tool, name string
	args       map[string]string
}

// renamed returns the tools names lists, renamed, in its order; the others are left out.
func renamed(tools []runtime.Tool, names []seedName) []runtime.Tool {
	var out []runtime.Tool
	for _, n := range names {
		for _, t := range tools {
			if t.Name == n.tool {
				out = append(out, mustRename(t, n.name, n.args))
			}
		}
	}
	return out
}
