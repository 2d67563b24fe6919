//go:build linux

package sandbox

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

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

// TestIsolatedDescriptors: a descriptor the program holds without close-on-exec (as one its
// parent left open, or a C library made) does not reach the command: neither a host file's
// content nor a host directory, through which ".." would climb out of the mount namespace.
func TestIsolatedDescriptors(t *testing.T) {
	outside := t.TempDir()
	secret := "secret-" + unique(t)
	require.NoError(t, os.WriteFile(filepath.Join(outside, "secret.txt"), []byte(secret+"\n"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(outside, "dir-"+secret), 0o755))
	// Opened without O_CLOEXEC: every process this one starts inherits them.
	file, err := syscall.Open(filepath.Join(outside, "secret.txt"), syscall.O_RDONLY, 0)
	require.NoError(t, err)
	defer syscall.Close(file)
	dir, err := syscall.Open(outside, syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
	require.NoError(t, err)
	defer syscall.Close(dir)

	l, _ := openIsolated(t, LocalOptions{})
	_, out := runIn(t, l, ".", fmt.Sprintf(`echo fds:; ls /proc/$$/fd; echo end
cat /proc/self/fd/%[1]d 2>/dev/null; ls /proc/self/fd/%[2]d/ /proc/self/fd/%[2]d/.. 2>/dev/null
touch /proc/self/fd/%[2]d/planted 2>/dev/null && echo planted
for f in /proc/$$/fd/*; do readlink "$f"; done; echo done`, file, dir))
	assert.NotContains(t, out, secret, out)
	assert.NotContains(t, out, "planted", out)
	assert.Contains(t, out, "fds:\n0\n1\n2\nend\n", "the shell holds only its standard descriptors: "+out)
	assert.Contains(t, out, "done\n", out)
	assert.NoFileExists(t, filepath.Join(outside, "planted"))
}

// TestIsolatedInitSignals: PID 1 of the sandbox, a Go program, neither dumps its goroutines
// (with the host paths of the source and the Go installation) into the command's output nor
// dies when the command sends it the signals that make Go dump.
func TestIsolatedInitSignals(t *testing.T) {
	l, _ := openIsolated(t, LocalOptions{})
	sigs := []syscall.Signal{syscall.SIGQUIT, syscall.SIGABRT, syscall.SIGILL, syscall.SIGTRAP,
		syscall.SIGSYS, syscall.SIGSEGV, syscall.SIGBUS, syscall.SIGFPE,
		unix.SignalNum("SIGSTKFLT") | unix.SignalNum("SIGEMT")} // one or the other, by architecture
	for _, sig := range sigs {
		// Without the fix the dump, and PID 1's end, come within the sleep.
		exit, out := runIn(t, l, ".", fmt.Sprintf(`kill -%d 1; sleep 0.3; echo alive`, sig))
		assert.False(t, strings.Contains(out, "goroutine") || strings.Contains(out, ".go:"), "%s dumped: %s", sig, out)
		assert.Equal(t, "alive\n", out, sig)
		assert.Equal(t, 0, exit, sig)
	}
}

// TestIsolatedMemoryOutsideLimits: memory a command holds outside its processes' address
// spaces (a memfd, SysV shared memory, message queues and semaphores) stays within the
// bounds: a memfd cannot be made, and the sandbox's IPC namespace holds at most the size of
// /tmp of each kind of SysV IPC. Without the bounds one process with a 64 MiB address space
// and a 16 MiB /tmp held 96 MiB of each.
func TestIsolatedMemoryOutsideLimits(t *testing.T) {
	if !filterAvailable {
		t.Skip("no system call filter on " + runtime.GOARCH)
	}
	const mib = 1 << 20
	l, dir := openIsolated(t, LocalOptions{Limits: Limits{Memory: 64 * mib, Tmp: 16 * mib}})
	// Each script tries to hold 96 MiB, and says how much it held and why it stopped.
	scripts := map[string]string{
		"memfd.pl": fmt.Sprintf(`my $name = "probe"; my $fd = syscall(%d, $name, 0);
if ($fd < 0) { print "memfd: 0 MiB $!\n"; exit 0 }
open(my $fh, ">&=", $fd) or die "fdopen: $!";
my $chunk = "x" x (1 << 20); my $n = 0; my $err = "";
while ($n < 96) { my $w = syswrite($fh, $chunk); unless (defined $w && $w == length $chunk) { $err = "$!"; last } $n++ }
print "memfd: $n MiB $err\n";`, unix.SYS_MEMFD_CREATE),
		// IPC_PRIVATE is 0. shmwrite attaches the segment, fills it and detaches it: the
		// segment stays, held by the namespace.
		"shm.pl": `my $seg = 8 << 20; my $held = 0; my $err = "";
for (1 .. 12) {
	my $id = shmget(0, $seg, 0600);
	unless (defined $id) { $err = "$!"; last }
	unless (shmwrite($id, "x" x $seg, 0, $seg)) { $err = "write: $!"; last }
	$held += 8;
}
print "shm: $held MiB $err\n";`,
		// IPC_NOWAIT is 04000: each queue is filled until it would block.
		"msg.pl": `my $msg = pack("l! a*", 1, "x" x 8000); my ($bytes, $queues, $err) = (0, 0, "");
while ($bytes < (96 << 20)) {
	my $id = msgget(0, 0600);
	unless (defined $id) { $err = "$!"; last }
	$queues++;
	while (msgsnd($id, $msg, 04000)) { $bytes += 8000 }
}
printf "msg: %d MiB %s\n", $bytes >> 20, $err;`,
		// Arrays of 32000 semaphores (SEMMSL), counted at 64 bytes a semaphore (the kernel's
		// struct sem, a cache line).
		"sem.pl": `my ($sems, $err) = (0, "");
while ($sems * 64 < (96 << 20)) {
	my $id = semget(0, 32000, 0600);
	unless (defined $id) { $err = "$!"; last }
	$sems += 32000;
}
printf "sem: %d MiB %s\n", ($sems * 64) >> 20, $err;`,
	}
	for name, script := range scripts {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(script), 0o644))
	}
	held := regexp.MustCompile(`^(\w+): (\d+) MiB (.*)\n$`)
	for _, name := range []string{"memfd.pl", "shm.pl", "msg.pl", "sem.pl"} {
		exit, out := runIn(t, l, ".", "perl "+name)
		require.Equal(t, 0, exit, out)
		m := held.FindStringSubmatch(out)
		require.NotNil(t, m, out)
		n, _ := strconv.Atoi(m[2])
		switch m[1] {
		case "memfd":
			assert.Equal(t, 0, n, "a memfd was made and filled: %s", out)
			assert.Equal(t, "Function not implemented", m[3], out)
		default:
			assert.LessOrEqual(t, n, 16, "%s held more than /tmp's size: %s", m[1], out)
			assert.Contains(t, m[3], "No space left on device", out)
		}
	}
}

// syncBuffer is an io.Writer whose content may be read while a command writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestIsolatedInotify: inotify instances are counted per host user across user namespaces
// (128 by default), so a command that took them all left no program of the user able to
// watch files while it ran. In the sandbox inotify is absent (ENOSYS: tools poll instead),
// and the host still makes an instance while the command tries to hold them all.
func TestIsolatedInotify(t *testing.T) {
	if !filterAvailable {
		t.Skip("no system call filter on " + runtime.GOARCH)
	}
	l, dir := openIsolated(t, LocalOptions{})
	// Takes instances until refused, says how many, and holds them until told to stop.
	script := fmt.Sprintf(`$| = 1; my @fds; my $err = "";
while (@fds < 2000) { my $fd = syscall(%d, 0); if ($fd < 0) { $err = "$!"; last } push @fds, $fd }
print "inotify: " . scalar(@fds) . " $err\n";
for (1 .. 2400) { last if -e "done"; select(undef, undef, undef, 0.05) }`, unix.SYS_INOTIFY_INIT1)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "inotify.pl"), []byte(script), 0o644))

	var out syncBuffer
	type result struct {
		exit int
		err  error
	}
	done := make(chan result, 1)
	ctx, cancel := context.WithTimeout(t.Context(), isolatedDeadline)
	defer cancel()
	go func() {
		exit, err := l.Run(ctx, Command{Script: "perl inotify.pl", Output: &out})
		done <- result{exit, err}
	}()
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "\n") }, time.Minute, 10*time.Millisecond)
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC)
	if err == nil {
		unix.Close(fd)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "done"), nil, 0o644))
	r := <-done
	require.NoError(t, r.err, out.String())
	assert.Equal(t, 0, r.exit, out.String())
	assert.NoError(t, err, "the host could not make an inotify instance while the command held them: %s", out.String())
	assert.Equal(t, "inotify: 0 Function not implemented\n", out.String())
}
