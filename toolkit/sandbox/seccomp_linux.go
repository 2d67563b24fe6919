//go:build linux

package sandbox

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The system call filter of an isolated command. The namespaces already deny what these
// calls would do to the host; the filter removes them anyway, because each is kernel code an
// unprivileged process can reach and that has been the way out of containers before (the
// keyring, BPF, perf events, userfaultfd, io_uring, new user namespaces, file handles): a
// kernel bug there would no longer be reachable. The list follows Docker's default profile
// for a container without capabilities, with io_uring and namespace creation added, as Codex's
// and Chrome's sandboxes do. Every other call is allowed: a coding agent runs compilers,
// package managers and test suites, which need the rest of Linux.

// deniedCalls fail with EPERM: no program in a sandbox has a use for them.
var deniedCalls = append([]uintptr{
	unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY, // the kernel keyring
	unix.SYS_BPF, unix.SYS_PERF_EVENT_OPEN, unix.SYS_USERFAULTFD,
	unix.SYS_KEXEC_LOAD, unix.SYS_KEXEC_FILE_LOAD, unix.SYS_REBOOT,
	unix.SYS_INIT_MODULE, unix.SYS_FINIT_MODULE, unix.SYS_DELETE_MODULE,
	unix.SYS_SWAPON, unix.SYS_SWAPOFF, unix.SYS_ACCT, unix.SYS_SYSLOG, unix.SYS_VHANGUP,
	unix.SYS_SETTIMEOFDAY, unix.SYS_CLOCK_SETTIME, unix.SYS_CLOCK_ADJTIME, unix.SYS_ADJTIMEX,
	unix.SYS_QUOTACTL, unix.SYS_QUOTACTL_FD, unix.SYS_NFSSERVCTL, unix.SYS_LOOKUP_DCOOKIE,
	unix.SYS_OPEN_BY_HANDLE_AT, // opens a file by handle, past the mounts (name_to_handle_at, which libmount uses, only makes one)
	unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT, unix.SYS_MOUNT_SETATTR,
	unix.SYS_MOVE_MOUNT, unix.SYS_OPEN_TREE, unix.SYS_FSOPEN, unix.SYS_FSCONFIG,
	unix.SYS_FSMOUNT, unix.SYS_FSPICK,
	unix.SYS_UNSHARE, unix.SYS_SETNS, // new namespaces: clone's flags are checked below
	unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV, unix.SYS_KCMP,
	unix.SYS_FANOTIFY_INIT,
}, archDeniedCalls...)

// absentCalls fail with ENOSYS, as on a kernel without them, so that programs fall back: to
// epoll and threads without io_uring, to clone without clone3 (whose flags, behind a
// pointer, a filter cannot read), to a file in /dev/shm (which is /tmp, bounded by
// Limits.Tmp) without memfd_create. A memfd is memory that no limit of a process bounds:
// written with write(2) it is never in the writer's address space, and it outlives the
// mappings of it (4 processes with 64 MiB of address space held a 512 MiB memfd);
// memfd_secret's pages likewise outlive their mappings. Without inotify, watchers poll (tail
// -f, file watchers of build tools): its instances are counted per user of the host across
// user namespaces (fs.inotify.max_user_instances, 128 by default), so a command holding them
// all left no program of the user able to watch files until it ended.
var absentCalls = append([]uintptr{
	unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
	unix.SYS_CLONE3,
	unix.SYS_MEMFD_CREATE, unix.SYS_MEMFD_SECRET,
	unix.SYS_INOTIFY_INIT1,
}, archAbsentCalls...)

// deniedIoctls are the ioctl requests that fail with EPERM whatever the descriptor: TIOCSTI
// pushes input into a terminal, as if typed (the way out of bubblewrap, CVE-2017-5226), and
// TIOCLINUX reads and pastes a virtual console's screen. A command has no controlling terminal
// (see isolate_linux.go), so it should hold no terminal to use them on; this is the defence
// should it get one anyway. The kernel reads the request as an unsigned int: only the low half
// of the argument counts, whatever the high half says.
var deniedIoctls = []uint32{unix.TIOCSTI, tioclinux}

const tioclinux = 0x541c // TIOCLINUX, the same on every architecture filtered here

// socketFamilies are the address families socket and socketpair may make: local sockets, IP,
// and netlink (route queries: getaddrinfo's, ip's). The others fail with EAFNOSUPPORT, as on
// a kernel without them: a network namespace does not isolate vsock (in a VM the hypervisor's
// services answer it), and the rest (AF_ALG's kernel crypto, packet sockets, Bluetooth, ...)
// are kernel code no command needs, which Docker's default profile refuses too. The kernel
// reads the family as an int: only the low half of the argument counts.
var socketFamilies = []uint32{unix.AF_UNIX, unix.AF_INET, unix.AF_INET6, unix.AF_NETLINK}

// newNamespaces are the flags of clone that make a namespace. CLONE_NEWTIME is not among
// them: its bit is part of clone's exit signal, and clone cannot make a time namespace.
const newNamespaces = unix.CLONE_NEWNS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWUTS |
	unix.CLONE_NEWIPC | unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET

// The offsets of struct seccomp_data's fields; arguments are 64-bit, and the low half of each
// (clone's flags, ioctl's request, socket's family) comes first on the little-endian machines filtered here.
const (
	seccompNr    = 0
	seccompArch  = 4
	seccompArg0  = 16
	seccompArg1  = 24
	x32SyscallNr = 0x40000000 // __X32_SYSCALL_BIT
)

// filterProgram returns the filter as classic BPF: a call from another architecture (as
// int 0x80 makes on x86-64) kills the process; a denied call fails; clone with a namespace
// flag fails, and so do ioctl with a denied request and a socket of a family not allowed; the
// rest is allowed.
func filterProgram() ([]unix.SockFilter, error) {
	var p bpfProgram
	p.load(seccompArch)
	p.jumpIf(unix.BPF_JEQ, auditArch, "", "kill")
	p.load(seccompNr)
	if hasX32 {
		p.jumpIf(unix.BPF_JGE, x32SyscallNr, "absent", "")
	}
	for _, nr := range deniedCalls {
		p.jumpIf(unix.BPF_JEQ, uint32(nr), "denied", "")
	}
	for _, nr := range absentCalls {
		p.jumpIf(unix.BPF_JEQ, uint32(nr), "absent", "")
	}
	p.jumpIf(unix.BPF_JEQ, unix.SYS_CLONE, "clone", "")
	p.jumpIf(unix.BPF_JEQ, unix.SYS_SOCKET, "socket", "")
	p.jumpIf(unix.BPF_JEQ, unix.SYS_SOCKETPAIR, "socket", "")
	p.jumpIf(unix.BPF_JEQ, unix.SYS_IOCTL, "", "allow")
	p.load(seccompArg1)
	for i, req := range deniedIoctls {
		p.jumpIf(unix.BPF_JEQ, req, "denied", orLast(i, len(deniedIoctls), "allow"))
	}
	p.label("socket")
	p.load(seccompArg0)
	for i, family := range socketFamilies {
		p.jumpIf(unix.BPF_JEQ, family, "allow", orLast(i, len(socketFamilies), "nofamily"))
	}
	p.label("clone")
	p.load(seccompArg0)
	p.jumpIf(unix.BPF_JSET, newNamespaces, "denied", "allow")
	p.label("allow")
	p.ret(unix.SECCOMP_RET_ALLOW)
	p.label("denied")
	p.ret(unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM))
	p.label("nofamily")
	p.ret(unix.SECCOMP_RET_ERRNO | uint32(unix.EAFNOSUPPORT))
	p.label("absent")
	p.ret(unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS))
	p.label("kill")
	p.ret(unix.SECCOMP_RET_KILL_PROCESS)
	return p.assemble()
}

// buildFilter returns the filter ready for applyFilter, or nil where none is available. It
// allocates, so it runs before the exec stage sets its memory limit.
func buildFilter() (*unix.SockFprog, error) {
	if !filterAvailable {
		return nil, nil
	}
	insns, err := filterProgram()
	if err != nil {
		return nil, err
	}
	return &unix.SockFprog{Len: uint16(len(insns)), Filter: &insns[0]}, nil
}

// applyFilter applies prog to every thread of this process, and so to the program it
// executes next. no_new_privs, which an unprivileged filter needs, is set already.
func applyFilter(prog *unix.SockFprog) error {
	if prog == nil {
		return nil
	}
	_, _, errno := unix.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER,
		unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(prog)))
	if errno != 0 {
		return fmt.Errorf("installing the system call filter: %w", errno)
	}
	return nil
}

// orLast returns label for the last of n jumps, and "" (the next instruction) for the others.
func orLast(i, n int, label string) string {
	if i == n-1 {
		return label
	}
	return ""
}

// bpfProgram assembles classic BPF with forward jumps to labels.
type bpfProgram struct {
	insns  []unix.SockFilter
	jumps  []bpfJump
	labels map[string]int
}

// bpfJump is a conditional jump whose targets are labels ("": the next instruction).
type bpfJump struct {
	at             int
	ifTrue, ifElse string
}

func (p *bpfProgram) load(offset uint32) {
	p.insns = append(p.insns, unix.SockFilter{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: offset})
}

func (p *bpfProgram) jumpIf(op uint16, k uint32, ifTrue, ifElse string) {
	p.jumps = append(p.jumps, bpfJump{at: len(p.insns), ifTrue: ifTrue, ifElse: ifElse})
	p.insns = append(p.insns, unix.SockFilter{Code: unix.BPF_JMP | op | unix.BPF_K, K: k})
}

func (p *bpfProgram) ret(k uint32) {
	p.insns = append(p.insns, unix.SockFilter{Code: unix.BPF_RET | unix.BPF_K, K: k})
}

func (p *bpfProgram) label(name string) {
	if p.labels == nil {
		p.labels = map[string]int{}
	}
	p.labels[name] = len(p.insns)
}

// assemble resolves the jumps: classic BPF jumps only forward, by at most 255 instructions.
func (p *bpfProgram) assemble() ([]unix.SockFilter, error) {
	offset := func(from int, label string) (uint8, error) {
		if label == "" {
			return 0, nil
		}
		to, ok := p.labels[label]
		d := to - from - 1
		if !ok || d < 0 || d > 255 {
			return 0, fmt.Errorf("system call filter: no jump from %d to %q", from, label)
		}
		return uint8(d), nil
	}
	for _, j := range p.jumps {
		var err error
		if p.insns[j.at].Jt, err = offset(j.at, j.ifTrue); err != nil {
			return nil, err
		}
		if p.insns[j.at].Jf, err = offset(j.at, j.ifElse); err != nil {
			return nil, err
		}
	}
	return p.insns, nil
}
