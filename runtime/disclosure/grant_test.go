package disclosure

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
)

// What a caller is disclosed is what its grant allows: the catalog, the declarations and
// get_tool_info leave out a tool that needs a scope it lacks, and asking about that tool is
// answered as asking about a name no tool has.
func TestDisclosureShowsOnlyTheCallersTools(t *testing.T) {
	reg := runtime.NewRegistry()
	var hidden string
	for _, tl := range exampleRegistry(t).Tools() {
		if hidden == "" && tl.Name != "get_weather" {
			hidden = tl.Name
			tl.Scopes = []string{"orders:admin"}
		}
		require.NoError(t, reg.Add(tl))
	}
	d, err := New(reg)
	require.NoError(t, err)
	require.NoError(t, d.Reveal(hidden, "get_weather"))

	caller := runtime.WithGrant(context.Background(), runtime.Grant{})
	assert.NotContains(t, d.CatalogFor(caller), hidden)
	assert.Contains(t, d.Catalog(), hidden, "the host's catalog has every tool")
	assert.NotContains(t, names(d.ToolsIn(caller, "s")), hidden)
	assert.Contains(t, names(d.ToolsIn(caller, "s")), "get_weather")

	ask := func(ctx context.Context, name string) runtime.Result {
		return d.Registry().Invoke(ctx, runtime.Call{Name: InfoToolName, Session: "s", Args: []byte(`{"name":"` + name + `"}`)})
	}
	got := ask(caller, hidden)
	require.True(t, got.IsError)
	assert.Equal(t, runtime.UnknownToolResult(hidden, reg.NamesFor(caller)).Text, got.Text)
	assert.NotContains(t, got.Text, "mean \""+hidden)
	assert.False(t, ask(context.Background(), hidden).IsError, "the host may ask")
	admin := runtime.WithGrant(context.Background(), runtime.Grant{Scopes: []string{"orders:admin"}})
	assert.False(t, ask(admin, hidden).IsError, "a caller holding the scope may ask")
}
