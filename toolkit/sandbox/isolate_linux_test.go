//go:build linux

package sandbox

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests run commands in the sandbox on the machine that runs them: CI runs them as root
// with namespaces available (Linux 6.14 or later for the process bound as root). Each command
// is bounded by a generous deadline, never timed.

const isolatedDeadline = 2 * time.Minute

// runIn runs script in l and returns its exit status and output.
func runIn(t *testing.T, l *Local, dir, script string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), isolatedDeadline)
	defer cancel()
	var out strings.Builder
	exit, err := l.Run(ctx, Command{Script: script, Dir: dir, Output: &out})
	require.NoError(t, err, out.String())
	return exit, out.String()
}

func openIsolated(t *testing.T, opts LocalOptions) (*Local, string) {
	t.Helper()
	dir := t.TempDir()
	l, err := OpenLocal(dir, opts)
	require.NoError(t, err)
	t.Cleanup(func() { l.Close() })
	return l, dir
}

func unique(t *testing.T) string {
	t.Helper()
	var b [6]byte
	_, err := rand.Read(b[:])
	require.NoError(t, err)
	return hex.EncodeToString(b[:])
}

// TestIsolatedEnvironment: no process the command can reach holds the host's environment:
// not its parent (PID 1 of the sandbox, started with none), not any other.
func TestIsolatedEnvironment(t *testing.T) {
	secret := "sk-" + unique(t)
	t.Setenv("SANDBOX_TEST_SECRET", secret)
	l, _ := openIsolated(t, LocalOptions{Env: append([]string{"SANDBOX_TEST_SECRET"}, DefaultEnv...)})
	l2, _ := openIsolated(t, LocalOptions{})
	_, out := runIn(t, l2, ".", `cat /proc/$PPID/environ; cat /proc/1/environ; for f in /proc/[0-9]*/environ; do cat "$f"; done; env; echo done`)
	assert.NotContains(t, out, secret)
	assert.Contains(t, out, "done")
	// A variable the host allows is the command's, and only its.
	_, out = runIn(t, l, ".", `echo "[$SANDBOX_TEST_SECRET]"; cat /proc/$PPID/environ 2>/dev/null; echo "home=$HOME"`)
	assert.Equal(t, "["+secret+"]\nhome=/tmp\n", out)
}

// TestIsolatedProcesses: the command sees only its own processes, cannot signal the host's,
// holds no capabilities and cannot make a user namespace to gain some.
func TestIsolatedProcesses(t *testing.T) {
	l, _ := openIsolated(t, LocalOptions{})
	host := os.Getpid()
	_, out := runIn(t, l, ".", fmt.Sprintf(`set -- /proc/[0-9]*; echo "processes: $#"
kill -0 %d 2>/dev/null && echo SIGNALLED
grep CapEff /proc/self/status
unshare -U true 2>/dev/null && echo NESTED
ps -e -o comm= 2>/dev/null | sort -u | tr '\n' ' '`, host))
	m := regexp.MustCompile(`processes: (\d+)`).FindStringSubmatch(out)
	require.NotNil(t, m, out)
	n, _ := strconv.Atoi(m[1])
	assert.LessOrEqual(t, n, 3, "PID 1, the shell and the glob's process at most: %s", out)
	assert.NotContains(t, out, "SIGNALLED")
	assert.NotContains(t, out, "NESTED")
	assert.Contains(t, out, "CapEff:\t0000000000000000")
}

// hostProcesses returns the host's processes whose command line contains marker.
func hostProcesses(marker string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && bytes.Contains(cmdline, []byte(marker)) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// assertNoneSurvive fails if a host process carries marker in its command line, and kills it.
func assertNoneSurvive(t *testing.T, marker string) {
	t.Helper()
	pids := hostProcesses(marker)
	for _, pid := range pids {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	assert.Empty(t, pids, "processes of the command survived it")
}

// TestIsolatedNothingSurvives: whatever a command leaves behind, in another session, another
// process group or a double fork, dies with it; so does everything at its deadline.
func TestIsolatedNothingSurvives(t *testing.T) {
	l, _ := openIsolated(t, LocalOptions{})
	secs := "1000." + strconv.Itoa(int(time.Now().UnixNano()%1e6)) // sleep's argument, unique
	exit, out := runIn(t, l, ".", fmt.Sprintf(`setsid -f sleep %[1]s; (sleep %[1]s &); nohup sleep %[1]s >/dev/null 2>&1 &
perl -e 'setpgrp(0,0); exec "sleep", "%[1]s"' & echo started`, secs))
	assert.Equal(t, 0, exit, out)
	assert.Equal(t, "started\n", out)
	assertNoneSurvive(t, "sleep\x00"+secs)

	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	_, err := l.Run(ctx, Command{Script: fmt.Sprintf(`setsid -f sleep %[1]s; sleep %[1]s`, secs)})
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assertNoneSurvive(t, "sleep\x00"+secs)
}

// TestIsolatedPaths: the workspace is /workspace, and no way of asking shows the host's path.
func TestIsolatedPaths(t *testing.T) {
	l, dir := openIsolated(t, LocalOptions{})
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	_, out := runIn(t, l, "sub", `pwd; pwd | rev; cd ..; pwd; pwd | rev; cd ..; pwd; readlink /proc/self/cwd`)
	assert.Equal(t, "/workspace/sub\nbus/ecapskrow/\n/workspace\necapskrow/\n/\n/\n", out)
}

// TestIsolatedWrites: the workspace and /tmp are the only writable places; the host's files
// outside the workspace are not even there.
func TestIsolatedWrites(t *testing.T) {
	l, dir := openIsolated(t, LocalOptions{})
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	require.NoError(t, os.WriteFile(secret, []byte("SECRET\n"), 0o644))
	name := "sandbox-test-" + unique(t)
	t.Cleanup(func() {
		for _, d := range []string{"/usr", "/etc", "/", "/tmp"} {
			os.Remove(filepath.Join(d, name))
		}
	})
	_, out := runIn(t, l, ".", fmt.Sprintf(`for d in /usr /etc / /proc/sys/kernel /dev; do touch "$d/%[1]s" 2>/dev/null && echo "wrote $d"; done
(echo > /proc/sys/kernel/pid_max) 2>/dev/null && echo "wrote pid_max"
cat %[2]q 2>/dev/null && echo "read outside"
echo x > /tmp/%[1]s && echo "wrote tmp"
echo x > %[1]s && echo "wrote workspace"`, name, secret))
	assert.Equal(t, "wrote tmp\nwrote workspace\n", out)
	data, err := os.ReadFile(filepath.Join(dir, name))
	require.NoError(t, err)
	assert.Equal(t, "x\n", string(data))
	_, err = os.Stat(filepath.Join("/tmp", name))
	assert.ErrorIs(t, err, os.ErrNotExist, "the sandbox's /tmp is its own")
}

// TestIsolatedNetwork: by default a command has only its own loopback: a server on the host's
// loopback is not reached. With Network, it is.
func TestIsolatedNetwork(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	script := fmt.Sprintf(`cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d ' '; bash -c 'echo hello > /dev/tcp/127.0.0.1/%d' 2>/dev/null && echo connected`, port)
	// accepted returns what a connection made before the call sent, or "" when none came: the
	// command connects synchronously, so a connection is queued before Run returns.
	accepted := func() string {
		ln.(*net.TCPListener).SetDeadline(time.Now().Add(200 * time.Millisecond))
		c, err := ln.Accept()
		if err != nil {
			return ""
		}
		defer c.Close()
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		var b [16]byte
		n, _ := c.Read(b[:])
		return string(b[:n])
	}

	l, _ := openIsolated(t, LocalOptions{})
	_, out := runIn(t, l, ".", script)
	assert.Equal(t, "lo\n", out)
	assert.Empty(t, accepted())

	l, _ = openIsolated(t, LocalOptions{Network: true})
	_, out = runIn(t, l, ".", script)
	assert.Contains(t, out, "connected")
	assert.Equal(t, "hello\n", accepted())
}

// TestIsolatedLimits: a fork bomb, a memory hog, a CPU spin, a huge file and a full /tmp are
// each stopped by their bound, and the host carries on.
func TestIsolatedLimits(t *testing.T) {
	marker := "bomb" + unique(t)
	t.Run("processes", func(t *testing.T) {
		l, _ := openIsolated(t, LocalOptions{Limits: Limits{Processes: 64}})
		// The bomb runs in a background subshell, the shell's only fork, made while the
		// namespace holds two processes; the shell then counts with builtins only (it could
		// not fork), and its exit ends the namespace. Called from the shell itself, the bomb's
		// first pipeline had the shell fork twice, and under load the first child's
		// descendants could reach the bound before the second fork: sh then exited with 2
		// ("Cannot fork", sent to /dev/null) before printing anything.
		exit, out := runIn(t, l, ".", fmt.Sprintf(`%s(){ %[1]s|%[1]s& }; (%[1]s 2>/dev/null) &
i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done; set -- /proc/[0-9]*; echo "processes: $#"`, marker))
		assert.Equal(t, 0, exit, out)
		m := regexp.MustCompile(`processes: (\d+)`).FindStringSubmatch(out)
		require.NotNil(t, m, out)
		n, _ := strconv.Atoi(m[1])
		// As root the bound is pid_max, 300 above the limit (see Limits); otherwise RLIMIT_NPROC.
		bound := 64
		if os.Geteuid() == 0 {
			bound += reservedPids
		}
		assert.LessOrEqual(t, n, bound, out)
		assertNoneSurvive(t, marker)
		require.NoError(t, exec.Command("true").Run(), "the host can still start processes")
	})
	t.Run("memory", func(t *testing.T) {
		l, _ := openIsolated(t, LocalOptions{Limits: Limits{Memory: 128 << 20}})
		// Doubles a string up to 512 MiB, then stops: bounded even without the limit.
		_, out := runIn(t, l, ".", `awk 'BEGIN { s = "x"; while (length(s) < 2^29) s = s s; print "allocated" }'; echo "awk $?"`)
		assert.NotContains(t, out, "allocated")
		assert.Regexp(t, `awk [1-9]\d*\n$`, out)
	})
	t.Run("cpu", func(t *testing.T) {
		l, _ := openIsolated(t, LocalOptions{Limits: Limits{CPUTime: time.Second}})
		exit, out := runIn(t, l, ".", `while :; do :; done`)
		assert.Equal(t, 128+int(syscall.SIGKILL), exit, out)
	})
	t.Run("file size", func(t *testing.T) {
		l, dir := openIsolated(t, LocalOptions{Limits: Limits{FileSize: 1 << 20}})
		_, out := runIn(t, l, ".", `head -c 5000000 /dev/zero > big; echo "head $?"`)
		assert.Contains(t, out, fmt.Sprintf("head %d\n", 128+int(syscall.SIGXFSZ)))
		info, err := os.Stat(filepath.Join(dir, "big"))
		require.NoError(t, err)
		assert.Equal(t, int64(1<<20), info.Size())
	})
	t.Run("tmp", func(t *testing.T) {
		l, _ := openIsolated(t, LocalOptions{Limits: Limits{Tmp: 1 << 20}})
		name := "sandbox-test-" + unique(t)
		t.Cleanup(func() { os.Remove(filepath.Join("/tmp", name)) })
		_, out := runIn(t, l, ".", fmt.Sprintf(`head -c 5000000 /dev/zero > /tmp/%s; echo "head $?"; du -k /tmp | tail -1`, name))
		assert.Contains(t, out, "No space left on device")
		assert.Regexp(t, `head [1-9]`, out)
	})
}

// TestIsolatedMounts: a Mount shows a host directory, read-only unless Writable.
func TestIsolatedMounts(t *testing.T) {
	ro, rw := t.TempDir(), t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(ro, "tool"), []byte("v1\n"), 0o644))
	l, _ := openIsolated(t, LocalOptions{Mounts: []Mount{{Source: ro, Target: "/opt/tools"}, {Source: rw, Target: "/cache", Writable: true}}})
	_, out := runIn(t, l, ".", `cat /opt/tools/tool; (echo v2 > /opt/tools/tool) 2>/dev/null || echo refused; echo hit > /cache/entry && echo cached`)
	assert.Equal(t, "v1\nrefused\ncached\n", out)
	data, err := os.ReadFile(filepath.Join(rw, "entry"))
	require.NoError(t, err)
	assert.Equal(t, "hit\n", string(data))

	for _, target := range []string{"relative", "/", "/workspace/x", "/proc", "/dev/x", "/a/../b"} {
		_, err := OpenLocal(t.TempDir(), LocalOptions{Mounts: []Mount{{Source: ro, Target: target}}})
		assert.Error(t, err, target)
	}
}

// TestRefusesWithoutIsolation: where the kernel will not make the namespaces (here: a user
// namespace that allows none inside it), Run refuses with ErrNoIsolation and runs nothing;
// UnconfinedHostExecution runs the command on the host instead.
func TestRefusesWithoutIsolation(t *testing.T) {
	if os.Getenv("SANDBOX_TEST_NO_USERNS") == "1" {
		require.NoError(t, os.WriteFile("/proc/sys/user/max_user_namespaces", []byte("0"), 0))
		l, dir := openIsolated(t, LocalOptions{})
		exit, err := l.Run(t.Context(), Command{Script: "touch ran"})
		assert.ErrorIs(t, err, ErrNoIsolation)
		assert.Equal(t, -1, exit)
		assert.NoFileExists(t, filepath.Join(dir, "ran"))

		l, dir = openIsolated(t, LocalOptions{UnconfinedHostExecution: true})
		var out strings.Builder
		exit, err = l.Run(t.Context(), Command{Script: "touch ran; pwd", Output: &out})
		require.NoError(t, err)
		assert.Equal(t, 0, exit)
		assert.Equal(t, ".\n", out.String(), "on the host, with the path scrubbed")
		assert.FileExists(t, filepath.Join(dir, "ran"))
		return
	}
	// The test again, in a user namespace of its own whose limit it may set.
	ctx, cancel := context.WithTimeout(t.Context(), isolatedDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestRefusesWithoutIsolation$", "-test.v")
	cmd.Env = append(os.Environ(), "SANDBOX_TEST_NO_USERNS=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Geteuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getegid(), Size: 1}},
	}
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "--- PASS: TestRefusesWithoutIsolation")
}
