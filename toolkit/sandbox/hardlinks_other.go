//go:build !unix

package sandbox

import "io/fs"

// hardLinks returns 1: this system does not report hard links through fs.FileInfo.
func hardLinks(fs.FileInfo) uint64 { return 1 }
