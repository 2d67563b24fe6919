package redisstore_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/internal/buildtest"
)

// guideFile names the file a code block of a guide is: "// file: replica/main.go", as
// docs/docs_test.go reads it.
var guideFile = regexp.MustCompile(`^// file: (\S+)\n`)

// guideFiles returns the ```go blocks of a Markdown file that are files, by path.
func guideFiles(t *testing.T, path string) map[string]string {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	files := map[string]string{}
	var cur *strings.Builder
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case cur == nil && strings.TrimSpace(line) == "```go":
			cur = &strings.Builder{}
		case cur != nil && strings.TrimSpace(line) == "```":
			if m := guideFile.FindStringSubmatch(cur.String()); m != nil {
				require.NotContains(t, files, m[1], "%s: two blocks are %s", path, m[1])
				files[m[1]] = cur.String()
			}
			cur = nil
		case cur != nil:
			cur.WriteString(line + "\n")
		}
	}
	require.NoError(t, sc.Err())
	return files
}

// callRouter is a load balancer that sends a session's tools/call requests to the replicas in
// turn, and the rest of its requests (initialize, initialized) wherever it likes: the test
// knows which replica served which call.
type callRouter struct {
	backends []string
	mu       sync.Mutex
	calls    []string // the backend of each tools/call, in order
	other    int
}

func (c *callRouter) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	var backend string
	if bytes.Contains(body, []byte(`"method":"tools/call"`)) {
		backend = c.backends[len(c.calls)%len(c.backends)]
		c.calls = append(c.calls, backend)
	} else {
		c.other++
		backend = c.backends[c.other%len(c.backends)]
	}
	c.mu.Unlock()
	out := req.Clone(req.Context())
	out.URL.Host, out.Host = strings.TrimPrefix(backend, "http://"), ""
	out.Body = io.NopCloser(bytes.NewReader(body))
	return http.DefaultTransport.RoundTrip(out)
}

// The replica program of docs/scaling-out.md, read out of the guide (so the guide shows what
// runs), generated and built as a module of its own, runs: two of its processes on one
// redis-server behind a balancer, a go-sdk client keeps a note through one and reads it back
// through the other.
func TestTheGuidesReplicaRuns(t *testing.T) {
	buildtest.Require(t, "generates and builds the guide's replica program")
	redisSrv := startRedis(t)
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	files := guideFiles(t, filepath.Join(root, "docs", "scaling-out.md"))
	require.Contains(t, files, "replica/main.go")
	require.Contains(t, files, "notes/notes.go")

	dir := t.TempDir()
	for path, code := range files {
		full := filepath.Join(dir, filepath.FromSlash(path))
		require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
		require.NoError(t, os.WriteFile(full, []byte(code), 0o644))
	}
	const toolgen, redisstore = "github.com/toolgen-go/toolgen", "github.com/toolgen-go/toolgen/runtime/redisstore"
	mod := fmt.Sprintf("module example.com/agent\n\ngo 1.26.0\n\nrequire (\n\t%s v0.0.0\n\t%s v0.0.0\n)\n\nreplace %s => %s\n\nreplace %s => %s\n",
		toolgen, redisstore, toolgen, root, redisstore, filepath.Join(root, "runtime", "redisstore"))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644))
	var sums []byte
	for _, sum := range []string{filepath.Join(root, "go.sum"), filepath.Join(root, "runtime", "redisstore", "go.sum")} {
		data, err := os.ReadFile(sum)
		require.NoError(t, err)
		sums = append(sums, data...)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.sum"), sums, 0o644))
	gocmd := func(args ...string) {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go %s:\n%s", strings.Join(args, " "), out)
	}
	gocmd("run", toolgen+"/cmd/toolgen", "./...")
	bin := filepath.Join(dir, "replica.bin")
	gocmd("build", "-o", bin, "./replica")

	backends := []string{startReplica(t, bin, redisSrv.Addr), startReplica(t, bin, redisSrv.Addr)}
	router := &callRouter{backends: backends}
	lb := httptest.NewServer(&httputil.ReverseProxy{
		Rewrite:   func(pr *httputil.ProxyRequest) { pr.Out.URL.Scheme, pr.Out.URL.Host = "http", "backend" },
		Transport: router,
	})
	t.Cleanup(lb.Close)

	alice := connect(t, lb.URL, "alice")
	text, isErr := callText(t, alice, "remember", map[string]any{"note": "likes tea"})
	require.False(t, isErr, text)
	assert.Equal(t, "noted", text)
	text, isErr = callText(t, alice, "recall", map[string]any{})
	require.False(t, isErr, text)
	assert.Equal(t, "likes tea\n", text, "read back through the other replica, from Redis")
	router.mu.Lock()
	assert.Equal(t, backends, router.calls, "one call on each replica")
	router.mu.Unlock()

	bob := connect(t, lb.URL, "bob")
	text, _ = callText(t, bob, "recall", map[string]any{})
	assert.Empty(t, text, "another conversation has notes of its own")
}

// startReplica runs the replica program on a free loopback port, on Redis at redisAddr, and
// returns its URL once it accepts connections.
func startReplica(t *testing.T, bin, redisAddr string) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	logs := &lockedBuffer{}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "REDIS_ADDR="+redisAddr, "LISTEN_ADDR="+addr)
	cmd.Stdout, cmd.Stderr = logs, logs
	require.NoError(t, cmd.Start())
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		select {
		case <-exited:
			t.Fatalf("the replica exited: %s", logs.String())
		default:
		}
		if c, err := net.Dial("tcp", addr); err == nil {
			_ = c.Close()
			return "http://" + addr
		}
		if time.Now().After(deadline) {
			t.Fatalf("the replica did not listen on %s: %s", addr, logs.String())
		}
	}
}

// lockedBuffer is what a process writes its output to, read while it runs.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
