//go:build unix

package workspace_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
	"github.com/toolgen-go/toolgen/toolkit/workspace"
)

// shellText returns the text of a shell call without the duration on its first line.
func shellText(t *testing.T, h *harness, args string) string {
	t.Helper()
	res := h.call("shell", args)
	require.False(t, res.IsError, res.Text)
	first, rest, _ := strings.Cut(res.Text, "\n")
	if i := strings.Index(first, " ("); i > 0 && strings.HasPrefix(first, "exit status") {
		first = first[:i]
	}
	return first + "\n" + rest
}

func TestShell(t *testing.T) {
	h, dir, _ := localWithOutside(t)
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	t.Setenv("WORKSPACE_TEST_SECRET", "hunter2")

	assert.Equal(t, "exit status 3\nout\nerr\nout2\n",
		shellText(t, h, `{"command":"echo out; echo err >&2; echo out2; exit 3"}`), "interleaved, with the exit status")
	assert.Equal(t, "exit status 0\n/workspace/sub\n", shellText(t, h, `{"command":"pwd","workdir":"sub"}`), "the root's host path is never shown")
	assert.Equal(t, "exit status 0\nbus/ecapskrow/\n/\n", shellText(t, h, `{"command":"pwd | rev; cd ../..; pwd","workdir":"sub"}`), "not even when the command encodes it")
	assert.Equal(t, "exit status 0\n[]\n", shellText(t, h, `{"command":"echo [$WORKSPACE_TEST_SECRET]"}`), "the host's environment stays out")
	assert.Equal(t, "exit status 0\ndone\n", shellText(t, h, `{"command":"for f in /proc/[0-9]*/environ; do cat $f 2>/dev/null | grep -a hunter2; done; echo done"}`), "also from the processes it can see")
	assert.Equal(t, "exit status 0\n[]\n", shellText(t, h, `{"command":"echo [$(cat)]"}`), "stdin is closed")
	assert.Equal(t, "exit status 137\n", shellText(t, h, `{"command":"kill -9 $$"}`), "a signal is reported as sh does")

	for _, c := range []toolCase{
		{tool: "shell", args: `{"command":"pwd","workdir":".."}`, kind: runtime.KindPermission},
		{tool: "shell", args: `{"command":"pwd","workdir":"missing"}`, kind: runtime.KindNotFound},
		{tool: "shell", args: `{"command":"pwd","workdir":"sub/../../x"}`, kind: runtime.KindPermission},
	} {
		c.check(t, h)
	}
}

// assertNoneSurvive fails if a host process carries marker in its command line (and kills it).
func assertNoneSurvive(t *testing.T, marker string) {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	require.NoError(t, err)
	var found []string
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && strings.Contains(string(cmdline), marker) {
			found = append(found, strings.ReplaceAll(string(cmdline), "\x00", " "))
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	assert.Empty(t, found, "processes of the command survived it")
}

// sleepMarker returns a unique argument for sleep, to find its processes by.
func sleepMarker() string {
	return "600." + strconv.FormatInt(time.Now().UnixNano()%1e9, 10)
}

// TestShellTimeoutKillsGroup: at the timeout the shell, its children and their children die,
// also those in a session of their own, and the call fails as timed out, with the output
// printed until then. The timeout leaves the command, which prints at once, ample time to
// start on a loaded machine.
func TestShellTimeoutKillsGroup(t *testing.T) {
	h, _, _ := localWithOutside(t)
	secs := sleepMarker()
	res := h.call("shell", fmt.Sprintf(`{"command":"sleep %[1]s & sh -c 'sleep %[1]s & wait' & setsid -f sleep %[1]s; echo started; wait","timeout_ms":5000}`, secs))
	assert.True(t, res.IsError, res.Text)
	assert.Equal(t, runtime.KindTimeout, res.Kind)
	assert.Equal(t, 1, res.Attempts, "not retried")
	assert.Equal(t, "killed at the timeout of 5000 ms, with every process it started; raise timeout_ms if it needs longer. Its output until then:\nstarted\n", res.Text)
	assertNoneSurvive(t, "sleep\x00"+secs)
}

// TestShellTimeoutKeepsTheEnd: a timed-out command's long output is cut in the middle, so the
// model reads where it was when it was killed.
func TestShellTimeoutKeepsTheEnd(t *testing.T) {
	h, _, _ := localWithOutside(t)
	res := h.call("shell", `{"command":"head -c 100000 /dev/zero | tr '\\0' a; echo; echo LAST LINE; sleep 600","timeout_ms":5000}`)
	require.True(t, res.IsError, res.Text)
	assert.Equal(t, runtime.KindTimeout, res.Kind)
	assert.True(t, strings.HasSuffix(res.Text, "\nLAST LINE\n"), res.Text[max(0, len(res.Text)-200):])
	assert.Contains(t, res.Text, "bytes of output left out")
	assert.Less(t, len(res.Text), 32<<10, "within the tool's result cap, so the registry cuts nothing")
}

// TestShellBackgroundKilled: a command that exits leaving processes in the background, in its
// process group or out of it, leaves none running (nor does it hold the call open).
func TestShellBackgroundKilled(t *testing.T) {
	h, _, _ := localWithOutside(t)
	secs := sleepMarker()
	assert.Equal(t, "exit status 0\ndone\n", shellText(t, h, fmt.Sprintf(`{"command":"sleep %[1]s & setsid -f sleep %[1]s; (sleep %[1]s &); echo done"}`, secs)))
	assertNoneSurvive(t, "sleep\x00"+secs)
}

// TestShellWithoutIsolation: a sandbox that cannot isolate commands fails the call, once,
// with words for the user and the operator.
func TestShellWithoutIsolation(t *testing.T) {
	sb := sandbox.NewMemory(nil)
	sb.RunFunc = func(context.Context, sandbox.Command) (int, error) {
		return -1, fmt.Errorf("%w: creating namespaces: operation not permitted", sandbox.ErrNoIsolation)
	}
	h := newHarness(t, sb, "")
	res := h.call("shell", `{"command":"ls"}`)
	assert.True(t, res.IsError)
	assert.Equal(t, runtime.KindUnavailable, res.Kind)
	assert.Equal(t, 1, res.Attempts)
	assert.True(t, strings.HasPrefix(res.Text, "the shell is unavailable: commands run only in isolation from the host"), res.Text)
	assert.Contains(t, res.Text, "UnconfinedHostExecution")
	assert.NotContains(t, res.Text, "operation not permitted", "the detail is the operator's")
}

func TestShellMemory(t *testing.T) {
	h := newHarness(t, sandbox.NewMemory(nil), "")
	res := h.call("shell", `{"command":"ls"}`)
	assert.Equal(t, runtime.KindUnavailable, res.Kind)
	assert.Equal(t, "this workspace cannot run commands", res.Text)

	sb := sandbox.NewMemory(map[string]string{"src/a.go": "package a"})
	sb.RunFunc = func(_ context.Context, cmd sandbox.Command) (int, error) {
		fmt.Fprintf(cmd.Output, "ran %q in %s\n", cmd.Script, cmd.Dir)
		return 1, nil
	}
	h = newHarness(t, sb, "")
	assert.Equal(t, "exit status 1\nran \"go vet\" in src\n", shellText(t, h, `{"command":"go vet","workdir":"./src/"}`))
}

func TestAllowCommands(t *testing.T) {
	var asked []string
	next := runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
		if args, ok := req.Args.(*workspace.ShellArgs); ok {
			asked = append(asked, args.Command)
		} else {
			asked = append(asked, req.Tool)
		}
		return runtime.Decision{Reason: "no"}, nil
	})
	sb := sandbox.NewMemory(nil)
	sb.RunFunc = func(context.Context, sandbox.Command) (int, error) { return 0, nil }
	w := workspace.New(sb)
	reg := runtime.NewRegistry(runtime.WithApprover(w.AllowCommands(next, "go vet", "git status", "ls", "sort", "grep")))
	require.NoError(t, reg.Add(w.Tools()...))

	cases := map[string]bool{
		"go vet":                      true,
		"go vet ./...":                true,
		"git status --short":          true,
		"ls -la src/x_1.go":           true,
		"go vetx":                     false, // not the program the prefix names
		"go vet; rm -rf .":            false,
		"go vet && rm -rf .":          false,
		"go vet | sh":                 false,
		"go vet $(rm -rf .)":          false,
		"go vet `rm -rf .`":           false,
		"go vet > go.mod":             false,
		"go vet *":                    false, // a glob could expand to a planted -flag file
		"go vet ~":                    false,
		"go vet 'x'":                  false,
		"go vet\nrm -rf .":            false,
		"go vet \\\nrm":               false,
		"git status -c core.pager=rm": true, // words after the prefix are the model's: choose prefixes accordingly
		"gofmt -w .":                  false,
		"ls /etc":                     false, // out of the workspace
		"ls ../..":                    false,
		"ls src/../..":                false,
		"ls --color=/x":               false,
		"ls -la src/..":               false, // climbs, even if it stays inside: not worth telling apart
		"ls src/a..b":                 true,
		// Paths glued to a short option, or after =, @ or ",", are paths too.
		"sort -o/home/user/.bashrc":    false,
		"grep -rf/etc/passwd x":        false,
		"sort -o../outside":            false,
		"sort -o..":                    false,
		"sort -uo/tmp/x in":            false,
		"sort --output=../outside":     false,
		"sort --output=a=/x":           false,
		"grep -d@/etc/passwd x":        false,
		"grep --file=a,/etc/passwd x":  false,
		"grep -f@../secret x":          false,
		"sort -o out.txt in.txt":       true,
		"sort -oout.txt -k1,2 in.txt":  true,
		"grep -rn x src/a..b":          true,
		"grep -e-x --include=*.go src": false, // * is never approved
		"grep -e-x -n src":             true,
	}
	for command, approved := range cases {
		asked = nil
		args, err := jsonString(command)
		require.NoError(t, err)
		res := reg.Invoke(t.Context(), runtime.Call{Name: "shell", Args: []byte(`{"command":` + args + `}`)})
		if approved {
			assert.False(t, res.IsError, "%q: %s", command, res.Text)
			assert.Empty(t, asked, "%q went to the next approver", command)
		} else {
			assert.Equal(t, runtime.KindDenied, res.Kind, "%q: %s", command, res.Text)
			assert.Equal(t, []string{command}, asked)
		}
	}
	// Other tools go to the next approver untouched.
	asked = nil
	res := reg.Invoke(t.Context(), runtime.Call{Name: "write_file", Args: []byte(`{"path":"ls","content":""}`)})
	assert.Equal(t, runtime.KindDenied, res.Kind)
	assert.Equal(t, []string{"write_file"}, asked)
}

// TestAllowCommandsLeavesTheRestToTheQueue: with no next approver, a command off the list is
// not denied but left to the registry's approval queue, while a listed one runs at once.
func TestAllowCommandsLeavesTheRestToTheQueue(t *testing.T) {
	sb := sandbox.NewMemory(nil)
	var ran []string
	sb.RunFunc = func(_ context.Context, c sandbox.Command) (int, error) {
		ran = append(ran, c.Script)
		return 0, nil
	}
	reg := runtime.NewRegistry(runtime.WithApprover(workspace.AllowCommands(nil, "ls")), runtime.WithApprovalQueue())
	require.NoError(t, reg.Add(workspace.New(sb).Tools()...))

	res := reg.Invoke(t.Context(), runtime.Call{ID: "1", Name: "shell", Args: []byte(`{"command":"ls"}`)})
	require.False(t, res.IsError, res.Text)
	res = reg.Invoke(t.Context(), runtime.Call{ID: "2", Name: "shell", Args: []byte(`{"command":"rm -rf build"}`)})
	assert.NotEmpty(t, res.PendingApproval, "left to the queue: %s", res.Text)
	assert.Equal(t, []string{"ls"}, ran)
}

// TestAllowCommandsGitRunsNoRepositoryCode: an auto-approved "git status" does not run what a
// repository's files name (here core.fsmonitor, which git status runs, a filter driver it
// runs on a changed file, and a hook): such a call goes to the user, who says no. A clean
// repository's git status is still approved without asking, and runs.
func TestAllowCommandsGitRunsNoRepositoryCode(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git:", err)
	}
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.email=a@b", "-c", "user.name=a", "-c", "init.defaultBranch=main"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	git("init", "-q", ".")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644))
	git("add", "a.txt")
	git("commit", "-q", "-m", "a")
	config, err := os.ReadFile(filepath.Join(dir, ".git", "config"))
	require.NoError(t, err)

	sb, err := sandbox.OpenLocal(dir, sandbox.LocalOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { sb.Close() })
	var asked []string
	user := runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
		asked = append(asked, req.Args.(*workspace.ShellArgs).Command)
		return runtime.Decision{Reason: "no"}, nil
	})
	w := workspace.New(sb)
	reg := runtime.NewRegistry(runtime.WithApprover(w.AllowCommands(user, "git status")))
	require.NoError(t, reg.Add(w.Tools()...))
	status := func() runtime.Result {
		return reg.Invoke(t.Context(), runtime.Call{Name: "shell", Args: []byte(`{"command":"git status --short"}`)})
	}

	res := status()
	require.False(t, res.IsError, res.Text)
	assert.Contains(t, res.Text, "exit status 0")
	assert.Empty(t, asked, "a clean repository's git status is approved without asking")

	for name, plant := range map[string]func(){
		"fsmonitor": func() {
			require.NoError(t, os.WriteFile(filepath.Join(dir, ".git", "config"), append(config, "[core]\n\tfsmonitor = touch pwned; false\n"...), 0o644))
		},
		"filter": func() {
			require.NoError(t, os.WriteFile(filepath.Join(dir, ".git", "config"), append(config, "[filter \"x\"]\n\tclean = touch pwned; cat\n"...), 0o644))
			require.NoError(t, os.WriteFile(filepath.Join(dir, ".gitattributes"), []byte("* filter=x\n"), 0o644))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("changed\n"), 0o644))
		},
		"hook": func() {
			require.NoError(t, os.WriteFile(filepath.Join(dir, ".git", "hooks", "post-index-change"), []byte("#!/bin/sh\ntouch pwned\n"), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("changed again\n"), 0o644))
		},
	} {
		asked = nil
		plant()
		res := status()
		assert.Equal(t, runtime.KindDenied, res.Kind, "%s: %s", name, res.Text)
		assert.Equal(t, []string{"git status --short"}, asked, "%s: the user is asked", name)
		assert.NoFileExists(t, filepath.Join(dir, "pwned"), name)
		// Undo, for the next case.
		require.NoError(t, os.WriteFile(filepath.Join(dir, ".git", "config"), config, 0o644))
		os.Remove(filepath.Join(dir, ".gitattributes"))
		os.Remove(filepath.Join(dir, ".git", "hooks", "post-index-change"))
		os.Remove(filepath.Join(dir, "pwned"))
	}
}

// AllowCommands judges the workspace's shell tool by what it is, not by its name: a preset or
// a host that registers it as run_command keeps the allowlist.
func TestAllowCommandsFollowsARenamedShell(t *testing.T) {
	sb := sandbox.NewMemory(nil)
	sb.RunFunc = func(context.Context, sandbox.Command) (int, error) { return 0, nil }
	w := workspace.New(sb)
	reg := runtime.NewRegistry(runtime.WithApprover(w.AllowCommands(nil, "ls")))
	for _, tool := range w.Tools() {
		if tool.Name == "shell" {
			tool.Name = "run_command"
			require.NoError(t, reg.Add(tool))
		}
	}
	res := reg.Invoke(t.Context(), runtime.Call{Name: "run_command", Args: []byte(`{"command":"ls"}`)})
	require.False(t, res.IsError, "%s", res.Text)
	res = reg.Invoke(t.Context(), runtime.Call{Name: "run_command", Args: []byte(`{"command":"rm -rf ."}`)})
	assert.True(t, res.IsError, "off the list: passed on, and nobody else decides")
}
