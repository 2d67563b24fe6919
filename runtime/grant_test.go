package runtime_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
)

// scopedRegistry holds read_repo (no scope), push_repo (repo:write) and reset_org (repo:write
// and admin); binds counts the calls any of them bound.
func scopedRegistry(t *testing.T, opts ...runtime.Option) (*runtime.Registry, *atomic.Int32) {
	t.Helper()
	binds := &atomic.Int32{}
	tool := func(name string, scopes ...string) runtime.Tool {
		tl := bindFunc(name, func(context.Context, []byte) (runtime.BoundCall, error) {
			binds.Add(1)
			return runFunc(func(context.Context) runtime.Result { return runtime.TextResult(name + " ran") }), nil
		})
		tl.Scopes = scopes
		return tl
	}
	reg := runtime.NewRegistry(opts...)
	require.NoError(t, reg.Add(tool("read_repo"), tool("push_repo", "repo:write"), tool("reset_org", "repo:write", "admin")))
	return reg, binds
}

func TestGrantListsOnlyWhatTheCallerMayCall(t *testing.T) {
	reg, _ := scopedRegistry(t)
	for _, c := range []struct {
		name string
		ctx  context.Context
		want []string
	}{
		{"no grant: the host's own calls", context.Background(), []string{"push_repo", "read_repo", "reset_org"}},
		{"a token without scopes", runtime.WithGrant(context.Background(), runtime.Grant{}), []string{"read_repo"}},
		{"repo:write", runtime.WithGrant(context.Background(), runtime.Grant{Scopes: []string{"repo:write", "other"}}), []string{"push_repo", "read_repo"}},
		{"admin alone", runtime.WithGrant(context.Background(), runtime.Grant{Scopes: []string{"admin"}}), []string{"read_repo"}},
		{"both", runtime.WithGrant(context.Background(), runtime.Grant{Scopes: []string{"admin", "repo:write"}}), []string{"push_repo", "read_repo", "reset_org"}},
		{"all", runtime.WithGrant(context.Background(), runtime.Grant{All: true}), []string{"push_repo", "read_repo", "reset_org"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, reg.NamesFor(c.ctx))
			var names []string
			for _, tl := range reg.ToolsFor(c.ctx) {
				names = append(names, tl.Name)
			}
			assert.Equal(t, c.want, names)
			_, ok := reg.ToolFor(c.ctx, "push_repo")
			assert.Equal(t, len(c.want) > 1, ok)
		})
	}
}

// A call of a tool outside the grant is the unknown-tool result a registry without the tool
// gives, word for word, and nothing binds: the caller cannot tell the tool exists.
func TestGrantRefusesAHiddenToolAsUnknown(t *testing.T) {
	reg, binds := scopedRegistry(t)
	ctx := runtime.WithGrant(context.Background(), runtime.Grant{Scopes: []string{"repo:write"}})

	without := runtime.NewRegistry()
	for _, tl := range reg.Tools() {
		if tl.Name != "reset_org" {
			require.NoError(t, without.Add(tl))
		}
	}
	for _, name := range []string{"reset_org", "reset_or", "reset_orgs"} {
		got := reg.Invoke(ctx, runtime.Call{Name: name, Args: []byte(`{}`)})
		want := without.Invoke(ctx, runtime.Call{Name: name, Args: []byte(`{}`)})
		assert.True(t, got.IsError, name)
		assert.Equal(t, want.Text, got.Text, name)
		assert.Equal(t, want.Kind, got.Kind, name)
		assert.Equal(t, want.Err.Error(), got.Err.Error(), name)
		assert.NotContains(t, got.Text, `did you mean "reset_org"`, "the did-you-mean draws from the caller's tools only")
		assert.NotContains(t, got.Text, `, reset_org`, "the list holds the caller's tools only")
		assert.ErrorIs(t, got.Err, runtime.ErrUnknownTool)
	}
	assert.Zero(t, binds.Load(), "a refused call binds nothing")

	res := reg.Invoke(ctx, runtime.Call{Name: "push_repo", Args: []byte(`{}`)})
	assert.False(t, res.IsError, res.Text)
	res = reg.Invoke(context.Background(), runtime.Call{Name: "reset_org", Args: []byte(`{}`)})
	assert.False(t, res.IsError, "the host's own call: %s", res.Text)
}

// hiddenRepairer repairs every name to reset_org, as a host's Repairer might.
type hiddenRepairer struct{}

func (hiddenRepairer) RepairName(string, []string) (string, bool) { return "reset_org", true }
func (hiddenRepairer) RepairArgs(*runtime.Tool, []byte) ([]byte, []runtime.Repair) {
	return nil, nil
}

// A Repairer that names a tool outside the grant does not reach it, and the refusal repeats
// the name the caller sent.
func TestGrantHoldsAgainstARepairedName(t *testing.T) {
	reg, binds := scopedRegistry(t, runtime.WithRepair(hiddenRepairer{}))
	ctx := runtime.WithGrant(context.Background(), runtime.Grant{})
	res := reg.Invoke(ctx, runtime.Call{Name: "rest_org", Args: []byte(`{}`)})
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, `unknown tool "rest_org"`)
	assert.NotContains(t, res.Text, "reset_org")
	assert.Zero(t, binds.Load())
}

func TestAddRefusesAScopeThatIsNoScopeToken(t *testing.T) {
	for _, bad := range []string{"", "repo write", `"admin"`, `a\b`, "café"} {
		tl := runTool("t", func(context.Context) runtime.Result { return runtime.TextResult("") })
		tl.Scopes = []string{bad}
		err := runtime.NewRegistry().Add(tl)
		require.Error(t, err, "%q", bad)
		assert.Contains(t, err.Error(), "invalid scope")
	}
}
