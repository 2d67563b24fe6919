package mount_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/runtime/mcp/mount"
)

// A mounted server's tools carry the scopes the host gives them (Options.Scopes for all,
// ToolScopes for one), and the host's own MCP server shows and runs them only for callers
// holding those scopes: one connection to the mounted server serves every caller, the grant
// is the host's to enforce.
func TestMountedToolsCarryTheHostsScopes(t *testing.T) {
	backend := runtime.NewRegistry()
	tool := func(name string) runtime.Tool {
		return runtime.Tool{
			Name: name, Description: "Test tool " + name + ".", Hints: runtime.Hints{ReadOnly: true},
			InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
			Bind:        func(context.Context, []byte) (runtime.BoundCall, error) { return okCall{}, nil },
		}
	}
	require.NoError(t, backend.Add(tool("list_issues"), tool("delete_repo")))
	host := runtime.NewRegistry()
	m, err := mount.Mount(t.Context(), host, mount.Server{Name: "gh", Dial: dialer(toolmcp.NewServer(backend))},
		mount.Options{Logger: quiet, Scopes: []string{"gh"}, ToolScopes: map[string][]string{"delete_repo": {"gh:admin", "gh"}}})
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })

	list, ok := host.Tool("gh_list_issues")
	require.True(t, ok, "%v", host.Names())
	assert.Equal(t, []string{"gh"}, list.Scopes)
	del, ok := host.Tool("gh_delete_repo")
	require.True(t, ok)
	assert.Equal(t, []string{"gh", "gh:admin"}, del.Scopes)

	users := map[string][]string{"reader": {"gh"}, "admin": {"gh", "gh:admin"}, "other": nil}
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		scopes, ok := users[strings.TrimPrefix(token, "token-")]
		if !ok {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: token, Scopes: scopes, Expiration: time.Now().Add(time.Hour)}, nil
	}
	srv := httptest.NewServer(toolmcp.HTTPHandler(host, toolmcp.WithBearerAuth(verify, nil), toolmcp.WithStateless()))
	t.Cleanup(srv.Close)
	for user, want := range map[string][]string{"reader": {"gh_list_issues"}, "admin": {"gh_delete_repo", "gh_list_issues"}, "other": nil} {
		transport := &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: &http.Client{Transport: bearerTransport("token-" + user)}}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(t.Context(), transport, nil)
		require.NoError(t, err)
		t.Cleanup(func() { _ = cs.Close() })
		var names []string
		for tl, err := range cs.Tools(t.Context(), nil) {
			require.NoError(t, err)
			names = append(names, tl.Name)
		}
		slices.Sort(names)
		assert.Equal(t, want, names, user)
		_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "gh_delete_repo", Arguments: map[string]any{}})
		if user == "admin" {
			assert.NoError(t, err)
		} else {
			require.Error(t, err, user)
			assert.Contains(t, err.Error(), `unknown tool "gh_delete_repo"`)
		}
	}

	_, err = mount.Mount(t.Context(), runtime.NewRegistry(), mount.Server{Name: "bad", Dial: dialer(toolmcp.NewServer(backend))},
		mount.Options{Logger: quiet, Scopes: []string{"a b"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `invalid scope "a b"`)
}

// bearerTransport sends its bearer token with every request.
type bearerTransport string

func (b bearerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(req)
}
