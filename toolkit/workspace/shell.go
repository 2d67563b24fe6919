package workspace

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/internal/plural"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
)

// Limits of shell; the package doc states them.
const (
	defaultShellTimeout = 2 * time.Minute
	maxShellOutput      = 8 << 20 // output kept in memory: the first and last 4 MiB
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
// Stdout and stderr are interleaved as written. Nothing the command starts in the background
// outlives it. A long output is cut; the result says how to read the rest.
//
//tool:name shell
//tool:hints destructive,openworld
//tool:confirm runs a shell command on the host
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
		// The command's fault, not the tool's: the model reads what it printed.
		return fmt.Sprintf("killed at the timeout of %d ms, with every process it started; raise timeout_ms if it needs longer\n%s", args.TimeoutMS, out.String()), nil
	case ctx.Err() != nil:
		return "", ctx.Err()
	}
	return "", fileError(args.Workdir, err)
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
// What it does not make safe: the model chooses the words after the prefix, so a prefix is
// only as safe as every flag of its command. Many run other programs or write files:
// "go test" takes -exec=PROG, "go vet" -vettool=PROG, "go build" and "go list" -toolexec,
// "git" -c KEY=VALUE, "git diff" and "git log" --output=FILE, "find" -exec and -delete,
// "make" any target. "git status" and "ls" are reasonable. A whole command given as a
// prefix ("go vet ./...") still lets the model add words after it. Words that name a path
// out of the workspace (absolute, also after "=", or climbing with "..") are not approved
// here, but a symbolic link inside the workspace may still lead out: "cat" or "ls" can read
// through one. The working directory is any directory of the workspace.
//
// Install it with runtime.WithApprover; it decides before an approval queue or MCP
// elicitation is asked.
func AllowCommands(next runtime.Approver, prefixes ...string) runtime.Approver {
	return runtime.ApproverFunc(func(ctx context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
		if args, ok := req.Args.(*ShellArgs); ok && req.Tool == "shell" && allowedCommand(args.Command, prefixes) {
			return runtime.Decision{Approved: true, By: "workspace.AllowCommands"}, nil
		}
		if next == nil {
			return runtime.Decision{}, runtime.ErrUndecided
		}
		return next.Approve(ctx, req)
	})
}

// leavesWorkspace reports whether a word of a command names a path outside the workspace:
// absolute (as a whole or after "="), or climbing with "..".
func leavesWorkspace(word string) bool {
	if _, value, ok := strings.Cut(word, "="); ok {
		return leavesWorkspace(value)
	}
	return strings.HasPrefix(word, "/") || slices.Contains(strings.Split(word, "/"), "..")
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
