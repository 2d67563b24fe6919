//go:build unix

package sandbox

import "syscall"

// openNonblock makes opening a named pipe return at once.
const openNonblock = syscall.O_NONBLOCK
