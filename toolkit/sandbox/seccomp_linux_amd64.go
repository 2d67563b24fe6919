package sandbox

import "golang.org/x/sys/unix"

const (
	filterAvailable = true
	auditArch       = unix.AUDIT_ARCH_X86_64
	hasX32          = true // x32 calls are numbered from __X32_SYSCALL_BIT: all are absent
)

// archDeniedCalls are the calls denied on x86-64 only: port I/O and obsolete calls.
var archDeniedCalls = []uintptr{
	unix.SYS_IOPL, unix.SYS_IOPERM, unix.SYS_USELIB, unix.SYS_USTAT, unix.SYS_SYSFS,
	unix.SYS__SYSCTL, unix.SYS_CREATE_MODULE, unix.SYS_GET_KERNEL_SYMS, unix.SYS_QUERY_MODULE,
}

// archAbsentCalls are the calls absent on x86-64 only: older forms of those in absentCalls.
var archAbsentCalls = []uintptr{unix.SYS_INOTIFY_INIT}
