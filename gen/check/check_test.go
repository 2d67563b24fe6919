package check_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgen-go/toolgen/gen/check"
	"github.com/toolgen-go/toolgen/gen/diag"
	"github.com/toolgen-go/toolgen/gen/model"
)

func at(line int) model.Position {
	return model.Position{Filename: "weather.go", Line: line, Column: 6}
}

func str() *model.Type { return &model.Type{Kind: model.KindString} }

// weatherTool is a tool that passes every check; each test case breaks one thing.
func weatherTool() *model.Tool {
	unit := &model.Type{Kind: model.KindString, Named: &model.GoName{Path: "example.com/weather", Name: "Unit"},
		Enum: []*model.EnumValue{{String: "celsius"}, {String: "fahrenheit"}}}
	args := &model.Type{Kind: model.KindStruct, Named: &model.GoName{Path: "example.com/weather", Name: "WeatherArgs"},
		Fields: []*model.Field{
			{Pos: at(3), GoName: "City", JSONName: "city", Type: str(), Required: true, Description: "City name."},
			{Pos: at(4), GoName: "Unit", JSONName: "unit", Type: unit, Description: "Temperature unit.",
				Constraints: model.Constraints{Default: &model.Literal{JSON: `"celsius"`}}},
			{Pos: at(5), GoName: "When", JSONName: "when", Type: &model.Type{Kind: model.KindPointer, Elem: &model.Type{Kind: model.KindTime}},
				Description: "Time of day."},
		}}
	return &model.Tool{
		Pos: at(10), Name: "get_weather", Description: "Gets the current weather for a city.",
		Handler: model.Handler{Name: "GetWeather", Context: true, Args: model.ArgsValue, Returns: model.ReturnText},
		Args:    args,
	}
}

func run(pkgs ...*model.Package) string {
	var l diag.List
	check.Run(pkgs, &l)
	var b strings.Builder
	l.Print(&b, "")
	return b.String()
}

func pkg(tools ...*model.Tool) *model.Package {
	return &model.Package{Path: "example.com/weather", Name: "weather", Tools: tools}
}

func TestRun(t *testing.T) {
	tests := []struct {
		name   string
		change func(*model.Tool)
		want   string
	}{
		{"valid tool", func(*model.Tool) {}, ""},
		{"invalid name", func(t *model.Tool) { t.Name = "get weather!" },
			"weather.go:10:6: invalid tool name \"get weather!\": it must match ^[a-zA-Z_][a-zA-Z0-9_-]{0,127}$\n" +
				"\thint: name the tool with //tool:name, e.g. //tool:name get_weather\n"},
		{"name starting with a digit", func(t *model.Tool) { t.Name = "3d-print" },
			"weather.go:10:6: invalid tool name \"3d-print\": it must match ^[a-zA-Z_][a-zA-Z0-9_-]{0,127}$\n" +
				"\thint: name the tool with //tool:name, e.g. //tool:name _3d-print\n"},
		{"name too long", func(t *model.Tool) { t.Name = strings.Repeat("a", 129) },
			"weather.go:10:6: invalid tool name \"" + strings.Repeat("a", 129) + "\": it must match ^[a-zA-Z_][a-zA-Z0-9_-]{0,127}$\n" +
				"\thint: name the tool with //tool:name, e.g. //tool:name " + strings.Repeat("a", 128) + "\n"},
		{"name with nothing valid in it", func(t *model.Tool) { t.Name = "天気" },
			"weather.go:10:6: invalid tool name \"天気\": it must match ^[a-zA-Z_][a-zA-Z0-9_-]{0,127}$\n" +
				"\thint: name the tool with //tool:name NAME\n"},
		{"longest valid name", func(t *model.Tool) {
			t.Name = "_" + strings.Repeat("a-9", 21)
			t.Lint = map[string]bool{"snake-case": false} // valid for every provider, though not snake_case
		}, ""},
		{"no description", func(t *model.Tool) { t.Description = " \n" },
			"weather.go:10:6: tool get_weather has no description\n" +
				"\thint: the model chooses tools by their description: write a doc comment on GetWeather, or use //tool:description\n"},
		{"client tool without description", func(t *model.Tool) { t.Description, t.Client, t.Handler = "", true, model.Handler{} },
			"weather.go:10:6: tool get_weather has no description\n" +
				"\thint: the model chooses tools by their description: write a doc comment, or use //tool:description\n"},
		{"description over 1024 characters", func(t *model.Tool) { t.Description = strings.Repeat("x", 1025) },
			"weather.go:10:6: description of tool get_weather is 1025 characters long, over the limit of 1024\n" +
				"\thint: keep the first paragraph short; the following paragraphs become the tool's detail\n"},
		{"description over 200 characters", func(t *model.Tool) { t.Description = strings.Repeat("x", 201) },
			"weather.go:10:6: warning: description of tool get_weather is 201 characters long, over 200\n" +
				"\thint: models read it on every turn: keep the first paragraph short and move the rest to later paragraphs (the tool's detail); or turn the rule off with //tool:lint -description-length\n"},
		{"200 characters counted as code points", func(t *model.Tool) { t.Description = strings.Repeat("é", 200) }, ""},
		{"readonly and destructive", func(t *model.Tool) {
			t.Hints = model.Hints{ReadOnly: true, Destructive: true}
			t.Confirm = true
		}, "weather.go:10:6: tool get_weather is hinted both readonly and destructive\n" +
			"\thint: a tool that changes nothing cannot destroy anything: drop one of the two hints\n"},
		{"retry on a destructive tool", func(t *model.Tool) {
			t.Hints.Destructive, t.Confirm, t.Retry = true, true, &model.Retry{Max: 3}
		}, "weather.go:10:6: tool get_weather retries a destructive call that is not idempotent: a retry could repeat the damage\n" +
			"\thint: add the idempotent hint if repeating the call is safe, or remove //tool:retry\n"},
		{"retry on a destructive idempotent tool", func(t *model.Tool) {
			t.Hints, t.Confirm, t.Retry = model.Hints{Destructive: true, Idempotent: true}, true, &model.Retry{Max: 3}
		}, ""},
		{"retry on a safe tool", func(t *model.Tool) { t.Retry = &model.Retry{Max: 3} }, ""},
		{"destructive without confirm", func(t *model.Tool) { t.Hints.Destructive = true },
			"weather.go:10:6: warning: destructive tool get_weather runs without approval\n" +
				"\thint: add //tool:confirm so that someone approves each call\n"},
		{"related to an unknown tool, near miss", func(t *model.Tool) {
			t.Related = []model.Related{{Pos: at(8), Name: "get_wether"}}
		}, "weather.go:8:6: //tool:related names unknown tool \"get_wether\"; did you mean \"get_weather\"?\n"},
		{"related to an unknown tool", func(t *model.Tool) {
			t.Related = []model.Related{{Pos: at(8), Name: "send_email"}}
		}, "weather.go:8:6: //tool:related names unknown tool \"send_email\"\n" +
			"\thint: a related tool must be declared in the same package (the same Tools() catalog)\n"},
		{"valid examples", func(t *model.Tool) {
			t.Examples = []model.Example{{Pos: at(7), Args: `{"city":"Tokyo"}`},
				{Pos: at(8), Scenario: "Both", Args: `{"city":"Oslo","unit":"celsius","when":"2024-05-01T10:00:00Z"}`}}
		}, ""},
		{"example that is not JSON", func(t *model.Tool) {
			t.Examples = []model.Example{{Pos: at(7), Scenario: "Tokyo", Args: `{"city":"Tokyo"`}}
		}, "weather.go:7:6: example \"Tokyo\" of get_weather is not valid JSON: unexpected EOF\n" +
			"\thint: write the arguments as one JSON object, e.g. {\"city\":\"Tokyo\"}\n"},
		{"example with trailing data", func(t *model.Tool) {
			t.Examples = []model.Example{{Pos: at(7), Args: `{"city":"Tokyo"} {}`}}
		}, "weather.go:7:6: example of get_weather is not valid JSON: invalid character after top-level value\n" +
			"\thint: write the arguments as one JSON object, e.g. {\"city\":\"Tokyo\"}\n"},
		{"example with every kind of problem", func(t *model.Tool) {
			t.Examples = []model.Example{{Pos: at(7), Args: `{"unit":"kelvin","when":"noon","citty":"Tokyo"}`}}
		}, "weather.go:7:6: example of get_weather does not match its input schema: " +
			"(root): additional properties 'citty' not allowed; (root): missing property 'city'; " +
			"/unit: value must be one of 'celsius', 'fahrenheit'; /when: 'noon' is not valid date-time: must be an RFC 3339 date-time such as \"2024-01-02T15:04:05Z\"\n" +
			"\thint: examples are shown to the model; fix the example or the argument types\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := weatherTool()
			tt.change(tool)
			assert.Equal(t, tt.want, run(pkg(tool)))
		})
	}
}

// TestDuplicateNames checks that every repeat of a name within a package is an error pointing
// at the first declaration in position order, whatever the order, and that two packages may
// each have a tool of that name (a registry given both refuses the second at run time).
func TestDuplicateNames(t *testing.T) {
	first, second, third := weatherTool(), weatherTool(), weatherTool()
	first.Pos = model.Position{Filename: "b/weather.go", Line: 10, Column: 6}
	second.Pos = model.Position{Filename: "b/forecast.go", Line: 3, Column: 6}
	third.Pos = model.Position{Filename: "b/forecast.go", Line: 20, Column: 6}
	other := weatherTool()
	other.Name = "get_forecast"
	elsewhere := weatherTool()
	elsewhere.Pos = model.Position{Filename: "a/weather.go", Line: 10, Column: 6}
	want := "b/forecast.go:20:6: duplicate tool name \"get_weather\"\n" +
		"\thint: b/forecast.go:3:6 already declares it; tool names must be unique within a package (one Tools() catalog): rename one with //tool:name\n" +
		"b/weather.go:10:6: duplicate tool name \"get_weather\"\n" +
		"\thint: b/forecast.go:3:6 already declares it; tool names must be unique within a package (one Tools() catalog): rename one with //tool:name\n"
	assert.Equal(t, want, run(pkg(third, first, second, other), pkg(elsewhere)))
}

// TestRelatedInOtherPackage: a related tool must be in the same package, so that go generate
// on that package alone agrees with a run over the module.
func TestRelatedInOtherPackage(t *testing.T) {
	a, b := weatherTool(), weatherTool()
	b.Name = "send_alert"
	a.Related = []model.Related{{Pos: at(8), Name: "send_alert", Relation: "then"}}
	assert.Equal(t, "weather.go:8:6: //tool:related names unknown tool \"send_alert\"\n"+
		"\thint: a related tool must be declared in the same package (the same Tools() catalog)\n", run(pkg(a), pkg(b)))
	assert.Empty(t, run(pkg(a, b)))
}

// TestExampleThroughRefs validates an example against a schema with $defs and nullable
// $refs: the problem in the object is reported, not the "want null" of the wrapper.
func TestExampleThroughRefs(t *testing.T) {
	item := &model.Type{Kind: model.KindStruct, Named: &model.GoName{Path: "example.com/shop", Name: "Item"},
		Fields: []*model.Field{{Pos: at(2), JSONName: "sku", Type: str(), Required: true, Description: "Stock unit."}}}
	tool := weatherTool()
	tool.Args = &model.Type{Kind: model.KindStruct, Fields: []*model.Field{
		{Pos: at(3), JSONName: "first", Type: item, Description: "First."},
		{Pos: at(4), JSONName: "maybe", Type: &model.Type{Kind: model.KindPointer, Elem: item}, Description: "Maybe."},
	}}
	tool.Examples = []model.Example{
		{Pos: at(7), Args: `{"first":{"sku":"a"},"maybe":null}`},
		{Pos: at(8), Args: `{"first":{"sku":"a"},"maybe":{"sku":7}}`},
	}
	want := "weather.go:8:6: example of get_weather does not match its input schema: /maybe/sku: got number, want string\n" +
		"\thint: examples are shown to the model; fix the example or the argument types\n"
	assert.Equal(t, want, run(pkg(tool)))
}

// TestExampleWithoutArgs: a tool without arguments takes exactly {}.
func TestExampleWithoutArgs(t *testing.T) {
	tool := weatherTool()
	tool.Args = nil
	tool.Examples = []model.Example{{Pos: at(7), Args: `{}`}, {Pos: at(8), Args: `{"city":"Tokyo"}`}}
	want := "weather.go:8:6: example of get_weather does not match its input schema: (root): additional properties 'city' not allowed\n" +
		"\thint: examples are shown to the model; fix the example or the argument types\n"
	assert.Equal(t, want, run(pkg(tool)))
}

// TestParameterDescriptions: a warning at each field without a description, nested fields
// included, once per field even when two tools and two paths share its type.
func TestParameterDescriptions(t *testing.T) {
	node := &model.Type{Kind: model.KindStruct, Named: &model.GoName{Path: "example.com/tree", Name: "Node"}}
	node.Fields = []*model.Field{
		{Pos: at(2), GoName: "Name", JSONName: "name", Type: str(), Required: true},
		{Pos: at(3), GoName: "Next", JSONName: "next", Type: &model.Type{Kind: model.KindPointer, Elem: node}, Description: "Next node."},
	}
	a := weatherTool()
	a.Args.Fields = append(a.Args.Fields,
		&model.Field{Pos: at(6), GoName: "Nodes", JSONName: "nodes", Type: &model.Type{Kind: model.KindSlice, Elem: node}},
		&model.Field{Pos: at(7), GoName: "ByName", JSONName: "by_name", Description: "Nodes by name.",
			Type: &model.Type{Kind: model.KindMap, Key: str(), Elem: node}})
	b := weatherTool()
	b.Name = "get_tree"
	b.Args = a.Args
	want := "weather.go:2:6: warning: parameter \"name\" has no description\n" +
		"\thint: the model sees only the name: add a doc comment or a line comment to field Name; or turn the rule off with //tool:lint -parameter-description\n" +
		"weather.go:6:6: warning: parameter \"nodes\" has no description\n" +
		"\thint: the model sees only the name: add a doc comment or a line comment to field Nodes; or turn the rule off with //tool:lint -parameter-description\n"
	assert.Equal(t, want, run(pkg(a, b)))
	var l diag.List
	check.Run([]*model.Package{pkg(a, b)}, &l)
	assert.Equal(t, 2, l.Len(), "one diagnostic per field")
}

// TestInternalSchemaError: a schema that fails the 2020-12 meta-schema is reported as
// toolgen's fault. An invalid regular expression is the one way a model gets there.
func TestInternalSchemaError(t *testing.T) {
	tool := weatherTool()
	tool.Args.Fields[0].Constraints.Pattern = "(unclosed"
	tool.Result = &model.Type{Kind: model.KindStruct, Fields: []*model.Field{
		{JSONName: "n", Type: str(), Constraints: model.Constraints{Pattern: "[z-a]"}}}}
	tool.Examples = []model.Example{{Pos: at(7), Args: `{"city":1}`}}
	got := run(pkg(tool))
	for _, want := range []string{
		"weather.go:10:6: internal error: toolgen emitted an invalid schema for get_weather: input schema: ",
		"'(unclosed' is not valid regex",
		"weather.go:10:6: internal error: toolgen emitted an invalid schema for get_weather: output schema: ",
		"'[z-a]' is not valid regex",
		"(please report)\n",
	} {
		assert.Contains(t, got, want)
	}
	assert.NotContains(t, got, "example", "examples were checked against an invalid schema")
	assert.Equal(t, 2, strings.Count(got, "\n"), "two single-line diagnostics:\n%s", got)
}

// TestLintRules: each authoring rule warns, and //tool:lint on the tool or the package turns
// it off.
func TestLintRules(t *testing.T) {
	tool := weatherTool()
	tool.Name = "GetWeather"
	tool.Detail = strings.Repeat("x", 2001)
	tool.Args.Fields = append(tool.Args.Fields,
		&model.Field{Pos: at(6), GoName: "Days", JSONName: "days", Type: &model.Type{Kind: model.KindInt}, Description: "Days."},
		&model.Field{Pos: at(7), GoName: "Note", JSONName: "note", Type: str(), Required: true})
	got := run(pkg(tool))
	for _, want := range []string{
		"weather.go:6:6: warning: optional parameter \"days\" has no default\n" +
			"\thint: say what leaving it out means with default=VALUE in its tool tag, or make field Days a pointer; or turn the rule off with //tool:lint -optional-default\n",
		"weather.go:7:6: warning: parameter \"note\" has no description\n",
		"weather.go:10:6: warning: tool name \"GetWeather\" is not snake_case\n" +
			"\thint: name it //tool:name get_weather; or turn the rule off with //tool:lint -snake-case\n",
		"weather.go:10:6: warning: detail of tool GetWeather is 2001 characters long, over 2000\n",
	} {
		assert.Contains(t, got, want)
	}
	assert.Equal(t, 4, strings.Count(got, "warning:"), got)

	tool.Lint = map[string]bool{"snake-case": false, "detail-length": false}
	p := pkg(tool)
	p.Lint = map[string]bool{"optional-default": false, "parameter-description": false}
	assert.Empty(t, run(p))

	// The tool's setting wins over the package's.
	tool.Lint["optional-default"] = true
	assert.Contains(t, run(p), "optional parameter \"days\" has no default")
}

// TestPrerequisiteCheckTool: the tool named to check a prerequisite must be in the package.
func TestPrerequisiteCheckTool(t *testing.T) {
	tool := weatherTool()
	tool.Prerequisites = []model.Prerequisite{{Condition: "the city exists", Check: "get_wether", CheckPos: at(8)}}
	assert.Equal(t, "weather.go:8:6: //tool:prerequisite checks with unknown tool \"get_wether\"; did you mean \"get_weather\"?\n", run(pkg(tool)))
	tool.Prerequisites[0].Check = "get_weather"
	assert.Empty(t, run(pkg(tool)))
}

// TestWorkflowStepTool: the tool a //tool:workflow step names must be in the package.
func TestWorkflowStepTool(t *testing.T) {
	tool := weatherTool()
	tool.Workflow = []model.WorkflowStep{{Name: "read the forecast", Tool: "get_wether", ToolPos: at(8)}, {Name: "tell the user"}}
	assert.Equal(t, "weather.go:8:6: //tool:workflow step \"read the forecast\" names unknown tool \"get_wether\"; did you mean \"get_weather\"?\n", run(pkg(tool)))
	tool.Workflow[0].Tool = "get_weather"
	assert.Empty(t, run(pkg(tool)))
}

// TestExampleFormatsByTheDecodersRules: examples are judged by the decoder's format rules, not
// the validator's laxer ones: a uri with a space passes the validator alone and fails a call.
func TestExampleFormatsByTheDecodersRules(t *testing.T) {
	tool := weatherTool()
	tool.Args.Fields = append(tool.Args.Fields, &model.Field{Pos: at(6), GoName: "Link", JSONName: "link", Type: str(), Required: true,
		Description: "A link.", Constraints: model.Constraints{Format: "uri"}})
	tool.Examples = []model.Example{
		{Pos: at(7), Args: `{"city":"Tokyo","link":"https://example.org/foo%20bar"}`},
		{Pos: at(8), Args: `{"city":"Tokyo","link":"https://example.org/foo bar"}`},
	}
	want := "weather.go:8:6: example of get_weather does not match its input schema: " +
		"/link: 'https://example.org/foo bar' is not valid uri: must be an absolute URI such as \"https://example.com/path\"\n" +
		"\thint: examples are shown to the model; fix the example or the argument types\n"
	assert.Equal(t, want, run(pkg(tool)))
}
