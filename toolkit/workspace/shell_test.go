//go:build unix

package workspace_test

import (
	"context"
	"errors"
	"fmt"
	"os"
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
	assert.Equal(t, "exit status 0\n./sub\n", shellText(t, h, `{"command":"pwd","workdir":"sub"}`), "the root's host path is never shown")
	assert.Equal(t, "exit status 0\n[]\n", shellText(t, h, `{"command":"echo [$WORKSPACE_TEST_SECRET]"}`), "the host's environment stays out")
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

// alive reports whether the process pid runs (a zombie, killed and waiting for its parent to
// reap it, does not).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return !errors.Is(err, os.ErrNotExist) // no /proc: the signal check is all there is
	}
	_, after, _ := strings.Cut(string(stat), ") ")
	return !strings.HasPrefix(after, "Z")
}

// waitGone waits until none of pids runs; it fails the test after a generous 30 seconds
// (the processes would sleep for 10 minutes), and then kills them.
func waitGone(t *testing.T, pids []int) {
	t.Helper()
	t.Cleanup(func() {
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for _, pid := range pids {
		for alive(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("process %d survived its command", pid)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

func readPids(t *testing.T, file string) []int {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		pid, err := strconv.Atoi(f)
		require.NoError(t, err)
		pids = append(pids, pid)
	}
	require.NotEmpty(t, pids)
	return pids
}

// TestShellTimeoutKillsGroup: at the timeout the shell, its children and their children die.
func TestShellTimeoutKillsGroup(t *testing.T) {
	h, dir, _ := localWithOutside(t)
	res := h.call("shell", `{"command":"sleep 600 & echo $! >> pids; sh -c 'sleep 600 & echo $! >> pids; wait' & echo $! >> pids; echo started; wait","timeout_ms":500}`)
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, "killed at the timeout of 500 ms, with every process it started; raise timeout_ms if it needs longer\nstarted\n", res.Text)
	pids := readPids(t, filepath.Join(dir, "pids"))
	assert.Len(t, pids, 3)
	waitGone(t, pids)
}

// TestShellBackgroundKilled: a command that exits leaving a process in the background does
// not leave it running (nor does it hold the call open).
func TestShellBackgroundKilled(t *testing.T) {
	h, dir, _ := localWithOutside(t)
	assert.Equal(t, "exit status 0\ndone\n", shellText(t, h, `{"command":"sleep 600 & echo $! > pids; echo done"}`))
	waitGone(t, readPids(t, filepath.Join(dir, "pids")))
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
	reg := runtime.NewRegistry(runtime.WithApprover(workspace.AllowCommands(next, "go vet", "git status", "ls")))
	require.NoError(t, reg.Add(workspace.WorkspaceTools(workspace.New(sb))...))

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
	require.NoError(t, reg.Add(workspace.WorkspaceTools(workspace.New(sb))...))

	res := reg.Invoke(t.Context(), runtime.Call{ID: "1", Name: "shell", Args: []byte(`{"command":"ls"}`)})
	require.False(t, res.IsError, res.Text)
	res = reg.Invoke(t.Context(), runtime.Call{ID: "2", Name: "shell", Args: []byte(`{"command":"rm -rf build"}`)})
	assert.NotEmpty(t, res.PendingApproval, "left to the queue: %s", res.Text)
	assert.Equal(t, []string{"ls"}, ran)
}
