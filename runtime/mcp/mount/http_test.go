package mount_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/runtime/mcp/mount"
	"github.com/toolgen-go/toolgen/runtime/schematool"
)

// greetRegistry holds one read-only tool, greet.
func greetRegistry(t *testing.T) *runtime.Registry {
	reg := runtime.NewRegistry()
	tool, err := schematool.New("greet", "Greets someone.", schema(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}`),
		func(_ context.Context, args json.RawMessage) (runtime.Result, error) {
			var a struct{ Name string }
			json.Unmarshal(args, &a)
			return runtime.TextResult("hello " + a.Name), nil
		})
	require.NoError(t, err)
	tool.Hints.ReadOnly = true
	require.NoError(t, reg.Add(tool))
	return reg
}

// redirect answers every request with a 307 to target (the same method and body).
func redirect(target string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target, http.StatusTemporaryRedirect)
	})
}

// Server.Headers go to the endpoint's origin only: a server that redirects the mount to
// another host (another port, here) does not hand that host the credential, while a redirect
// within the origin still carries it.
func TestHeadersStayWithTheEndpointsOrigin(t *testing.T) {
	const token = "a-secret-of-enough-length"
	headers := map[string]string{"Authorization": "Bearer " + token, "X-Api-Key": "another-secret"}

	t.Run("another origin", func(t *testing.T) {
		var requests, leaked atomic.Int64
		served := toolmcp.HTTPHandler(greetRegistry(t))
		other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			requests.Add(1)
			if r.Header.Get("Authorization") != "" || r.Header.Get("X-Api-Key") != "" {
				leaked.Add(1)
			}
			served.ServeHTTP(w, r)
		}))
		t.Cleanup(other.Close)
		endpoint := httptest.NewServer(redirect(other.URL))
		t.Cleanup(endpoint.Close)

		reg := runtime.NewRegistry()
		m, err := mount.Mount(t.Context(), reg, mount.Server{Name: "web", URL: endpoint.URL, Headers: headers}, mount.Options{Logger: quiet})
		require.NoError(t, err, "the redirect is followed")
		t.Cleanup(func() { m.Close() })
		assert.Equal(t, "hello Ada", invoke(reg, "web_greet", `{"name":"Ada"}`).Text)
		assert.Positive(t, requests.Load(), "the requests were redirected")
		assert.Zero(t, leaked.Load(), "requests redirected to another origin carried Server.Headers")
	})

	t.Run("the same origin", func(t *testing.T) {
		mux := http.NewServeMux()
		mux.Handle("/mcp", toolmcp.HTTPHandler(greetRegistry(t), toolmcp.WithBearerAuth(toolmcp.StaticToken(token, "me"), nil)))
		mux.Handle("/old", redirect("/mcp"))
		srv := httptest.NewServer(mux)
		t.Cleanup(srv.Close)

		reg := runtime.NewRegistry()
		m, err := mount.Mount(t.Context(), reg, mount.Server{Name: "web", URL: srv.URL + "/old", Headers: headers}, mount.Options{Logger: quiet})
		require.NoError(t, err, "the token reaches the endpoint a redirect within the origin names")
		t.Cleanup(func() { m.Close() })
		assert.Equal(t, "hello Ada", invoke(reg, "web_greet", `{"name":"Ada"}`).Text)
	})
}

// A stateful runtime/mcp server closes a session idle past SessionLimits.Idle and answers
// its next request with 404 Session not found (a JSON-RPC error, CodeSessionNotFound): the
// mount takes the connection for gone and reconnects, so a call after the next succeeds.
// Before, the mount read the answer as the server refusing the call, kept the dead session,
// and every later call failed.
// A server that ends a session as the TypeScript SDK's do, with 404 and a JSON-RPC error of
// code -32001 (which the go-sdk client reports as the call's error, not ErrSessionMissing), is
// reconnected to as well.
func TestAMountReconnectsOnTheTypeScriptFormOfSessionNotFound(t *testing.T) {
	var ended atomic.Bool
	inner := toolmcp.HTTPHandler(greetRegistry(t))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Mcp-Session-Id") != "" && ended.Load() {
			var req struct{ ID json.RawMessage }
			_ = json.NewDecoder(r.Body).Decode(&req) // the error answers the request by its id
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			_, _ = fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32001,"message":"Session not found"}}`, cmp.Or(string(req.ID), "null"))
			return
		}
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	reg := runtime.NewRegistry()
	m, err := mount.Mount(t.Context(), reg, mount.Server{Name: "web", URL: srv.URL}, mount.Options{Logger: quiet, ReconnectDelay: time.Millisecond})
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
	require.Equal(t, "hello Ada", invoke(reg, "web_greet", `{"name":"Ada"}`).Text)

	ended.Store(true)
	res := invoke(reg, "web_greet", `{"name":"Ada"}`)
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, "dropped during the call; it is reconnecting", "the ended session is a dropped connection")
	ended.Store(false) // the server now serves only new sessions: the mount's new one
	require.Eventually(t, func() bool {
		return invoke(reg, "web_greet", `{"name":"Ada"}`).Text == "hello Ada"
	}, 10*time.Second, 10*time.Millisecond, "the mount reconnected")
}

func TestAMountReconnectsWhenTheServerEndedItsSession(t *testing.T) {
	const idle = 50 * time.Millisecond
	srv := httptest.NewServer(toolmcp.HTTPHandler(greetRegistry(t), toolmcp.WithSessionLimits(toolmcp.SessionLimits{Idle: idle})))
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	reg := runtime.NewRegistry()
	m, err := mount.Mount(t.Context(), reg, mount.Server{Name: "web", URL: srv.URL}, mount.Options{Logger: quiet, ReconnectDelay: time.Millisecond})
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
	require.Equal(t, "hello Ada", invoke(reg, "web_greet", `{"name":"Ada"}`).Text)

	time.Sleep(4 * idle) // the server closes the idle session (within an eighth of idle more)
	res := invoke(reg, "web_greet", `{"name":"Ada"}`)
	if res.IsError {
		assert.Contains(t, res.Text, "dropped during the call; it is reconnecting", "the ended session is a dropped connection")
	}
	require.Eventually(t, func() bool {
		return invoke(reg, "web_greet", `{"name":"Ada"}`).Text == "hello Ada"
	}, 10*time.Second, 10*time.Millisecond, "the mount reconnected")
}
