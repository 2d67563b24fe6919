package mount_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/runtime/mcp/mount"
)

// The mount's side of the protocol matrix: the host's registry mounts a toolgen server that
// speaks only one revision, over each transport a mount connects by (in memory, stdio as a
// child process, stateful and stateless HTTP), so the mount's client is tested on what each
// revision makes of calls, errors and approval: input-required results on 2026-07-28,
// elicitation/create before it, and no way to ask at all over stateless HTTP before it.

var mountRevisions = []string{"2025-06-18", "2025-11-25", "2026-07-28"}

// backendServing is one way the mounted toolgen server is reached.
type backendServing struct {
	protocol, transport string
}

func (b backendServing) String() string { return b.transport + " " + b.protocol }

// asksTheUser reports whether the server can put a question to the mount during a call.
func (b backendServing) asksTheUser() bool {
	return b.transport != "stateless HTTP" || b.protocol >= "2026-07-28"
}

func backendServings() []backendServing {
	var all []backendServing
	for _, p := range mountRevisions {
		for _, tr := range []string{"memory", "stdio", "stateful HTTP", "stateless HTTP"} {
			if tr == "stateful HTTP" && p >= "2026-07-28" {
				continue // the go-sdk serves stateful HTTP up to 2025-11-25
			}
			all = append(all, backendServing{p, tr})
		}
	}
	return all
}

// The backend's tools. close_issue needs the user's approval (the server asks); read_only is
// refused by the server's own policy; count answers structured; fail reports its own error.
func backendRegistry() *runtime.Registry {
	reg := runtime.NewRegistry(runtime.WithApprover(runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
		if req.Tool == "read_only" {
			return runtime.Decision{By: "policy:read-only", Reason: "the repository is archived"}, nil
		}
		return runtime.Decision{}, runtime.ErrUndecided // the user decides, through MCP elicitation
	})))
	tool := func(name string, run func(args map[string]any) runtime.Result) runtime.Tool {
		return runtime.Tool{
			Name: name, Description: "Test tool " + name + ".", Hints: runtime.Hints{Idempotent: true},
			InputSchema: json.RawMessage(`{"type":"object","properties":{"number":{"type":"integer"},"comment":{"type":"string","default":""}},"additionalProperties":false}`),
			Bind: func(_ context.Context, raw []byte) (runtime.BoundCall, error) {
				var args map[string]any
				if err := json.Unmarshal(raw, &args); err != nil {
					return nil, &runtime.ArgsError{Problems: []runtime.Problem{{Message: "arguments must be an object"}}}
				}
				return mapCall{args: args, run: run}, nil
			},
		}
	}
	closeIssue := tool("close_issue", func(args map[string]any) runtime.Result {
		return runtime.TextResult(fmt.Sprintf("closed #%v", args["number"]))
	})
	closeIssue.Permission = runtime.PermissionConfirm
	readOnly := tool("read_only", func(map[string]any) runtime.Result { return runtime.TextResult("ran") })
	readOnly.Permission = runtime.PermissionConfirm
	count := tool("count", func(map[string]any) runtime.Result { return runtime.StructuredResult([]byte(`{"count":3}`)) })
	count.OutputSchema = json.RawMessage(`{"type":"object","properties":{"count":{"type":"integer"}},"required":["count"]}`)
	fail := tool("fail", func(map[string]any) runtime.Result {
		return runtime.ErrorResult(errors.New("the issue tracker is down"))
	})
	if err := reg.Add(closeIssue, readOnly, count, fail); err != nil {
		panic(err)
	}
	return reg
}

type mapCall struct {
	args map[string]any
	run  func(map[string]any) runtime.Result
}

func (c mapCall) Args() any                          { return c.args }
func (c mapCall) Run(context.Context) runtime.Result { return c.run(c.args) }

// The stdio backend is this test binary, started again by the mount with the revision to
// speak in its environment.
const backendProtocolEnv = "TOOLGEN_MOUNT_TEST_BACKEND"

func TestMain(m *testing.M) {
	if protocol := os.Getenv(backendProtocolEnv); protocol != "" {
		err := toolmcp.ServeStdio(context.Background(), backendRegistry(),
			toolmcp.WithServerOptions(mcp.ServerOptions{SupportedProtocolVersions: []string{protocol}}))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// mountBackend serves the backend the way b says and mounts it into host as "gh".
func mountBackend(t *testing.T, b backendServing, host *runtime.Registry, o mount.Options) {
	t.Helper()
	opts := []toolmcp.Option{toolmcp.WithServerOptions(mcp.ServerOptions{SupportedProtocolVersions: []string{b.protocol}})}
	server := mount.Server{Name: "gh"}
	switch b.transport {
	case "memory":
		server.Dial = dialer(toolmcp.NewServer(backendRegistry(), opts...))
	case "stdio":
		exe, err := os.Executable()
		require.NoError(t, err)
		server.Command = []string{exe, "-test.run=^$"}
		server.Env = []string{backendProtocolEnv + "=" + b.protocol}
		server.Stderr = os.Stderr
	case "stateful HTTP", "stateless HTTP":
		if b.transport == "stateless HTTP" {
			opts = append(opts, toolmcp.WithStateless())
		}
		srv := httptest.NewServer(toolmcp.HTTPHandler(backendRegistry(), opts...))
		t.Cleanup(srv.Close)
		server.URL = srv.URL
	}
	o.Logger = quiet
	m, err := mount.Mount(t.Context(), host, server, o)
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
}

// eachBackend runs run as a subtest for every backend serving, with a fresh host registry
// that has mounted the backend with o.
func eachBackend(t *testing.T, o mount.Options, run func(t *testing.T, b backendServing, host *runtime.Registry)) {
	for _, b := range backendServings() {
		t.Run(b.String(), func(t *testing.T) {
			host := runtime.NewRegistry()
			mountBackend(t, b, host, o)
			run(t, b, host)
		})
	}
}

func TestMountedCallsOnEveryRevision(t *testing.T) {
	eachBackend(t, mount.Options{}, func(t *testing.T, b backendServing, host *runtime.Registry) {
		res := invoke(host, "gh_count", `{}`)
		require.False(t, res.IsError, res.Text)
		assert.JSONEq(t, `{"count":3}`, string(res.Structured))

		res = invoke(host, "gh_fail", `{"number":1}`)
		require.True(t, res.IsError)
		assert.Equal(t, "the issue tracker is down", res.Text)

		res = invoke(host, "gh_count", `{"number":"one"}`)
		require.True(t, res.IsError)
		assert.Equal(t, runtime.KindInvalidInput, res.Kind, "checked by the mount, before the server: %s", res.Text)
	})
}

// A denial, whoever decided, reaches the model under the name it called, with who decided:
// the user, asked through the mount, or the server's own policy.
func TestMountedDenialsNameTheCalledTool(t *testing.T) {
	var answer atomic.Value // "approve" or "decline"
	var asked atomic.Int32
	o := mount.Options{ElicitUntied: true, Elicit: func(_ context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		asked.Add(1)
		if answer.Load() == "approve" {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
		}
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": false, "reason": "not this one"}}, nil
	}}
	eachBackend(t, o, func(t *testing.T, b backendServing, host *runtime.Registry) {
		res := invoke(host, "gh_read_only", `{}`)
		require.True(t, res.IsError)
		assert.Equal(t, runtime.KindDenied, res.Kind)
		assert.Equal(t, "This call of gh_read_only was denied by policy:read-only, so it was not run: the repository is archived. Do not call it again without asking the user.", res.Text)

		if !b.asksTheUser() {
			res = invoke(host, "gh_close_issue", `{"number":7}`)
			require.True(t, res.IsError)
			assert.NotEqual(t, runtime.KindDenied, res.Kind, "no one was asked, so no one denied: %s", res.Text)
			return
		}
		asked.Store(0)
		answer.Store("decline")
		res = invoke(host, "gh_close_issue", `{"number":7}`)
		require.True(t, res.IsError)
		assert.Equal(t, runtime.KindDenied, res.Kind)
		assert.True(t, strings.HasPrefix(res.Text, "The user denied this call of gh_close_issue, so it was not run: not this one."), res.Text)
		var denied *runtime.DeniedError
		require.ErrorAs(t, res.Err, &denied)
		assert.Equal(t, "gh_close_issue", denied.Tool)
		assert.EqualValues(t, 1, asked.Load())

		answer.Store("approve")
		res = invoke(host, "gh_close_issue", `{"number":7}`)
		require.False(t, res.IsError, res.Text)
		assert.Equal(t, "closed #7", res.Text)
	})
}

// A server's words in a denial are its own: cut, on one line, valid UTF-8.
func TestMountedDenialReasonIsBounded(t *testing.T) {
	backend := mcp.NewServer(&mcp.Implementation{Name: "hostile", Version: "1"}, nil)
	backend.AddTool(&mcp.Tool{Name: "act", Description: "Acts.", InputSchema: schema(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res := text("denied")
			res.IsError = true
			res.Meta = mcp.Meta{toolmcp.MetaDenied: map[string]any{"by": "policy\n\x1b[2Jx", "reason": strings.Repeat("r", 10<<10) + "\xff"}}
			return res, nil
		})
	host := runtime.NewRegistry()
	m, err := mount.Mount(t.Context(), host, mount.Server{Name: "h", Dial: dialer(backend)}, mount.Options{Logger: quiet, Auto: []string{"act"}})
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })

	res := invoke(host, "h_act", `{}`)
	require.Equal(t, runtime.KindDenied, res.Kind)
	assert.Less(t, len(res.Text), 2*mount.MaxErrorText+200)
	assert.NotContains(t, res.Text, "\n")
	assert.NotContains(t, res.Text, "\x1b")
	assert.Contains(t, res.Text, "This call of h_act was denied by policy  [2Jx")
}
