package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"
)

// freeAddr returns a loopback address no one listens on now.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := l.Addr().String()
	return addr, l.Close()
}

// redisProc is a redis-server this program runs on a fixed loopback port, restarted on the
// same port and data directory.
type redisProc struct {
	addr string
	args []string
	cmd  *exec.Cmd
}

// startRedis starts redis-server on a free loopback port with its files in dir: with the
// append-only file fsynced on every write when persist, so that a restart loses no
// acknowledged write, else with no persistence at all.
func startRedis(bin, dir string, persist bool) (*redisProc, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	_, port, _ := net.SplitHostPort(addr)
	args := []string{"--bind", "127.0.0.1", "--port", port, "--protected-mode", "yes", "--dir", dir, "--save", ""}
	if persist {
		args = append(args, "--appendonly", "yes", "--appendfsync", "always")
	} else {
		args = append(args, "--appendonly", "no")
	}
	r := &redisProc{addr: addr, args: append([]string{bin}, args...)}
	return r, r.start()
}

func (r *redisProc) start() error {
	r.cmd = exec.Command(r.args[0], r.args[1:]...)
	if err := r.cmd.Start(); err != nil {
		return err
	}
	c := redis.NewClient(&redis.Options{Addr: r.addr})
	defer c.Close()
	for deadline := time.Now().Add(10 * time.Second); ; {
		// Ping answers LOADING while the append-only file is read; PING is enough once it
		// is loaded.
		if c.Ping(context.Background()).Err() == nil {
			return nil
		}
		if time.Now().After(deadline) {
			r.kill()
			return fmt.Errorf("redis-server on %s did not answer", r.addr)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// stop sends sig and waits for the process to end.
func (r *redisProc) stop(sig syscall.Signal) {
	_ = r.cmd.Process.Signal(sig)
	_ = r.cmd.Wait()
}

func (r *redisProc) kill() { r.stop(syscall.SIGKILL) }

// replicaProc is one replica, a child process running this program (serveReplica), on a
// fixed loopback address so that a restarted replica takes its place behind the proxy.
type replicaProc struct {
	addr, spec string
	logs       io.Writer
	cmd        *exec.Cmd
	exited     chan struct{}
}

func newReplica(redisAddr string, lease time.Duration, maxCalls int, logs io.Writer) (*replicaProc, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	p := &replicaProc{addr: addr, spec: fmt.Sprintf("%s %s %s %d", addr, redisAddr, lease, maxCalls), logs: logs}
	return p, p.start()
}

// start runs the replica and waits until it listens.
func (p *replicaProc) start() error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), replicaEnv+"="+p.spec)
	cmd.Stderr = p.logs
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	p.cmd, p.exited = cmd, make(chan struct{})
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		ok := false
		for sc.Scan() {
			if !ok && strings.TrimSpace(sc.Text()) == "replicaload-ready" {
				ok = true
				ready <- true
			}
		}
		if !ok {
			ready <- false
		}
		_ = cmd.Wait()
		close(p.exited)
	}()
	select {
	case ok := <-ready:
		if !ok {
			return fmt.Errorf("replica on %s exited before it listened", p.addr)
		}
		return nil
	case <-time.After(20 * time.Second):
		p.signal(syscall.SIGKILL)
		return errors.New("replica did not start within 20 s")
	}
}

// signal sends sig and waits for the replica to exit.
func (p *replicaProc) signal(sig syscall.Signal) {
	_ = p.cmd.Process.Signal(sig)
	<-p.exited
}
