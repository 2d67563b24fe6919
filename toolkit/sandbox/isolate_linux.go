//go:build linux

package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// How a command runs in isolation (the package doc says what it guarantees):
//
//  1. Run starts the program's own executable again (/proc/self/exe) with argv[0] initArg0,
//     in new user, mount, PID, IPC, UTS, cgroup and (by default) network namespaces, and in a
//     session of its own without a controlling terminal. The user namespace maps the
//     program's user to root inside, so the new process may set up mounts; capabilities
//     inside a user namespace give no power over the host. Where the host allows one, Run
//     puts it in a memory cgroup made for the run (cgroup_linux.go) before writing its
//     configuration, which it waits for: everything of the command is born in the cgroup.
//  2. That process, PID 1 of the new PID namespace, runs sandboxInit from this package's
//     init function, before the program's main: it builds the sandbox's file tree (the
//     workspace at /workspace, read-only system directories, a fresh /tmp and /dev, its own
//     /proc), sets the process bound, drops every capability from the bounding set, sets
//     no_new_privs, then starts the executable once more with argv[0] execArg0.
//  3. That process (sandboxExec) sets the resource limits on itself, enters the directory,
//     marks every descriptor above 2 close-on-exec and replaces itself with /bin/sh -c: it
//     starts with no capabilities and cannot gain any. The limits are set there, not in
//     PID 1, so that PID 1 (a Go program) is never short of address space.
//  4. PID 1 reaps whatever dies in the namespace and exits with the shell's status. When
//     PID 1 exits, or Run kills it at the command's end or deadline, the kernel kills every
//     process left in the namespace: nothing outlives the call, whatever it did with
//     sessions or process groups.
//
// Steps 2 and 3 run before main, so the program's other init functions have run, in the
// sandbox, before them (see the package doc).
const (
	initArg0 = "toolgen-sandbox-init"
	execArg0 = "toolgen-sandbox-exec"
	// Files the init stage reads: its configuration, and where it writes why setting up the
	// sandbox failed (closed without a word once the shell started).
	initConfigFD = 3
	initStatusFD = 4
	// initEgressFD is a Unix socket to the host's egress proxy: the init stage sends it every
	// connection accepted on egressListenAddr in the sandbox's network namespace.
	initEgressFD = 5
)

// systemDirs are the host directories an isolated command sees, read-only, where they exist
// (a symbolic link, as /bin is on merged-/usr systems, is recreated as the same link).
var systemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"}

// Fixed bounds of an isolated command, beside the configurable Limits.
const (
	maxOpenFiles = 4096 // RLIMIT_NOFILE: descriptors are kernel memory, outside the address space
	// reservedPids is the kernel's RESERVED_PIDS: once a PID namespace has allocated this
	// many, it allocates only above it, so pid_max must leave room above it for the bound.
	reservedPids = 300
)

func init() {
	if len(os.Args) == 0 {
		return
	}
	switch os.Args[0] {
	case initArg0:
		if os.Getpid() == 1 { // only ever as the PID namespace's first process
			os.Exit(sandboxInit())
		}
	case execArg0:
		if len(os.Args) == 2 && os.Getppid() == 1 {
			sandboxExec(os.Args[1]) // does not return
		}
	}
}

// isolation is what the init stage is told, as JSON on initConfigFD.
type isolation struct {
	Root             string // the workspace's host path, symbolic links resolved
	RootDev, RootIno uint64 // and its identity, checked after mounting it
	Mounts           []Mount
	Network          bool
	Egress           bool  // listen on egressListenAddr and pass connections to initEgressFD
	PidMax           int   // the namespace's pid_max; 0 leaves the kernel's
	Tmp              int64 // size of /tmp in bytes; 0 leaves the kernel's (half the memory)
	IPC              int64 // bytes of each kind of SysV IPC the IPC namespace holds (see limitIPC)
	Exec             execStage
}

// execStage is what the exec stage is told, as JSON in its argv[1].
type execStage struct {
	Dir    string // absolute, in the sandbox
	Script string
	Env    []string
	Limits []rlimit
}

type rlimit struct {
	Resource int
	Value    uint64
}

// runIsolated runs cmd in the sandbox described in the package doc.
func (l *Local) runIsolated(ctx context.Context, cmd Command, dir string, out io.Writer) (int, error) {
	info, err := l.root.Stat(".")
	if err != nil {
		return -1, l.pathError("stat", ".", err)
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return -1, fmt.Errorf("%w: the workspace directory cannot be identified", ErrNoIsolation)
	}
	cfg := isolation{
		Root: l.real, RootDev: st.Dev, RootIno: st.Ino,
		Mounts: l.opts.Mounts, Network: l.opts.Network, Egress: l.opts.Egress != nil,
		Exec: execStage{Dir: path.Join(WorkspacePath, dir), Script: cmd.Script, Env: l.env},
	}
	if err := l.limits(&cfg); err != nil {
		return -1, err
	}
	config, err := json.Marshal(cfg)
	if err != nil {
		return -1, err
	}
	cfgR, cfgW, err := os.Pipe()
	if err != nil {
		return -1, err
	}
	defer cfgR.Close()
	defer cfgW.Close()
	statusR, statusW, err := os.Pipe()
	if err != nil {
		return -1, err
	}
	defer statusR.Close()
	defer statusW.Close()
	r, w, err := os.Pipe()
	if err != nil {
		return -1, err
	}
	defer r.Close()

	extra := []*os.File{cfgR, statusW}
	if l.opts.Egress != nil {
		sandboxEnd, stopEgress, err := l.startEgress(ctx)
		if err != nil {
			return -1, err
		}
		defer stopEgress()
		defer sandboxEnd.Close()
		extra = append(extra, sandboxEnd)
	}

	// The bound on the command's total memory: a cgroup PID 1 joins before it reads its
	// configuration, so before anything of the command runs.
	var group *runCgroup
	if total := l.opts.Limits.withDefaults().TotalMemory; total > 0 {
		if h := hostCgroup(); h.kind != boundNone {
			if group, err = newRunCgroup(h, total); err != nil {
				return -1, cgroupError("making the command's memory cgroup", err)
			}
			defer group.remove()
		}
	}

	euid, egid := os.Geteuid(), os.Getegid()
	flags := uintptr(unix.CLONE_NEWUSER | unix.CLONE_NEWNS | unix.CLONE_NEWPID | unix.CLONE_NEWIPC | unix.CLONE_NEWUTS | unix.CLONE_NEWCGROUP)
	if !l.opts.Network {
		flags |= unix.CLONE_NEWNET
	}
	c := &exec.Cmd{
		Path: "/proc/self/exe",
		Args: []string{initArg0},
		// Nothing of the host's: PID 1's environment is no place for secrets. GOTRACEBACK=none:
		// should PID 1 panic, no goroutines, with host paths, in the command's output (for
		// the signals that make Go dump, see ignoreDumpSignals).
		Env:        []string{"GOTRACEBACK=none"},
		Stdout:     w,
		Stderr:     w, // one pipe: the two streams interleave as written
		ExtraFiles: extra,
		SysProcAttr: &syscall.SysProcAttr{
			Cloneflags:  flags,
			UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: euid, Size: 1}},
			GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: egid, Size: 1}},
			// Root may drop the host's supplementary groups; another user may not (the
			// kernel refuses setgroups in a namespace it made), and keeps them.
			GidMappingsEnableSetgroups: euid == 0,
			Credential:                 &syscall.Credential{Uid: 0, Gid: 0, NoSetGroups: euid != 0},
			Pdeathsig:                  syscall.SIGKILL, // the program dies: so does the sandbox
			// A session of its own, with no controlling terminal: in the program's session
			// /dev/tty would be the user's terminal, which a command could write escape
			// sequences to, read keystrokes from and push input into (TIOCSTI). Only a
			// session leader acquires a terminal, by opening one, and the sandbox has none
			// to open: /dev/tty fails with ENXIO, /dev/pts and /dev/console are not there.
			Setsid: true,
		},
	}
	// Pdeathsig fires when the thread that started the child exits, not the process, and Go
	// ends a thread whose goroutine exits locked to it: keep this one until the command ends.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	err = c.Start()
	w.Close()
	cfgR.Close()
	statusW.Close()
	if err != nil {
		if errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOSPC) ||
			errors.Is(err, syscall.EUSERS) || errors.Is(err, syscall.ENOSYS) || errors.Is(err, syscall.EACCES) {
			return -1, fmt.Errorf("%w: creating namespaces: %v", ErrNoIsolation, err)
		}
		return -1, errors.New(l.scrub(err.Error()))
	}
	stopOOM := func() {}
	if group != nil {
		if err := group.join(c.Process.Pid); err != nil {
			c.Process.Kill()
			c.Wait()
			return -1, cgroupError("entering the command's memory cgroup", err)
		}
		// v1 kills one process at the limit: the watch stops the rest with it.
		stopOOM = group.onOOM(func() { c.Process.Kill() })
	}
	// The pipe holds the whole configuration (a script is at most what the tool allows, and
	// a pipe takes 64 KiB before blocking): write it from a goroutine all the same, so that a
	// child that never reads cannot hang Run; killing the child ends the write.
	go func() {
		cfgW.Write(config)
		cfgW.Close()
	}()
	// Killing PID 1 kills the namespace: every process the command started.
	output := &lastByteWriter{w: out}
	stop := killOnDone(ctx, func() { c.Process.Kill() })
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		l.copyScrubbed(output, r)
	}()
	// The status pipe closes when the shell started, or says why the sandbox could not be set up.
	var status strings.Builder
	io.Copy(&status, io.LimitReader(statusR, 4096))
	waitErr := c.Wait()
	stop()
	stopOOM()
	outOfMemory := group != nil && group.oomKills() > 0
	// PID 1 is gone, so is every process of the namespace, and with them every writer of the
	// pipe: the copy ends. The deadline is a guard, not a wait.
	r.SetReadDeadline(time.Now().Add(runGrace))
	<-copied
	exit, err := exitStatus(ctx, waitErr)
	if err == nil && exit == initSetupFailed && status.Len() > 0 {
		return -1, fmt.Errorf("%w: %s", ErrNoIsolation, l.scrub(status.String()))
	}
	if err == nil && outOfMemory {
		// Stopped, whatever the shell made of a process killed before the rest: the status
		// is that of the kill, and the output's last line says why.
		io.WriteString(out, memoryStopped(group.limit, output.last == '\n' || output.last == 0))
		exit = 128 + int(syscall.SIGKILL)
	}
	return exit, err
}

// lastByteWriter remembers the last byte written through it (0 before any).
type lastByteWriter struct {
	w    io.Writer
	last byte
}

func (w *lastByteWriter) Write(p []byte) (int, error) {
	if len(p) > 0 {
		w.last = p[len(p)-1]
	}
	return w.w.Write(p)
}

// cgroupError is the error of a step of the memory cgroup that failed, without the cgroup's
// host path: only the system's error.
func cgroupError(step string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("sandbox: %s: %v", step, err)
}

// initSetupFailed is the init stage's exit status when it could not build the sandbox; the
// status pipe says why.
const initSetupFailed = 125

// limits adds the resource limits, and the process bound, to cfg.
func (l *Local) limits(cfg *isolation) error {
	lim := l.opts.Limits.withDefaults()
	add := func(resource int, v int64) {
		if v >= 0 {
			cfg.Exec.Limits = append(cfg.Exec.Limits, rlimit{resource, uint64(v)})
		}
	}
	add(unix.RLIMIT_AS, lim.Memory)
	if lim.CPUTime >= 0 {
		add(unix.RLIMIT_CPU, int64((lim.CPUTime+999_999_999)/1e9)) // whole seconds, at least one
	}
	add(unix.RLIMIT_FSIZE, lim.FileSize)
	add(unix.RLIMIT_NOFILE, maxOpenFiles)
	add(unix.RLIMIT_CORE, 0) // a core dump would be a file in the workspace the size of the process
	if lim.Tmp > 0 {
		cfg.Tmp = lim.Tmp
		cfg.IPC = lim.Tmp
	} else if si := (unix.Sysinfo_t{}); unix.Sysinfo(&si) == nil {
		// As much as a /tmp of the kernel's default size, half the memory.
		cfg.IPC = int64(uint64(si.Totalram) * uint64(si.Unit) / 2)
	}
	if cfg.IPC <= 0 {
		cfg.IPC = DefaultTmp
	}
	if lim.Processes < 0 {
		return nil
	}
	// RLIMIT_NPROC counts the processes of the user in the sandbox's user namespace, but the
	// kernel does not apply it to the host's root, which the sandbox's user is when the
	// program runs as root. Since Linux 6.14 each PID namespace has its own pid_max, which
	// bounds the namespace's processes whoever runs them.
	add(unix.RLIMIT_NPROC, int64(lim.Processes))
	if perNamespacePidMax() {
		cfg.PidMax = lim.Processes + reservedPids
	} else if os.Geteuid() == 0 {
		return fmt.Errorf("%w: the program runs as root, for whom the kernel does not apply the process limit, and this kernel (before Linux 6.14) has no pid_max per PID namespace to bound processes instead", ErrNoIsolation)
	}
	return nil
}

// perNamespacePidMax reports whether the kernel keeps a pid_max per PID namespace (Linux 6.14).
// Writing pid_max on an older kernel would set the host's.
func perNamespacePidMax() bool {
	var u unix.Utsname
	if unix.Uname(&u) != nil {
		return false
	}
	release := unix.ByteSliceToString(u.Release[:])
	major, rest, _ := strings.Cut(release, ".")
	minor := strings.TrimLeftFunc(rest, func(r rune) bool { return r >= '0' && r <= '9' })
	minor = rest[:len(rest)-len(minor)]
	ma, err1 := strconv.Atoi(major)
	mi, err2 := strconv.Atoi(minor)
	return err1 == nil && err2 == nil && (ma > 6 || ma == 6 && mi >= 14)
}
