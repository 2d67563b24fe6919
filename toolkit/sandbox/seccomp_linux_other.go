//go:build linux && !amd64 && !arm64

package sandbox

// Outside x86-64 and arm64 the filter's call numbers are not written down: commands run
// without it, in the namespaces alone (see the package doc).
const (
	filterAvailable = false
	auditArch       = 0
	hasX32          = false
)

var archDeniedCalls []uintptr

var archAbsentCalls []uintptr
