package sandbox

import "golang.org/x/sys/unix"

const (
	filterAvailable = true
	auditArch       = unix.AUDIT_ARCH_AARCH64
	hasX32          = false
)

var archDeniedCalls []uintptr

var archAbsentCalls []uintptr
