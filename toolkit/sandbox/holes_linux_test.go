//go:build linux

package sandbox

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// Regression tests for the holes of issue 33 that a command could use from inside the sandbox.

// TestIsolatedTerminal: a command run by a program that has a controlling terminal gets none:
// /dev/tty does not open (ENXIO), its process has no terminal and its session is not the
// program's, so it can neither write to the user's terminal, read keystrokes from it, nor
// push input into it (TIOCSTI).
func TestIsolatedTerminal(t *testing.T) {
	if os.Getenv("SANDBOX_TEST_TTY") == "1" {
		// The test process: a session leader whose controlling terminal is the pty on stdin.
		tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
		require.NoError(t, err, "the parent gave this process a controlling terminal")
		tty.Close()
		l, _ := openIsolated(t, LocalOptions{})
		// Field 7 of /proc/self/stat is the controlling terminal's device number (0: none),
		// field 6 the session (0: one led from outside the sandbox's PID namespace).
		_, out := runIn(t, l, ".", `(exec 3<>/dev/tty && echo OPENED && echo written >&3)
read -r _ _ _ _ _ sid ttynr _ < /proc/self/stat; echo "sid=$sid tty=$ttynr"`)
		assert.NotContains(t, out, "OPENED", out)
		assert.Contains(t, out, "No such device or address", "ENXIO: no controlling terminal")
		assert.Contains(t, out, " tty=0\n", out)
		assert.NotContains(t, out, "sid=0 ", "the session is the program's: "+out)
		return
	}
	master, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	require.NoError(t, err)
	defer unix.Close(master)
	require.NoError(t, unix.IoctlSetPointerInt(master, unix.TIOCSPTLCK, 0)) // unlockpt
	slave, err := unix.IoctlRetInt(master, unix.TIOCGPTPEER)
	if err != nil { // before Linux 4.13: by name
		n, err := unix.IoctlGetInt(master, unix.TIOCGPTN)
		require.NoError(t, err)
		slave, err = unix.Open(fmt.Sprintf("/dev/pts/%d", n), unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
		require.NoError(t, err)
	}
	pty := os.NewFile(uintptr(slave), "pty")
	defer pty.Close()
	ctx, cancel := context.WithTimeout(t.Context(), isolatedDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestIsolatedTerminal$", "-test.v")
	cmd.Env = append(os.Environ(), "SANDBOX_TEST_TTY=1")
	cmd.Stdin = pty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "--- PASS: TestIsolatedTerminal")
}
