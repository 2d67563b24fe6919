//go:build linux

package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// sandboxInit is PID 1 of a sandbox (see isolate_linux.go): it builds the sandbox, starts the
// exec stage, reaps the namespace's orphans and returns the shell's exit status. Its errors
// go to the status pipe, for the operator: they may name host paths.
func sandboxInit() int {
	// Capabilities, no_new_privs and seccomp are per thread, and a child is forked from the
	// thread that asks: keep this goroutine on one.
	runtime.LockOSThread()
	ignoreDumpSignals()
	// No descriptor reaches the exec stage but those ForkExec passes on purpose: not the
	// configuration and status pipes, nor what the program held without close-on-exec.
	inheritedErr := closeInherited()
	status := os.NewFile(initStatusFD, "status")
	fail := func(step string, err error) int {
		fmt.Fprintf(status, "%s: %v", step, err)
		return initSetupFailed
	}
	if inheritedErr != nil {
		return fail("closing inherited descriptors", inheritedErr)
	}
	var cfg isolation
	config := os.NewFile(initConfigFD, "config")
	err := json.NewDecoder(config).Decode(&cfg)
	config.Close()
	if err != nil {
		return fail("reading the configuration", err)
	}
	// Not dumpable: a process of the sandbox may not read this one's memory, environment or
	// descriptors through /proc/1 (it also lacks the capabilities this one has).
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fail("prctl", err)
	}
	if step, err := buildRoot(&cfg); err != nil {
		return fail(step, err)
	}
	if err := unix.Sethostname([]byte("sandbox")); err != nil {
		return fail("setting the host name", err)
	}
	if !cfg.Network {
		if err := loopbackUp(); err != nil {
			return fail("starting the loopback interface", err)
		}
	}
	if cfg.Egress {
		if err := forwardEgress(); err != nil {
			return fail("starting the egress forwarder", err)
		}
	}
	if step, err := dropPrivileges(); err != nil {
		return fail(step, err)
	}
	stage, err := json.Marshal(cfg.Exec)
	if err != nil {
		return fail("encoding the command", err)
	}
	devnull, err := os.Open("/dev/null")
	if err != nil {
		return fail("opening /dev/null", err)
	}
	pid, err := syscall.ForkExec("/proc/self/exe", []string{execArg0, string(stage)}, &syscall.ProcAttr{
		Env:   []string{},
		Files: []uintptr{devnull.Fd(), 1, 2},
	})
	devnull.Close()
	if err != nil {
		return fail("starting the command", err)
	}
	status.Close() // the command runs: Run stops waiting for a word
	for {
		var ws syscall.WaitStatus
		wpid, err := syscall.Wait4(-1, &ws, 0, nil)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 128 + int(syscall.SIGKILL) // no child left: cannot happen before the shell's end
		case wpid != pid:
			continue // an orphan the namespace left to its init
		case ws.Signaled():
			return 128 + int(ws.Signal()) // as sh reports it
		}
		return ws.ExitStatus()
	}
}

// sandboxExec is the exec stage: it limits itself, enters the directory and becomes the shell.
// It has no capabilities; its messages go to the command's output, so they name only sandbox
// paths.
func sandboxExec(arg string) {
	var cfg execStage
	if err := json.Unmarshal([]byte(arg), &cfg); err != nil {
		fmt.Fprintln(os.Stderr, "sandbox: the command could not be read:", err)
		os.Exit(126)
	}
	// Everything execve needs is built before the limits: after them, this Go program may
	// not be able to allocate (its address space may already exceed the memory limit).
	argv, err := syscall.SlicePtrFromStrings([]string{"sh", "-c", cfg.Script})
	if err == nil {
		var envv []*byte
		envv, err = syscall.SlicePtrFromStrings(cfg.Env)
		if err == nil {
			var filter *unix.SockFprog
			filter, err = buildFilter()
			if err == nil {
				err = limitAndExec(cfg, argv, envv, filter)
			}
		}
	}
	fmt.Fprintln(os.Stderr, "sandbox:", err)
	os.Exit(126)
}

func limitAndExec(cfg execStage, argv, envv []*byte, filter *unix.SockFprog) error {
	if err := os.Chdir(cfg.Dir); err != nil {
		return fmt.Errorf("the directory %s is not available: %w", cfg.Dir, errors.Unwrap(err))
	}
	sh, err := syscall.BytePtrFromString("/bin/sh")
	if err != nil {
		return err
	}
	if err := closeInherited(); err != nil {
		return fmt.Errorf("closing inherited descriptors: %w", err)
	}
	for _, l := range cfg.Limits {
		if err := unix.Setrlimit(l.Resource, &unix.Rlimit{Cur: l.Value, Max: l.Value}); err != nil {
			return fmt.Errorf("setting limit %d: %w", l.Resource, err)
		}
	}
	if err := applyFilter(filter); err != nil {
		return err
	}
	_, _, errno := syscall.RawSyscall(unix.SYS_EXECVE, uintptr(unsafe.Pointer(sh)),
		uintptr(unsafe.Pointer(&argv[0])), uintptr(unsafe.Pointer(&envv[0])))
	return fmt.Errorf("starting /bin/sh: %w", errno)
}

// ignoreDumpSignals makes PID 1 ignore the signals that Go's runtime, when a process sends
// them, answers with a dump of its goroutines on standard error (the command's output),
// naming the host paths of the program's source and of the Go installation: SIGQUIT, and
// those it otherwise takes for faults. GOTRACEBACK does not shorten these dumps (a signal
// dump is a runtime throw, always traced). Ignored, a signal a process sends is dropped, and
// the kernel delivers to PID 1 none it does not handle; a real fault still crashes.
func ignoreDumpSignals() {
	sigs := []os.Signal{syscall.SIGQUIT, syscall.SIGABRT, syscall.SIGILL, syscall.SIGTRAP,
		syscall.SIGSYS, syscall.SIGSEGV, syscall.SIGBUS, syscall.SIGFPE}
	for _, name := range []string{"SIGSTKFLT", "SIGEMT"} { // one or the other, by architecture
		if sig := unix.SignalNum(name); sig != 0 {
			sigs = append(sigs, sig)
		}
	}
	signal.Ignore(sigs...)
}

// closeRangeCloexec is close_range's CLOSE_RANGE_CLOEXEC (Linux 5.11).
const closeRangeCloexec = 1 << 2

// closeInherited marks every descriptor above 2 close-on-exec, as runc and bubblewrap close
// them. A descriptor the program held without close-on-exec (one its parent left open, one a
// C library made) would otherwise reach the shell, and through /proc/self/fd/N a command
// would read a host file, list and write a host directory, and climb out of the mount
// namespace with "..". Marked rather than closed: the Go runtime's own descriptors must stay
// open until the exec.
func closeInherited() error {
	err := unix.CloseRange(3, ^uint(0), closeRangeCloexec)
	if err == nil {
		return nil
	}
	// Where close_range is refused (an older kernel, a filter of the host's), one by one.
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return err
	}
	for _, e := range entries {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETFD, unix.FD_CLOEXEC); err != nil && err != unix.EBADF {
				return err
			}
		}
	}
	return nil
}

// dropPrivileges empties this thread's capability bounding set and sets no_new_privs: the
// exec stage, started as root of the namespace, gets no capabilities, and nothing it runs
// can gain any (set-user-ID files and file capabilities are ignored).
func dropPrivileges() (string, error) {
	for c := 0; c <= 63; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil {
			if err == unix.EINVAL { // past the kernel's last capability
				break
			}
			return "dropping capabilities", err
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return "setting no_new_privs", err
	}
	return "", nil
}

// buildRoot builds the sandbox's file tree and makes it the root. It returns the step that
// failed. The host's tree stays reachable at /old until the final pivot detaches it.
func buildRoot(cfg *isolation) (string, error) {
	// Nothing mounted here propagates back to the host.
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return "making the mounts private", err
	}
	// A scratch root holding the host's tree (/old) and the sandbox's (/new): every host
	// path is then read as /old/path, whatever the sandbox mounts over.
	const base = "/tmp"
	if err := unix.Mount("tmpfs", base, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=64k,mode=0700"); err != nil {
		return "mounting a scratch root", err
	}
	for _, d := range []string{base + "/old", base + "/new"} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return "creating the scratch root", err
		}
	}
	// The sandbox's root: only mount points and links, read-only once built.
	if err := unix.Mount("tmpfs", base+"/new", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=1m,nr_inodes=4096,mode=0755"); err != nil {
		return "mounting the root", err
	}
	if err := unix.PivotRoot(base, base+"/old"); err != nil {
		return "pivoting to the scratch root", err
	}
	if err := os.Chdir("/"); err != nil {
		return "pivoting to the scratch root", err
	}
	const old, root = "/old", "/new"
	for _, d := range systemDirs {
		if err := exposeSystemDir(old, root, d); err != nil {
			return "mounting " + d, err
		}
	}
	if cfg.Network {
		if err := exposeResolvConf(old, root); err != nil {
			return "mounting the resolver configuration", err
		}
	}
	if err := mountWorkspace(old, root, cfg); err != nil {
		return "mounting the workspace", err
	}
	tmpOpts := "mode=1777"
	if cfg.Tmp > 0 {
		tmpOpts += ",size=" + strconv.FormatInt(cfg.Tmp, 10)
	}
	if err := mkdirMount("tmpfs", root+"/tmp", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, tmpOpts); err != nil {
		return "mounting /tmp", err
	}
	if err := buildDev(old, root); err != nil {
		return "building /dev", err
	}
	if step, err := mountProc(root, cfg); err != nil {
		return step, err
	}
	for _, m := range cfg.Mounts {
		if err := bindMount(old+m.Source, root+m.Target, !m.Writable); err != nil {
			return "mounting " + m.Target, err
		}
	}
	// The sandbox's root becomes the root; the scratch root, with the host's tree under it,
	// is stacked over it by pivot_root(".", ".") and then detached.
	if err := os.Chdir(root); err != nil {
		return "entering the root", err
	}
	if err := unix.PivotRoot(".", "."); err != nil {
		return "pivoting to the root", err
	}
	if err := unix.Unmount(".", unix.MNT_DETACH); err != nil {
		return "detaching the host's tree", err
	}
	if err := os.Chdir("/"); err != nil {
		return "entering the root", err
	}
	if err := setattr("/", unix.MOUNT_ATTR_RDONLY, false); err != nil {
		return "making the root read-only", err
	}
	return "", nil
}

// setattr sets mount attributes on the mount at p, and with recursive on those below it.
// Unlike a remount it leaves the other attributes as they are, including those the kernel
// locked because the mount came from the host's namespace.
func setattr(p string, set uint64, recursive bool) error {
	flags := uint(0)
	if recursive {
		flags = unix.AT_RECURSIVE
	}
	return unix.MountSetattr(unix.AT_FDCWD, p, flags, &unix.MountAttr{Attr_set: set})
}

// mkdirMount creates the directory target and mounts there.
func mkdirMount(source, target, fstype string, flags uintptr, data string) error {
	if err := os.MkdirAll(target, 0o755); err != nil {
		return err
	}
	return unix.Mount(source, target, fstype, flags, data)
}

// bindMount mounts the host's file or directory source (a path under /old) at target,
// creating target, recursively, set-user-ID and devices disabled, read-only unless told.
func bindMount(source, target string, readOnly bool) error {
	info, err := os.Stat(source)
	if err != nil {
		return err
	}
	if info.IsDir() {
		err = os.MkdirAll(target, 0o755)
	} else if err = os.MkdirAll(path.Dir(target), 0o755); err == nil {
		err = touch(target)
	}
	if err != nil {
		return err
	}
	if err := unix.Mount(source, target, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return err
	}
	attrs := uint64(unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV)
	if readOnly {
		attrs |= unix.MOUNT_ATTR_RDONLY
	}
	return setattr(target, attrs, true)
}

// touch creates an empty file at p, to mount a file over, unless one is there.
func touch(p string) error {
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	return f.Close()
}

// exposeSystemDir shows the host's directory d read-only, or recreates it as the symbolic
// link it is; a missing one is left out.
func exposeSystemDir(old, root, d string) error {
	info, err := os.Lstat(old + d)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case info.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(old + d)
		if err != nil {
			return err
		}
		return os.Symlink(target, root+d)
	case !info.IsDir():
		return nil
	}
	if err := os.Mkdir(root+d, 0o755); err != nil {
		return err
	}
	if err := unix.Mount(old+d, root+d, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return err
	}
	if d == "/etc" {
		if err := maskUnreadable(old, root+d); err != nil {
			return err
		}
	}
	return setattr(root+d, unix.MOUNT_ATTR_RDONLY|unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV, true)
}

// maskUnreadable hides, under dir, every file that not every user of the host may read, and
// every directory not every user may list: /etc/shadow, /etc/ssl/private, ssh host keys,
// sudoers. A file is covered with /dev/null, a directory with an empty file system. When
// the program runs as root, the sandbox's user is the host's root, which owns these files.
func maskUnreadable(old, dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p != dir && d != nil && d.IsDir() { // a directory that cannot be listed
				if err := maskDir(p); err != nil {
					return err
				}
				return filepath.SkipDir
			}
			return err
		}
		if p == dir || d.Type()&fs.ModeSymlink != 0 {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		perm := info.Mode().Perm()
		switch {
		case d.IsDir() && perm&0o005 != 0o005:
			if err := maskDir(p); err != nil {
				return err
			}
			return filepath.SkipDir
		case !d.IsDir() && perm&0o004 == 0:
			return unix.Mount(old+"/dev/null", p, "", unix.MS_BIND, "")
		}
		return nil
	})
}

func maskDir(p string) error {
	return unix.Mount("tmpfs", p, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "size=4k,nr_inodes=1,mode=0755")
}

// exposeResolvConf makes /etc/resolv.conf resolve when it is a link out of /etc (as
// systemd-resolved makes it): its target is mounted, read-only, at the same path.
func exposeResolvConf(old, root string) error {
	target, err := filepath.EvalSymlinks(old + "/etc/resolv.conf")
	if err != nil {
		return nil // none: nothing to resolve
	}
	host, ok := cutPrefixPath(target, old)
	if !ok || host == "/etc/resolv.conf" {
		return nil
	}
	for _, d := range systemDirs {
		if _, inside := cutPrefixPath(host, d); inside {
			return nil // visible already
		}
	}
	return bindMount(target, root+host, true)
}

// cutPrefixPath returns p below the directory dir, as an absolute path ("/" for dir itself).
func cutPrefixPath(p, dir string) (string, bool) {
	if p == dir {
		return "/", true
	}
	if len(p) > len(dir) && p[:len(dir)] == dir && p[len(dir)] == '/' {
		return p[len(dir):], true
	}
	return "", false
}

// mountWorkspace mounts the workspace, writable, at WorkspacePath, and checks that it is the
// directory Local opened: a path swapped in between is refused.
func mountWorkspace(old, root string, cfg *isolation) error {
	target := root + WorkspacePath
	if err := os.Mkdir(target, 0o755); err != nil {
		return err
	}
	if err := unix.Mount(old+cfg.Root, target, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return err
	}
	var st unix.Stat_t
	if err := unix.Stat(target, &st); err != nil {
		return err
	}
	if st.Dev != cfg.RootDev || st.Ino != cfg.RootIno {
		return errors.New("the workspace's host path leads to another directory than the one opened")
	}
	return setattr(target, unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV, true)
}

// buildDev makes a /dev of the harmless devices, read-only; /dev/shm is /tmp.
func buildDev(old, root string) error {
	dev := root + "/dev"
	if err := mkdirMount("tmpfs", dev, "tmpfs", unix.MS_NOSUID|unix.MS_NOEXEC, "size=64k,nr_inodes=64,mode=0755"); err != nil {
		return err
	}
	for _, name := range []string{"null", "zero", "full", "random", "urandom", "tty"} {
		if err := touch(dev + "/" + name); err != nil {
			return err
		}
		if err := unix.Mount(old+"/dev/"+name, dev+"/"+name, "", unix.MS_BIND, ""); err != nil {
			return err
		}
		if err := setattr(dev+"/"+name, unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NOEXEC, false); err != nil {
			return err
		}
	}
	for name, target := range map[string]string{"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0", "stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2"} {
		if err := os.Symlink(target, dev+"/"+name); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dev+"/shm", 0o755); err != nil {
		return err
	}
	if err := setattr(dev, unix.MOUNT_ATTR_RDONLY, false); err != nil {
		return err
	}
	return unix.Mount(root+"/tmp", dev+"/shm", "", unix.MS_BIND, "")
}

// mountProc mounts a /proc of the sandbox's PID namespace, sets the namespace's limits
// through it, and makes the parts of it that reach the host read-only.
func mountProc(root string, cfg *isolation) (string, error) {
	proc := root + "/proc"
	if err := mkdirMount("proc", proc, "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return "mounting /proc", err
	}
	if cfg.PidMax > 0 {
		if err := os.WriteFile(proc+"/sys/kernel/pid_max", []byte(strconv.Itoa(cfg.PidMax)), 0); err != nil {
			return "setting the process bound", err
		}
	}
	if err := limitIPC(proc+"/sys/kernel", cfg.IPC); err != nil {
		return "bounding SysV IPC", err
	}
	// No user namespace inside this one: in one, a process would hold every capability
	// again, could make a PID namespace whose pid_max is not the bound, and reaches kernel
	// code that is otherwise out of reach.
	if err := os.WriteFile(proc+"/sys/user/max_user_namespaces", []byte("0"), 0); err != nil {
		return "forbidding nested user namespaces", err
	}
	// Read-only: sysctls (the sandbox's user may be the host's root, which they check for),
	// /proc/sysrq-trigger (which checks nothing) and the kernel's settings under irq, bus, fs.
	for _, name := range []string{"sys", "sysrq-trigger", "irq", "bus", "fs"} {
		p := proc + "/" + name
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		if err := unix.Mount(p, p, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return "protecting /proc/" + name, err
		}
		if err := setattr(p, unix.MOUNT_ATTR_RDONLY|unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV|unix.MOUNT_ATTR_NOEXEC, true); err != nil {
			return "protecting /proc/" + name, err
		}
	}
	return "", nil
}

// limitIPC bounds the SysV IPC of the sandbox's IPC namespace, whose settings are its own and
// writable by its owner, this process: shared memory, message queues and semaphores are
// memory that no process limit bounds (a segment or a queue stays when its maker detaches or
// exits, until the namespace ends with the command). A fresh namespace allows practically
// unbounded shared memory, 32000 queues of 16 KiB and a billion semaphores; here each kind
// holds at most bytes (Limits.Tmp): shared memory in all (shmall, and shmmax for one
// segment), queues of the kernel's 16 KiB (msgmni; raising a queue's size past msgmnb needs
// CAP_SYS_RESOURCE on the host), semaphores counted at 128 bytes (semmns; the kernel's struct
// sem is a cache line, 64 bytes, plus each array's own).
func limitIPC(dir string, bytes int64) error {
	const (
		msgmnb   = 16 << 10 // MSGMNB: bytes a queue holds
		ipcmni   = 32000    // IPCMNI: queues, segments or semaphore arrays at most
		semmsl   = 32000    // SEMMSL: semaphores an array
		semopm   = 500      // SEMOPM: operations a semop
		semBytes = 128
	)
	page := int64(os.Getpagesize())
	bytes = max(bytes, page)
	settings := []struct{ name, value string }{
		{"shmmax", strconv.FormatInt(bytes, 10)},
		{"shmall", strconv.FormatInt((bytes+page-1)/page, 10)},
		{"msgmnb", strconv.Itoa(msgmnb)},
		{"msgmni", strconv.FormatInt(min(max(bytes/msgmnb, 1), ipcmni), 10)},
		{"sem", fmt.Sprintf("%d %d %d %d", semmsl, min(max(bytes/semBytes, 1), semmsl*ipcmni), semopm,
			min(max(bytes/msgmnb, 1), ipcmni))},
	}
	for _, s := range settings {
		if err := os.WriteFile(dir+"/"+s.name, []byte(s.value), 0); err != nil {
			return err
		}
	}
	return nil
}

// loopbackUp brings up the network namespace's loopback interface, which starts down.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}
