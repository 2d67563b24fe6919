//go:build linux

package sandbox

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The bound on an isolated command's total memory (Limits.TotalMemory) is a memory cgroup
// made for each run, below the program's own cgroup, so that whatever bounds the program
// bounds the commands too:
//
//   - cgroup v2, where the program's cgroup (/proc/self/cgroup) is a delegated subtree: the
//     program's user may write it and it has the memory controller. Children get the
//     controller only through the parent's cgroup.subtree_control, which the kernel refuses
//     to set while the parent holds processes of its own; so either it is set already (a
//     systemd unit with Delegate=yes that did so, the root cgroup), or the program is the
//     cgroup's only process, and it moves itself into a leaf of its own (cgroupLeaf) first,
//     as a delegated service's main process is expected to. A cgroup shared with other
//     processes (a terminal's scope, with the shell that started the program) is not taken
//     apart: there the v1 controller, or none, is used.
//   - cgroup v1, where the memory controller's hierarchy is mounted and the program's
//     cgroup in it is writable (as root, on hosts that still mount v1).
//   - none otherwise: the system call filter (no memfd) and the IPC namespace's limits, with
//     the per-process limits, are the bounds.
//
// Run makes the cgroup, writes PID 1's host PID into it before PID 1 reads its configuration
// (so before anything of the command runs: every process of the sandbox descends from PID 1
// and is born in it), and at the end kills whatever is in it and removes it.
const (
	cgroupPrefix = "toolgen-sandbox-" // of each run's cgroup
	cgroupLeaf   = "toolgen-program"  // v2: where the program moves itself to enable the controller
)

// processCgroupTag begins the names of this process's run cgroups, after cgroupPrefix, so
// that the programs sharing a parent cgroup (test binaries run in parallel) tell theirs apart.
var processCgroupTag = func() string {
	var b [4]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}()

// The values MemoryBound reports.
const (
	boundV2   = "cgroup v2"
	boundV1   = "cgroup v1"
	boundNone = "none: the system call filter and the IPC limits only"
)

// cgroupHost is where run cgroups are made on this host.
type cgroupHost struct {
	kind   string // boundV2, boundV1 or boundNone
	parent string // the directory run cgroups are made in
	why    string // with boundNone: why no cgroup can be made, for the log (host paths)
}

var hostCgroup = sync.OnceValue(func() cgroupHost {
	h := detectCgroup()
	if h.kind == boundNone {
		slog.Info("sandbox: commands' total memory is not bounded by a cgroup; the system call filter and the IPC limits bound memory outside address spaces", "why", h.why)
	} else {
		slog.Info("sandbox: commands' total memory is bounded by a cgroup made for each command", "bound", h.kind)
	}
	return h
})

// memoryBound says what bounds an isolated command's total memory on this host.
func memoryBound() string { return hostCgroup().kind }

// detectCgroup finds where run cgroups can be made: v2, else v1, else nowhere.
func detectCgroup() cgroupHost {
	mounts, err := cgroupMounts()
	if err != nil {
		return cgroupHost{kind: boundNone, why: "reading the mount table: " + err.Error()}
	}
	own, err := ownCgroups()
	if err != nil {
		return cgroupHost{kind: boundNone, why: "reading /proc/self/cgroup: " + err.Error()}
	}
	var whys []string
	if dir, ok := cgroupDir(mounts.v2, own.v2); !ok {
		whys = append(whys, "no cgroup v2 of the program's")
	} else if parent, err := delegatedV2(dir); err != nil {
		whys = append(whys, "cgroup v2: "+err.Error())
	} else {
		return cgroupHost{kind: boundV2, parent: parent}
	}
	if dir, ok := cgroupDir(mounts.v1memory, own.v1memory); !ok {
		whys = append(whys, "no cgroup v1 memory controller")
	} else if err := probeV1(dir); err != nil {
		whys = append(whys, "cgroup v1: "+err.Error())
	} else {
		return cgroupHost{kind: boundV1, parent: dir}
	}
	return cgroupHost{kind: boundNone, why: strings.Join(whys, "; ")}
}

// cgroupMount is a mount of a cgroup hierarchy: where it is mounted, and which cgroup of the
// hierarchy it shows there (not "/" in a container's cgroup namespace, say).
type cgroupMount struct{ point, root string }

// cgroupMounts finds the cgroup v2 mount and the v1 memory controller's in /proc/self/mountinfo.
func cgroupMounts() (m struct{ v2, v1memory cgroupMount }, err error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return m, err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 64<<10), 1<<20)
	for s.Scan() {
		// 35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
		before, after, ok := strings.Cut(s.Text(), " - ")
		fields, tail := strings.Fields(before), strings.Fields(after)
		if !ok || len(fields) < 5 || len(tail) < 3 {
			continue
		}
		mount := cgroupMount{point: unescapeMount(fields[4]), root: unescapeMount(fields[3])}
		switch {
		case tail[0] == "cgroup2" && m.v2.point == "":
			m.v2 = mount
		case tail[0] == "cgroup" && m.v1memory.point == "" && slices.Contains(strings.Split(tail[2], ","), "memory"):
			m.v1memory = mount
		}
	}
	return m, s.Err()
}

// unescapeMount undoes mountinfo's octal escapes of space, tab, newline and backslash.
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ownCgroups reads the program's cgroup in v2 and in the v1 memory hierarchy.
func ownCgroups() (own struct{ v2, v1memory string }, err error) {
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return own, err
	}
	for line := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n") {
		// 0::/user.slice/... (v2), 4:memory:/... (v1)
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			own.v2 = parts[2]
		case slices.Contains(strings.Split(parts[1], ","), "memory"):
			own.v1memory = parts[2]
		}
	}
	return own, nil
}

// cgroupDir returns the directory of the cgroup p of a hierarchy mounted at m.
func cgroupDir(m cgroupMount, p string) (string, bool) {
	if m.point == "" || p == "" || !strings.HasPrefix(p, "/") {
		return "", false
	}
	rel, ok := cutPrefixPath(p, m.root)
	if m.root == "/" {
		rel, ok = p, true
	}
	if !ok || strings.Contains(rel, "/../") || strings.HasSuffix(rel, "/..") {
		return "", false // outside what the mount shows (the program is in another cgroup namespace)
	}
	return filepath.Join(m.point, rel), true
}

// delegatedV2 checks that run cgroups with the memory controller can be made below the v2
// cgroup dir, enabling the controller for them where the program is alone in dir, and
// returns the directory they are made in.
func delegatedV2(dir string) (string, error) {
	controllers, err := os.ReadFile(filepath.Join(dir, "cgroup.controllers"))
	if err != nil {
		return "", err
	}
	if !slices.Contains(strings.Fields(string(controllers)), "memory") {
		return "", errors.New("the memory controller is not delegated to the program's cgroup")
	}
	for _, name := range []string{"", "cgroup.procs", "cgroup.subtree_control"} {
		if err := unix.Access(filepath.Join(dir, name), unix.W_OK); err != nil {
			return "", fmt.Errorf("the program's cgroup is not writable: %w", err)
		}
	}
	if enabled(dir) {
		return dir, nil
	}
	// The controller reaches children only through subtree_control, refused while dir holds
	// processes: the program may move itself into a leaf only when it is alone there.
	procs, err := cgroupProcs(dir)
	if err != nil {
		return "", err
	}
	if len(procs) != 1 || procs[0] != os.Getpid() {
		return "", errors.New("the memory controller is not enabled for the children of the program's cgroup, which holds other processes than the program")
	}
	leaf := filepath.Join(dir, cgroupLeaf)
	if err := os.Mkdir(leaf, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(leaf, "cgroup.procs"), []byte(strconv.Itoa(os.Getpid())), 0); err != nil {
		os.Remove(leaf)
		return "", fmt.Errorf("moving the program into a leaf cgroup: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cgroup.subtree_control"), []byte("+memory"), 0); err != nil {
		// Back where it was, and as it was.
		os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte(strconv.Itoa(os.Getpid())), 0)
		os.Remove(leaf)
		return "", fmt.Errorf("enabling the memory controller: %w", err)
	}
	return dir, nil
}

// enabled reports whether dir's children get the memory controller.
func enabled(dir string) bool {
	control, err := os.ReadFile(filepath.Join(dir, "cgroup.subtree_control"))
	return err == nil && slices.Contains(strings.Fields(string(control)), "memory")
}

// probeV1 checks that a memory cgroup can be made, limited and removed below dir.
func probeV1(dir string) error {
	g, err := newRunCgroup(cgroupHost{kind: boundV1, parent: dir}, 1<<30)
	if err != nil {
		return err
	}
	return g.remove()
}

// runCgroup is the memory cgroup of one run.
type runCgroup struct {
	dir   string
	v2    bool
	limit int64
}

// newRunCgroup makes a cgroup below h.parent whose processes may use limit bytes of memory
// in all, swap included or none.
func newRunCgroup(h cgroupHost, limit int64) (*runCgroup, error) {
	var b [8]byte
	rand.Read(b[:])
	g := &runCgroup{dir: filepath.Join(h.parent, cgroupPrefix+processCgroupTag+hex.EncodeToString(b[:])), v2: h.kind == boundV2, limit: limit}
	if err := os.Mkdir(g.dir, 0o755); err != nil {
		return nil, err
	}
	if err := g.setLimits(); err != nil {
		g.remove()
		return nil, err
	}
	return g, nil
}

func (g *runCgroup) setLimits() error {
	limit := strconv.FormatInt(g.limit, 10)
	if g.v2 {
		if err := g.write("memory.max", limit); err != nil {
			return err
		}
		// No swap: what is swapped out is memory too. The file is missing when the kernel
		// accounts no swap (and then a cgroup cannot swap past memory.max either).
		if err := g.write("memory.swap.max", "0"); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		// An OOM kill ends the whole command, not the process the kernel chose.
		return g.write("memory.oom.group", "1")
	}
	if err := g.write("memory.limit_in_bytes", limit); err != nil {
		return err
	}
	// memsw is memory and swap together, when the kernel accounts swap (swapaccount=1);
	// without it, swappiness 0 keeps the cgroup's anonymous memory out of swap.
	if err := g.write("memory.memsw.limit_in_bytes", limit); errors.Is(err, fs.ErrNotExist) {
		g.write("memory.swappiness", "0")
	} else if err != nil {
		return err
	}
	return nil
}

func (g *runCgroup) write(name, value string) error {
	return os.WriteFile(filepath.Join(g.dir, name), []byte(value), 0)
}

// join moves the process pid into the cgroup.
func (g *runCgroup) join(pid int) error {
	return g.write("cgroup.procs", strconv.Itoa(pid))
}

// oomKills returns how many processes the kernel killed in the cgroup for its limit.
func (g *runCgroup) oomKills() int {
	file := "memory.oom_control" // v1: oom_kill N, since Linux 4.13
	if g.v2 {
		file = "memory.events" // oom_kill N
	}
	data, err := os.ReadFile(filepath.Join(g.dir, file))
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "oom_kill "); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	return 0
}

// onOOM calls kill when the kernel kills a process of the cgroup for its limit, so that the
// command stops whole, as memory.oom.group makes v2 do by itself. It returns a function that
// stops watching.
func (g *runCgroup) onOOM(kill func()) (stop func()) {
	if g.v2 {
		return func() {}
	}
	done := make(chan struct{})
	var once sync.Once
	stopped := func() { once.Do(func() { close(done) }) }
	go func() {
		// The counter is read every 50 ms, a delay nothing beside the command's run.
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if g.oomKills() > 0 {
					kill()
					return
				}
			}
		}
	}()
	return stopped
}

// remove kills every process left in the cgroup and removes it.
func (g *runCgroup) remove() error {
	if g.v2 {
		g.write("cgroup.kill", "1") // Linux 5.14; before it, one by one below
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		procs, err := cgroupProcs(g.dir)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if len(procs) == 0 {
			break
		}
		for _, pid := range procs {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d processes of the command's cgroup did not end", len(procs))
		}
		time.Sleep(5 * time.Millisecond)
	}
	// A process that just died may hold the cgroup for a moment after it left cgroup.procs.
	for {
		err := unix.Rmdir(g.dir)
		if err == nil || errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != unix.EBUSY || time.Now().After(deadline) {
			return err
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// cgroupProcs lists the processes of the cgroup dir.
func cgroupProcs(dir string) ([]int, error) {
	data, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	if err != nil {
		return nil, err
	}
	var pids []int
	for f := range strings.FieldsSeq(string(data)) {
		if pid, err := strconv.Atoi(f); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids, nil
}

// memoryStopped is the line the command's output ends with when the cgroup's limit stopped
// it; atLineStart says the output so far is empty or ends a line.
func memoryStopped(limit int64, atLineStart bool) string {
	nl := "\n"
	if atLineStart {
		nl = ""
	}
	return fmt.Sprintf("%ssandbox: the command was stopped: its processes used more than %s of memory in all (the sandbox's bound on a command's total memory, /tmp's files included)\n", nl, sizeText(limit))
}

// sizeText spells bytes in GiB or MiB where whole, else in bytes.
func sizeText(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d bytes", n)
}
