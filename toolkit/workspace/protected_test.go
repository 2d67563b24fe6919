//go:build unix

package workspace_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
	"github.com/toolgen-go/toolgen/toolkit/workspace"
)

// protectedWorkspace is a local workspace with a repository, and links into its .git.
func protectedWorkspace(t *testing.T) (*workspace.Workspace, string) {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{".git/hooks", "src", "sub"} {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, d), 0o755))
	}
	for link, target := range map[string]string{
		"hooks-link": ".git/hooks", // a directory link into .git
		"gitdir":     ".git",
		"chain":      "chain2", // two links, the second into .git
		"chain2":     "src/../.git/hooks",
		"sub/up":     "..",
		"rc":         ".bashrc", // a file link to a shell start-up file
	} {
		require.NoError(t, os.Symlink(target, filepath.Join(dir, link)))
	}
	sb, err := sandbox.OpenLocal(dir, sandbox.LocalOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { sb.Close() })
	return workspace.New(sb), dir
}

// TestAllowWritesAsksForProtectedPaths: under AllowWrites, which approves writes without
// asking, a write to .git, a shell start-up file or an agent's configuration still goes to
// the next approver, with a reason that says why, however the path is spelled (.., case,
// trailing dots, symbolic links); an ordinary file is written without asking.
func TestAllowWritesAsksForProtectedPaths(t *testing.T) {
	w, dir := protectedWorkspace(t)
	var asked []string
	var reasons []string
	next := runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
		asked = append(asked, req.Tool)
		reasons = append(reasons, req.Reason)
		return runtime.Decision{Reason: "protected"}, nil
	})
	reg := runtime.NewRegistry(runtime.WithApprover(w.AllowWrites(next)))
	require.NoError(t, reg.Add(w.Tools()...))

	for _, p := range []string{
		".git/hooks/pre-commit", ".git/config", ".git", "sub/.git/hooks/post-checkout",
		".gitmodules", "sub/.gitmodules", ".bashrc", ".zshrc", ".profile", ".bash_profile", "sub/.envrc",
		".toolgen/config.json", ".mcp.json", ".claude/settings.json", ".codex/config.toml",
		".vscode/settings.json", ".vscode/tasks.json",
		// Spelled otherwise: climbing back, another case, Windows' trailing dots.
		"src/../.git/hooks/pre-commit", "./.git//config", ".GIT/config", ".Git/Hooks/pre-commit",
		".git./config", ".BashRC", ".MCP.json",
		// Through symbolic links inside the workspace.
		"hooks-link/pre-commit", "gitdir/config", "chain/pre-commit", "sub/up/.git/config", "rc",
	} {
		asked, reasons = nil, nil
		for _, tool := range []string{"write_file", "edit_file"} {
			args := `{"path":` + mustJSON(t, p) + `,"content":"#!/bin/sh\necho pwned\n"}`
			if tool == "edit_file" {
				args = `{"path":` + mustJSON(t, p) + `,"old_string":"a","new_string":"b"}`
			}
			res := reg.Invoke(t.Context(), runtime.Call{Name: tool, Args: []byte(args)})
			assert.Equal(t, runtime.KindDenied, res.Kind, "%s %s was not asked: %s", tool, p, res.Text)
		}
		assert.Equal(t, []string{"write_file", "edit_file"}, asked, p)
		for _, r := range reasons {
			assert.Contains(t, r, "a protected path: ", p)
		}
	}
	assert.NoFileExists(t, filepath.Join(dir, ".git/hooks/pre-commit"))
	assert.Contains(t, reasons[0], "rc leads, through a symbolic link, to .bashrc is a shell start-up file")

	// Ordinary files, and names that only look alike, are written without asking.
	for _, p := range []string{"src/main.go", "notes/todo.md", ".gitignore", ".gitattributes", "git/config",
		"src/.github/workflows/ci.yml", "sub/git.bashrc", ".git-blame-ignore-revs", "AGENTS.md"} {
		asked = nil
		res := reg.Invoke(t.Context(), runtime.Call{Name: "write_file", Args: []byte(`{"path":` + mustJSON(t, p) + `,"content":"x"}`)})
		assert.False(t, res.IsError, "%s: %s", p, res.Text)
		assert.Empty(t, asked, "%s went to the next approver", p)
		assert.FileExists(t, filepath.Join(dir, p))
	}
	// Other tools go to next untouched.
	asked = nil
	res := reg.Invoke(t.Context(), runtime.Call{Name: "shell", Args: []byte(`{"command":"ls"}`)})
	assert.Equal(t, runtime.KindDenied, res.Kind, res.Text)
	assert.Equal(t, []string{"shell"}, asked)
}

// TestAllowWritesLeavesProtectedToTheQueue: with no next approver, a protected write waits in
// the registry's approval queue while an ordinary one runs at once.
func TestAllowWritesLeavesProtectedToTheQueue(t *testing.T) {
	w, dir := protectedWorkspace(t)
	reg := runtime.NewRegistry(runtime.WithApprover(w.AllowWrites(nil)), runtime.WithApprovalQueue())
	require.NoError(t, reg.Add(w.Tools()...))
	res := reg.Invoke(t.Context(), runtime.Call{ID: "1", Name: "write_file", Args: []byte(`{"path":".git/hooks/pre-commit","content":"x"}`)})
	assert.NotEmpty(t, res.PendingApproval, "left to the queue: %s", res.Text)
	res = reg.Invoke(t.Context(), runtime.Call{ID: "2", Name: "write_file", Args: []byte(`{"path":"src/a.go","content":"x"}`)})
	require.False(t, res.IsError, res.Text)
	require.Empty(t, res.PendingApproval, res.Text)
	assert.NoFileExists(t, filepath.Join(dir, ".git/hooks/pre-commit"))
	assert.FileExists(t, filepath.Join(dir, "src/a.go"))
}

// TestAllowCommandsProtectedPaths: AllowCommands does not approve a command naming a
// protected path, glued to an option, after "=", from a working directory, or through a
// symbolic link of the workspace: "sort -o .bashrc" writes one.
func TestAllowCommandsProtectedPaths(t *testing.T) {
	w, _ := protectedWorkspace(t)
	var asked []string
	next := runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
		asked = append(asked, req.Tool)
		return runtime.Decision{Reason: "no"}, nil
	})
	reg := runtime.NewRegistry(runtime.WithApprover(w.AllowCommands(next, "sort", "ls")))
	require.NoError(t, reg.Add(w.Tools()...))
	for _, c := range []struct{ command, workdir string }{
		{"sort -o .bashrc src/in.txt", "."},
		{"sort -o.git/hooks/pre-commit src/in.txt", "."},
		{"sort --output=.mcp.json src/in.txt", "."},
		{"sort -o sub/.GIT/config src/in.txt", "."},
		{"sort -o ../.zshrc in.txt", "src"}, // refused for the climb too
		{"sort -o pre-commit in.txt", ".git/hooks"},
		{"sort -o hooks-link/pre-commit src/in.txt", "."},
		{"sort -o up/.git/config in.txt", "sub"},
		{"ls .claude", "."}, // a read goes to next too
	} {
		asked = nil
		args := `{"command":` + mustJSON(t, c.command) + `,"workdir":` + mustJSON(t, c.workdir) + `}`
		res := reg.Invoke(t.Context(), runtime.Call{Name: "shell", Args: []byte(args)})
		assert.Equal(t, runtime.KindDenied, res.Kind, "%q in %s: %s", c.command, c.workdir, res.Text)
		assert.Equal(t, []string{"shell"}, asked, "%q in %s", c.command, c.workdir)
	}
}

func mustJSON(t *testing.T, s string) string {
	t.Helper()
	j, err := jsonString(s)
	require.NoError(t, err)
	return j
}
