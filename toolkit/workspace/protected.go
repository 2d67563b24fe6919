package workspace

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
)

// Protected paths: files of the workspace that make a program run what they say, outside any
// sandbox, when the user or a tool next uses the workspace: git's hooks and config, the
// submodule list, shell start-up files, direnv's .envrc, and the configuration of coding
// agents and editors (MCP servers to start, hooks, tasks). A write to one needs approval even
// where writes are otherwise approved without asking (AllowWrites), as Claude Code's and
// Codex's sandboxes protect them.

// protectedDirs are directories every file of which is protected, wherever they are in the
// workspace (a nested repository's .git as well), by lower-cased name.
var protectedDirs = map[string]string{
	".git":          "git's repository, whose config, hooks and info name programs git runs",
	".toolgen":      "toolgen's own configuration",
	".claude":       "Claude Code's configuration (settings run hooks and allow commands)",
	".codex":        "Codex's configuration",
	".cursor":       "Cursor's configuration",
	".vscode":       "the editor's configuration (tasks and settings run programs)",
	".idea":         "the IDE's configuration (run configurations run programs)",
	".devcontainer": "a dev container's configuration (it runs commands when opened)",
}

// protectedFiles are file names protected wherever they are, by lower-cased name.
var protectedFiles = map[string]string{
	".gitmodules":   "git's list of submodules, repositories with configs and hooks of their own",
	".mcp.json":     "the MCP servers an agent starts",
	".envrc":        "direnv runs it in the user's shell on entering the directory",
	".bashrc":       "a shell start-up file",
	".bash_profile": "a shell start-up file",
	".bash_login":   "a shell start-up file",
	".bash_logout":  "a shell start-up file",
	".profile":      "a shell start-up file",
	".zshrc":        "a shell start-up file",
	".zshenv":       "a shell start-up file",
	".zprofile":     "a shell start-up file",
	".zlogin":       "a shell start-up file",
	".zlogout":      "a shell start-up file",
	".cshrc":        "a shell start-up file",
	".tcshrc":       "a shell start-up file",
	".kshrc":        "a shell start-up file",
	".mkshrc":       "a shell start-up file",
}

// foldName is the form of a name compared with the protected ones: lower-cased (case-
// insensitive file systems take .GIT for .git), with trailing dots and spaces removed
// (Windows drops them: ".git." is .git there).
func foldName(name string) string {
	return strings.ToLower(strings.TrimRight(name, ". "))
}

// protectedName returns why the sandbox name (cleaned) is protected, or "".
func protectedName(name string) string {
	if name == "." || name == "" {
		return ""
	}
	parts := strings.Split(name, "/")
	for i, part := range parts {
		f := foldName(part)
		if why, ok := protectedDirs[f]; ok {
			return fmt.Sprintf("%s is in %s: %s", name, path.Join(parts[:i+1]...), why)
		}
		if why, ok := protectedFiles[f]; ok && i == len(parts)-1 {
			return fmt.Sprintf("%s is %s", name, why)
		}
	}
	return ""
}

// maxLinkHops bounds the symbolic links followed in resolving a name, as the kernel's 40.
const maxLinkHops = 40

// resolveLinks returns name with the symbolic links along it resolved, as far as they exist
// and stay inside the sandbox ("" when one leads out or there are too many: the write fails
// then anyway).
func resolveLinks(fsys fs.ReadLinkFS, name string) string {
	rest := strings.Split(name, "/")
	done := "."
	for hops := 0; len(rest) > 0; {
		p := path.Join(done, rest[0])
		info, err := fsys.Lstat(p)
		if err != nil {
			return path.Join(append([]string{done}, rest...)...) // created as named
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			done, rest = p, rest[1:]
			continue
		}
		if hops++; hops > maxLinkHops {
			return ""
		}
		target, err := fsys.ReadLink(p)
		if err != nil || path.IsAbs(target) {
			return ""
		}
		joined := path.Join(done, target)
		if joined == ".." || strings.HasPrefix(joined, "../") {
			return ""
		}
		rest, done = append(strings.Split(joined, "/"), rest[1:]...), "."
	}
	return done
}

// protectedPath returns why writing the sandbox name in sb needs approval, or "": the name,
// or what its symbolic links lead to, is protected.
func protectedPath(sb sandbox.Sandbox, name string) string {
	if why := protectedName(name); why != "" {
		return why
	}
	if fsys, ok := sb.(fs.ReadLinkFS); ok {
		if real := resolveLinks(fsys, name); real != "" && real != name {
			if why := protectedName(real); why != "" {
				return fmt.Sprintf("%s leads, through a symbolic link, to %s", name, why)
			}
		}
	}
	return ""
}

// AllowWrites returns an Approver that approves write_file and edit_file calls (known by
// their arguments, WriteFileArgs and EditFileArgs, not by their names: a preset that renames
// them keeps this) without asking, except those writing a protected path, which go to next with a Reason saying why
// the path is protected (with next nil they are left undecided, runtime.ErrUndecided, for
// the registry's queue or the serving layer to ask, with the tool's own reason). Calls of
// other tools go to next (or are left undecided) untouched. Chain it with AllowCommands:
// AllowWrites(AllowCommands(ask, "ls"), ...).
//
// Protected, wherever they are in the workspace, compared case-insensitively and with
// trailing dots and spaces ignored, after ".." is resolved and through symbolic links: every
// file under .git (its config, hooks and info name programs git runs; a .git file points git
// elsewhere), .gitmodules, shell start-up files (.bashrc, .bash_profile, .bash_login,
// .bash_logout, .profile, .zshrc, .zshenv, .zprofile, .zlogin, .zlogout, .cshrc, .tcshrc,
// .kshrc, .mkshrc), direnv's .envrc, and the configuration of agents and editors: .toolgen/,
// .mcp.json, .claude/, .codex/, .cursor/, .vscode/, .idea/, .devcontainer/. Each makes a
// program run what it says, outside any sandbox, the next time the user or a tool uses the
// workspace. Instructions for agents (AGENTS.md, CLAUDE.md) are not protected: they are
// prompts, not programs.
//
// Setting a tool's Permission to runtime.PermissionAuto skips approval altogether, for
// protected paths too: to write without asking, keep the tools on confirm and install this.
func AllowWrites(next runtime.Approver) runtime.Approver {
	return (*Workspace)(nil).AllowWrites(next)
}

// AllowWrites is [AllowWrites] for the calls of w's tools: it finds the call's sandbox as
// they do, w's included.
func (w *Workspace) AllowWrites(next runtime.Approver) runtime.Approver {
	return runtime.ApproverFunc(func(ctx context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
		var p string
		write := false
		switch args := req.Args.(type) {
		case *WriteFileArgs:
			p, write = args.Path, true
		case *EditFileArgs:
			p, write = args.Path, true
		}
		if write {
			// A path the tool refuses (outside the workspace) goes to next, and is refused by
			// the tool should next approve it.
			if sb, name, err := w.resolve(ctx, p); err == nil {
				why := protectedPath(sb, name)
				if why == "" {
					return runtime.Decision{Approved: true, By: "workspace.AllowWrites"}, nil
				}
				req.Reason = fmt.Sprintf("%s; a protected path: %s", req.Reason, why)
			}
		}
		if next == nil {
			return runtime.Decision{}, runtime.ErrUndecided
		}
		return next.Approve(ctx, req)
	})
}

// touchesProtected reports whether the shell call's command names a protected path (see
// commandTouchesProtected), in the call's sandbox when it has one.
func (w *Workspace) touchesProtected(ctx context.Context, args *ShellArgs) bool {
	dir, err := sandbox.Clean(args.Workdir)
	if err != nil {
		return true // refused by the tool; not approved here
	}
	sb, err := w.sandbox(ctx)
	if err != nil {
		sb = nil
	}
	return commandTouchesProtected(sb, dir, args.Command)
}

// commandTouchesProtected reports whether a word of command, or a part of one a program may
// take for a path (as leavesWorkspace reads them), names a protected path from the working
// directory dir, or dir is one: the command may write there (sort -o .bashrc, cp x
// .git/hooks/pre-commit). Words are read as names, also through the symbolic links of sb when
// it has any.
func commandTouchesProtected(sb sandbox.Sandbox, dir, command string) bool {
	check := func(p string) bool {
		name := path.Join(dir, p)
		if climbsOrAbsolute(name) {
			return false // refused already
		}
		if sb == nil {
			return protectedName(name) != ""
		}
		return protectedPath(sb, name) != ""
	}
	if check(".") {
		return true
	}
	for _, word := range strings.Fields(command) {
		if check(word) {
			return true
		}
		for i := 1; i < len(word); i++ {
			shortOption := word[0] == '-' && word[1] != '-'
			if (shortOption || strings.IndexByte("=@,", word[i-1]) >= 0) && check(word[i:]) {
				return true
			}
		}
	}
	return false
}
