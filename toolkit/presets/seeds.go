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
// file_write (write_file), file_list (list_dir), file_glob (glob) and shell_exec (shell),
// with read_result, which reads on in a result cut to its size cap (a long shell output).
// Their texts name these tools by these names and no other (RenameAll). w nil: each call
// brings its sandbox (see toolkit/workspace). Workspace.AllowCommands and AllowWrites know
// shell_exec and file_write by their arguments, so they approve them as they do the
// workspace's own names.
func BeamAI(w *workspace.Workspace) []runtime.Tool {
	if w == nil {
		w = workspace.New(nil)
	}
	return mustRenameAll(w.Tools(),
		Renaming{Tool: "read_file", Name: "file_read"},
		Renaming{Tool: "write_file", Name: "file_write"},
		Renaming{Tool: "list_dir", Name: "file_list"},
		Renaming{Tool: "glob", Name: "file_glob"},
		Renaming{Tool: "shell", Name: "shell_exec"},
		Renaming{Tool: "read_result"},
	)
}

// OpenAkita returns run_shell, the workspace's shell under OpenAkita's name, and read_result
// for the rest of a long output. w nil: each call brings its sandbox.
func OpenAkita(w *workspace.Workspace) []runtime.Tool {
	if w == nil {
		w = workspace.New(nil)
	}
	return mustRenameAll(w.Tools(), Renaming{Tool: "shell", Name: "run_shell"}, Renaming{Tool: "read_result"})
}

// XMLAgent returns the XML agent's call_subagent {agent_name, description, prompt}: the
// subagent toolkit's task with agent named agent_name. s nil: sub-agents cannot run (the
// tool says so).
func XMLAgent(s *subagent.Toolkit) []runtime.Tool {
	if s == nil {
		s = &subagent.Toolkit{}
	}
	return mustRenameAll(subagent.ToolkitTools(s), Renaming{Tool: "task", Name: "call_subagent", Args: map[string]string{"agent": "agent_name"}})
}
