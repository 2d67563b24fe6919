package workspace

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/internal/plural"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
)

// Limits of shell; the package doc states them.
const (
	defaultShellTimeout = 2 * time.Minute
	maxShellOutput      = 8 << 20 // output kept in memory: the first and last 4 MiB
	// maxTimeoutOutput is the output a timed-out command's error shows, its first and last
	// half: an error result is cut, not stored, by the registry (at the 32 KiB cap), so the
	// tool keeps the end, which says where the command was.
	maxTimeoutOutput = 24 << 10
)

// ShellArgs are the arguments of shell.
type ShellArgs struct {
	// Command is run by sh -c, e.g. go test ./... or ls -la | head.
	Command string `json:"command" tool:"minLength=1,maxLength=65536"`
	// Workdir is the directory to run in, relative to the workspace root.
	Workdir string `json:"workdir,omitempty" tool:"default=.,maxLength=4096"`
	// TimeoutMS is the time limit in milliseconds; at the limit the command and every
	// process it started are killed.
	TimeoutMS int `json:"timeout_ms,omitempty" tool:"default=120000,minimum=100,maximum=600000"`
}

// Shell runs a command with sh -c in the workspace, with no input and a minimal environment,
// and returns its exit status and output. At timeout_ms it is killed with all it started.
//
// A command killed at its timeout fails the call, with what it printed until then. Stdout
// and stderr are interleaved as written. Nothing the command starts in the background
// outlives it. A long output is cut; the result says how to read the rest. Commands usually
// run isolated: the workspace is then /workspace and the only place kept between calls (/tmp
// is emptied), and the network may be off.
//
//tool:name shell
//tool:hints destructive,openworld
//tool:confirm runs a shell command in the workspace
//tool:risk high
//tool:timeout 11m
//tool:maxresult 32KiB
//tool:example "Run the tests" {"command":"go test ./...","timeout_ms":300000}
//tool:example "Show recent commits" {"command":"git log --oneline -5"}
func (w *Workspace) Shell(ctx context.Context, args ShellArgs) (string, error) {
	sb, dir, err := w.resolve(ctx, args.Workdir)
	if err != nil {
		return "", err
	}
	timeout := time.Duration(args.TimeoutMS) * time.Millisecond
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var out headTail
	start := time.Now()
	exit, err := sb.Run(runCtx, sandbox.Command{Script: args.Command, Dir: dir, Output: &out})
	took := time.Since(start).Round(time.Millisecond)
	switch {
	case err == nil:
		return fmt.Sprintf("exit status %d (%s)\n%s", exit, took, out.String()), nil
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		// An error, so that the model does not take the output for the command's result; it
		// reads what the command printed, whose end says where it was. Not retried: running
		// it again would take as long.
		return "", runtime.Permanent(&runtime.ModelError{
			Kind: runtime.KindTimeout,
			Message: fmt.Sprintf("killed at the timeout of %d ms, with every process it started; raise timeout_ms if it needs longer. Its output until then:\n%s",
				args.TimeoutMS, cutMiddle(out.String(), maxTimeoutOutput)),
			Err: err,
		})
	case ctx.Err() != nil:
		return "", ctx.Err()
	}
	return "", fileError(ctx, args.Workdir, err)
}

// cutMiddle returns s, or when it is longer than limit its first and last limit/2 bytes
// (cut at character boundaries) around a count of the bytes left out.
func cutMiddle(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	head, tail := limit/2, len(s)-limit/2
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return fmt.Sprintf("%s\n[… %d bytes of output left out …]\n%s", s[:head], tail-head, s[tail:])
}

// headTail keeps the first and the last maxShellOutput/2 bytes written to it, and counts
// the bytes in between. Writes come from one goroutine (the sandbox's copy loop).
type headTail struct {
	head    []byte
	tail    []byte // a ring once full
	at      int    // next write position in the full ring
	dropped int64
}

func (h *headTail) Write(p []byte) (int, error) {
	n := len(p)
	const half = maxShellOutput / 2
	if room := half - len(h.head); room > 0 {
		k := min(room, len(p))
		h.head = append(h.head, p[:k]...)
		p = p[k:]
	}
	for len(p) > 0 {
		if len(h.tail) < half {
			k := min(half-len(h.tail), len(p))
			h.tail = append(h.tail, p[:k]...)
			p = p[k:]
			continue
		}
		k := min(half-h.at, len(p))
		h.dropped += int64(k)
		copy(h.tail[h.at:], p[:k])
		h.at = (h.at + k) % half
		p = p[k:]
	}
	return n, nil
}

func (h *headTail) String() string {
	var b strings.Builder
	b.Write(h.head)
	if h.dropped > 0 {
		fmt.Fprintf(&b, "\n[… %s of output left out …]\n", plural.Of(h.dropped, "byte"))
	}
	b.Write(h.tail[h.at:])
	b.Write(h.tail[:h.at])
	return b.String()
}

// AllowCommands returns an Approver that approves, without asking, the shell calls whose
// command is one of prefixes or starts with one followed by a space, and that hold only
// letters, digits, spaces and the characters . _ - / : = , + @ %. Every other request goes to
// next; with next nil it is left undecided (runtime.ErrUndecided), so the registry's approval
// queue, or the serving layer's way to ask the user (MCP elicitation), decides it, and
// without either it is refused.
//
// Why this is safe: without quotes, $, `, ;, &, |, <, >, (, ), globs, ~, braces, backslashes
// or newlines, sh -c runs the command as one simple command whose words are taken literally:
// no second command, no substitution, no redirection, no expansion to file names the model
// may have planted. The prefix fixes the program (and, with more words, its subcommand).
//
// Git reads programs to run from its repository, which is in the workspace, where the model
// writes: .git/config (core.fsmonitor, which git status runs; filter drivers, which it runs
// on changed files; hooks paths, pagers, aliases, diff drivers, includes), .git/hooks, and
// submodules with configs of their own. So a command starting with "git" is approved only
// when every repository git could find from its working directory (there and in each
// directory above it, as a .git directory or file, or a bare repository) sets only config
// keys that name no program (those git init and git clone write: core.bare,
// core.filemode, remote.<name>.url and .fetch, branch.<name>.remote and .merge, user.name
// and the like), has no hooks but git's *.sample files, no submodules (.gitmodules, a
// modules directory, or a submodule in its index) and files the check can read within its
// bounds (64 KiB of config, 64 MiB of index, 1024 entries of a directory). Otherwise the call
// goes to next, and the user sees the command. This was chosen over running git with such
// settings turned off (-c core.fsmonitor=false and the like), which cannot name every filter
// driver or alias the model may define. The check reads the repository when the call is
// approved: a write the user approves that runs at the same moment can still change it
// before the command runs.
//
// What it does not make safe: the model chooses the words after the prefix, so a prefix is
// only as safe as every flag of its command. Many run other programs or write files:
// "go test" takes -exec=PROG, "go vet" -vettool=PROG, "go build" and "go list" -toolexec,
// "git" -c KEY=VALUE, "git diff" and "git log" --output=FILE, "find" -exec and -delete,
// "make" any target. Other programs than git read code from the workspace too: "make" its
// Makefile, "npm test" package.json, "go test" the tests themselves (and go.mod's toolchain
// line, where the network allows a download). "git status" and "ls" are reasonable. A whole
// command given as a prefix ("go vet ./...") still lets the model add words after it. Words
// that name a path out of the workspace (absolute or climbing with "..", also after "=",
// "@" or "," and glued to a short option, as in -o/etc/x or -o../x) are not approved here,
// but a symbolic link inside the workspace may still lead out: "cat" or "ls" can read
// through one. Neither are words, nor a working directory, that name a protected path (see
// [AllowWrites]: .git, .gitmodules, shell start-up files, agents' and editors'
// configuration), also through the workspace's symbolic links: "sort -o .bashrc" would write
// one, and even a command that only reads one goes to next. The working directory is any
// other directory of the workspace.
//
// AllowCommands finds the call's sandbox, to check git repositories, in the call's ctx or
// its UserData only; git commands of calls that bring none go to next. With a Workspace's
// own sandbox, use [Workspace.AllowCommands].
//
// It knows the shell tool by its arguments (ShellArgs), not by its name: a preset or a host
// that registers it under another name keeps the allowlist.
//
// Install it with runtime.WithApprover; it decides before an approval queue or MCP
// elicitation is asked.
func AllowCommands(next runtime.Approver, prefixes ...string) runtime.Approver {
	return (*Workspace)(nil).AllowCommands(next, prefixes...)
}

// AllowCommands is [AllowCommands] for the calls of w's tools: it finds the call's sandbox as
// they do, w's included.
func (w *Workspace) AllowCommands(next runtime.Approver, prefixes ...string) runtime.Approver {
	return runtime.ApproverFunc(func(ctx context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
		if args, ok := req.Args.(*ShellArgs); ok && allowedCommand(args.Command, prefixes) &&
			(!isGitCommand(args.Command) || w.gitInertFor(ctx, args.Workdir)) && !w.touchesProtected(ctx, args) {
			return runtime.Decision{Approved: true, By: "workspace.AllowCommands"}, nil
		}
		if next == nil {
			return runtime.Decision{}, runtime.ErrUndecided
		}
		return next.Approve(ctx, req)
	})
}

// gitInertFor reports whether git run in the workdir of a call would find only inert
// repositories (see AllowCommands).
func (w *Workspace) gitInertFor(ctx context.Context, workdir string) bool {
	sb, dir, err := w.resolve(ctx, workdir)
	return err == nil && gitInert(sb, dir) == nil
}

// leavesWorkspace reports whether a word of a command names a path outside the workspace:
// absolute, or climbing with "..", as a whole or in any part a program may take for a path:
// after "=", "@" or "," (--output=/x, -d@/x, --files=a,/x), and, in a word of short options
// (one "-"), after any of its letters, since an option's argument may be glued to it
// (-o/x, -rf/x, -o../x).
func leavesWorkspace(word string) bool {
	if climbsOrAbsolute(word) {
		return true
	}
	for i := 1; i < len(word); i++ {
		shortOption := word[0] == '-' && word[1] != '-'
		if (shortOption || strings.IndexByte("=@,", word[i-1]) >= 0) && climbsOrAbsolute(word[i:]) {
			return true
		}
	}
	return false
}

// climbsOrAbsolute reports whether a path is absolute or has a ".." element.
func climbsOrAbsolute(p string) bool {
	return strings.HasPrefix(p, "/") || slices.Contains(strings.Split(p, "/"), "..")
}

// allowedCommand reports whether command is a prefix, or a prefix and more words, made only
// of characters sh takes literally.
func allowedCommand(command string, prefixes []string) bool {
	for _, r := range command {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(" ._-/:=,+@%", r)) {
			return false
		}
	}
	command = strings.TrimSpace(command)
	for _, word := range strings.Fields(command) {
		if leavesWorkspace(word) {
			return false
		}
	}
	for _, p := range prefixes {
		p = strings.TrimSpace(p)
		if p != "" && (command == p || strings.HasPrefix(command, p+" ")) {
			return true
		}
	}
	return false
}
