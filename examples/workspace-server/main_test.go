package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// connect starts the server on a temporary directory and returns a client session to it.
func connect(t *testing.T, opts options) (*mcp.ClientSession, string) {
	return connectClient(t, opts, nil)
}

// connectClient is connect with the client's options (an elicitation handler).
func connectClient(t *testing.T, opts options, clientOpts *mcp.ClientOptions) (*mcp.ClientSession, string) {
	opts.root = t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(opts.root, "hello.txt"), []byte("hello\n"), 0o644))
	server, sb, err := newServer(opts)
	require.NoError(t, err)
	t.Cleanup(func() { sb.Close() })
	serverSide, clientSide := mcp.NewInMemoryTransports()
	ss, err := server.Connect(t.Context(), serverSide, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, clientOpts).Connect(t.Context(), clientSide, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs, opts.root
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err)
	require.NotEmpty(t, res.Content)
	return res.Content[0].(*mcp.TextContent).Text, res.IsError
}

func TestServer(t *testing.T) {
	cs, root := connect(t, options{})
	list, err := cs.ListTools(t.Context(), nil)
	require.NoError(t, err)
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		if tool.Name == "shell" {
			assert.True(t, *tool.Annotations.DestructiveHint)
		}
	}
	assert.Equal(t, []string{"edit_file", "glob", "grep", "list_dir", "read_file", "read_result", "shell", "write_file"}, names)

	text, isErr := call(t, cs, "read_file", map[string]any{"path": "hello.txt"})
	assert.False(t, isErr)
	assert.Equal(t, "     1\thello\n[hello.txt: lines 1-1 of 1]", text)

	text, isErr = call(t, cs, "read_file", map[string]any{"path": "../../etc/passwd"})
	assert.True(t, isErr)
	assert.NotContains(t, text, root)

	// Without -yes, and with a client that cannot ask its user, nothing that changes the
	// workspace runs.
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"write_file", map[string]any{"path": "x.txt", "content": "x"}},
		{"edit_file", map[string]any{"path": "hello.txt", "old_string": "hello", "new_string": "bye"}},
		{"shell", map[string]any{"command": "touch y.txt"}},
	} {
		text, isErr := call(t, cs, c.tool, c.args)
		assert.True(t, isErr, text)
	}
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	assert.Len(t, entries, 1)
}

func TestServerYesAndAllow(t *testing.T) {
	cs, root := connect(t, options{yes: true})
	text, isErr := call(t, cs, "edit_file", map[string]any{"path": "hello.txt", "old_string": "hello", "new_string": "bye"})
	require.False(t, isErr, text)
	data, err := os.ReadFile(filepath.Join(root, "hello.txt"))
	require.NoError(t, err)
	assert.Equal(t, "bye\n", string(data))

	cs, _ = connect(t, options{allow: "ls,cat"})
	text, isErr = call(t, cs, "shell", map[string]any{"command": "cat hello.txt"})
	assert.False(t, isErr, text)
	assert.True(t, strings.HasSuffix(text, "\nhello\n"), text)
	text, isErr = call(t, cs, "shell", map[string]any{"command": "cat hello.txt; touch z"})
	assert.True(t, isErr, text)
}

// TestServerAsksTheUser: without -yes, a client that can ask its user (MCP elicitation)
// decides each call that needs approval.
func TestServerAsksTheUser(t *testing.T) {
	var asked []string
	answer := true
	cs, root := connectClient(t, options{}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked = append(asked, req.Params.Message)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": answer}}, nil
		},
	})
	text, isErr := call(t, cs, "write_file", map[string]any{"path": "new.txt", "content": "yes\n"})
	require.False(t, isErr, text)
	answer = false
	text, isErr = call(t, cs, "write_file", map[string]any{"path": "no.txt", "content": "no\n"})
	assert.True(t, isErr, text)
	require.Len(t, asked, 2)
	assert.Contains(t, asked[0], "write_file")
	_, err := os.Stat(filepath.Join(root, "new.txt"))
	assert.NoError(t, err)
	_, err = os.Stat(filepath.Join(root, "no.txt"))
	assert.ErrorIs(t, err, os.ErrNotExist)

	// An ordinary edit, replace_all left out (its default, false, applies), and the same edit
	// spelling the default out: the client's default protocol (2026-07-28) brings the answer
	// back with the call, and the approved edit runs.
	answer = true
	for i, args := range []map[string]any{
		{"path": "hello.txt", "old_string": "hello", "new_string": "bye"},
		{"path": "hello.txt", "old_string": "bye", "new_string": "hello", "replace_all": false},
	} {
		text, isErr = call(t, cs, "edit_file", args)
		require.False(t, isErr, text)
		require.Len(t, asked, 3+i)
		assert.Contains(t, asked[2+i], `"replace_all":false`, "the user sees the default that applies")
	}
	data, err := os.ReadFile(filepath.Join(root, "hello.txt"))
	require.NoError(t, err)
	assert.Equal(t, "hello\n", string(data))
}

// headerTransport adds headers to every request.
type headerTransport map[string]string

func (h headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, v := range h {
		req.Header.Set(k, v)
	}
	return http.DefaultTransport.RoundTrip(req)
}

// -http refuses to start without a bearer token (before, it served anyone who reached the
// port, and that client approved its own shell calls), listens on loopback unless told
// otherwise, and refuses requests without the token with 401.
func TestHTTPNeedsAToken(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "hello.txt"), []byte("hello\n"), 0o644))
	for _, token := range []string{"", "short"} {
		_, _, err := newHTTPServer(options{root: root}, ":8080", token)
		require.Error(t, err, "token %q", token)
	}
	_, _, err := newHTTPServer(options{root: root}, ":8080", "")
	assert.Contains(t, err.Error(), "refusing to serve over HTTP without authentication")

	for addr, want := range map[string]string{":8080": "127.0.0.1:8080", "8080": "127.0.0.1:8080", "0.0.0.0:8080": "0.0.0.0:8080", "[::1]:9": "[::1]:9"} {
		got, err := listenAddr(addr)
		require.NoError(t, err)
		assert.Equal(t, want, got, addr)
	}

	const token = "0123456789abcdef0123456789abcdef"
	srv, sb, err := newHTTPServer(options{root: root, yes: true}, ":0", token)
	require.NoError(t, err)
	t.Cleanup(func() { sb.Close() })
	assert.Equal(t, "127.0.0.1:0", srv.Addr)
	ts := httptest.NewServer(srv.Handler)
	t.Cleanup(ts.Close)

	for name, headers := range map[string]headerTransport{
		"no token":     nil,
		"wrong token":  {"Authorization": "Bearer " + strings.ToUpper(token)},
		"not a bearer": {"Authorization": "Basic " + token},
	} {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, ts.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		assert.Equal(t, http.StatusUnauthorized, res.StatusCode, name)

		transport := &mcp.StreamableClientTransport{Endpoint: ts.URL, HTTPClient: &http.Client{Transport: headers}}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(t.Context(), transport, nil)
		if err == nil {
			_ = cs.Close()
		}
		assert.Error(t, err, name)
	}

	transport := &mcp.StreamableClientTransport{Endpoint: ts.URL, HTTPClient: &http.Client{Transport: headerTransport{"Authorization": "Bearer " + token}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(t.Context(), transport, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	text, isErr := call(t, cs, "read_file", map[string]any{"path": "hello.txt"})
	assert.False(t, isErr, text)
	assert.Equal(t, "     1\thello\n[hello.txt: lines 1-1 of 1]", text)
	text, isErr = call(t, cs, "write_file", map[string]any{"path": "new.txt", "content": "yes\n"})
	assert.False(t, isErr, text)
}
