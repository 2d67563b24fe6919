package parse_test

import (
	"strings"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/gen/parse"
)

const handlersSource = `// Package m has tools.
//
//tool:tags core
package m

import (
	"context"
	"errors"

	"github.com/toolgen-go/toolgen/runtime"
)

type Args struct {
	City string ` + "`json:\"city\"`" + `
}

func (a *Args) Validate(ctx context.Context) error { return nil }

type Weather struct {
	Temp float64 ` + "`json:\"temp\"`" + `
}

// GetWeather gets the current weather
// for a city.
//
// Use it when the user asks about the weather.
// It knows every city.
//
//   - lists stay
//   - on their lines
//
//tool:name get_weather
//tool:tags weather,outdoor
//tool:timeout 10s
//tool:retry max=2 delay=1s
//tool:confirm costs money
//tool:risk high
//tool:hints readonly,openworld
//tool:example "Tokyo" {"city":"Tokyo"} => sunny
//tool:trigger the user mentions weather
//tool:related forecast after this
//tool:meta owner=team-a
//tool:maxresult 4KiB
//tool:sequential
func GetWeather(ctx context.Context, args Args) (Weather, error) { return Weather{}, nil }

// Forecast predicts.
//
//tool:description Predicts the weather
//tool:description for the next days.
func Forecast(ctx context.Context, args *Args) error { return nil }

// NoCtx needs no context.
//tool:title No context
func NoCtx(args Args) (string, error) { return "", nil }

// NoArgs takes nothing.
//tool:category misc
func NoArgs(ctx context.Context) (runtime.Result, error) { return runtime.Result{}, nil }

type Service struct{}

// Search searches.
//tool:name search
func (s *Service) Search(ctx context.Context, args struct{ Q string }) (string, error) { return "", nil }

// Ping pings.
//tool:name ping
func (s Service) Ping(ctx context.Context) (string, error) { return "", errors.New("x") }

// Pick asks the user to pick a colour.
//
//tool:client
type Pick struct {
	Colors []string ` + "`json:\"colors\"`" + `
}

// Lookup asks the user to look something up.
//
//tool:client
type (
	Lookup struct {
		Query string ` + "`json:\"query\"`" + `
	}
)
`

func TestHandlerForms(t *testing.T) {
	r := parseFiles(t, map[string]string{"m.go": handlersSource})
	r.requireNoErrors(t)
	if r.pkg.Path != "example.com/m" || r.pkg.Name != "m" || !strings.HasPrefix(r.pkg.Dir, r.dir) {
		t.Errorf("package %q %q %q", r.pkg.Path, r.pkg.Name, r.pkg.Dir)
	}
	var names []string
	for _, tl := range r.pkg.Tools {
		names = append(names, tl.Name)
	}
	if got := strings.Join(names, ","); got != "forecast,get_weather,lookup,no_args,no_ctx,pick,ping,search" {
		t.Errorf("tools %s, want them sorted by name", got)
	}

	cases := []struct {
		tool string
		want model.Handler
	}{
		{"get_weather", model.Handler{Name: "GetWeather", Context: true, Args: model.ArgsValue, Returns: model.ReturnStructured, Validate: true}},
		{"forecast", model.Handler{Name: "Forecast", Context: true, Args: model.ArgsPointer, Returns: model.ReturnNone, Validate: true}},
		{"no_ctx", model.Handler{Name: "NoCtx", Args: model.ArgsValue, Returns: model.ReturnText, Validate: true}},
		{"no_args", model.Handler{Name: "NoArgs", Context: true, Args: model.ArgsNone, Returns: model.ReturnResult}},
	}
	for _, c := range cases {
		if got := r.tool(t, c.tool).Handler; got != c.want {
			t.Errorf("%s: handler %+v, want %+v", c.tool, got, c.want)
		}
	}
	search := r.tool(t, "search")
	if rc := search.Handler.Receiver; rc == nil || rc.TypeName != "Service" || !rc.Pointer {
		t.Errorf("search receiver %+v, want *Service", rc)
	}
	if search.Args.Named != nil || field(t, search.Args, "Q").Type.Kind != model.KindString {
		t.Errorf("search args: an unnamed struct with Q")
	}
	if rc := r.tool(t, "ping").Handler.Receiver; rc == nil || rc.Pointer {
		t.Errorf("ping receiver %+v, want Service by value", rc)
	}
	if r.tool(t, "no_args").Args != nil {
		t.Errorf("a handler without args has nil Args")
	}
	gw := r.tool(t, "get_weather")
	if gw.Result == nil || gw.Result.Named.Name != "Weather" || field(t, gw.Result, "temp").Type.Kind != model.KindFloat {
		t.Errorf("get_weather result: %+v", gw.Result)
	}
	if line := lineOf(t, handlersSource, "func GetWeather"); gw.Pos.Line != line || gw.Pos.Column != 6 || !strings.HasSuffix(gw.Pos.Filename, "m.go") {
		t.Errorf("get_weather at %s, want m.go:%d:6 (the func name)", gw.Pos, line)
	}

	pick := r.tool(t, "pick")
	if !pick.Client || pick.Handler != (model.Handler{}) || pick.Args.Named.Name != "Pick" ||
		pick.Description != "Asks the user to pick a colour." {
		t.Errorf("client tool: %+v", pick)
	}
	// The doc above a parenthesized declaration of one type documents that type, for the tool
	// and for its args type ($defs description) alike.
	lookup := r.tool(t, "lookup")
	if !lookup.Client || lookup.Description != "Asks the user to look something up." ||
		lookup.Args.Doc != "Lookup asks the user to look something up." {
		t.Errorf("client tool in a type group: description %q, args doc %q", lookup.Description, lookup.Args.Doc)
	}
}

func TestDirectivesAndDescriptions(t *testing.T) {
	r := parseFiles(t, map[string]string{"m.go": handlersSource})
	r.requireNoErrors(t)
	gw := r.tool(t, "get_weather")
	if gw.Description != "Gets the current weather for a city." {
		t.Errorf("description %q", gw.Description)
	}
	if want := "Use it when the user asks about the weather. It knows every city.\n\n- lists stay\n- on their lines"; gw.Detail != want {
		t.Errorf("detail %q, want %q", gw.Detail, want)
	}
	if strings.Join(gw.Tags, ",") != "weather,outdoor" || gw.Timeout != 10*time.Second ||
		gw.Retry == nil || gw.Retry.Max != 2 || !gw.Confirm || gw.ConfirmReason != "costs money" ||
		gw.Risk != "high" || gw.Hints != (model.Hints{ReadOnly: true, OpenWorld: true}) ||
		gw.MaxResult != 4096 || !gw.Sequential {
		t.Errorf("directives not applied:\n%s", r.dump())
	}
	if len(gw.Examples) != 1 || gw.Examples[0].Args != `{"city":"Tokyo"}` || gw.Examples[0].Scenario != "Tokyo" ||
		gw.Examples[0].Expected != "sunny" || gw.Examples[0].Pos.Column != 24 {
		t.Errorf("examples %+v (the position is the JSON's, column 24)", gw.Examples)
	}
	if len(gw.Related) != 1 || gw.Related[0].Name != "forecast" || gw.Related[0].Relation != "after this" {
		t.Errorf("related %+v", gw.Related)
	}
	if len(gw.Meta) != 1 || gw.Meta[0] != (model.Meta{Key: "owner", Value: "team-a"}) {
		t.Errorf("meta %+v", gw.Meta)
	}
	if len(gw.Triggers) != 1 || gw.Triggers[0] != "the user mentions weather" {
		t.Errorf("triggers %q", gw.Triggers)
	}

	fc := r.tool(t, "forecast")
	if fc.Description != "Predicts the weather for the next days." {
		t.Errorf("//tool:description lines should join: %q", fc.Description)
	}
	// Package default tags apply to tools without tags of their own.
	if strings.Join(r.pkg.DefaultTags, ",") != "core" || strings.Join(fc.Tags, ",") != "core" {
		t.Errorf("default tags %q, forecast tags %q", r.pkg.DefaultTags, fc.Tags)
	}
	if nc := r.tool(t, "no_ctx"); nc.Title != "No context" || nc.Description != "Needs no context." {
		t.Errorf("no_ctx: %q %q", nc.Title, nc.Description)
	}
}

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{
		"GetWeather":  "get_weather",
		"HTTPServer":  "http_server",
		"ListUserIDs": "list_user_ids",
		"Get2FACode":  "get_2fa_code",
		"IDsByName":   "ids_by_name",
		"search":      "search",
		"URL":         "url",
		"V2Api":       "v2_api",
		"Get_Weather": "get_weather",
		"JSONSchema":  "json_schema",
		"X":           "x",
	} {
		if got := parse.SnakeCase(in); got != want {
			t.Errorf("SnakeCase(%q) = %q, want %q", in, got, want)
		}
	}
}
