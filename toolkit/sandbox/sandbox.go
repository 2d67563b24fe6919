// Package sandbox is where the workspace toolkit's tools read, write and run: an interface
// for file operations and process execution, and two implementations of it.
//
//   - [Local] is a directory of the host. Files go through an [os.Root], so no name reaches
//     outside the directory: ".." and absolute names are refused, and a symbolic link that
//     leads out is refused when it is used, even when it is swapped in between a check and
//     the use (the kernel resolves every step relative to the root). A file with more than
//     one hard link is refused too (see [LocalOptions.AllowHardLinks]), and so is anything
//     that is neither a file nor a directory (opening a named pipe would block). Commands
//     run isolated from the host, as described below.
//   - [Memory] keeps files in memory, for tests of agents and of the tools themselves; it
//     runs processes only through a function the test gives it.
//
// Writes are bounded by a quota per sandbox value ([LocalOptions.WriteQuota],
// [Memory.WriteQuota]; [DefaultWriteQuota], 1 GiB, by default): what WriteFile adds to the
// sandbox in all, counted as the size of its data less that of the file it replaces (a
// smaller file gives bytes back), plus 4 KiB for each file and directory it creates.
// Temporary files and what commands write are not counted. A write past the quota fails
// with a [*QuotaError] (errors.Is [ErrQuota]) and changes nothing.
//
// A remote sandbox (a container, a VM, a service) implements the same interface; the tools
// do not know the difference.
//
// Names are slash-separated and relative to the sandbox root, as in [io/fs]: "." is the root,
// "src/main.go" a file in it. [Clean] turns what a model sent into such a name, or says why it
// cannot. A backslash is an ordinary character of a name on Unix (as it is to the kernel)
// and refused on Windows, where it would separate names. Errors of a sandbox name files by
// these names, never by a host path: they are safe to show a model.
//
// One program may serve many users, each in a sandbox of their own: a host puts the call's
// sandbox in the call's context with [NewContext] (or in runtime.Call.UserData), and tools
// look it up with [FromContext].
//
// # Isolated commands
//
// [Local.Run] runs each command with /bin/sh -c in namespaces of its own, built with the
// kernel's facilities from Go (no helper program is needed), and refuses to run it where
// they are not available.
//
// What a command gets:
//
//   - Its own PID namespace. It sees only its own processes (ps, /proc), cannot signal the
//     host's, and its parent, PID 1 of the namespace, is a process of this package started
//     with nothing of the host's environment and not readable by the command:
//     /proc/$PPID/environ shows nothing of the host. PID 1 is a Go program that ignores the
//     signals on which Go's runtime would print its goroutines, with the host paths of the
//     program's source and of the Go installation, into the command's output (kill -QUIT 1,
//     and the fault signals sent by kill); should it panic, GOTRACEBACK=none keeps the
//     goroutines out too. When the shell exits, or the command's ctx ends, PID 1 exits and
//     the kernel kills every process left in the namespace, whatever session or process
//     group it made for itself (setsid, setpgid, double forks): nothing outlives the call.
//   - Its own mount namespace, whose root holds only: the workspace at [WorkspacePath]
//     (/workspace, writable; the working directory is there or below, so pwd shows no host
//     path); /usr, /bin, /sbin, /lib, /lib32, /lib64, /libx32 and /etc of the host where they
//     exist, read-only, with every /etc entry that not every host user may read (shadow,
//     ssh host keys, TLS private keys, sudoers) covered by an empty one; a fresh /tmp (a
//     tmpfs of [Limits].Tmp, also at /dev/shm), emptied with the call; a /dev of null, zero,
//     full, random, urandom and tty; its own /proc, with /proc/sys and the kernel's other
//     settings read-only; and [LocalOptions.Mounts]. Nothing else of the host's file tree is
//     there: not /home, /root, /var, /run, other workspaces, nor the program's files.
//     Set-user-ID files and devices do not work anywhere but /dev.
//   - Its own session, with no controlling terminal, even when the program has one: /dev/tty
//     fails with ENXIO, so a command can neither write escape sequences to the user's
//     terminal, read keystrokes from it, nor push input into it with TIOCSTI (bubblewrap's
//     CVE-2017-5226); the filter below refuses TIOCSTI and TIOCLINUX on any descriptor too.
//   - Only standard input (empty), output and error: every other descriptor the program
//     holds is closed before the shell starts, including those it holds without
//     close-on-exec (left open by its parent, made by a C library), which through
//     /proc/self/fd would lead to host files and directories, and out of the mount namespace.
//   - Its own network namespace with only a loopback interface, unless
//     [LocalOptions.Network]: it reaches nothing, not even the host's loopback. With Network
//     it shares the host's network (and /etc/resolv.conf resolves). With
//     [LocalOptions.Egress] the namespace still has only loopback, on which PID 1 listens at
//     127.0.0.1:3128 and hands each connection's descriptor over a Unix socket pair to a
//     proxy the sandbox runs on the host (nothing is bind-mounted, no host path is shown);
//     HTTP_PROXY and HTTPS_PROXY (http://127.0.0.1:3128) and ALL_PROXY
//     (socks5h://127.0.0.1:3128), and their lower-case forms, point at it and NO_PROXY is
//     empty. The proxy takes CONNECT host:port and plain http:// requests, and SOCKS5
//     CONNECT without authentication (a name or an address; not BIND or UDP), lets through the hosts and ports Egress.Allow lists (80 and 443 for an entry
//     without a port) and those Egress.Approve approves, resolves the name itself and
//     refuses an address that is loopback, link-local (cloud metadata), private, reserved
//     or one of the host's own unless Egress.AllowAddresses lists it. A refusal is an HTTP
//     answer whose body, and X-Sandbox-Egress header, say why, naming only the host, port
//     and address; SOCKS5 has only codes (2, not allowed; 4, host unreachable), so the HTTP
//     proxy is the one to ask why. There is no resolver in the sandbox: tools must use the proxy (curl,
//     pip, go and git do from the variables). Bounds: 32 connections at once (more wait),
//     16 KiB of request line and headers sent within 10 s, 10 s to resolve and connect, a
//     tunnel closed after 2 minutes with no byte either way, one request per plain HTTP
//     connection; every connection ends with the command.
//   - Its own user, IPC, UTS (host name "sandbox") and cgroup namespaces. Its user is root
//     of its user namespace, mapped to the user the program runs as, with no capabilities
//     (the bounding set is empty and no_new_privs is set, so set-user-ID files and file
//     capabilities give none), and it may create no user namespace of its own.
//   - A system call filter (seccomp, on x86-64 and arm64), set before the shell starts and
//     kept by everything it runs: the kernel keyring, BPF, perf events, userfaultfd, kernel
//     modules, kexec, mounting, file handles (open_by_handle_at), reading other processes'
//     memory (process_vm_readv) and new namespaces (unshare, setns, clone with a namespace
//     flag) fail with EPERM, as do ioctl's TIOCSTI and TIOCLINUX; sockets of any address
//     family but AF_UNIX, AF_INET, AF_INET6 and AF_NETLINK (vsock, which no network namespace
//     isolates, AF_ALG, packet sockets) fail with EAFNOSUPPORT; io_uring, clone3,
//     memfd_create, memfd_secret and inotify fail with ENOSYS, as on a kernel without them,
//     so that programs fall back to what they used before (glibc's threads to clone, shared
//     memory to files in /dev/shm, which is /tmp, file watchers to polling: inotify's
//     instances are counted per host user across user namespaces, and a command holding all
//     128 left no program of the user able to watch files); a call of another
//     architecture's numbering (int 0x80 on x86-64) kills the process. The list follows
//     Docker's default profile; everything else a compiler, a package manager or a test
//     suite calls is allowed.
//   - The environment of [LocalOptions.Env] and Vars, and HOME=/tmp unless they set it.
//   - Limits ([LocalOptions.Limits]): Processes (default 1024) bounds the processes and
//     threads running at once; Memory (4 GiB) each process's address space (RLIMIT_AS);
//     CPUTime (10 minutes) each process's CPU time (RLIMIT_CPU; it is then killed); FileSize
//     (1 GiB) each file a process writes (RLIMIT_FSIZE; the writer gets SIGXFSZ); Tmp
//     (512 MiB) the size of /tmp, and of each kind of SysV IPC in the command's IPC
//     namespace: shared memory in all, message queues and semaphores (its shmall, shmmax,
//     msgmni and sem settings, which outlive the processes that made them); TotalMemory
//     (Memory + Tmp, 4.5 GiB) the memory of all its processes together, where a cgroup
//     bounds it (below). Open files are bounded at 4096 a process and core dumps are off. A
//     fork bomb stops at the process bound and a memory hog at its address space, and the
//     call's timeout ends both.
//   - A memory cgroup of its own, where the host lets the program make one below its own
//     cgroup ([Local.MemoryBound] says which bound holds, and the first run logs it with
//     log/slog): "cgroup v2" where the program's cgroup (/proc/self/cgroup) is a delegated
//     subtree, writable by the program's user with the memory controller (a systemd unit
//     with Delegate=yes, a container whose cgroup is mounted writable); "cgroup v1" where
//     the v1 memory controller is mounted and the program's cgroup in it is writable (as
//     root, on hosts that still mount v1); else "none: the system call filter and the IPC
//     limits only".
//     On v2 the children of a cgroup get the controller only through its subtree_control,
//     which the kernel refuses while the cgroup holds processes: when it is not enabled and
//     the program is the cgroup's only process, the program moves itself into a child,
//     toolgen-program, and enables it, as a delegated unit's main process is expected to; a
//     cgroup the program shares (a terminal's scope) is left as it is, and v1 or none is
//     used. The cgroup's limit is TotalMemory: the memory its processes hold, the pages of
//     /tmp's files (the kernel charges a tmpfs page to the writer's cgroup), SysV shared
//     memory and the kernel memory the kernel charges to cgroups, with swap none (v2
//     memory.swap.max 0) or counted (v1 memory.memsw.limit_in_bytes where the kernel
//     accounts swap, else memory.swappiness 0). PID 1 is put in the cgroup before it reads
//     its configuration, so every process of the command is born in it. At the limit the
//     kernel kills: on v2 the whole command (memory.oom.group), on v1 one process, after
//     which Run, which reads the cgroup's count of such kills every 50 ms, kills the rest.
//     Run then returns 137 (as for SIGKILL) and the output ends with a line saying that the
//     command was stopped because its processes used more than TotalMemory in all; no host
//     path is shown (in its cgroup namespace the command sees its cgroup as
//     /toolgen-sandbox-<random>). When the run ends, whatever is left in the cgroup is
//     killed and the cgroup removed. Where the host allows a cgroup but one cannot be made
//     for a command (the parent's bound on descendants, say), Run runs nothing and returns
//     the error. A negative TotalMemory makes no cgroup.
//
// What it does not guarantee:
//
//   - Which bound holds on the command's memory in all depends on the host. With a cgroup
//     (MemoryBound "cgroup v2" or "cgroup v1") it is TotalMemory. Without one ("none: ..."),
//     memory is bounded per process: n processes may use n times the bound, so the whole
//     command is bounded by about Processes × Memory of address space, plus /tmp and SysV
//     IPC (each Tmp); memory held outside any address space is bounded there only where the
//     filter runs (x86-64, arm64), which refuses memfds: elsewhere a memfd is bounded by
//     FileSize alone, and a command may hold as many as it has descriptors; and kernel
//     memory a process holds for pipe buffers, sockets and open files is bounded only by the
//     kernel's own limits. CPU time and file size are bounded per process everywhere, and
//     the workspace's disk use by the disk alone. For a bound on the program and its
//     commands together where no cgroup can be made here, run the program in one (a systemd
//     unit's MemoryMax, TasksMax, CPUQuota) or a container; the command's processes are then
//     in it too, and with Delegate=yes the program can make its commands' own.
//   - The process bound is RLIMIT_NPROC when the program does not run as root; the kernel
//     does not apply RLIMIT_NPROC to the host's root, so as root it is the PID namespace's
//     pid_max, which Linux keeps per namespace since 6.14, set to Processes + 300 (the
//     kernel allocates the first 300 PIDs of a namespace once): a command of a root program
//     may run up to 300 more processes than Processes.
//   - The workspace's host path is hidden from pwd and the like, not from the kernel's mount
//     table: /proc/self/mountinfo names the directory a mount comes from. Output is scrubbed
//     of the path as text, but a command can encode it. Choose workspace paths that say
//     nothing secret.
//   - Reading is bounded by what is mounted, not by approval: a command reads everything in
//     the system directories that the program's user may read (when that is root, all but
//     the /etc entries covered above), and everything in the Mounts.
//   - Files a command writes in the workspace are the program's user's, with the modes the
//     command chose (a set-user-ID bit included), and the workspace's content is the model's:
//     a program or another user that runs or trusts files from the workspace on the host
//     runs what the model wrote.
//   - The namespaces are the kernel's: a kernel bug reachable from an unprivileged process
//     through a call the filter allows can break them. Other architectures than x86-64 and
//     arm64 run without the filter, in the namespaces alone. For a hostile model on a shared
//     host, add a VM boundary.
//
// What it needs: Linux 5.12 or later (mount_setattr) with user, mount, PID, network, IPC,
// UTS and cgroup namespaces; unprivileged user namespaces when the program does not run as
// root (kernel.unprivileged_userns_clone=1 on Debian before 11; on Ubuntu 23.10 and later,
// an AppArmor profile allowing them, or kernel.apparmor_restrict_unprivileged_userns=0);
// /proc mounted without parts hidden (as Docker hides them: containers usually cannot make
// these namespaces without privileges); and Linux 6.14 or later when the program runs as
// root and Processes is bounded. Where any of it is missing, Run runs nothing and returns
// an error wrapping [ErrNoIsolation] that says what failed, for the operator, who can
// provide it, or choose [LocalOptions.UnconfinedHostExecution] and what its doc says it
// gives away. Outside Linux isolation is never available.
//
// How: Run makes the command's memory cgroup where it can, starts the program's own
// executable again (/proc/self/exe) in the new namespaces, puts it in the cgroup, and
// this package's init function, seeing the marker it was started with, sets
// the sandbox up before main runs and never returns to the program. The program's other
// init functions have run in that process by then, as root of an empty user namespace
// with the host's file tree still mounted: keep them free of effects on the outside (no
// connections, no files written). This was chosen over bubblewrap, which does the mounts as
// well, because bubblewrap cannot set the process bound as root (it runs no code of ours
// inside the PID namespace before the command, and RLIMIT_NPROC does not bind root), sets
// no resource limits, cannot size /tmp in the version Debian 12 ships (0.8), and would be
// one more program to install and keep on every host.
package sandbox

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"path"
	"strings"
)

// Sandbox is a file tree and a place to run processes. Its file methods are those of an
// fs.FS (fs.WalkDir and fs.ReadFile work on it) plus an atomic write; all take names that
// satisfy fs.ValidPath. Implementations are safe for concurrent use.
type Sandbox interface {
	fs.StatFS    // Open and Stat; Open refuses what the sandbox will not read (ErrHardLink)
	fs.ReadDirFS // ReadDir, sorted by name

	// WriteFile replaces the content of name with data atomically (readers see the old
	// content or the new, never a mix), creating missing parent directories. An existing
	// file keeps its permissions; a new one gets 0644. When ctx ends before the new content
	// is in place, it returns ctx's error and leaves name as it was: it calls runtime.Commit
	// just before the last step, so a write the registry reported as failed (timed out,
	// cancelled) never lands later, and one that landed is not reported as failed.
	WriteFile(ctx context.Context, name string, data []byte) error

	// Run runs cmd to its end and returns its exit status. It returns an error (and exit
	// status -1) when the command could not start, or when ctx ended before it did: then
	// every process the command started has been killed.
	Run(ctx context.Context, cmd Command) (exit int, err error)
}

// Command is a shell command to run in a sandbox.
type Command struct {
	// Script is run by "sh -c".
	Script string
	// Dir is the directory to start in, a name in the sandbox ("." for the root).
	Dir string
	// Output receives standard output and standard error, interleaved as they were written.
	Output io.Writer
}

var (
	// ErrEscape is the error for a name that leads out of the sandbox: absolute, climbing
	// with "..", or through a symbolic link that points outside.
	ErrEscape = errors.New("the path leads outside the workspace")
	// ErrHardLink is the error for a file with more than one hard link: another name of the
	// same file may lie outside the sandbox, so writing or reading it could reach there.
	ErrHardLink = errors.New("the file has several hard links, and the workspace does not read such files")
	// ErrNotRegular is the error for opening what is neither a file nor a directory: a named
	// pipe (whose reader waits for a writer), a device or a socket.
	ErrNotRegular = errors.New("not a regular file or directory")
	// ErrNoRun is the error of a sandbox that runs no processes.
	ErrNoRun = errors.New("this workspace cannot run commands")
	// ErrNoIsolation is the error of a Local sandbox asked to run a command on a host that
	// cannot isolate it (see the package doc); the error wrapping it says what was missing.
	ErrNoIsolation = errors.New("this host cannot run commands in isolation")
)

// WorkspacePath is where the workspace appears to an isolated command: its working directory
// is there or below, and no host path appears in what pwd shows.
const WorkspacePath = "/workspace"

// Clean turns a path a model sent into a sandbox name: "" becomes ".", "./a//b/" becomes
// "a/b", "a/../b" becomes "b". An absolute path, or one climbing above the root, is refused
// with an error wrapping ErrEscape, whose text quotes the path as sent.
func Clean(p string) (string, error) {
	if p == "" {
		return ".", nil
	}
	if strings.HasPrefix(p, "/") || len(p) >= 2 && p[1] == ':' && isVolumeLetter(p[0]) && windowsNames {
		return "", &fs.PathError{Op: "resolve", Path: p, Err: ErrEscape}
	}
	name := path.Clean(p)
	if name == ".." || strings.HasPrefix(name, "../") {
		return "", &fs.PathError{Op: "resolve", Path: p, Err: ErrEscape}
	}
	if windowsNames && strings.ContainsAny(name, `\:`) {
		return "", &fs.PathError{Op: "resolve", Path: p, Err: fs.ErrInvalid}
	}
	return name, nil
}

func isVolumeLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// commandDir returns the directory cmd runs in, after checking that it is one.
func commandDir(sb fs.StatFS, cmd Command) (string, error) {
	dir := cmd.Dir
	if dir == "" {
		dir = "."
	}
	info, err := sb.Stat(dir)
	if err != nil {
		return "", err
	}
	if !info.IsDir() {
		return "", &fs.PathError{Op: "chdir", Path: dir, Err: errNotDir}
	}
	return dir, nil
}

type contextKey struct{}

// NewContext returns a copy of ctx that carries sb; FromContext finds it.
func NewContext(ctx context.Context, sb Sandbox) context.Context {
	return context.WithValue(ctx, contextKey{}, sb)
}

// FromContext returns the sandbox NewContext put in ctx.
func FromContext(ctx context.Context) (Sandbox, bool) {
	sb, ok := ctx.Value(contextKey{}).(Sandbox)
	return sb, ok
}
