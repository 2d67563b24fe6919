package mcp_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// scopedTools are read_repo (no scope), push_repo (repo:write) and reset_org (repo:write and
// admin); ran counts the calls that reached a handler, by tool.
func scopedTools(ran *sync.Map) []runtime.Tool {
	tool := func(name string, scopes ...string) runtime.Tool {
		t := funcTool(name, func(context.Context, funcArgs) runtime.Result {
			n, _ := ran.LoadOrStore(name, new(atomic.Int32))
			n.(*atomic.Int32).Add(1)
			return runtime.TextResult(name + " ran")
		})
		t.Scopes = scopes
		return t
	}
	return []runtime.Tool{tool("read_repo"), tool("push_repo", "repo:write"), tool("reset_org", "repo:write", "admin")}
}

// scopedRegistry holds the scopedTools named (all of them without names).
func scopedRegistry(t *testing.T, ran *sync.Map, names ...string) *runtime.Registry {
	t.Helper()
	reg := runtime.NewRegistry()
	for _, tl := range scopedTools(ran) {
		if len(names) == 0 || slices.Contains(names, tl.Name) {
			require.NoError(t, reg.Add(tl))
		}
	}
	return reg
}

// oauthUsers are the users of scopedVerifier: alice's token holds repo:write, bob's token
// holds no scope at all, carol's both.
var oauthUsers = map[string]struct {
	scopes  []string
	visible []string
}{
	"alice": {[]string{"repo:write"}, []string{"push_repo", "read_repo"}},
	"bob":   {nil, []string{"read_repo"}},
	"carol": {[]string{"admin", "repo:write"}, []string{"push_repo", "read_repo", "reset_org"}},
}

// scopedVerifier is the token verifier of an authorization server that issued "token-USER"
// with the scopes of oauthUsers.
func scopedVerifier(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	user, ok := strings.CutPrefix(token, "token-")
	u, known := oauthUsers[user]
	if !ok || !known {
		return nil, auth.ErrInvalidToken
	}
	return &auth.TokenInfo{UserID: user, Scopes: u.scopes, Expiration: time.Now().Add(time.Hour)}, nil
}

// oauthServer serves reg over streamable HTTP the way s says, behind the go-sdk's
// auth.RequireBearerToken with verify: toolgen's HTTPHandler with WithBearerAuth, or the
// SDK's handler wrapped in the middleware.
func oauthServer(t *testing.T, s serving, reg *runtime.Registry, verify auth.TokenVerifier, opts ...toolmcp.Option) string {
	t.Helper()
	var h http.Handler
	if s.toolgen {
		opts = append(opts[:len(opts):len(opts)], toolmcp.WithBearerAuth(verify, nil))
		if s.transport == statelessHTTP {
			opts = append(opts, toolmcp.WithStateless())
		}
		h = toolmcp.HTTPHandler(reg, opts...)
	} else {
		server := toolmcp.NewServer(reg, opts...)
		h = auth.RequireBearerToken(verify, nil)(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
			&mcp.StreamableHTTPOptions{Stateless: s.transport == statelessHTTP}))
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// httpServings are the servings over streamable HTTP, stateful and stateless, on both paths.
func httpServings() []serving {
	return slices.DeleteFunc(servings(), func(s serving) bool { return s.transport != statefulHTTP && s.transport != statelessHTTP })
}

func listedNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	var names []string
	for tool, err := range cs.Tools(t.Context(), nil) {
		require.NoError(t, err)
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

// callOutcome is what a client learns of one call: the protocol error, or the result.
func callOutcome(t *testing.T, cs *mcp.ClientSession, name string) string {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: map[string]any{}})
	if err != nil {
		return "error: " + err.Error()
	}
	return fmt.Sprintf("result isError=%t: %s", res.IsError, textOf(res))
}

func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// Two users with different OAuth scopes, behind the go-sdk's bearer-token handler, over
// stateful and stateless HTTP, on both paths and every protocol: each lists only the tools
// its token's scopes allow, and a call of another tool gets, word for word, what a server
// that does not have the tool answers (the nearest name and the list drawn from the user's
// own tools), without the tool running.
func TestScopesOverOAuthHTTP(t *testing.T) {
	for _, s := range httpServings() {
		t.Run(s.String(), func(t *testing.T) {
			ran := &sync.Map{}
			url := oauthServer(t, s, scopedRegistry(t, ran), scopedVerifier)
			for _, user := range []string{"alice", "bob", "carol"} {
				u := oauthUsers[user]
				sopts := &mcp.ClientSessionOptions{ProtocolVersion: s.protocol}
				cs := httpClientWith(t, url, headerTransport{"Authorization": "Bearer token-" + user}, nil, sopts)
				assert.Equal(t, u.visible, listedNames(t, cs), "%s lists what its scopes allow", user)

				// The same user on a server that holds only the tools it may see.
				alone := oauthServer(t, s, scopedRegistry(t, &sync.Map{}, u.visible...), scopedVerifier)
				without := httpClientWith(t, alone, headerTransport{"Authorization": "Bearer token-" + user}, nil, sopts)
				for _, name := range []string{"push_repo", "reset_org", "reset_or", "push_rep", "no_such_tool"} {
					if slices.Contains(u.visible, name) {
						continue
					}
					got := callOutcome(t, cs, name)
					assert.Equal(t, callOutcome(t, without, name), got, "%s calls %s", user, name)
					for _, hidden := range []string{"push_repo", "reset_org"} {
						if !slices.Contains(u.visible, hidden) {
							assert.NotContains(t, got, "mean \""+hidden, "%s is not suggested to %s", hidden, user)
						}
					}
				}
				for _, name := range u.visible {
					assert.Equal(t, "result isError=false: "+name+" ran", callOutcome(t, cs, name), "%s calls %s", user, name)
				}
			}
			n, _ := ran.Load("reset_org")
			require.NotNil(t, n)
			assert.EqualValues(t, 1, n.(*atomic.Int32).Load(), "reset_org ran for carol alone")
		})
	}
}

// Without a token (stdio, in memory, HTTP without auth) a caller holds no scope: on every
// serving it lists and calls only the tools that need none, unless WithScopes says more.
func TestScopesWithoutATokenAndWithScopes(t *testing.T) {
	ran := &sync.Map{}
	reg := scopedRegistry(t, ran)
	eachServing(t, reg, nil, func(t *testing.T, s serving, cs *mcp.ClientSession) {
		assert.Equal(t, []string{"read_repo"}, listedNames(t, cs))
		assert.Contains(t, callOutcome(t, cs, "push_repo"), `unknown tool "push_repo". Available tools: read_repo`)
		if s.protocol >= "2026-07-28" {
			// The list depends on the caller: no shared cache may serve it to another.
			list, err := cs.ListTools(t.Context(), nil)
			require.NoError(t, err)
			assert.Equal(t, "private", list.CacheScope)
		}
	})
	writer := toolmcp.WithScopes(func(context.Context, mcp.Request) runtime.Grant {
		return runtime.Grant{Scopes: []string{"repo:write"}}
	})
	eachServing(t, reg, nil, func(t *testing.T, s serving, cs *mcp.ClientSession) {
		assert.Equal(t, []string{"push_repo", "read_repo"}, listedNames(t, cs))
		assert.Equal(t, "result isError=false: push_repo ran", callOutcome(t, cs, "push_repo"))
		assert.Contains(t, callOutcome(t, cs, "reset_org"), `unknown tool "reset_org". Available tools: push_repo, read_repo`)
	}, writer)
	_, ranReset := ran.Load("reset_org")
	assert.False(t, ranReset)
}

// WithScopes' function is asked once per tools/call, on every serving: it may be a lookup in
// the host's store.
func TestWithScopesIsAskedOncePerCall(t *testing.T) {
	reg := scopedRegistry(t, &sync.Map{})
	var asked atomic.Int64
	counting := toolmcp.WithScopes(func(_ context.Context, req mcp.Request) runtime.Grant {
		if _, ok := req.(*mcp.CallToolRequest); ok {
			asked.Add(1)
		}
		return runtime.Grant{Scopes: []string{"repo:write"}}
	})
	eachServing(t, reg, nil, func(t *testing.T, s serving, cs *mcp.ClientSession) {
		before := asked.Load()
		assert.Equal(t, "result isError=false: push_repo ran", callOutcome(t, cs, "push_repo"))
		assert.Equal(t, before+1, asked.Load(), "WithScopes asked for one call")
	}, counting)
}

// StaticToken's scopes are its requests' grant.
func TestStaticTokenScopes(t *testing.T) {
	reg := scopedRegistry(t, &sync.Map{})
	srv := httptest.NewServer(toolmcp.HTTPHandler(reg, toolmcp.WithBearerAuth(toolmcp.StaticToken("s3cret", "me", "repo:write"), nil)))
	t.Cleanup(srv.Close)
	cs := httpClient(t, srv.URL, headerTransport{"Authorization": "Bearer s3cret"}, nil)
	assert.Equal(t, []string{"push_repo", "read_repo"}, listedNames(t, cs))
}

// tokenTransport sends the bearer token it holds now.
type tokenTransport struct{ token atomic.Value }

func (tt *tokenTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+tt.token.Load().(string))
	return http.DefaultTransport.RoundTrip(req)
}

// listChangedClient connects over stateful HTTP with the token tt holds and counts the
// notifications/tools/list_changed it gets.
func listChangedClient(t *testing.T, url string, tt *tokenTransport) (*mcp.ClientSession, chan struct{}) {
	t.Helper()
	changed := make(chan struct{}, 16)
	copts := &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} }}
	transport := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: tt}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, copts).Connect(t.Context(), transport, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs, changed
}

func waitChanged(t *testing.T, changed chan struct{}, what string) {
	t.Helper()
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Fatalf("no notifications/tools/list_changed: %s", what)
	}
}

// A session whose token comes to hold other scopes (a refreshed token) is told
// notifications/tools/list_changed on its next request, and lists its new tools.
func TestScopesChangeWithTheToken(t *testing.T) {
	for _, s := range httpServings() {
		if s.transport != statefulHTTP || s.protocol != "2025-11-25" {
			continue
		}
		t.Run(s.String(), func(t *testing.T) {
			url := oauthServer(t, s, scopedRegistry(t, &sync.Map{}), func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
				scopes, _ := strings.CutPrefix(token, "alice:")
				return &auth.TokenInfo{UserID: "alice", Scopes: strings.FieldsFunc(scopes, func(r rune) bool { return r == '+' }), Expiration: time.Now().Add(time.Hour)}, nil
			})
			tt := &tokenTransport{}
			tt.token.Store("alice:repo:write")
			cs, changed := listChangedClient(t, url, tt)
			assert.Equal(t, []string{"push_repo", "read_repo"}, listedNames(t, cs))

			assert.Equal(t, "result isError=false: read_repo ran", callOutcome(t, cs, "read_repo"))
			select {
			case <-changed:
				t.Fatal("list_changed with the same scopes")
			case <-time.After(100 * time.Millisecond):
			}

			tt.token.Store("alice:")
			assert.Equal(t, "result isError=false: read_repo ran", callOutcome(t, cs, "read_repo"))
			waitChanged(t, changed, "the token lost repo:write")
			assert.Equal(t, []string{"read_repo"}, listedNames(t, cs))

			tt.token.Store("alice:repo:write+admin")
			require.NoError(t, cs.Ping(t.Context(), nil))
			waitChanged(t, changed, "the token gained repo:write and admin")
			assert.Equal(t, []string{"push_repo", "read_repo", "reset_org"}, listedNames(t, cs))
		})
	}
}

// A host whose grants live in a store of its own (WithScopes) calls Registry.GrantsChanged
// after changing one: the sessions of that user are told, the others are not.
func TestScopesChangeWhenTheHostSaysSo(t *testing.T) {
	for _, s := range httpServings() {
		if s.transport != statefulHTTP || s.protocol != "2025-11-25" {
			continue
		}
		t.Run(s.String(), func(t *testing.T) {
			var mu sync.Mutex
			roles := map[string][]string{"alice": {"repo:write"}, "bob": nil}
			byRole := toolmcp.WithScopes(func(_ context.Context, req mcp.Request) runtime.Grant {
				mu.Lock()
				defer mu.Unlock()
				return runtime.Grant{Scopes: roles[req.GetExtra().TokenInfo.UserID]}
			})
			reg := scopedRegistry(t, &sync.Map{})
			url := oauthServer(t, s, reg, bearer, byRole)
			alice, bob := &tokenTransport{}, &tokenTransport{}
			alice.token.Store("token-alice")
			bob.token.Store("token-bob")
			ca, aliceChanged := listChangedClient(t, url, alice)
			cb, bobChanged := listChangedClient(t, url, bob)
			assert.Equal(t, []string{"push_repo", "read_repo"}, listedNames(t, ca))
			assert.Equal(t, []string{"read_repo"}, listedNames(t, cb))

			mu.Lock()
			roles["alice"] = nil
			mu.Unlock()
			reg.GrantsChanged("alice")
			waitChanged(t, aliceChanged, "alice's roles changed")
			assert.Equal(t, []string{"read_repo"}, listedNames(t, ca))
			select {
			case <-bobChanged:
				t.Fatal("bob was told of alice's change")
			case <-time.After(200 * time.Millisecond):
			}
		})
	}
}

// pages lists tools page by page and returns each page's names.
func pages(t *testing.T, cs *mcp.ClientSession) [][]string {
	t.Helper()
	var out [][]string
	params := &mcp.ListToolsParams{}
	for range 10 {
		res, err := cs.ListTools(t.Context(), params)
		require.NoError(t, err)
		var names []string
		for _, tl := range res.Tools {
			names = append(names, tl.Name)
		}
		out = append(out, names)
		if res.NextCursor == "" {
			return out
		}
		params = &mcp.ListToolsParams{Cursor: res.NextCursor}
	}
	t.Fatal("more than 10 pages")
	return nil
}

// Pages of tools/list are full but the last, of the caller's tools alone: a page trimmed of
// hidden tools would be short or empty where they were, and let a caller count them.
func TestScopesPagesHideTheCount(t *testing.T) {
	reg := scopedRegistry(t, &sync.Map{})
	writer := toolmcp.WithScopes(func(context.Context, mcp.Request) runtime.Grant {
		return runtime.Grant{Scopes: []string{"repo:write"}}
	})
	eachServing(t, reg, nil, func(t *testing.T, s serving, cs *mcp.ClientSession) {
		assert.Equal(t, [][]string{{"push_repo"}, {"read_repo"}}, pages(t, cs))
	}, toolmcp.WithPageSize(1), writer)
	eachServing(t, reg, nil, func(t *testing.T, s serving, cs *mcp.ClientSession) {
		assert.Equal(t, [][]string{{"read_repo"}}, pages(t, cs))
		_, err := cs.ListTools(t.Context(), &mcp.ListToolsParams{Cursor: "bm90IG91cnM"})
		assert.ErrorContains(t, err, "invalid params")
	}, toolmcp.WithPageSize(1))
}
