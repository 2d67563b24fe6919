//go:build !unix

package sandbox

import "context"

// Run returns ErrNoRun: process groups, which Run needs to kill a command whole, are Unix's.
func (l *Local) Run(context.Context, Command) (int, error) { return -1, ErrNoRun }
