//go:build unix && !linux

package sandbox

import (
	"context"
	"fmt"
	"io"
)

// runIsolated refuses: the isolation is built of Linux namespaces.
func (l *Local) runIsolated(context.Context, Command, string, io.Writer) (int, error) {
	return -1, fmt.Errorf("%w: isolation needs Linux", ErrNoIsolation)
}
