package disclosure

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/runtime/toolsearch"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/toolgen-go/toolgen/examples/orders/orders"
	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
)

func exampleRegistry(t *testing.T) *runtime.Registry {
	t.Helper()
	reg := runtime.NewRegistry()
	if err := reg.Add(append(weather.Tools(), new(orders.Service).Tools()...)...); err != nil {
		t.Fatal(err)
	}
	return reg
}

func names(tools []runtime.Tool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Name)
	}
	return out
}

func info(d *Disclosure, args string) runtime.Result {
	return d.Invoke(context.Background(), runtime.Call{ID: "c", Name: InfoToolName, Args: []byte(args)})
}

func TestInfoArgumentsAreStrict(t *testing.T) {
	d, err := New(exampleRegistry(t))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ args, text string }{
		{`{"nmae":"get_order"}`, "invalid arguments for get_tool_info:\n- /nmae: unknown property, did you mean \"name\"?\n- /name: required property is missing"},
		{`{}`, "invalid arguments for get_tool_info: /name: required property is missing"},
		{``, "invalid arguments for get_tool_info: /name: required property is missing"},
		{`{"name":""}`, "invalid arguments for get_tool_info: /name: must be at least 1 character long, got 0"},
		{`{"name":3}`, "invalid arguments for get_tool_info: /name: must be a string, got 3"},
		{`{"name":"a","name":"b"}`, "invalid arguments for get_tool_info: /name: property appears more than once"},
		{`["get_order"]`, "invalid arguments for get_tool_info: must be an object, got an array"},
		{`{"name":"get_order"} {}`, "invalid arguments for get_tool_info: the arguments must be a single JSON object; found more data after it"},
	}
	for _, tt := range tests {
		res := info(d, tt.args)
		want := tt.text + "\nCorrect the arguments and call get_tool_info again."
		if !res.IsError || res.Text != want {
			t.Errorf("%s:\n got %q\nwant %q", tt.args, res.Text, want)
		}
	}
	if res := info(d, `{"name":`); !res.IsError || !strings.HasPrefix(res.Text, "invalid arguments for get_tool_info: the arguments are not valid JSON: ") {
		t.Errorf("malformed JSON: got %q", res.Text)
	}
	if got := names(d.Tools()); !reflect.DeepEqual(got, []string{InfoToolName}) {
		t.Errorf("failed calls revealed tools: %v", got)
	}
}

func TestInfoRevealsTools(t *testing.T) {
	d, err := New(exampleRegistry(t))
	if err != nil {
		t.Fatal(err)
	}
	res := info(d, `{"name":"list_orders"}`)
	if res.IsError || !strings.HasPrefix(res.Text, "Tool: list_orders\nLists orders, newest first.\n\nParameters:\n- status (integer or null, optional): ") {
		t.Fatalf("got %+v", res)
	}
	res = info(d, `{"name":"get_weather"}`)
	if res.IsError {
		t.Fatal(res.Text)
	}
	if got := names(d.Tools()); !reflect.DeepEqual(got, []string{"get_tool_info", "get_weather", "list_orders"}) {
		t.Errorf("declared tools: %v", got)
	}
	// Asking about get_tool_info itself answers without declaring it twice.
	if res := info(d, `{"name":"get_tool_info"}`); res.IsError || !strings.Contains(res.Text, "- name (string, required): The tool's name, as the catalog lists it.") {
		t.Errorf("self-description: %+v", res)
	}
	if got := len(d.Tools()); got != 3 {
		t.Errorf("got %d tools after asking about get_tool_info", got)
	}
}

func TestInfoUnknownTool(t *testing.T) {
	d, err := New(exampleRegistry(t))
	if err != nil {
		t.Fatal(err)
	}
	res := info(d, `{"name":"get_ordr"}`)
	want := `unknown tool "get_ordr"; did you mean "get_order"? Available tools: create_order, get_order, get_weather, list_orders`
	if !res.IsError || res.Text != want || !errors.Is(res.Err, runtime.ErrUnknownTool) {
		t.Fatalf("got %+v", res)
	}
	if res := info(d, `{"name":"zzz"}`); res.Text != `unknown tool "zzz". Available tools: create_order, get_order, get_weather, list_orders` {
		t.Fatalf("got %q", res.Text)
	}
	empty, err := New(runtime.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	if res := info(empty, `{"name":"x"}`); res.Text != `unknown tool "x". No tools are available.` {
		t.Fatalf("got %q", res.Text)
	}
}

func TestInfoUnreadableSchema(t *testing.T) {
	reg := runtime.NewRegistry()
	bad := runtime.Tool{Name: "bad", InputSchema: json.RawMessage(`"not a schema"`), Client: true}
	if err := reg.Add(bad); err != nil {
		t.Fatal(err)
	}
	d, err := New(reg)
	if err != nil {
		t.Fatal(err)
	}
	if res := info(d, `{"name":"bad"}`); !res.IsError || res.Text != "no information is available for bad." || res.Err == nil {
		t.Fatalf("got %+v", res)
	}
}

func TestOtherCallsGoToTheRegistry(t *testing.T) {
	d, err := New(exampleRegistry(t))
	if err != nil {
		t.Fatal(err)
	}
	res := d.Invoke(context.Background(), runtime.Call{Name: "get_weather", Args: []byte(`{"city":"Rome"}`)})
	if res.IsError || !strings.Contains(res.Text, `"city":"Rome"`) {
		t.Fatalf("got %+v", res)
	}
	if tool, ok := d.Tool(InfoToolName); !ok || tool.Name != InfoToolName {
		t.Fatal("Tool does not find get_tool_info")
	}
	if tool, ok := d.Tool("get_order"); !ok || tool.Name != "get_order" {
		t.Fatal("Tool does not find registry tools")
	}
}

func TestNewRefusesAShadowedName(t *testing.T) {
	reg := runtime.NewRegistry()
	if err := reg.Add(runtime.Tool{Name: InfoToolName, Client: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := New(reg); err == nil || !strings.Contains(err.Error(), `already has a tool named "get_tool_info"`) {
		t.Fatalf("got %v", err)
	}
	if _, err := New(nil); err == nil {
		t.Fatal("New(nil) succeeded")
	}
}

func TestReveal(t *testing.T) {
	d, err := New(exampleRegistry(t))
	if err != nil {
		t.Fatal(err)
	}
	err = d.Reveal("get_order", "get_wether", "nope")
	if !errors.Is(err, runtime.ErrUnknownTool) || !strings.Contains(err.Error(), `"get_wether" (did you mean "get_weather"?), "nope"`) {
		t.Fatalf("got %v", err)
	}
	if got := len(d.Tools()); got != 1 {
		t.Fatalf("a refused Reveal revealed %d tools", got-1)
	}
	if err := d.Reveal("list_orders", "create_order"); err != nil {
		t.Fatal(err)
	}
	if got := names(d.Tools()); !reflect.DeepEqual(got, []string{"create_order", "get_tool_info", "list_orders"}) {
		t.Fatalf("declared: %v", got)
	}
	// Declared tools are the registry's own, full schemas included.
	for _, tool := range d.Tools() {
		if tool.Name == "create_order" && !strings.Contains(string(tool.InputSchema), `"customer"`) {
			t.Fatal("create_order is declared without its schema")
		}
	}
}

func TestCatalogSeesLaterTools(t *testing.T) {
	reg := runtime.NewRegistry()
	d, err := New(reg)
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Add(weather.Tools()...); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(d.Catalog(), "\n\n- get_weather: Gets the current weather for a city. Returns temperature and conditions.") {
		t.Fatalf("got %q", d.Catalog())
	}
}

func TestCatalogGroupsByCategory(t *testing.T) {
	tools := []runtime.Tool{
		{Name: "a", Description: "Does a.\nOn two lines.", Category: "zeta"},
		{Name: "b", Title: "Bee"},
		{Name: "c", Description: "Does c.", Category: "alpha"},
		{Name: "d"},
		{Name: "e", Description: "Does e.", Category: "zeta"},
	}
	want := "alpha:\n- c: Does c.\n\nzeta:\n- a: Does a. On two lines.\n- e: Does e.\n\nother:\n- b: Bee\n- d"
	if got := Catalog(tools); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if got := Catalog(tools[1:2]); got != "- b: Bee" {
		t.Fatalf("got %q", got)
	}
	if got := Catalog(nil); got != "" {
		t.Fatalf("got %q", got)
	}
}

func TestDescribeAllSections(t *testing.T) {
	tool := runtime.Tool{
		Name:          "delete_file",
		Title:         "Delete a file",
		Description:   "Deletes a file.",
		Detail:        "The file is gone for good.",
		InputSchema:   json.RawMessage(`{"type":"object"}`),
		Triggers:      []string{"the user asks to remove a file"},
		Prerequisites: []runtime.Prerequisite{{Condition: "the file exists", Check: "list_dir", Else: "ask the user for the path"}, {Condition: "nobody needs it"}},
		Workflow:      []runtime.WorkflowStep{{Name: "find the file", Tool: "list_dir"}, {Name: "delete it"}, {Name: "restore it", Condition: "the user\nregrets it"}},
		Warnings:      []string{"cannot be undone", "follows\nsymlinks"},
		Related:       []runtime.Related{{Name: "list_dir", Relation: "prerequisite"}, {Name: "restore"}},
		Permission:    runtime.PermissionConfirm,
		ConfirmReason: "deletes data",
		Risk:          runtime.RiskHigh,
		Examples:      []runtime.Example{{Args: json.RawMessage(`{ }`)}},
	}
	i, err := Describe(tool)
	if err != nil {
		t.Fatal(err)
	}
	want := `Tool: delete_file (Delete a file)
Deletes a file.

The file is gone for good.

Parameters: none; call it with no arguments.

Examples:
- {}

Use it when:
- the user asks to remove a file

Workflow:
1. find the file (call list_dir)
2. delete it
3. restore it, when the user regrets it

Before calling it:
- the file exists (check with list_dir; if not, ask the user for the path)
- nobody needs it

Warnings:
- cannot be undone
- follows symlinks

Related tools:
- list_dir (prerequisite)
- restore

A call waits for the user's approval: deletes data. Risk: high.`
	if got := i.Text(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	tool.Permission, tool.Risk = runtime.PermissionAuto, runtime.RiskLow
	i, _ = Describe(tool)
	if !strings.HasSuffix(i.Text(), "\n\nRisk: low.") {
		t.Fatalf("got %q", i.Text())
	}
}

func TestParameters(t *testing.T) {
	schema := json.RawMessage(`{
	  "type": "object",
	  "properties": {
	    "when":  {"description": "When.", "type": ["string", "null"], "format": "date"},
	    "node":  {"$ref": "#/$defs/Node"},
	    "maybe": {"description": "Maybe a node.", "anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]},
	    "self":  {"$ref": "#"},
	    "grid":  {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}},
	    "level": {"enum": [1, 2.5, "x"], "default": 1},
	    "kind":  {"anyOf": [{"const": "a"}, {"enum": ["b"]}, {"type": "null"}]},
	    "odd":   {"$ref": "#/$defs/a~1b%20c"},
	    "loop":  {"$ref": "#/$defs/Loop"},
	    "any":   true
	  },
	  "required": ["node", "grid"],
	  "$defs": {
	    "Node": {"description": "A node.", "type": "object"},
	    "a/b c": {"type": "boolean"},
	    "Loop": {"$ref": "#/$defs/Loop"}
	  }
	}`)
	params, err := Parameters(schema)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		name, typ, desc     string
		types               []string
		required, structure bool
		def, enum           string
	}
	var got []row
	for _, p := range params {
		enum, _ := json.Marshal(p.Enum)
		got = append(got, row{p.Name, p.Type, p.Description, p.Types, p.Required, p.Structured, string(p.Default), string(enum)})
	}
	want := []row{
		{"when", "string (date) or null", "When.", []string{"string", "null"}, false, false, "", "null"},
		{"node", "object", "A node.", []string{"object"}, true, true, "", "null"},
		{"maybe", "object or null", "Maybe a node.", []string{"object", "null"}, false, true, "", "null"},
		{"self", "object", "", []string{"object"}, false, true, "", "null"},
		{"grid", "array of array of integer", "", []string{"array"}, true, true, "", "null"},
		{"level", "integer or number or string", "", []string{"integer", "number", "string"}, false, false, "1", `[1,2.5,"x"]`},
		{"kind", "string or null", "", []string{"string", "null"}, false, false, "", `["a","b",null]`},
		{"odd", "boolean", "", []string{"boolean"}, false, false, "", "null"},
		{"loop", "any", "", nil, false, false, "", "null"},
		{"any", "any", "", nil, false, false, "", "null"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got\n%+v\nwant\n%+v", got, want)
	}

	for _, bad := range []string{`[]`, `"x"`, `{"properties": []}`, `{"required": "a"}`, `{"$defs": 1}`, `{`} {
		if _, err := Parameters(json.RawMessage(bad)); err == nil {
			t.Errorf("Parameters(%s) succeeded", bad)
		}
	}
	if params, err := Parameters(nil); err != nil || params != nil {
		t.Errorf("empty schema: %v, %v", params, err)
	}
}

// TestConcurrentUse asks about tools and lists the declared ones from many goroutines; run it
// with -race.
func TestConcurrentUse(t *testing.T) {
	reg := exampleRegistry(t)
	d, err := New(reg)
	if err != nil {
		t.Fatal(err)
	}
	all := reg.Names()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 25 {
				name := all[(i+j)%len(all)]
				if res := info(d, fmt.Sprintf(`{"name":%q}`, name)); res.IsError {
					t.Error(res.Text)
					return
				}
				_ = d.Tools()
				_ = d.Catalog()
			}
		}()
	}
	wg.Wait()
	if got := len(d.Tools()); got != len(all)+1 {
		t.Fatalf("got %d declared tools, want %d", got, len(all)+1)
	}
}

// The provider adapters dispatch through a *runtime.Registry: Registry runs get_tool_info
// (revealing the tool it describes) and every other tool.
func TestRegistryForAdapters(t *testing.T) {
	reg := runtime.NewRegistry()
	if err := reg.Add(weather.Tools()...); err != nil {
		t.Fatal(err)
	}
	d, err := New(reg)
	if err != nil {
		t.Fatal(err)
	}
	all := d.Registry()
	if got := all.Names(); !slices.Equal(got, []string{"get_tool_info", "get_weather"}) {
		t.Fatalf("Registry names %v", got)
	}
	res := all.Invoke(context.Background(), runtime.Call{Name: InfoToolName, Args: []byte(`{"name":"get_weather"}`)})
	if res.IsError || !strings.Contains(res.Text, "city") {
		t.Fatalf("get_tool_info through Registry: %+v", res)
	}
	if got := names(d.Tools()); !slices.Equal(got, []string{"get_tool_info", "get_weather"}) {
		t.Errorf("asking through Registry did not reveal get_weather: %v", got)
	}
	if res := all.Invoke(context.Background(), runtime.Call{Name: "get_weather", Args: []byte(`{"city":"Oslo"}`)}); res.IsError {
		t.Errorf("get_weather through Registry: %+v", res)
	}
}

// TestDeferredToolsWithSearch: deferred tools stay out of the catalog, tool_search finds
// them, and get_tool_info explains the tool found.
func TestDeferredToolsWithSearch(t *testing.T) {
	reg := exampleRegistry(t)
	hidden := reg.Tools()[0]
	hidden.Name, hidden.Description, hidden.Deferred = "refund_invoice", "Refunds a paid invoice to the customer.", true
	require.NoError(t, reg.Add(hidden))

	d, err := New(reg)
	require.NoError(t, err)
	catalog := d.Catalog()
	assert.NotContains(t, catalog, "refund_invoice")
	assert.Contains(t, catalog, "1 more tool is not listed; search for it (tool_search)")

	search, err := toolsearch.New(reg)
	require.NoError(t, err)
	found := search.Registry().Invoke(t.Context(), runtime.Call{Name: toolsearch.ToolName, Args: []byte(`{"query":"refund an invoice"}`)})
	require.False(t, found.IsError, found.Text)
	assert.Contains(t, found.Text, `"name":"refund_invoice"`)
	res := info(d, `{"name":"refund_invoice"}`)
	assert.False(t, res.IsError, res.Text)
	assert.Contains(t, res.Text, "Refunds a paid invoice")
}

// What one session asks about is declared in that session only, through Invoke and through
// the registry the adapters dispatch with; Reveal declares in every session.
func TestRevealedPerSession(t *testing.T) {
	ctx := context.Background()
	d, err := New(exampleRegistry(t))
	require.NoError(t, err)
	ask := func(run func(context.Context, runtime.Call) runtime.Result, session, tool string) {
		t.Helper()
		res := run(ctx, runtime.Call{ID: "1", Name: InfoToolName, Args: []byte(`{"name":"` + tool + `"}`), Session: session})
		require.False(t, res.IsError, res.Text)
	}
	ask(d.Invoke, "ann", "get_weather")
	ask(d.Registry().Invoke, "bob", "list_orders")
	assert.Equal(t, []string{InfoToolName, "get_weather"}, names(d.ToolsIn(ctx, "ann")))
	assert.Equal(t, []string{InfoToolName, "list_orders"}, names(d.ToolsIn(ctx, "bob")))
	assert.Equal(t, []string{InfoToolName}, names(d.Tools()), "calls without a session saw neither")

	require.NoError(t, d.Reveal("create_order"))
	assert.Equal(t, []string{"create_order", InfoToolName, "list_orders"}, names(d.ToolsIn(ctx, "bob")))
	assert.Equal(t, []string{"create_order", InfoToolName}, names(d.Tools()))
}

// What a session asked about survives a session store that keeps JSON (runtime/redisstore),
// where the list comes back as []any: it is still declared, and a later question adds to it.
func TestRevealedInAJSONSessionStore(t *testing.T) {
	ctx := context.Background()
	reg := runtime.NewRegistry(runtime.WithSessionStore(&fixture.JSONSessionStore{}))
	require.NoError(t, reg.Add(append(weather.Tools(), new(orders.Service).Tools()...)...))
	d, err := New(reg)
	require.NoError(t, err)
	for _, tool := range []string{"get_weather", "list_orders"} {
		res := d.Invoke(ctx, runtime.Call{ID: "1", Name: InfoToolName, Args: []byte(`{"name":"` + tool + `"}`), Session: "ann"})
		require.False(t, res.IsError, res.Text)
	}
	assert.Equal(t, []string{InfoToolName, "get_weather", "list_orders"}, names(d.ToolsIn(ctx, "ann")))
}
