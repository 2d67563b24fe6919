//go:build unix

package sandbox

import (
	"io/fs"
	"syscall"
)

// hardLinks returns the number of hard links of a file, or 1 when the system does not say.
func hardLinks(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
