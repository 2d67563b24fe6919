package toolsearch_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	"github.com/toolgen-go/toolgen/runtime/toolsearch"
)

func TestTerms(t *testing.T) {
	assert.Equal(t, []string{"list", "invoice"}, toolsearch.Terms("list_invoices"))
	assert.Equal(t, []string{"get", "weather"}, toolsearch.Terms("getWeather"))
	assert.Equal(t, []string{"http", "server", "ship"}, toolsearch.Terms("HTTPServer shipping"))
	assert.Equal(t, []string{"refund", "invoice"}, toolsearch.Terms("Refund the invoices!"))
	assert.Equal(t, []string{"category"}, toolsearch.Terms("categories"))
}

// TestRecallAt5 measures how often the labelled tool is among the first five results of its
// query, on the synthetic 300-tool catalog. The floor is below the measured figure (see the
// README); a change to the index that loses recall fails here.
func TestRecallAt5(t *testing.T) {
	tools := syntheticCatalog()
	require.Len(t, tools, 300)
	queries := syntheticQueries()
	require.GreaterOrEqual(t, len(queries), 100)
	ix := toolsearch.NewIndex(tools)
	var hit1, hit5 int
	for _, q := range queries {
		hits := ix.Search(q.query, 5)
		for rank, h := range hits {
			if h.Name == q.want {
				hit5++
				if rank == 0 {
					hit1++
				}
			}
		}
		if testing.Verbose() && !contains(hits, q.want) {
			t.Logf("miss: %q → %v (want %s)", q.query, hits, q.want)
		}
	}
	recall5 := float64(hit5) / float64(len(queries))
	t.Logf("recall@1 %.2f, recall@5 %.2f over %d queries and %d tools", float64(hit1)/float64(len(queries)), recall5, len(queries), len(tools))
	assert.GreaterOrEqual(t, recall5, 0.85)
}

func contains(hits []toolsearch.Hit, name string) bool {
	for _, h := range hits {
		if h.Name == name {
			return true
		}
	}
	return false
}

func BenchmarkSearch(b *testing.B) {
	ix := toolsearch.NewIndex(syntheticCatalog())
	queries := syntheticQueries()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		ix.Search(queries[i%len(queries)].query, 5)
	}
}

func BenchmarkNewIndex(b *testing.B) {
	tools := syntheticCatalog()
	for b.Loop() {
		toolsearch.NewIndex(tools)
	}
}

// registry returns a registry of the synthetic catalog, whose tools answer their own name,
// plus one tool that is not deferred.
func registry(t *testing.T, opts ...runtime.Option) *runtime.Registry {
	t.Helper()
	reg := runtime.NewRegistry(opts...)
	tools := syntheticCatalog()
	for i := range tools {
		name := tools[i].Name
		tools[i].Bind = func(context.Context, []byte) (runtime.BoundCall, error) { return answer(name), nil }
	}
	always := runtime.Tool{Name: "say_hello", Description: "Says hello.", Bind: func(context.Context, []byte) (runtime.BoundCall, error) { return answer("hello"), nil }}
	require.NoError(t, reg.Add(append(tools, always)...))
	return reg
}

type answer string

func (a answer) Args() any                          { return nil }
func (a answer) Run(context.Context) runtime.Result { return runtime.TextResult(string(a)) }

func TestSearchRevealsPerSession(t *testing.T) {
	ctx := t.Context()
	s, err := toolsearch.New(registry(t))
	require.NoError(t, err)

	names := func(tools []runtime.Tool) []string {
		var out []string
		for _, t := range tools {
			out = append(out, t.Name)
		}
		return out
	}
	assert.Equal(t, []string{"say_hello", "tool_search"}, names(s.Tools(ctx, "a")), "deferred tools start hidden")

	res := s.Registry().Invoke(ctx, runtime.Call{Name: toolsearch.ToolName, Session: "a", Args: []byte(`{"query":"refund a payment back to the customer","limit":3}`)})
	require.False(t, res.IsError, res.Text)
	var got toolsearch.SearchResult
	require.NoError(t, json.Unmarshal(res.Structured, &got))
	require.Len(t, got.Tools, 3)
	assert.Contains(t, names(s.Tools(ctx, "a")), got.Tools[0].Name, "a found tool is declared in its session")
	assert.Len(t, s.Tools(ctx, "a"), 2+3)
	assert.Equal(t, []string{"say_hello", "tool_search"}, names(s.Tools(ctx, "b")), "another session found nothing")

	call := s.Registry().Invoke(ctx, runtime.Call{Name: got.Tools[0].Name, Session: "a"})
	assert.Equal(t, got.Tools[0].Name, call.Text, "a found tool runs through Registry")
}

func TestSearchArgumentsAreValidated(t *testing.T) {
	s, err := toolsearch.New(registry(t))
	require.NoError(t, err)
	res := s.Registry().Invoke(t.Context(), runtime.Call{Name: toolsearch.ToolName, Args: []byte(`{"query":"","limit":99}`)})
	assert.True(t, res.IsError)
	assert.Contains(t, res.Text, "/query")
	assert.Contains(t, res.Text, "/limit")
}

func TestFoundToolsAreBounded(t *testing.T) {
	ctx := t.Context()
	s, err := toolsearch.New(registry(t))
	require.NoError(t, err)
	for _, d := range []string{"invoice", "customer", "order", "shipment", "product", "payment", "refund", "subscription", "ticket", "user", "team", "project", "task", "email"} {
		res := s.Registry().Invoke(ctx, runtime.Call{Name: toolsearch.ToolName, Session: "s", Args: fmt.Appendf(nil, `{"query":%q,"limit":20}`, d)})
		require.False(t, res.IsError, res.Text)
	}
	assert.LessOrEqual(t, len(s.Tools(ctx, "s")), 2+64)
}

func TestNewRefusesAShadowedName(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(runtime.Tool{Name: toolsearch.ToolName, Bind: func(context.Context, []byte) (runtime.BoundCall, error) { return answer(""), nil }}))
	_, err := toolsearch.New(reg)
	assert.Error(t, err)
}

func TestSearchFindsOnlyDeferredTools(t *testing.T) {
	s, err := toolsearch.New(registry(t))
	require.NoError(t, err)
	for _, h := range s.Find("hello say", 20) {
		assert.NotEqual(t, "say_hello", h.Name, "a tool declared up front is not a search result")
	}
	assert.NotEmpty(t, s.Find("refund payment", 5))
}

// TestToolsAddedLaterAreNotOffered: a tool added to the registry after New cannot run through
// Search.Registry, so it is neither found nor declared.
func TestToolsAddedLaterAreNotOffered(t *testing.T) {
	reg := registry(t)
	s, err := toolsearch.New(reg)
	require.NoError(t, err)
	late := runtime.Tool{Name: "late_tool", Description: "Refunds late fees.", Deferred: true,
		Bind: func(context.Context, []byte) (runtime.BoundCall, error) { return answer("late"), nil }}
	require.NoError(t, reg.Add(late))
	for _, h := range s.Find("refund late fees", 20) {
		assert.NotEqual(t, "late_tool", h.Name)
	}
}

// Found tools survive a session store that keeps JSON (runtime/redisstore), where the list
// comes back as []any.
func TestFoundInAJSONSessionStore(t *testing.T) {
	ctx := t.Context()
	s, err := toolsearch.New(registry(t, runtime.WithSessionStore(&fixture.JSONSessionStore{})))
	require.NoError(t, err)
	res := s.Registry().Invoke(ctx, runtime.Call{Name: toolsearch.ToolName, Session: "a", Args: []byte(`{"query":"refund a payment back to the customer","limit":3}`)})
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, 2+3, len(s.Tools(ctx, "a")), "the three found tools are declared")
}

// A search finds only the tools its caller may call (runtime.Grant): the best match for the
// query, when it needs a scope the caller lacks, is never a hit, nor declared, nor callable.
func TestSearchFindsOnlyTheCallersTools(t *testing.T) {
	reg := runtime.NewRegistry()
	tools := syntheticCatalog()
	const query = `{"query":"refund a payment back to the customer","limit":3}`
	s0, err := toolsearch.New(registry(t))
	require.NoError(t, err)
	best := s0.Find("refund a payment back to the customer", 1)[0].Name
	for i := range tools {
		name := tools[i].Name
		tools[i].Bind = func(context.Context, []byte) (runtime.BoundCall, error) { return answer(name), nil }
		if name == best {
			tools[i].Scopes = []string{"billing:admin"}
		}
	}
	require.NoError(t, reg.Add(tools...))
	s, err := toolsearch.New(reg)
	require.NoError(t, err)

	found := func(ctx context.Context, session string) []string {
		res := s.Registry().Invoke(ctx, runtime.Call{Name: toolsearch.ToolName, Session: session, Args: []byte(query)})
		require.False(t, res.IsError, res.Text)
		var got toolsearch.SearchResult
		require.NoError(t, json.Unmarshal(res.Structured, &got))
		var names []string
		for _, f := range got.Tools {
			names = append(names, f.Name)
		}
		return names
	}
	clerk := runtime.WithGrant(t.Context(), runtime.Grant{Scopes: []string{"billing:read"}})
	names := found(clerk, "clerk")
	assert.Len(t, names, 3, "three hits still, of the clerk's tools")
	assert.NotContains(t, names, best)
	for _, tl := range s.Tools(clerk, "clerk") {
		assert.NotEqual(t, best, tl.Name)
	}
	assert.True(t, s.Registry().Invoke(clerk, runtime.Call{Name: best, Session: "clerk"}).IsError)

	admin := runtime.WithGrant(t.Context(), runtime.Grant{Scopes: []string{"billing:admin"}})
	assert.Equal(t, best, found(admin, "admin")[0], "a caller holding the scope finds it first")
}
