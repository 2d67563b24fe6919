package client_test

import (
	"context"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/gen/client"
	"github.com/toolgen-go/toolgen/gen/client/internal/roundtrip/catalog"
	"github.com/toolgen-go/toolgen/gen/client/internal/roundtrip/catalogclient"
	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

var update = flag.Bool("update", false, "rewrite the round trip's tools.json and client_gen.go")

var clientDir = filepath.Join("internal", "roundtrip", "catalogclient")

func catalogRegistry(t *testing.T) *runtime.Registry {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(catalog.Tools()...))
	return reg
}

// serveInMemory serves reg with the go-sdk server over in-memory transports and returns the
// client's end.
func serveInMemory(t *testing.T, reg *runtime.Registry, opts ...toolmcp.Option) mcp.Transport {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	st, ct := mcp.NewInMemoryTransports()
	server := toolmcp.NewServer(reg, opts...)
	go func() { _ = server.Run(ctx, st) }()
	return ct
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// TestRoundTripIsFresh lists the catalog's tools from a live server (in memory, one tool a
// page so pagination is joined) and checks that the committed listing and client are what
// toolgen -client makes of it now.
func TestRoundTripIsFresh(t *testing.T) {
	ctx := testCtx(t)
	data, err := client.Fetch(ctx, serveInMemory(t, catalogRegistry(t), toolmcp.WithPageSize(1)))
	require.NoError(t, err)
	src, problems, err := client.Generate(data, "catalogclient", true)
	require.NoError(t, err)
	require.Empty(t, problems.List())
	if *update {
		require.NoError(t, os.WriteFile(filepath.Join(clientDir, "tools.json"), data, 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(clientDir, "client_gen.go"), src, 0o644))
	}
	want, err := os.ReadFile(filepath.Join(clientDir, "tools.json"))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(data), "the listing changed: go test ./gen/client -run TestRoundTripIsFresh -update")
	want, err = os.ReadFile(filepath.Join(clientDir, "client_gen.go"))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(src), "the client is stale: go test ./gen/client -run TestRoundTripIsFresh -update")
}

// TestFetchOverHTTP lists the tools of a streamable HTTP server behind bearer auth, paged:
// the document is the one read in memory, byte for byte.
func TestFetchOverHTTP(t *testing.T) {
	ctx := testCtx(t)
	h := toolmcp.HTTPHandler(catalogRegistry(t), toolmcp.WithPageSize(2),
		toolmcp.WithBearerAuth(toolmcp.StaticToken("0123456789abcdef-token", "me"), nil))
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	want, err := os.ReadFile(filepath.Join(clientDir, "tools.json"))
	require.NoError(t, err)
	got, err := client.Fetch(ctx, client.HTTPTransport(srv.URL, http.Header{"Authorization": {"Bearer 0123456789abcdef-token"}}))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))

	_, err = client.Fetch(ctx, client.HTTPTransport(srv.URL, nil))
	require.Error(t, err, "no token: the server refuses")
}

// TestFetchSendsHeadersToTheEndpointOnly follows a server's redirect to another origin, which
// must not receive the -header values (a token) given for the endpoint.
func TestFetchSendsHeadersToTheEndpointOnly(t *testing.T) {
	ctx := testCtx(t)
	var leaked atomic.Bool
	h := toolmcp.HTTPHandler(catalogRegistry(t))
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			leaked.Store(true)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(other.Close)
	redirecting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, "Bearer 0123456789abcdef-token", r.Header.Get("Authorization"))
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(redirecting.Close)

	got, err := client.Fetch(ctx, client.HTTPTransport(redirecting.URL, http.Header{"Authorization": {"Bearer 0123456789abcdef-token"}}))
	require.NoError(t, err)
	assert.Contains(t, string(got), `"tools"`)
	assert.False(t, leaked.Load(), "the token went to the other origin")
}

// session connects a go-sdk client to the catalog served in memory.
func session(t *testing.T) *mcp.ClientSession {
	ctx := testCtx(t)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, serveInMemory(t, catalogRegistry(t)), nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// TestRoundTripCalls calls every tool through the generated client: arguments are sent as the
// tools expect them, structured results decode with every value, tool errors are ToolErrors.
func TestRoundTripCalls(t *testing.T) {
	ctx := testCtx(t)
	c := catalogclient.New(session(t))

	active := catalogclient.StatusActive
	res, err := c.SearchItems(ctx, catalogclient.SearchItemsArgs{Query: "desk", Limit: 5, Status: &active,
		MaxPrice: &catalogclient.Money{Amount: 5000, Currency: "EUR"}})
	require.NoError(t, err)
	require.Len(t, res.Items, 1)
	item := res.Items[0]
	assert.Equal(t, "Lamp for desk", item.Title)
	assert.Equal(t, catalogclient.StatusActive, item.Status)
	assert.Equal(t, catalogclient.Money{Amount: 1999, Currency: "EUR"}, item.Price)
	assert.Equal(t, &catalogclient.Money{Amount: 200, Currency: "EUR"}, item.Discount)
	assert.Equal(t, []string{"home", "light"}, item.Tags)
	assert.Equal(t, map[string]string{"color": "red"}, item.Attributes)
	assert.True(t, item.Updated.Equal(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)))
	assert.Equal(t, []byte{0x89, 'P', 'N', 'G'}, item.Thumbnail)
	require.NotNil(t, item.Rating)
	assert.Equal(t, 4.5, *item.Rating)
	assert.Equal(t, 1, res.Total)

	// One server type is one client type: a result's values are arguments as they are.
	archived := catalogclient.StatusArchived
	res, err = c.SearchItems(ctx, catalogclient.SearchItemsArgs{Query: "desk", Status: &archived, MaxPrice: &item.Price})
	require.NoError(t, err)
	assert.Empty(t, res.Items, "the server read the enum")

	// Invalid arguments (minLength) are the server's tool error, with its words.
	_, err = c.SearchItems(ctx, catalogclient.SearchItemsArgs{})
	var toolErr *catalogclient.ToolError
	require.ErrorAs(t, err, &toolErr)
	assert.Equal(t, "search_items", toolErr.Tool)
	assert.Contains(t, toolErr.Text, "query")

	tree, err := c.CategoryTree(ctx, catalogclient.CategoryTreeArgs{Depth: 1})
	require.NoError(t, err)
	assert.Equal(t, "all", tree.Name)
	require.Len(t, tree.Children, 1)
	require.NotNil(t, tree.Children[0].Parent)
	assert.Equal(t, "all", tree.Children[0].Parent.Name)

	out, err := c.DeleteItem(ctx, catalogclient.DeleteItemArgs{ID: "i-1"})
	require.NoError(t, err)
	assert.Equal(t, "deleted i-1", catalogclient.Text(out))
	_, err = c.DeleteItem(ctx, catalogclient.DeleteItemArgs{ID: "nope"})
	require.ErrorAs(t, err, &toolErr)
	assert.Equal(t, "tool delete_item: no item nope; search_items lists the ids", err.Error())

	out, err = c.Ping(ctx)
	require.NoError(t, err)
	assert.Equal(t, "pong", catalogclient.Text(out))
}

// TestRoundTripProtocolErrorIsNotToolError: a tool the server does not have is a protocol
// error (or an error result), never a decoded zero value.
func TestRoundTripUnknownTool(t *testing.T) {
	ctx := testCtx(t)
	reg := catalogRegistry(t)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, serveInMemory(t, reg), nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	reg.Remove("category_tree")
	_, err = catalogclient.New(cs).CategoryTree(ctx, catalogclient.CategoryTreeArgs{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "category_tree")
}

// TestRoundTripShapes compares the generated types with the Go types the tools were written
// with: the same fields, in the same order, with the same JSON tags and the same kinds of
// types all the way down (names of named types aside; an enum type is a string type).
func TestRoundTripShapes(t *testing.T) {
	for _, c := range []struct{ original, generated any }{
		{catalog.SearchArgs{}, catalogclient.SearchItemsArgs{}},
		{catalog.SearchResult{}, catalogclient.SearchItemsResult{}},
		{catalog.TreeArgs{}, catalogclient.CategoryTreeArgs{}},
		{catalog.Category{}, catalogclient.CategoryTreeResult{}},
		{catalog.DeleteArgs{}, catalogclient.DeleteItemArgs{}},
	} {
		o, g := reflect.TypeOf(c.original), reflect.TypeOf(c.generated)
		t.Run(o.Name(), func(t *testing.T) {
			var diffs []string
			sameShape(o, g, o.Name(), map[[2]reflect.Type]bool{}, &diffs)
			assert.Empty(t, diffs)
		})
	}
}

func sameShape(o, g reflect.Type, path string, seen map[[2]reflect.Type]bool, diffs *[]string) {
	if seen[[2]reflect.Type{o, g}] {
		return
	}
	seen[[2]reflect.Type{o, g}] = true
	if o.Kind() != g.Kind() || o.PkgPath() == "time" != (g.PkgPath() == "time") {
		*diffs = append(*diffs, path+": "+o.String()+" became "+g.String())
		return
	}
	switch o.Kind() {
	case reflect.Pointer, reflect.Slice:
		sameShape(o.Elem(), g.Elem(), path+"[]", seen, diffs)
	case reflect.Map:
		sameShape(o.Key(), g.Key(), path+"{key}", seen, diffs)
		sameShape(o.Elem(), g.Elem(), path+"{}", seen, diffs)
	case reflect.Struct:
		if o.PkgPath() == "time" {
			return
		}
		if o.NumField() != g.NumField() {
			*diffs = append(*diffs, path+": "+fieldList(o)+" became "+fieldList(g))
			return
		}
		for i := range o.NumField() {
			of, gf := o.Field(i), g.Field(i)
			p := path + "." + of.Name
			if of.Name != gf.Name || of.Tag.Get("json") != gf.Tag.Get("json") {
				*diffs = append(*diffs, p+": "+of.Name+" `"+string(of.Tag)+"` became "+gf.Name+" `"+string(gf.Tag)+"`")
			}
			sameShape(of.Type, gf.Type, p, seen, diffs)
		}
	}
}

func fieldList(t reflect.Type) string {
	var names []string
	for i := range t.NumField() {
		names = append(names, t.Field(i).Name)
	}
	return strings.Join(names, ",")
}

// TestWeatherClient generates a client for examples/weather from a live listing and checks its
// argument and result types against the example's (the round trip the README shows).
func TestWeatherClient(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(weather.Tools()...))
	data, err := client.Fetch(testCtx(t), serveInMemory(t, reg))
	require.NoError(t, err)
	l, err := client.ParseListing(data)
	require.NoError(t, err)
	pkg, problems := client.Build(l, "weatherclient")
	require.Empty(t, problems.List())
	require.Len(t, pkg.Tools, 1)
	tool := pkg.Tools[0]
	assert.Equal(t, "GetWeather", tool.Method)
	fields := func(ty client.GoType) []string {
		var out []string
		for _, f := range ty.Named.Fields {
			tag := f.JSON
			if f.OmitEmpty {
				tag += ",omitempty"
			}
			out = append(out, f.Name+" "+tag)
		}
		return out
	}
	assert.Equal(t, []string{"City city", "Unit unit,omitempty", "Days days,omitempty"}, fields(tool.Args))
	assert.Equal(t, []string{"City city", "Unit unit", "Temperature temperature", "Conditions conditions", "Forecast forecast,omitempty"}, fields(tool.Result))
	var w weather.Weather
	for i, f := range fields(tool.Result) {
		assert.Equal(t, reflect.TypeOf(w).Field(i).Name+" "+reflect.TypeOf(w).Field(i).Tag.Get("json"), f)
	}
}
