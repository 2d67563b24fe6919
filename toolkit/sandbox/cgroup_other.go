//go:build !linux

package sandbox

const boundNone = "none: the system call filter and the IPC limits only"

// memoryBound is none: isolation, cgroups included, needs Linux.
func memoryBound() string { return "none: isolation needs Linux" }
