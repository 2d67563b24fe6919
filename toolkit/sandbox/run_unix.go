//go:build unix

package sandbox

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// Run runs cmd.Script with "sh -c" in cmd.Dir, with stdin closed and only the configured
// environment: isolated from the host (see the package doc), or, with
// LocalOptions.UnconfinedHostExecution, on the host. The output has every host spelling of
// the root replaced by ".".
func (l *Local) Run(ctx context.Context, cmd Command) (int, error) {
	dir, err := commandDir(l, cmd)
	if err != nil {
		return -1, err
	}
	out := cmd.Output
	if out == nil {
		out = io.Discard
	}
	if l.opts.UnconfinedHostExecution {
		return l.runHost(ctx, cmd, dir, out)
	}
	return l.runIsolated(ctx, cmd, dir, out)
}

// runHost runs cmd on the host, in the directory, in a new process group. When the shell
// exits, or ctx is done first, the whole group is killed; a process that left the group
// (setsid) is not.
func (l *Local) runHost(ctx context.Context, cmd Command, dir string, out io.Writer) (int, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return -1, err
	}
	c := exec.Command("/bin/sh", "-c", cmd.Script)
	c.Dir = filepath.Join(l.dir, filepath.FromSlash(dir))
	c.Env = l.env
	c.Stdout, c.Stderr = w, w // one pipe: the two streams interleave as written
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = c.Start()
	w.Close() // the children hold their copies; ours would keep the pipe open forever
	if err != nil {
		r.Close()
		return -1, errors.New(l.scrub(err.Error()))
	}
	pgid := c.Process.Pid
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		l.copyScrubbed(out, r)
	}()
	stop := killOnDone(ctx, func() { syscall.Kill(-pgid, syscall.SIGKILL) })
	waitErr := c.Wait()
	stop()
	syscall.Kill(-pgid, syscall.SIGKILL) // what the command left running in the background
	r.SetReadDeadline(time.Now().Add(runGrace))
	<-copied
	r.Close()
	return exitStatus(ctx, waitErr)
}

// killOnDone calls kill if ctx ends before stop is called.
func killOnDone(ctx context.Context, kill func()) (stop func()) {
	exited := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			kill()
		case <-exited:
		}
	}()
	return func() { close(exited) }
}

// exitStatus turns the result of waiting for sh into its exit status as sh reports it, or
// ctx's error when ctx ended first.
func exitStatus(ctx context.Context, waitErr error) (int, error) {
	if ctx.Err() != nil {
		return -1, ctx.Err()
	}
	var exitErr *exec.ExitError
	switch {
	case waitErr == nil:
		return 0, nil
	case errors.As(waitErr, &exitErr):
		if status, ok := exitErr.Sys().(syscall.WaitStatus); ok && status.Signaled() {
			return 128 + int(status.Signal()), nil // as sh reports it
		}
		return exitErr.ExitCode(), nil
	}
	return -1, waitErr
}

// copyScrubbed copies r to w with every host spelling of the root replaced by ".", keeping
// back the end of each chunk that may begin a spelling cut by the chunk's end.
func (l *Local) copyScrubbed(w io.Writer, r io.Reader) {
	buf := make([]byte, 32*1024)
	var pending []byte
	for {
		n, err := r.Read(buf)
		if n > 0 {
			pending = append(pending, buf[:n]...)
			text := l.scrub(string(pending))
			keep := l.partialSuffix(text)
			w.Write([]byte(text[:len(text)-keep]))
			pending = append(pending[:0], text[len(text)-keep:]...)
		}
		if err != nil {
			break
		}
	}
	w.Write(pending)
}

// partialSuffix returns the length of the longest end of s that begins a host spelling of
// the root.
func (l *Local) partialSuffix(s string) int {
	longest := 0
	for _, h := range l.hosts {
		for n := min(len(h)-1, len(s)); n > longest; n-- {
			if s[len(s)-n:] == h[:n] {
				longest = n
				break
			}
		}
	}
	return longest
}
