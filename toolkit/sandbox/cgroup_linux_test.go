//go:build linux

package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// requireCgroup skips the test where the program can make no memory cgroup.
func requireCgroup(t *testing.T) cgroupHost {
	t.Helper()
	h := hostCgroup()
	if h.kind == boundNone {
		t.Skip("no memory cgroup can be made on this host, so commands have no bound on their total memory: " + h.why)
	}
	return h
}

// leftoverCgroups lists the run cgroups left below h.parent.
func leftoverCgroups(t *testing.T, h cgroupHost) []string {
	t.Helper()
	entries, err := os.ReadDir(h.parent)
	require.NoError(t, err)
	var left []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), cgroupPrefix+processCgroupTag) { // not another test binary's
			left = append(left, e.Name())
		}
	}
	return left
}

// TestIsolatedTotalMemory: processes each within the per-process limit, whose sum is past
// Limits.TotalMemory, are stopped together, whether they hold anonymous memory or files in
// /tmp (a tmpfs, charged to its writer), and the output says the bound, in MiB and without a
// host path; a command within the bound runs as before; no cgroup remains after a run.
// Without the cgroup 4 × 48 MiB ran to their end under a 96 MiB bound.
func TestIsolatedTotalMemory(t *testing.T) {
	h := requireCgroup(t)
	const mib = 1 << 20
	l, _ := openIsolated(t, LocalOptions{Limits: Limits{Memory: 256 * mib, Tmp: 512 * mib, TotalMemory: 96 * mib}})
	assert.Equal(t, h.kind, l.MemoryBound())
	stopped := "sandbox: the command was stopped: its processes used more than 96 MiB of memory in all"
	// Each holds its 48 MiB (in 1 MiB strings: one string of 48 MiB peaks at twice that, made
	// and copied) for 20 s, or until it is killed; "all done" only once all ended.
	scripts := map[string]string{
		"anonymous": `for i in 1 2 3 4; do perl -e 'my @a; push @a, "x" x (1 << 20) for 1 .. 48; print "held\n"; sleep 20' & done; wait; echo "all done"`,
		"tmp":       `for i in 1 2 3 4; do (dd if=/dev/zero of=/tmp/f$i bs=1M count=48 2>/dev/null && echo held && sleep 20) & done; wait; echo "all done"`,
	}
	for name, script := range scripts {
		t.Run(name, func(t *testing.T) {
			exit, out := runIn(t, l, ".", script)
			assert.Equal(t, 128+int(syscall.SIGKILL), exit, out)
			assert.NotContains(t, out, "all done", "the command ran to its end past the bound: "+out)
			assert.Contains(t, out, stopped, out)
			assert.True(t, strings.HasSuffix(out, "\n"), out)
			assert.NotContains(t, out, "\n\nsandbox:", "a blank line before the note: "+out)
			assert.NotContains(t, out, "/sys/fs/cgroup", out)
			assert.Empty(t, leftoverCgroups(t, h), "a run's cgroup is left")
		})
	}
	t.Run("within the bound", func(t *testing.T) {
		exit, out := runIn(t, l, ".", `perl -e 'my @a; push @a, "x" x (1 << 20) for 1 .. 32; print "held\n"' & dd if=/dev/zero of=/tmp/f bs=1M count=16 2>/dev/null; wait; echo "all done"`)
		assert.Equal(t, 0, exit, out)
		assert.Equal(t, "held\nall done\n", out)
		assert.Empty(t, leftoverCgroups(t, h), "a run's cgroup is left")
	})
}

// TestIsolatedCgroupJoined: the command's processes are in the run's cgroup from the shell
// on, the shell's first line included; with TotalMemory negative no cgroup is made, and the
// command stays in the program's.
func TestIsolatedCgroupJoined(t *testing.T) {
	h := requireCgroup(t)
	// The sandbox has its own cgroup namespace, rooted at the program's cgroup: the run's
	// cgroup is its child there, and no host path shows.
	line := `grep ^0:: /proc/self/cgroup`
	if h.kind == boundV1 {
		line = `grep :memory: /proc/self/cgroup`
	}
	l, _ := openIsolated(t, LocalOptions{})
	exit, out := runIn(t, l, ".", line+"; sh -c '"+line+"' & wait")
	assert.Equal(t, 0, exit, out)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 2, out)
	for _, line := range lines {
		assert.Regexp(t, `:/`+cgroupPrefix+processCgroupTag+`[0-9a-f]{16}$`, line)
	}
	assert.Equal(t, lines[0], lines[1], "a background process is in the same cgroup")
	assert.Empty(t, leftoverCgroups(t, h), "a run's cgroup is left")

	l, _ = openIsolated(t, LocalOptions{Limits: Limits{TotalMemory: -1}})
	assert.Equal(t, boundNone, l.MemoryBound())
	_, out = runIn(t, l, ".", line)
	assert.Regexp(t, `:/\n$`, out)
}

// TestCgroupDir: a cgroup's directory is found below its hierarchy's mount, also where the
// mount shows a cgroup other than the root (a container's), and not outside what it shows.
func TestCgroupDir(t *testing.T) {
	for _, c := range []struct {
		mount cgroupMount
		own   string
		want  string
	}{
		{cgroupMount{"/sys/fs/cgroup", "/"}, "/user.slice/app.scope", "/sys/fs/cgroup/user.slice/app.scope"},
		{cgroupMount{"/sys/fs/cgroup", "/"}, "/", "/sys/fs/cgroup"},
		{cgroupMount{"/sys/fs/cgroup/memory", "/docker/abc"}, "/docker/abc/x", "/sys/fs/cgroup/memory/x"},
		{cgroupMount{"/sys/fs/cgroup/memory", "/docker/abc"}, "/other", ""},
		{cgroupMount{"/sys/fs/cgroup", "/"}, "/../x", ""},
		{cgroupMount{}, "/x", ""},
	} {
		dir, ok := cgroupDir(c.mount, c.own)
		assert.Equal(t, c.want != "", ok, "%+v %s", c.mount, c.own)
		assert.Equal(t, c.want, dir, "%+v %s", c.mount, c.own)
	}
	assert.Equal(t, `/a b\c`, unescapeMount(`/a\040b\134c`))
}

// TestCgroupErrorNoHostPath: a failure of the command's cgroup names the step and the
// system's error, not the cgroup's host path.
func TestCgroupErrorNoHostPath(t *testing.T) {
	_, err := os.ReadFile("/sys/fs/cgroup/no-such-" + unique(t) + "/cgroup.procs")
	require.Error(t, err)
	got := cgroupError("making the command's memory cgroup", err).Error()
	assert.Equal(t, "sandbox: making the command's memory cgroup: no such file or directory", got)
}

// fakeCgroup makes a directory with the files of a v2 cgroup, as given.
func fakeCgroup(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	return dir
}

// TestDelegatedV2: a v2 cgroup is used when the memory controller is delegated to it and
// enabled for its children, or when the program is its only process (it then moves itself
// into a leaf and enables the controller); not when the cgroup has no memory controller or
// holds other processes. The v2 files are faked: this tests the decisions, not the kernel.
func TestDelegatedV2(t *testing.T) {
	me := strconv.Itoa(os.Getpid())
	t.Run("enabled", func(t *testing.T) {
		dir := fakeCgroup(t, map[string]string{"cgroup.controllers": "cpu memory pids\n", "cgroup.subtree_control": "memory pids\n", "cgroup.procs": ""})
		parent, err := delegatedV2(dir)
		require.NoError(t, err)
		assert.Equal(t, dir, parent)
		assert.NoDirExists(t, filepath.Join(dir, cgroupLeaf))
	})
	t.Run("alone", func(t *testing.T) {
		dir := fakeCgroup(t, map[string]string{"cgroup.controllers": "memory\n", "cgroup.subtree_control": "", "cgroup.procs": me + "\n"})
		parent, err := delegatedV2(dir)
		require.NoError(t, err)
		assert.Equal(t, dir, parent)
		procs, err := os.ReadFile(filepath.Join(dir, cgroupLeaf, "cgroup.procs"))
		require.NoError(t, err)
		assert.Equal(t, me, string(procs), "the program moved into its leaf")
		control, err := os.ReadFile(filepath.Join(dir, "cgroup.subtree_control"))
		require.NoError(t, err)
		assert.Equal(t, "+memory", string(control))
	})
	t.Run("shared", func(t *testing.T) {
		dir := fakeCgroup(t, map[string]string{"cgroup.controllers": "memory\n", "cgroup.subtree_control": "", "cgroup.procs": "1\n" + me + "\n"})
		_, err := delegatedV2(dir)
		assert.ErrorContains(t, err, "holds other processes")
		assert.NoDirExists(t, filepath.Join(dir, cgroupLeaf))
	})
	t.Run("no memory controller", func(t *testing.T) {
		dir := fakeCgroup(t, map[string]string{"cgroup.controllers": "cpu pids\n", "cgroup.subtree_control": "", "cgroup.procs": me})
		_, err := delegatedV2(dir)
		assert.ErrorContains(t, err, "not delegated")
	})
	t.Run("limits", func(t *testing.T) {
		dir := fakeCgroup(t, nil)
		name := cgroupPrefix + "fake"
		files := map[string]string{"memory.max": "max", "memory.swap.max": "max", "memory.oom.group": "0",
			"memory.events": "low 0\nhigh 0\nmax 4\noom 1\noom_kill 2\noom_group_kill 1\n"}
		require.NoError(t, os.Mkdir(filepath.Join(dir, name), 0o755))
		for f, content := range files {
			require.NoError(t, os.WriteFile(filepath.Join(dir, name, f), []byte(content), 0o644))
		}
		g := &runCgroup{dir: filepath.Join(dir, name), v2: true, limit: 96 << 20}
		require.NoError(t, g.setLimits())
		for f, want := range map[string]string{"memory.max": "100663296", "memory.swap.max": "0", "memory.oom.group": "1"} {
			got, err := os.ReadFile(filepath.Join(g.dir, f))
			require.NoError(t, err)
			assert.Equal(t, want, string(got), f)
		}
		assert.Equal(t, 2, g.oomKills())
	})
}
