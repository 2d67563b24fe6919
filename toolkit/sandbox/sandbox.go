// Package sandbox is where the workspace toolkit's tools read, write and run: an interface
// for file operations and process execution, and two implementations of it.
//
//   - [Local] is a directory of the host. Files go through an [os.Root], so no name reaches
//     outside the directory: ".." and absolute names are refused, and a symbolic link that
//     leads out is refused when it is used, even when it is swapped in between a check and
//     the use (the kernel resolves every step relative to the root). A file with more than
//     one hard link is refused too (see [LocalOptions.AllowHardLinks]), and so is anything
//     that is neither a file nor a directory (opening a named pipe would block). Processes
//     start in the directory.
//   - [Memory] keeps files in memory, for tests of agents and of the tools themselves; it
//     runs processes only through a function the test gives it.
//
// Writes are bounded by a quota per sandbox value ([LocalOptions.WriteQuota],
// [Memory.WriteQuota]; [DefaultWriteQuota], 1 GiB, by default): what WriteFile adds to the
// sandbox in all, counted as the size of its data less that of the file it replaces (a
// smaller file gives bytes back), plus 4 KiB for each file and directory it creates.
// Temporary files and what commands write are not counted. A write past the quota fails
// with a [*QuotaError] (errors.Is [ErrQuota]) and changes nothing.
//
// A remote sandbox (a container, a VM, a service) implements the same interface; the tools
// do not know the difference.
//
// Names are slash-separated and relative to the sandbox root, as in [io/fs]: "." is the root,
// "src/main.go" a file in it. [Clean] turns what a model sent into such a name, or says why it
// cannot. A backslash is an ordinary character of a name on Unix (as it is to the kernel)
// and refused on Windows, where it would separate names. Errors of a sandbox name files by
// these names, never by a host path: they are safe to show a model.
//
// One program may serve many users, each in a sandbox of their own: a host puts the call's
// sandbox in the call's context with [NewContext] (or in runtime.Call.UserData), and tools
// look it up with [FromContext].
package sandbox

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"path"
	"strings"
)

// Sandbox is a file tree and a place to run processes. Its file methods are those of an
// fs.FS (fs.WalkDir and fs.ReadFile work on it) plus an atomic write; all take names that
// satisfy fs.ValidPath. Implementations are safe for concurrent use.
type Sandbox interface {
	fs.StatFS    // Open and Stat; Open refuses what the sandbox will not read (ErrHardLink)
	fs.ReadDirFS // ReadDir, sorted by name

	// WriteFile replaces the content of name with data atomically (readers see the old
	// content or the new, never a mix), creating missing parent directories. An existing
	// file keeps its permissions; a new one gets 0644. When ctx ends before the new content
	// is in place, it returns ctx's error and leaves name as it was: it calls runtime.Commit
	// just before the last step, so a write the registry reported as failed (timed out,
	// cancelled) never lands later, and one that landed is not reported as failed.
	WriteFile(ctx context.Context, name string, data []byte) error

	// Run runs cmd to its end and returns its exit status. It returns an error (and exit
	// status -1) when the command could not start, or when ctx ended before it did: then
	// every process the command started has been killed.
	Run(ctx context.Context, cmd Command) (exit int, err error)
}

// Command is a shell command to run in a sandbox.
type Command struct {
	// Script is run by "sh -c".
	Script string
	// Dir is the directory to start in, a name in the sandbox ("." for the root).
	Dir string
	// Output receives standard output and standard error, interleaved as they were written.
	Output io.Writer
}

var (
	// ErrEscape is the error for a name that leads out of the sandbox: absolute, climbing
	// with "..", or through a symbolic link that points outside.
	ErrEscape = errors.New("the path leads outside the workspace")
	// ErrHardLink is the error for a file with more than one hard link: another name of the
	// same file may lie outside the sandbox, so writing or reading it could reach there.
	ErrHardLink = errors.New("the file has several hard links, and the workspace does not read such files")
	// ErrNotRegular is the error for opening what is neither a file nor a directory: a named
	// pipe (whose reader waits for a writer), a device or a socket.
	ErrNotRegular = errors.New("not a regular file or directory")
	// ErrNoRun is the error of a sandbox that runs no processes.
	ErrNoRun = errors.New("this workspace cannot run commands")
)

// Clean turns a path a model sent into a sandbox name: "" becomes ".", "./a//b/" becomes
// "a/b", "a/../b" becomes "b". An absolute path, or one climbing above the root, is refused
// with an error wrapping ErrEscape, whose text quotes the path as sent.
func Clean(p string) (string, error) {
	if p == "" {
		return ".", nil
	}
	if strings.HasPrefix(p, "/") || len(p) >= 2 && p[1] == ':' && isVolumeLetter(p[0]) && windowsNames {
		return "", &fs.PathError{Op: "resolve", Path: p, Err: ErrEscape}
	}
	name := path.Clean(p)
	if name == ".." || strings.HasPrefix(name, "../") {
		return "", &fs.PathError{Op: "resolve", Path: p, Err: ErrEscape}
	}
	if windowsNames && strings.ContainsAny(name, `\:`) {
		return "", &fs.PathError{Op: "resolve", Path: p, Err: fs.ErrInvalid}
	}
	return name, nil
}

func isVolumeLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// commandDir returns the directory cmd runs in, after checking that it is one.
func commandDir(sb fs.StatFS, cmd Command) (string, error) {
	dir := cmd.Dir
	if dir == "" {
		dir = "."
	}
	info, err := sb.Stat(dir)
	if err != nil {
		return "", err
	}
	if !info.IsDir() {
		return "", &fs.PathError{Op: "chdir", Path: dir, Err: errNotDir}
	}
	return dir, nil
}

type contextKey struct{}

// NewContext returns a copy of ctx that carries sb; FromContext finds it.
func NewContext(ctx context.Context, sb Sandbox) context.Context {
	return context.WithValue(ctx, contextKey{}, sb)
}

// FromContext returns the sandbox NewContext put in ctx.
func FromContext(ctx context.Context) (Sandbox, bool) {
	sb, ok := ctx.Value(contextKey{}).(Sandbox)
	return sb, ok
}
