//go:build linux

package sandbox

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// runFilter runs the filter on one system call, as the kernel would, and returns its action.
// x/net/bpf's machine loads words big-endian, the kernel's in the machine's order: the call's
// fields are written big-endian, so that each load reads the value the kernel's would.
func runFilter(t *testing.T, arch uint32, nr uint32, args ...uint64) uint32 {
	t.Helper()
	insns, err := filterProgram()
	require.NoError(t, err)
	prog := make([]bpf.Instruction, len(insns))
	for i, in := range insns {
		prog[i] = bpf.RawInstruction{Op: in.Code, Jt: in.Jt, Jf: in.Jf, K: in.K}.Disassemble()
	}
	vm, err := bpf.NewVM(prog)
	require.NoError(t, err)
	data := make([]byte, 64) // struct seccomp_data
	binary.BigEndian.PutUint32(data[seccompNr:], nr)
	binary.BigEndian.PutUint32(data[seccompArch:], arch)
	for i, arg := range args { // the low half: the filter reads no high half
		binary.BigEndian.PutUint32(data[seccompArg0+8*i:], uint32(arg))
	}
	action, err := vm.Run(data)
	require.NoError(t, err)
	return uint32(action)
}

// TestFilterProgram holds every rule of the filter to the action it must take.
func TestFilterProgram(t *testing.T) {
	if !filterAvailable {
		t.Skip("no system call filter on " + runtime.GOARCH)
	}
	const (
		allow  = uint32(unix.SECCOMP_RET_ALLOW)
		denied = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
		absent = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
	)
	for _, nr := range deniedCalls {
		assert.Equal(t, denied, runFilter(t, auditArch, uint32(nr), 0), "call %d", nr)
	}
	for _, nr := range absentCalls {
		assert.Equal(t, absent, runFilter(t, auditArch, uint32(nr), 0), "call %d", nr)
	}
	for _, nr := range []uintptr{unix.SYS_READ, unix.SYS_WRITE, unix.SYS_EXECVE, unix.SYS_GETPID,
		unix.SYS_SECCOMP, unix.SYS_PTRACE, unix.SYS_WAIT4} {
		assert.Equal(t, allow, runFilter(t, auditArch, uint32(nr), 0), "call %d", nr)
	}
	// fork and threads are clone without namespace flags; every namespace flag is refused.
	assert.Equal(t, allow, runFilter(t, auditArch, unix.SYS_CLONE, uint64(unix.SIGCHLD)))
	assert.Equal(t, allow, runFilter(t, auditArch, unix.SYS_CLONE, unix.CLONE_VM|unix.CLONE_FS|
		unix.CLONE_FILES|unix.CLONE_SIGHAND|unix.CLONE_THREAD|unix.CLONE_SYSVSEM|
		unix.CLONE_SETTLS|unix.CLONE_PARENT_SETTID|unix.CLONE_CHILD_CLEARTID))
	for _, flag := range []uint64{unix.CLONE_NEWNS, unix.CLONE_NEWCGROUP, unix.CLONE_NEWUTS,
		unix.CLONE_NEWIPC, unix.CLONE_NEWUSER, unix.CLONE_NEWPID, unix.CLONE_NEWNET} {
		assert.Equal(t, denied, runFilter(t, auditArch, unix.SYS_CLONE, flag|uint64(unix.SIGCHLD)), "flag %#x", flag)
	}
	// ioctl is allowed but for the requests that push input into a terminal or read a console.
	for _, req := range []uint64{unix.TIOCSTI, tioclinux} {
		assert.Equal(t, denied, runFilter(t, auditArch, unix.SYS_IOCTL, 0, req), "ioctl %#x", req)
		assert.Equal(t, allow, runFilter(t, auditArch, unix.SYS_WRITE, 0, req), "write with %#x", req)
	}
	for _, req := range []uint64{unix.TCGETS, unix.TIOCGWINSZ, unix.TIOCOUTQ, unix.FICLONE} {
		assert.Equal(t, allow, runFilter(t, auditArch, unix.SYS_IOCTL, 0, req), "ioctl %#x", req)
	}
	// Sockets of the families a command needs; the others are as if the kernel had none.
	const noFamily = unix.SECCOMP_RET_ERRNO | uint32(unix.EAFNOSUPPORT)
	for _, nr := range []uint32{unix.SYS_SOCKET, unix.SYS_SOCKETPAIR} {
		for _, family := range []uint64{unix.AF_UNIX, unix.AF_INET, unix.AF_INET6, unix.AF_NETLINK} {
			assert.Equal(t, allow, runFilter(t, auditArch, nr, family, unix.SOCK_STREAM), "call %d family %d", nr, family)
		}
		for _, family := range []uint64{unix.AF_UNSPEC, unix.AF_VSOCK, unix.AF_ALG, unix.AF_PACKET, unix.AF_KEY,
			unix.AF_BLUETOOTH, unix.AF_XDP, unix.AF_TIPC, unix.AF_RDS, unix.AF_CAN, unix.AF_NETLINK + 1, unix.AF_MAX, 1 << 31} {
			assert.Equal(t, noFamily, runFilter(t, auditArch, nr, family, unix.SOCK_STREAM), "call %d family %d", nr, family)
		}
	}
	// A call of another architecture's numbering kills the process: on x86-64, int 0x80
	// reaches the 32-bit table, where 1 is exit and 26 ptrace.
	assert.Equal(t, uint32(unix.SECCOMP_RET_KILL_PROCESS), runFilter(t, unix.AUDIT_ARCH_I386, unix.SYS_GETPID, 0))
	if hasX32 {
		assert.Equal(t, absent, runFilter(t, auditArch, x32SyscallNr|unix.SYS_GETPID, 0))
	}
}

// probeName is the name under which this test binary, copied into a sandbox, makes the calls
// the filter denies and prints how each ended.
const probeName = "toolgen-syscall-probe"

func init() {
	if filepath.Base(os.Args[0]) == probeName {
		probeCalls(os.Stdout)
		os.Exit(0)
	}
}

// probeCalls makes calls that, without the filter, fail with another error or succeed; none
// of them changes anything when it does.
func probeCalls(w io.Writer) {
	report := func(name string, errno syscall.Errno) {
		result := "ok"
		if errno != 0 {
			result = unix.ErrnoName(errno)
		}
		fmt.Fprintf(w, "%s: %s\n", name, result)
	}
	sessionKeyring := -3 // KEY_SPEC_SESSION_KEYRING
	_, _, e := unix.RawSyscall(unix.SYS_KEYCTL, unix.KEYCTL_GET_KEYRING_ID, uintptr(sessionKeyring), 1)
	report("keyctl", e)
	// Invalid arguments: EINVAL or EFAULT without the filter, before anything is made.
	_, _, e = unix.RawSyscall(unix.SYS_CLONE3, 0, 0, 0)
	report("clone3", e)
	_, _, e = unix.RawSyscall(unix.SYS_IO_URING_SETUP, 0, 0, 0)
	report("io_uring_setup", e)
	_, _, e = unix.RawSyscall(unix.SYS_PERF_EVENT_OPEN, 0, 0, 0)
	report("perf_event_open", e)
	pid := uintptr(os.Getpid())
	_, _, e = unix.RawSyscall6(unix.SYS_KCMP, pid, pid, 0 /* KCMP_FILE */, 0, 0, 0)
	report("kcmp", e)
	// CLONE_NEWUSER with CLONE_FS, and unshare with a signal number, are EINVAL to the
	// kernel: these never make a process or a namespace.
	_, _, e = unix.RawSyscall6(unix.SYS_CLONE, unix.CLONE_NEWUSER|unix.CLONE_FS|uintptr(unix.SIGCHLD), 0, 0, 0, 0, 0)
	report("clone_newuser", e)
	_, _, e = unix.RawSyscall(unix.SYS_UNSHARE, unix.CLONE_NEWUSER|uintptr(unix.SIGCHLD), 0, 0)
	report("unshare", e)
	// On no descriptor (EBADF without the filter); the second with a high half the kernel
	// ignores, as it reads the request as an unsigned int.
	_, _, e = unix.RawSyscall(unix.SYS_IOCTL, ^uintptr(0), unix.TIOCSTI, 0)
	report("tiocsti", e)
	high := uint64(1) << 32 // a variable: a constant would not fit a 32-bit uintptr
	_, _, e = unix.RawSyscall(unix.SYS_IOCTL, ^uintptr(0), uintptr(high|unix.TIOCSTI), 0)
	report("tiocsti_high", e)
	_, _, e = unix.RawSyscall(unix.SYS_IOCTL, ^uintptr(0), tioclinux, 0)
	report("tioclinux", e)
	// Sockets of each family a command needs, and of some it does not (vsock reaches the
	// hypervisor's services whatever the network namespace; packet sockets need CAP_NET_RAW
	// on the host, so a program not run as root sees EPERM there).
	socket := func(name string, family, typ int) {
		fd, _, e := unix.RawSyscall(unix.SYS_SOCKET, uintptr(family), uintptr(typ|unix.SOCK_CLOEXEC), 0)
		if e == 0 {
			unix.Close(int(fd))
		}
		report(name, e)
	}
	socket("socket_unix", unix.AF_UNIX, unix.SOCK_STREAM)
	socket("socket_inet", unix.AF_INET, unix.SOCK_STREAM)
	socket("socket_inet6", unix.AF_INET6, unix.SOCK_DGRAM)
	socket("socket_netlink", unix.AF_NETLINK, unix.SOCK_RAW)
	socket("socket_vsock", unix.AF_VSOCK, unix.SOCK_STREAM)
	socket("socket_packet", unix.AF_PACKET, unix.SOCK_DGRAM)
	var pair [2]int32
	_, _, e = unix.RawSyscall6(unix.SYS_SOCKETPAIR, unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0, uintptr(unsafe.Pointer(&pair)), 0, 0)
	if e == 0 {
		unix.Close(int(pair[0]))
		unix.Close(int(pair[1]))
	}
	report("socketpair_unix", e)
	_, _, e = unix.RawSyscall(unix.SYS_GETPID, 0, 0, 0)
	report("getpid", e)
}

// TestIsolatedSystemCalls: in the sandbox, the calls the filter denies fail as it says,
// where on the host the same calls got as far as the kernel's own checks.
func TestIsolatedSystemCalls(t *testing.T) {
	if !filterAvailable {
		t.Skip("no system call filter on " + runtime.GOARCH)
	}
	self, err := os.Executable()
	require.NoError(t, err)
	l, dir := openIsolated(t, LocalOptions{})
	probe := filepath.Join(dir, probeName)
	data, err := os.ReadFile(self)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(probe, data, 0o755))

	host, err := exec.Command(probe).Output()
	require.NoError(t, err)
	exit, inside := runIn(t, l, ".", "./"+probeName)
	require.Equal(t, 0, exit, inside)

	want := map[string]string{
		"keyctl": "EPERM", "clone3": "ENOSYS", "io_uring_setup": "ENOSYS",
		"perf_event_open": "EPERM", "kcmp": "EPERM",
		"clone_newuser": "EPERM", "unshare": "EPERM",
		"tiocsti": "EPERM", "tiocsti_high": "EPERM", "tioclinux": "EPERM",
		"socket_vsock": "EAFNOSUPPORT", "socket_packet": "EAFNOSUPPORT",
	}
	hostResults := probeResults(t, string(host))
	for call, result := range hostResults {
		if _, denied := want[call]; !denied {
			want[call] = result // allowed: as on the host (socket_inet6 fails where IPv6 is off)
			continue
		}
		if call == "socket_vsock" && result == "EAFNOSUPPORT" {
			t.Log("this host has no vsock: socket_vsock proves nothing")
			continue
		}
		assert.NotEqual(t, want[call], result, "%s on the host: the test proves nothing", call)
	}
	assert.Equal(t, "ok", want["getpid"], host)
	assert.Equal(t, "ok", want["socket_unix"], host)
	assert.Equal(t, want, probeResults(t, inside), inside)
}

func probeResults(t *testing.T, out string) map[string]string {
	t.Helper()
	results := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		call, result, ok := strings.Cut(line, ": ")
		require.True(t, ok, out)
		results[call] = result
	}
	return results
}
