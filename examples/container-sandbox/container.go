// Package container is a sandbox.Sandbox that runs each command in a fresh container (Docker
// or Podman, through their command line), with the workspace mounted at /workspace: how to
// write a sandbox of your own in about forty lines. Files are read and written on the host by
// a sandbox.Local, which confines names to the workspace; commands see the same directory.
// container_test.go checks it with toolkit/sandbox/sandboxtest, the contract's tests.
package container

import (
	"cmp"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"time"

	"github.com/toolgen-go/toolgen/toolkit/sandbox"
)

// Sandbox runs commands with CLI ("docker" or "podman") in containers of Image.
type Sandbox struct {
	*sandbox.Local        // the files: Open, Stat, ReadDir, WriteFile
	CLI, Image     string // e.g. "docker", "docker.io/library/alpine:3.22"
	dir            string // the workspace on the host
}

// Open returns a Sandbox over the directory dir.
func Open(dir, cli, image string) (*Sandbox, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	local, err := sandbox.OpenLocal(abs, sandbox.LocalOptions{})
	if err != nil {
		return nil, err
	}
	return &Sandbox{Local: local, CLI: cli, Image: image, dir: abs}, nil
}

// Run runs cmd in a new container without network or capabilities, read-only but for the
// workspace and /tmp; when ctx ends, the container is removed, and its processes with it.
func (s *Sandbox) Run(ctx context.Context, cmd sandbox.Command) (int, error) {
	dir := cmp.Or(cmd.Dir, ".")
	if !fs.ValidPath(dir) {
		return -1, sandbox.ErrEscape
	}
	name := "toolgen-" + rand.Text()
	c := exec.Command(s.CLI, "run", "--rm", "--name="+name, "--network=none", "--cap-drop=ALL",
		"--security-opt=no-new-privileges", "--read-only", "--tmpfs=/tmp", "--pids-limit=256", "--memory=512m",
		fmt.Sprintf("--user=%d:%d", os.Getuid(), os.Getgid()), // the files it writes stay the host user's
		"-v", s.dir+":"+sandbox.WorkspacePath, "-w", path.Join(sandbox.WorkspacePath, dir), s.Image, "sh", "-c", cmd.Script)
	c.Stdout, c.Stderr, c.WaitDelay = cmd.Output, cmd.Output, time.Second
	if cmd.Output == nil {
		c.Stdout, c.Stderr = io.Discard, io.Discard
	}
	if err := c.Start(); err != nil {
		return -1, fmt.Errorf("starting %s: %w", s.CLI, err)
	}
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case err := <-done:
		if exit, ok := err.(*exec.ExitError); ok && exit.ExitCode() >= 0 {
			return exit.ExitCode(), nil // the script's own status (125 and up: the CLI's)
		}
		return c.ProcessState.ExitCode(), err
	case <-ctx.Done():
		// Killing the CLI would leave the container running: remove it instead.
		_ = exec.Command(s.CLI, "rm", "--force", name).Run()
		<-done
		return -1, ctx.Err()
	}
}
