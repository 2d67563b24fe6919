package redisstore_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"
)

// redisServer is a redis-server the test started on a free loopback port, without
// persistence; it is stopped when the test ends.
type redisServer struct {
	Addr string
	cmd  *exec.Cmd
}

// startRedis starts a redis-server (Debian's package: apt-get install redis-server). Without
// one on PATH the test is skipped, unless TOOLGEN_REQUIRE_REDIS is set (CI sets it), where it
// fails.
func startRedis(tb testing.TB) *redisServer {
	tb.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("TOOLGEN_REQUIRE_REDIS") != "" {
			tb.Fatal("redis-server is not installed (apt-get install redis-server)")
		}
		tb.Skip("redis-server is not installed (apt-get install redis-server)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(tb, err)
	port := l.Addr().(*net.TCPAddr).Port
	require.NoError(tb, l.Close())

	cmd := exec.Command(bin, "--bind", "127.0.0.1", "--port", fmt.Sprint(port), "--save", "", "--appendonly", "no", "--protected-mode", "yes")
	require.NoError(tb, cmd.Start())
	srv := &redisServer{Addr: fmt.Sprintf("127.0.0.1:%d", port), cmd: cmd}
	tb.Cleanup(func() {
		_ = srv.cmd.Process.Kill()
		_ = srv.cmd.Wait()
	})

	c := redis.NewClient(&redis.Options{Addr: srv.Addr})
	defer c.Close()
	for i := 0; ; i++ {
		if c.Ping(context.Background()).Err() == nil {
			return srv
		}
		if i == 200 {
			tb.Fatalf("redis-server on %s did not answer", srv.Addr)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// client returns a new client of the server, closed when the test ends.
func (s *redisServer) client(tb testing.TB) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: s.Addr})
	tb.Cleanup(func() { _ = c.Close() })
	return c
}

// restart kills the server and starts it again on the same port, without persistence: what
// a Redis without AOF or RDB does after a crash, everything gone.
func (s *redisServer) restart(tb testing.TB) {
	tb.Helper()
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	cmd := exec.Command(s.cmd.Path, s.cmd.Args[1:]...)
	require.NoError(tb, cmd.Start())
	s.cmd = cmd
	tb.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	c := redis.NewClient(&redis.Options{Addr: s.Addr})
	defer c.Close()
	for i := 0; c.Ping(context.Background()).Err() != nil; i++ {
		if i == 200 {
			tb.Fatalf("redis-server on %s did not come back", s.Addr)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
