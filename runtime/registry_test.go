package runtime_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

func names(tools []runtime.Tool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Name)
	}
	return out
}

func TestAddRefusesDuplicatesAtomically(t *testing.T) {
	reg := runtime.NewRegistry()
	if err := reg.Add(constTool("get_time", "noon")); err != nil {
		t.Fatalf("Add: %v", err)
	}

	err := reg.Add(constTool("get_weather", "sunny"), constTool("get_time", "midnight"))
	if !errors.Is(err, runtime.ErrDuplicateTool) {
		t.Fatalf("Add of a registered name: err = %v, want ErrDuplicateTool", err)
	}
	if !strings.Contains(err.Error(), `tool "get_time": duplicate tool name: already registered`) {
		t.Errorf("error does not name the clash:\n%v", err)
	}
	if _, ok := reg.Tool("get_weather"); ok {
		t.Errorf("get_weather was added although Add failed")
	}
	if got, _ := reg.Tool("get_time"); got.Bind == nil {
		t.Errorf("the registered get_time was lost")
	}

	err = reg.Add(constTool("a", ""), constTool("a", ""))
	if !errors.Is(err, runtime.ErrDuplicateTool) || !strings.Contains(err.Error(), `tool "a": duplicate tool name: given more than once`) {
		t.Errorf("Add of a name twice in one call: err = %v", err)
	}
	if got := reg.Names(); !slices.Equal(got, []string{"get_time"}) {
		t.Errorf("Names after refused Adds = %v, want [get_time]", got)
	}
}

func TestAddNamesEveryRefusedTool(t *testing.T) {
	reg := runtime.NewRegistry()
	err := reg.Add(
		constTool("ok_tool", ""),
		runtime.Tool{Bind: constTool("x", "").Bind},
		constTool("9lives", ""),
		constTool("has space", ""),
		constTool(strings.Repeat("a", 129), ""),
		runtime.Tool{Name: "no_bind"},
	)
	if err == nil {
		t.Fatal("Add accepted invalid tools")
	}
	want := `runtime: refused 5 of the tools given to Add; none was added:
- tool #2 of Add: missing Name
- tool "9lives": invalid name: must match ^[a-zA-Z_][a-zA-Z0-9_-]{0,127}$
- tool "has space": invalid name: must match ^[a-zA-Z_][a-zA-Z0-9_-]{0,127}$
- tool "` + strings.Repeat("a", 129) + `": invalid name: must match ^[a-zA-Z_][a-zA-Z0-9_-]{0,127}$
- tool "no_bind": missing Bind function`
	if err.Error() != want {
		t.Errorf("error =\n%v\nwant\n%v", err, want)
	}
	if errors.Is(err, runtime.ErrDuplicateTool) {
		t.Errorf("errors.Is(err, ErrDuplicateTool) with no duplicate")
	}
	if n := len(reg.Tools()); n != 0 {
		t.Errorf("%d tools added although Add failed", n)
	}
}

func TestAddAcceptsValidNames(t *testing.T) {
	reg := runtime.NewRegistry()
	valid := []string{"a", "_", "A_b-9", "get-weather", strings.Repeat("z", 64)}
	var tools []runtime.Tool
	for _, name := range valid {
		tools = append(tools, constTool(name, ""))
	}
	if err := reg.Add(tools...); err != nil {
		t.Fatalf("Add of valid names: %v", err)
	}
}

func TestAddAcceptsClientToolWithoutBind(t *testing.T) {
	reg := runtime.NewRegistry()
	if err := reg.Add(runtime.Tool{Name: "pick_file", Client: true}); err != nil {
		t.Fatalf("Add of a client tool: %v", err)
	}
	// The registry does not run it: the host gets the call to execute.
	res := reg.Invoke(t.Context(), runtime.Call{ID: "c1", Name: "pick_file", Args: []byte(`{"ext":"pdf"}`)})
	if res.IsError || res.ClientCall == nil || res.ClientCall.CallID != "c1" || res.ClientCall.Tool != "pick_file" {
		t.Fatalf("Invoke of a client tool = %+v", res)
	}
	if raw, ok := res.ClientCall.Args.(json.RawMessage); !ok || string(raw) != `{"ext":"pdf"}` {
		t.Errorf("ClientCall.Args = %#v, want the raw arguments", res.ClientCall.Args)
	}
}

func TestZeroRegistryIsUsable(t *testing.T) {
	var reg runtime.Registry
	if err := reg.Add(constTool("t", "ok")); err != nil {
		t.Fatalf("Add: %v", err)
	}
	if res := reg.Invoke(t.Context(), runtime.Call{Name: "t"}); res.Text != "ok" {
		t.Errorf("Invoke = %+v", res)
	}
	// InvokeAll (and so every adapter's Dispatch) reads the batch settings.
	for i, res := range reg.InvokeAll(t.Context(), []runtime.Call{{Name: "t"}, {Name: "t"}}) {
		if res.Text != "ok" {
			t.Errorf("InvokeAll, call %d = %+v", i, res)
		}
	}
}

func TestListingsAreSorted(t *testing.T) {
	reg := runtime.NewRegistry()
	must(t, reg.Add(constTool("search_web", "", "web", "research")))
	must(t, reg.Add(constTool("get_weather", "", "weather"), constTool("fetch_page", "", "web")))
	must(t, reg.Add(constTool("add_note", "")))

	want := []string{"add_note", "fetch_page", "get_weather", "search_web"}
	if got := reg.Names(); !slices.Equal(got, want) {
		t.Errorf("Names = %v, want %v", got, want)
	}
	if got := names(reg.Tools()); !slices.Equal(got, want) {
		t.Errorf("Tools = %v, want %v", got, want)
	}

	// The listings are copies: changing them leaves the registry alone.
	listed := reg.Names()
	listed[0] = "changed"
	if got := reg.Names(); got[0] != "add_note" {
		t.Errorf("Names shares its slice with the registry: %v", got)
	}
}

func TestByTag(t *testing.T) {
	reg := runtime.NewRegistry()
	must(t, reg.Add(
		constTool("search_web", "", "web", "research"),
		constTool("get_weather", "", "weather"),
		constTool("fetch_page", "", "web"),
		constTool("add_note", ""),
	))
	cases := []struct {
		tags []string
		want []string
	}{
		{[]string{"web"}, []string{"fetch_page", "search_web"}},
		{[]string{"weather", "research"}, []string{"get_weather", "search_web"}},
		{[]string{"nope"}, nil},
		{nil, nil},
	}
	for _, c := range cases {
		if got := names(reg.ByTag(c.tags...)); !slices.Equal(got, c.want) {
			t.Errorf("ByTag(%q) = %v, want %v", c.tags, got, c.want)
		}
	}
}

func TestSubset(t *testing.T) {
	reg := runtime.NewRegistry()
	must(t, reg.Add(constTool("search_web", "found"), constTool("get_weather", "sunny"), constTool("fetch_page", "page")))

	sub, err := reg.Subset("search_web", "fetch_page", "search_web")
	if err != nil {
		t.Fatalf("Subset: %v", err)
	}
	if got := sub.Names(); !slices.Equal(got, []string{"fetch_page", "search_web"}) {
		t.Errorf("subset Names = %v", got)
	}
	if res := sub.Invoke(t.Context(), runtime.Call{Name: "search_web"}); res.Text != "found" {
		t.Errorf("subset Invoke = %+v", res)
	}
	if res := sub.Invoke(t.Context(), runtime.Call{Name: "get_weather"}); !res.IsError {
		t.Errorf("subset ran a tool it does not hold: %+v", res)
	}

	// The two registries are independent from now on.
	must(t, sub.Add(constTool("only_in_subset", "")))
	if _, ok := reg.Tool("only_in_subset"); ok {
		t.Errorf("a tool added to the subset appeared in its parent")
	}
}

func TestSubsetUnknownNames(t *testing.T) {
	reg := runtime.NewRegistry()
	must(t, reg.Add(constTool("search_web", ""), constTool("get_weather", "")))

	sub, err := reg.Subset("get_wether", "search_web", "zzz")
	if sub != nil {
		t.Errorf("Subset returned a registry along with an error")
	}
	if !errors.Is(err, runtime.ErrUnknownTool) {
		t.Fatalf("err = %v, want ErrUnknownTool", err)
	}
	want := `runtime: subset: unknown tool: "get_wether" (did you mean "get_weather"?), "zzz"`
	if err.Error() != want {
		t.Errorf("err =\n%v\nwant\n%v", err, want)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
