package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/internal/buildtest"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// client returns a connected go-sdk client over transport.
func client(t *testing.T, transport mcp.Transport, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts).Connect(t.Context(), transport, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func inMemory(t *testing.T) *mcp.ClientSession {
	t.Helper()
	reg, err := newRegistry()
	require.NoError(t, err)
	serverSide, clientSide := mcp.NewInMemoryTransports()
	ss, err := toolmcp.NewServer(reg).Connect(t.Context(), serverSide, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	return client(t, clientSide, nil)
}

// builtDir holds the server serverBinary built; TestMain removes it.
var builtDir string

// serverBinary builds the example once per test run.
var serverBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "mcp-server-test")
	if err != nil {
		return "", err
	}
	builtDir = dir
	bin := filepath.Join(dir, "mcp-server")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", &buildError{out: string(out), err: err}
	}
	return bin, nil
})

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return e.err.Error() + ": " + e.out }

func binary(t *testing.T) string {
	t.Helper()
	buildtest.Require(t, "builds the server")
	bin, err := serverBinary()
	require.NoError(t, err)
	return bin
}

// startHTTP runs the built server with -http on a loopback port and returns its URL.
func startHTTP(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary(t), append([]string{"-http", "127.0.0.1:0"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "serving MCP on ")
	require.True(t, ok, line)
	return url
}

type bearerTransport string

func (b bearerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(req)
}

// exercise runs what every transport must do: list, valid, invalid and error calls, a result
// over its cap, progress.
func exercise(t *testing.T, cs *mcp.ClientSession) {
	ctx := t.Context()
	list, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	assert.Equal(t, []string{"ask", "count", "get_weather", "send_note", "table", "whoami"}, names)

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": "Tokyo", "days": 1}})
	require.NoError(t, err)
	assert.False(t, res.IsError)
	assert.NotNil(t, res.StructuredContent)

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"citty": "Tokyo"}})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, res.Content[0].(*mcp.TextContent).Text, `did you mean "city"`)

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": "Atlantis"}})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, res.Content[0].(*mcp.TextContent).Text, "no weather station")

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "table", Arguments: map[string]any{"rows": 500}})
	require.NoError(t, err)
	require.False(t, res.IsError)
	var table struct{ Rows []struct{ N, Square int } }
	data, _ := json.Marshal(res.StructuredContent)
	require.NoError(t, json.Unmarshal(data, &table))
	assert.Len(t, table.Rows, 500)
	assert.LessOrEqual(t, len(res.Content[0].(*mcp.TextContent).Text), 1024)
	link := res.Content[1].(*mcp.ResourceLink)
	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: link.URI})
	require.NoError(t, err)
	assert.JSONEq(t, string(data), read.Contents[0].Text)

	params := &mcp.CallToolParams{Name: "count", Arguments: map[string]any{"to": 3}}
	params.SetProgressToken("p")
	res, err = cs.CallTool(ctx, params)
	require.NoError(t, err)
	require.False(t, res.IsError)
}

func TestServerAnswersAClient(t *testing.T) {
	exercise(t, inMemory(t))
}

func TestOverStdioSubprocess(t *testing.T) {
	var mu sync.Mutex
	var progress []float64
	cs := client(t, &mcp.CommandTransport{Command: exec.Command(binary(t))}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			progress = append(progress, req.Params.Progress)
		}})
	exercise(t, cs)
	// Notifications may arrive after the result.
	require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(progress) == 3 }, 10*time.Second, time.Millisecond)
	assert.Equal(t, []float64{1, 2, 3}, progress)
}

func TestOverHTTP(t *testing.T) {
	for _, mode := range [][]string{nil, {"-stateless"}} {
		t.Run(strings.Join(append([]string{"http"}, mode...), " "), func(t *testing.T) {
			url := startHTTP(t, mode...)
			exercise(t, client(t, &mcp.StreamableClientTransport{Endpoint: url}, nil))
		})
	}
}

func TestBearerToken(t *testing.T) {
	url := startHTTP(t, "-stateless", "-token", "s3cret")
	_, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(t.Context(),
		&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearerTransport("wrong")}}, nil)
	require.Error(t, err, "a wrong token is refused")

	whoami := func(cs *mcp.ClientSession) (c struct {
		User  string
		Calls int
	}) {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "whoami", Arguments: map[string]any{}})
		require.NoError(t, err)
		data, _ := json.Marshal(res.StructuredContent)
		require.NoError(t, json.Unmarshal(data, &c))
		return c
	}
	transport := func() mcp.Transport {
		return &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearerTransport("s3cret")}}
	}
	first := whoami(client(t, transport(), nil))
	assert.Equal(t, "demo-user", first.User)
	assert.Equal(t, first.Calls+1, whoami(client(t, transport(), nil)).Calls, "one user's connections share a session")
}
