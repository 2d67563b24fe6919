package mount_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/runtime/mcp/mount"
)

// A toolgen server states every tool's destructiveHint, so a host mounting it asks the user
// only about the tools the server says are destructive: a //tool:confirm tool that is not
// (here idempotent) is asked about once, by the server, not a second time by the mount.
func TestToolgenServerIsAskedOnce(t *testing.T) {
	backend := runtime.NewRegistry()
	tool := func(name string, hints runtime.Hints) runtime.Tool {
		return runtime.Tool{
			Name: name, Description: "Test tool " + name + ".", Hints: hints, Permission: runtime.PermissionConfirm,
			InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
			Bind:        func(context.Context, []byte) (runtime.BoundCall, error) { return okCall{}, nil },
		}
	}
	require.NoError(t, backend.Add(tool("close_issue", runtime.Hints{Idempotent: true}), tool("delete_repo", runtime.Hints{Destructive: true})))
	server := toolmcp.NewServer(backend)
	dial := dialer(server)
	host := runtime.NewRegistry()
	m, err := mount.Mount(t.Context(), host, mount.Server{Name: "gh", Dial: dial}, mount.Options{Logger: quiet})
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })

	closeIssue, ok := host.Tool("gh_close_issue")
	require.True(t, ok, "%v", host.Names())
	assert.Equal(t, runtime.PermissionAuto, closeIssue.Permission, "the server asks; the mount does not ask again")
	deleteRepo, ok := host.Tool("gh_delete_repo")
	require.True(t, ok)
	assert.Equal(t, runtime.PermissionConfirm, deleteRepo.Permission, "the server says destructive")
}

type okCall struct{}

func (okCall) Args() any                          { return nil }
func (okCall) Run(context.Context) runtime.Result { return runtime.TextResult("ok") }

// dialer connects each dial to server in memory.
func dialer(server *mcp.Server) func(ctx context.Context) (mcp.Transport, error) {
	return func(ctx context.Context) (mcp.Transport, error) {
		serverSide, clientSide := mcp.NewInMemoryTransports()
		if _, err := server.Connect(ctx, serverSide, nil); err != nil {
			return nil, err
		}
		return clientSide, nil
	}
}
