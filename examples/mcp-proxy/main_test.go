package main

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/internal/buildtest"
	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/runtime/mcp/mount"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
	"github.com/toolgen-go/toolgen/toolkit/workspace"
)

// user is the proxy's client's user: it approves what it is asked unless the question names
// a denied word, and remembers the questions.
type user struct {
	mu     sync.Mutex
	asked  []string
	denied string
}

func (u *user) elicit(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.asked = append(u.asked, req.Params.Message)
	approve := u.denied == "" || !strings.Contains(req.Params.Message, u.denied)
	return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": approve}}, nil
}

// upstream is the workspace server, approving everything itself as workspace-server -yes
// does, served in process: each connection gets a new in-memory pair.
func upstream(t *testing.T, sb sandbox.Sandbox) func(context.Context) (mcp.Transport, error) {
	reg := runtime.NewRegistry(runtime.WithApprover(runtime.ApproverFunc(func(context.Context, runtime.ApprovalRequest) (runtime.Decision, error) {
		return runtime.Decision{Approved: true, By: "-yes"}, nil
	})))
	require.NoError(t, reg.Add(workspace.New(sb).Tools()...))
	server := toolmcp.NewServer(reg)
	return func(ctx context.Context) (mcp.Transport, error) {
		serverSide, clientSide := mcp.NewInMemoryTransports()
		if _, err := server.Connect(ctx, serverSide, nil); err != nil {
			return nil, err
		}
		return clientSide, nil
	}
}

// client connects a go-sdk client, whose user answers approvals, to the proxy's registry.
func client(t *testing.T, reg *runtime.Registry, u *user) *mcp.ClientSession {
	serverSide, clientSide := mcp.NewInMemoryTransports()
	ss, err := toolmcp.NewServer(reg).Connect(t.Context(), serverSide, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{ElicitationHandler: u.elicit}).Connect(t.Context(), clientSide, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err)
	require.NotEmpty(t, res.Content)
	return res.Content[0].(*mcp.TextContent).Text, res.IsError
}

// TestProxyAddsApproval: the upstream approves everything, the proxy asks its own client's
// user before each destructive call, and validates before forwarding.
func TestProxyAddsApproval(t *testing.T) {
	sb := sandbox.NewMemory(map[string]string{"hello.txt": "hello\n"})
	reg, m, err := newProxy(t.Context(), mount.Server{Name: "upstream", Dial: upstream(t, sb)}, options{})
	require.NoError(t, err)
	defer m.Close()
	u := &user{denied: "no.txt"}
	cs := client(t, reg, u)

	list, err := cs.ListTools(t.Context(), nil)
	require.NoError(t, err)
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	assert.Equal(t, []string{"edit_file", "glob", "grep", "list_dir", "read_file", "read_result", "shell", "write_file"}, names)

	text, isErr := call(t, cs, "read_file", map[string]any{"path": "hello.txt"})
	require.False(t, isErr, text)
	assert.Contains(t, text, "hello")
	assert.Empty(t, u.asked, "reading needs no approval")

	text, isErr = call(t, cs, "write_file", map[string]any{"path": "yes.txt", "content": "yes\n"})
	require.False(t, isErr, text)
	text, isErr = call(t, cs, "write_file", map[string]any{"path": "no.txt", "content": "no\n"})
	assert.True(t, isErr, text)
	require.Len(t, u.asked, 2)
	assert.Contains(t, u.asked[0], "write_file")
	assert.Contains(t, u.asked[0], "yes.txt", "the user sees the arguments")
	_, err = sb.Stat("yes.txt")
	assert.NoError(t, err)
	_, err = sb.Stat("no.txt")
	assert.ErrorIs(t, err, fs.ErrNotExist)

	// Invalid arguments are answered by the proxy, with the generated decoder's words.
	text, isErr = call(t, cs, "write_file", map[string]any{"paht": "x"})
	assert.True(t, isErr)
	assert.Contains(t, text, `did you mean "path"`)
	assert.Len(t, u.asked, 2, "nothing invalid is put to the user")
}

// TestProxyOverStdio builds workspace-server and the proxy and runs them as a client would
// start them: the go-sdk client over stdio to the proxy, the proxy over stdio to the server.
func TestProxyOverStdio(t *testing.T) {
	buildtest.Require(t, "builds workspace-server and the proxy")
	dir := t.TempDir()
	for _, pkg := range []string{".", "../workspace-server"} {
		out, err := exec.Command("go", "build", "-o", dir, pkg).CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	root := t.TempDir()
	cmd := exec.Command(filepath.Join(dir, "mcp-proxy"), "-confirm", "list_dir", "--", filepath.Join(dir, "workspace-server"), "-root", root, "-yes")
	u := &user{}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{ElicitationHandler: u.elicit}).
		Connect(t.Context(), &mcp.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	defer cs.Close()
	text, isErr := call(t, cs, "write_file", map[string]any{"path": "a.txt", "content": "through two servers\n"})
	require.False(t, isErr, text)
	data, err := os.ReadFile(filepath.Join(root, "a.txt"))
	require.NoError(t, err)
	assert.Equal(t, "through two servers\n", string(data))
	text, isErr = call(t, cs, "list_dir", map[string]any{})
	require.False(t, isErr, text)
	assert.Contains(t, text, "a.txt")
	require.Len(t, u.asked, 2, "write_file by its hints, list_dir by -confirm")
	assert.Contains(t, u.asked[1], "list_dir")
}
