package schema_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/gen/schema"
)

var update = flag.Bool("update", false, "rewrite testdata/*.json golden files with the current output")

// weatherTool is the get_weather tool of DESIGN.md §1, as the parser models it.
func weatherTool() *model.Tool {
	unit := unitEnum()
	unit.Enum = unit.Enum[:2]
	args := named("example.com/weather", "WeatherArgs", structOf(
		withConstraints(&model.Field{GoName: "City", JSONName: "city", Type: str(), Required: true,
			Description: "City name, e.g. Beijing, Tokyo."}, model.Constraints{MinLength: intp(1)}),
		withConstraints(&model.Field{GoName: "Unit", JSONName: "unit", Type: unit, OmitEmpty: true,
			Description: "Temperature unit."}, model.Constraints{Default: &model.Literal{JSON: `"celsius"`}}),
		withConstraints(&model.Field{GoName: "Days", JSONName: "days", Type: basic(model.KindInt, 0), OmitEmpty: true,
			Description: "Days of forecast to include."}, model.Constraints{Minimum: num("0", 0), Maximum: num("7", 7)}),
	))
	args.Doc = "WeatherArgs are the arguments of get_weather."
	day := named("example.com/weather", "Day", structOf(
		req("date", basic(model.KindTime, 0)),
		&model.Field{JSONName: "high", Type: basic(model.KindFloat, 64), Description: "Highest temperature."},
	))
	result := named("example.com/weather", "Weather", structOf(
		&model.Field{JSONName: "temperature", Type: basic(model.KindFloat, 64), Description: "Current temperature."},
		&model.Field{JSONName: "conditions", Type: str(), Description: "Sky conditions, e.g. cloudy."},
		&model.Field{JSONName: "forecast", Type: sliceOf(day), OmitEmpty: true},
		&model.Field{JSONName: "updated", Type: ptr(basic(model.KindTime, 0))},
	))
	return &model.Tool{Name: "get_weather", Description: "Gets the current weather for a city.", Args: args, Result: result}
}

// TestGolden compares the indented schemas of a realistic tool with testdata, as
// `toolgen -schemas DIR` writes them. Run with -update after an intended change.
func TestGolden(t *testing.T) {
	tool := weatherTool()
	for _, g := range []struct {
		file string
		doc  []byte
	}{
		{"get_weather.input.json", schema.Input(tool)},
		{"get_weather.output.json", schema.Output(tool)},
	} {
		compile(t, g.doc)
		got := schema.Indent(g.doc)
		path := filepath.Join("testdata", g.file)
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the golden file; if the change is intended, run go test -update\n got:\n%s\nwant:\n%s", path, got, want)
		}
	}
}

// TestDeterministic renders the same model twice, and an equal model built anew, and
// expects the same bytes: schemas are embedded in generated code, which must not churn.
func TestDeterministic(t *testing.T) {
	a, b := weatherTool(), weatherTool()
	if x, y := schema.Input(a), schema.Input(a); !bytes.Equal(x, y) {
		t.Errorf("Input differs between two calls:\n%s\n%s", x, y)
	}
	if x, y := schema.Output(a), schema.Output(b); !bytes.Equal(x, y) {
		t.Errorf("Output differs between equal models:\n%s\n%s", x, y)
	}
}

func TestIndent(t *testing.T) {
	got := string(schema.Indent([]byte(`{"type":"object","properties":{},"enum":["a<b"]}`)))
	want := "{\n  \"type\": \"object\",\n  \"properties\": {},\n  \"enum\": [\n    \"a<b\"\n  ]\n}\n"
	if got != want {
		t.Errorf("Indent:\n%s\nwant:\n%s", got, want)
	}
	if got := string(schema.Indent([]byte("not json\n"))); got != "not json\n" {
		t.Errorf("Indent of non-JSON = %q, want it unchanged", got)
	}
}

// TestMalformedModel feeds models the parser never builds; rendering must not panic and
// must still produce a schema that compiles.
func TestMalformedModel(t *testing.T) {
	loop := &model.Type{Kind: model.KindSlice}
	loop.Elem = loop // an unnamed cycle
	ptrLoop := named("example.com/x", "P", &model.Type{Kind: model.KindPointer})
	ptrLoop.Elem = ptrLoop
	same1 := named("example.com/x", "T", structOf(req("a", str())))
	same2 := named("example.com/x", "T", structOf(req("b", str())))
	weird := named("example.com/x", "W", structOf(req("v", str())), nil)
	weird.Named.TypeArgs = []*model.Type{weird}
	cases := map[string]*model.Type{
		"nil field type":     structOf(req("a", nil), nil),
		"invalid kind":       structOf(req("a", &model.Type{Kind: model.KindInvalid}), req("b", &model.Type{Kind: 99})),
		"nil elements":       structOf(req("a", sliceOf(nil)), req("b", mapOf(nil, nil)), req("c", ptr(nil))),
		"unnamed cycle":      structOf(req("a", loop)),
		"pointer cycle":      structOf(opt("a", ptrLoop)),
		"duplicate names":    structOf(req("a", str()), req("a", basic(model.KindInt, 0))),
		"same name and path": structOf(req("a", same1), req("b", same1), req("c", same2), req("d", same2)),
		"self type argument": structOf(req("a", weird), req("b", weird)),
		"negative length":    structOf(req("a", arrayOf(-1, str()))),
		"enum with nil":      structOf(req("a", &model.Type{Kind: model.KindString, Enum: []*model.EnumValue{nil, {String: "x"}}})),
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			compile(t, schema.Input(&model.Tool{Name: "t", Args: args}))
			compile(t, schema.Output(&model.Tool{Name: "t", Result: args}))
		})
	}
}
