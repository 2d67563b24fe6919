// Package sandboxtest checks that a sandbox.Sandbox keeps the interface's contract: the tests
// toolkit/sandbox runs on its own Local and Memory sandboxes, for a sandbox of your own (one
// that runs commands in a container or on another machine).
//
//	func TestContract(t *testing.T) {
//		sandboxtest.Run(t, func(t *testing.T) sandbox.Sandbox {
//			s, err := container.Open(t.TempDir(), "docker", "alpine:3.22")
//			require.NoError(t, err)
//			return s
//		})
//	}
//
// open returns a new, empty sandbox for each subtest. A sandbox whose Run returns
// sandbox.ErrNoRun skips the tests of commands.
package sandboxtest

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/toolkit/sandbox"
)

// Run runs every test of the contract on sandboxes open makes, as subtests of t.
func Run(t *testing.T, open func(t *testing.T) sandbox.Sandbox) {
	for _, c := range []struct {
		name string
		test func(t *testing.T, s sandbox.Sandbox)
	}{
		{"files", files},
		{"escapes", escapes},
		{"write after its context ended", writeAfterItsContextEnded},
		{"commands", commands},
		{"commands see the files", commandsSeeTheFiles},
		{"a command's directory", commandDirectory},
		{"a command whose context ends", commandWhoseContextEnds},
	} {
		t.Run(c.name, func(t *testing.T) { c.test(t, open(t)) })
	}
}

// files: WriteFile makes parents and replaces whole files; Open, Stat and ReadDir see them.
func files(t *testing.T, s sandbox.Sandbox) {
	ctx := context.Background()
	require.NoError(t, s.WriteFile(ctx, "a/b/c.txt", []byte("first")))
	require.NoError(t, s.WriteFile(ctx, "a/b/c.txt", []byte("2nd")))
	require.NoError(t, s.WriteFile(ctx, "a/z.txt", nil))
	require.NoError(t, s.WriteFile(ctx, "a/m.txt", []byte("m")))
	data, err := fs.ReadFile(s, "a/b/c.txt")
	require.NoError(t, err)
	assert.Equal(t, "2nd", string(data), "a write replaces the whole file")
	info, err := s.Stat("a/b/c.txt")
	require.NoError(t, err)
	assert.Equal(t, int64(3), info.Size())
	assert.False(t, info.IsDir())
	entries, err := s.ReadDir("a")
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.Equal(t, []string{"b", "m.txt", "z.txt"}, names, "ReadDir is sorted by name")
	_, err = s.Open("missing.txt")
	assert.ErrorIs(t, err, fs.ErrNotExist)
	_, err = s.Stat("a/missing")
	assert.ErrorIs(t, err, fs.ErrNotExist)
}

// escapes: a name that leads out of the sandbox is refused, for reading and for writing.
func escapes(t *testing.T, s sandbox.Sandbox) {
	for _, name := range []string{"../outside.txt", "/etc/passwd", "a/../../outside.txt", ""} {
		_, err := s.Open(name)
		assert.Error(t, err, "Open(%q)", name)
		assert.Error(t, s.WriteFile(context.Background(), name, []byte("x")), "WriteFile(%q)", name)
	}
}

// writeAfterItsContextEnded: a write whose ctx has ended does not land, and says why.
func writeAfterItsContextEnded(t *testing.T, s sandbox.Sandbox) {
	require.NoError(t, s.WriteFile(context.Background(), "f.txt", []byte("kept")))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.ErrorIs(t, s.WriteFile(ctx, "f.txt", []byte("lost")), context.Canceled)
	data, err := fs.ReadFile(s, "f.txt")
	require.NoError(t, err)
	assert.Equal(t, "kept", string(data))
}

// run runs script, skipping the test when the sandbox runs no commands.
func run(t *testing.T, ctx context.Context, s sandbox.Sandbox, dir, script string) (int, string, error) {
	t.Helper()
	var out syncBuffer
	exit, err := s.Run(ctx, sandbox.Command{Script: script, Dir: dir, Output: &out})
	if errors.Is(err, sandbox.ErrNoRun) {
		t.Skip("the sandbox runs no commands")
	}
	return exit, out.String(), err
}

// commands: the exit status comes back, and standard output and error both reach Output.
func commands(t *testing.T, s sandbox.Sandbox) {
	exit, out, err := run(t, context.Background(), s, ".", "echo out; echo err >&2; exit 3")
	require.NoError(t, err)
	assert.Equal(t, 3, exit)
	assert.Equal(t, "out\nerr\n", out, "the two streams interleave as written")
	exit, _, err = run(t, context.Background(), s, ".", "true")
	require.NoError(t, err)
	assert.Equal(t, 0, exit)
	_, _, err = run(t, context.Background(), s, ".", "exit 0")
	require.NoError(t, err, "Output may be nil")
}

// commandsSeeTheFiles: a command reads what WriteFile wrote, and Open reads what it wrote.
func commandsSeeTheFiles(t *testing.T, s sandbox.Sandbox) {
	require.NoError(t, s.WriteFile(context.Background(), "in/note.txt", []byte("from the host\n")))
	exit, out, err := run(t, context.Background(), s, ".", "cat in/note.txt && printf 'from the command' > in/reply.txt")
	require.NoError(t, err)
	require.Equal(t, 0, exit, out)
	assert.Equal(t, "from the host\n", out)
	data, err := fs.ReadFile(s, "in/reply.txt")
	require.NoError(t, err)
	assert.Equal(t, "from the command", string(data))
}

// commandDirectory: Dir is where the command starts; one that leads out is refused.
func commandDirectory(t *testing.T, s sandbox.Sandbox) {
	require.NoError(t, s.WriteFile(context.Background(), "sub/deeper/here.txt", []byte("x")))
	exit, out, err := run(t, context.Background(), s, "sub", "ls")
	require.NoError(t, err)
	require.Equal(t, 0, exit, out)
	assert.Equal(t, "deeper\n", out)
	for _, dir := range []string{"..", "/", "sub/../.."} {
		exit, _, err := run(t, context.Background(), s, dir, "true")
		assert.Error(t, err, "Dir %q", dir)
		assert.Equal(t, -1, exit, "Dir %q", dir)
	}
}

// commandWhoseContextEnds: Run returns once its ctx ends, with an error, and the command's
// processes stop: a file a background process would write later never appears.
func commandWhoseContextEnds(t *testing.T, s sandbox.Sandbox) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	exit, _, err := run(t, ctx, s, ".", "(sleep 2; echo late > late.txt) & sleep 30")
	assert.Error(t, err)
	assert.Equal(t, -1, exit)
	time.Sleep(2500 * time.Millisecond) // past the background process's write
	_, err = s.Stat("late.txt")
	assert.ErrorIs(t, err, fs.ErrNotExist, "a process of the command outlived Run")
}

// syncBuffer is an Output safe for the writers a sandbox may use at once.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Clone(b.buf.String())
}
