package schematool_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/schematool"
	"github.com/toolgen-go/toolgen/runtime/variant"
)

func TestOutsideTheSubsetIsAnError(t *testing.T) {
	for _, c := range []struct{ schema, want string }{
		{`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{"type":"string"}}`, `not a schema of the other values`},
		{`{"type":"object","properties":{"a":{"type":"string","minLenght":1}},"additionalProperties":false}`, `"minLenght" is outside the subset toolgen emits (did you mean "minLength"?)`},
		{`{"type":"object","properties":{"a":{"oneOf":[{"type":"string"}]}},"additionalProperties":false}`, `schema /properties/a: the keyword "oneOf" is outside the subset`},
		{`{"type":"object","properties":{"a":{"type":["string","integer"]}},"additionalProperties":false}`, `type ["string","integer"] is outside the subset`},
		{`{"type":"object","properties":{"a":{"type":"string","minimum":1}},"additionalProperties":false}`, `minimum does not apply to type string`},
		{`{"type":"object","properties":{"a":{"type":"integer","minimum":1.5}},"additionalProperties":false}`, `minimum of an integer must be a whole number`},
		{`{"type":"object","properties":{"a":{"type":"string","format":"emial"}},"additionalProperties":false}`, `format "emial" is not one toolgen checks (did you mean "email"?)`},
		{`{"type":"object","properties":{"a":{"type":"string","pattern":"(?<=a)b"}},"additionalProperties":false}`, `is not an RE2 expression`},
		{`{"type":"object","properties":{"a":{"type":"string","default":7}},"additionalProperties":false}`, `schema /properties/a/default: must be a string, got 7`},
		{`{"type":"object","properties":{"a":{"type":"array","items":{"type":"object","properties":{},"additionalProperties":false},"uniqueItems":true}},"additionalProperties":false}`, `uniqueItems applies to arrays of strings`},
		{`{"type":"object","properties":{"a":{"$ref":"#/$defs/Missing"}},"additionalProperties":false}`, `must be "#" or name an entry of the root's $defs`},
		{`{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"additionalProperties":false,"$defs":{"A":{"$ref":"#/$defs/A"}}}`, `must not be only a $ref`},
		{`{"type":"object","properties":{"a":{"type":["string","null"],"enum":["x"]}},"additionalProperties":false}`, `enum does not list it`},
		{`{"type":"object","properties":{},"required":["a"],"additionalProperties":false}`, `required names "a", which is not a property`},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{},"additionalProperties":false}`, `must be "https://json-schema.org/draft/2020-12/schema"`},
		{`{"type":"object","properties":{"a":true},"additionalProperties":false}`, `boolean schemas are outside the subset`},
		{`{"type":"string"}`, `the root must have "type": "object"`},
		{`{"type":"object","properties":{"a":{"type":"string"},"a":{"type":"string"}},"additionalProperties":false}`, `repeated`},
		{`{"type":"object","properties":{"a":` + strings.Repeat(`{"type":"array","items":`, 70) + `{"type":"string"}` + strings.Repeat(`}`, 70) + `},"additionalProperties":false}`, `nest more than 64 deep`},
	} {
		_, err := schematool.Compile([]byte(c.schema))
		require.Error(t, err, c.schema)
		assert.Contains(t, err.Error(), c.want, c.schema)
	}
}

// A schema of the largest size allowed costs time and memory in proportion to its size: a
// hundred thousand members are refused before they are compared with one another, and a
// required name of 40 KB is compared with a property of 40 KB for a hint in time linear in
// their length (it took seconds when quadratic), and both are cut in the message.
func TestHostileSchemaIsRefusedCheaply(t *testing.T) {
	var many strings.Builder
	many.WriteString(`{"type":"object","additionalProperties":false,"properties":{`)
	for i := range 90_000 {
		if i > 0 {
			many.WriteByte(',')
		}
		many.WriteString(`"` + strconv.Itoa(i) + `":{}`)
	}
	many.WriteString(`}}`)
	require.Less(t, many.Len(), schematool.MaxSchemaBytes)
	_, err := schematool.Compile([]byte(many.String()))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "schema /properties: more than 10000 members")

	a, b := strings.Repeat("a", 40_000), strings.Repeat("b", 40_000)
	_, err = schematool.Compile([]byte(`{"type":"object","additionalProperties":false,"properties":{"` + a + `":{}},"required":["` + b + `"]}`))
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "did you mean")
	assert.Less(t, len(err.Error()), 200, "the name is cut")

	// A typo of a long name still gets its hint, cut like the name.
	typo := a[:len(a)-1] + "b"
	_, err = schematool.Compile([]byte(`{"type":"object","additionalProperties":false,"properties":{"` + a + `":{}},"required":["` + typo + `"]}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "did you mean")
	assert.Less(t, len(err.Error()), 300, "the name and the hint are cut")
}

const searchSpecYAML = `
name: search_docs
description: Searches the documentation.
parameters:
  type: object
  properties:
    query:
      type: string
      description: What to look for.
      minLength: 1
    max_results:
      type: integer
      minimum: 1
      maximum: 20
      default: 5
  required: [query]
  additionalProperties: false
timeout: 2s
retry: {max: 2, delay: 10ms, backoff: 2}
tags: [docs, search]
permission: confirm
`

// TestSpecToolUnderRegistryPolicies loads a YAML spec and runs its tool through a registry:
// approval sees the canonical arguments with the default added, the handler gets the same,
// and bad arguments never reach either.
func TestSpecToolUnderRegistryPolicies(t *testing.T) {
	spec, err := schematool.LoadSpec([]byte(searchSpecYAML))
	require.NoError(t, err)
	assert.Equal(t, 2*time.Second, spec.Timeout)
	assert.Equal(t, runtime.RetryPolicy{Max: 2, Delay: 10 * time.Millisecond, Backoff: 2}, spec.Retry)
	var handled json.RawMessage
	tool, err := spec.Tool(func(_ context.Context, args json.RawMessage) (runtime.Result, error) {
		handled = args
		var a struct {
			Query      string `json:"query"`
			MaxResults int    `json:"max_results"`
		}
		if err := json.Unmarshal(args, &a); err != nil {
			return runtime.Result{}, err
		}
		return runtime.TextResult(strings.Repeat(a.Query+" ", a.MaxResults)), nil
	})
	require.NoError(t, err)
	assert.Equal(t, runtime.PermissionConfirm, tool.Permission)
	assert.Equal(t, []string{"docs", "search"}, tool.Tags)
	// The properties keep the order written in YAML.
	assert.Less(t, strings.Index(string(tool.InputSchema), "query"), strings.Index(string(tool.InputSchema), "max_results"))

	var approved []string
	reg := runtime.NewRegistry(runtime.WithApprover(runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
		approved = append(approved, string(req.RawArgs))
		return runtime.Decision{Approved: true}, nil
	})))
	require.NoError(t, reg.Add(tool))

	res := reg.Invoke(context.Background(), runtime.Call{Name: "search_docs", Args: []byte(`{"query":"go"}`)})
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, "go go go go go ", res.Text)
	assert.Equal(t, []string{`{"max_results":5,"query":"go"}`}, approved)
	assert.JSONEq(t, `{"max_results":5,"query":"go"}`, string(handled))

	handled = nil
	res = reg.Invoke(context.Background(), runtime.Call{Name: "search_docs", Args: []byte(`{"query":"","max_results":50,"limit":3}`)})
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, "/query: must be at least 1 character long, got 0")
	assert.Contains(t, res.Text, "/max_results: must be at most 20, got 50")
	assert.Contains(t, res.Text, `/limit: unknown property`)
	assert.Nil(t, handled)
	assert.Len(t, approved, 1, "invalid arguments are never shown for approval")
}

func TestSpecJSONAndMistakes(t *testing.T) {
	spec, err := schematool.LoadSpec([]byte(`{"name":"ping","description":"Pings.","input_schema":{"type":"object","properties":{},"additionalProperties":false}}`))
	require.NoError(t, err)
	tool, err := spec.Tool(func(context.Context, json.RawMessage) (runtime.Result, error) { return runtime.TextResult("pong"), nil })
	require.NoError(t, err)
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(tool))
	assert.Equal(t, "pong", reg.Invoke(context.Background(), runtime.Call{Name: "ping"}).Text)
	res := reg.Invoke(context.Background(), runtime.Call{Name: "ping", Args: []byte(`{"x":1}`)})
	assert.True(t, res.IsError)
	assert.Contains(t, res.Text, "/x: unknown property")

	for _, c := range []struct{ doc, want string }{
		{`{"name":"a","descripton":"x","parameters":{}}`, `unknown key "descripton" (did you mean "description"?)`},
		{`{"name":"a","parameters":{},"input_schema":{}}`, `give the schema once`},
		{`{"name":"a","parameters":{},"timeout":"soon"}`, `timeout "soon" is not a positive duration`},
		{`{"name":"a","parameters":{},"permission":"ask"}`, `permission "ask"`},
		{`{"name":"a"}`, `no parameters`},
		{"name: a\nparameters: &x {}\nother: *x\n", `aliases are not accepted`},
	} {
		_, err := schematool.LoadSpec([]byte(c.doc))
		require.Error(t, err, c.doc)
		assert.Contains(t, err.Error(), c.want)
	}
	_, err = schematool.New("bad name", "x", json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`),
		func(context.Context, json.RawMessage) (runtime.Result, error) { return runtime.Result{}, nil })
	assert.ErrorContains(t, err, "invalid name")
}

// TestProvidersGetTheSchema: the adapters derive each provider's variant from the schema, as
// for a generated tool.
func TestProvidersGetTheSchema(t *testing.T) {
	spec, err := schematool.LoadSpec([]byte(searchSpecYAML))
	require.NoError(t, err)
	tool, err := spec.Tool(func(context.Context, json.RawMessage) (runtime.Result, error) { return runtime.Result{}, nil })
	require.NoError(t, err)
	for _, key := range []string{variant.OpenAI, variant.Anthropic, variant.GeminiParameters} {
		v, ok := tool.Variant(key)
		require.True(t, ok, key)
		assert.Contains(t, string(v.Schema), "max_results", key)
	}
}

func TestSchemaBounds(t *testing.T) {
	var props, enum []string
	for i := range schematool.MaxProperties + 1 {
		props = append(props, `"p`+strconv.Itoa(i)+`":{"type":"string"}`)
	}
	for i := range schematool.MaxEnumValues + 1 {
		enum = append(enum, `"v`+strconv.Itoa(i)+`"`)
	}
	for _, c := range []struct{ schema, want string }{
		{`{"type":"object","properties":{` + strings.Join(props, ",") + `},"additionalProperties":false}`, "more than the 1024 allowed"},
		{`{"type":"object","properties":{"e":{"type":"string","enum":[` + strings.Join(enum, ",") + `]}},"additionalProperties":false}`, "more than the 4096 allowed"},
		{`{"type":"object","properties":{"s":{"type":"string","pattern":"` + strings.Repeat("a", schematool.MaxPatternLength+1) + `"}},"additionalProperties":false}`, "pattern is 4097 bytes"},
		{`{"type":"object","properties":{"s":{"type":"string","description":"` + strings.Repeat("a", schematool.MaxSchemaBytes) + `"}},"additionalProperties":false}`, "more than the 1048576 allowed"},
	} {
		_, err := schematool.Compile([]byte(c.schema))
		require.Error(t, err)
		assert.Contains(t, err.Error(), c.want)
	}
}

// A $defs name holding "/" or "~" is referred to escaped, as RFC 6901 writes it, and
// percent-encoded or not; a pointer past the entry is refused.
func TestRefToEscapedDefName(t *testing.T) {
	const defs = `"$defs":{"a/b":{"type":"integer","minimum":1},"c~d":{"type":"string"}}`
	s, err := schematool.Compile([]byte(`{"type":"object","additionalProperties":false,` + defs + `,"properties":{` +
		`"x":{"$ref":"#/$defs/a~1b"},"y":{"$ref":"#/$defs/c~0d"},"z":{"$ref":"#/$defs/a%7E1b"}}}`))
	require.NoError(t, err)
	_, err = s.Validate([]byte(`{"x":2,"y":"s","z":3}`))
	require.NoError(t, err)
	_, err = s.Validate([]byte(`{"x":0}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "/x")

	_, err = schematool.Compile([]byte(`{"type":"object","additionalProperties":false,` + defs + `,"properties":{"x":{"$ref":"#/$defs/a~1b/minimum"}}}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `must be "#" or name an entry`)
}

// A schema written without "additionalProperties": false (as CMDC's tools guide writes its
// schemas) is open: it loads, its properties are checked as usual, and the members it does not
// define reach the handler unchanged, since the schema allows them.
func TestOpenSchemaPassesUnknownMembersThrough(t *testing.T) {
	schema := `{"type":"object","properties":{"command":{"type":"string","description":"The shell command"},"timeout":{"type":"integer","minimum":1}},"required":["command"]}`
	var got json.RawMessage
	tool, err := schematool.New("run_command", "Runs a command.", json.RawMessage(schema), func(_ context.Context, args json.RawMessage) (runtime.Result, error) {
		got = args
		return runtime.TextResult("ok"), nil
	})
	require.NoError(t, err)
	call, err := tool.Bind(context.Background(), []byte(`{"command":"ls","cwd":"/tmp","env":{"A":"1"}}`))
	require.NoError(t, err)
	call.Run(context.Background())
	assert.JSONEq(t, `{"command":"ls","cwd":"/tmp","env":{"A":"1"}}`, string(got))

	_, err = tool.Bind(context.Background(), []byte(`{"command":7,"cwd":"/tmp"}`))
	require.Error(t, err, "the properties it defines are still checked")
	assert.Contains(t, err.Error(), "/command")

	closed, err := schematool.Compile([]byte(`{"type":"object","properties":{"command":{"type":"string"}},"additionalProperties":false}`))
	require.NoError(t, err)
	_, err = closed.Validate([]byte(`{"command":"ls","cwd":"/tmp"}`))
	require.Error(t, err, "a closed schema still refuses them")

	anyObject, err := schematool.Compile([]byte(`{"type":"object"}`))
	require.NoError(t, err)
	out, err := anyObject.Validate([]byte(`{"x":1}`))
	require.NoError(t, err)
	assert.JSONEq(t, `{"x":1}`, string(out))
}

// A tool as BeamAI writes one at run time loads as written: "tag" joins the tags, "timeout"
// is milliseconds, "metadata" and "filters" are the registry's, and a parameter's
// "required": true puts it in the object's required list.
func TestSpecLoadsBeamAIToolAsWritten(t *testing.T) {
	spec, err := schematool.LoadSpec([]byte(`{
		"name": "file_read",
		"description": "Reads a file.",
		"tag": "file",
		"timeout": 30000,
		"metadata": {"owner": "fs", "version": 2},
		"filters": ["audit"],
		"parameters": {
			"type": "object",
			"properties": {
				"path": {"type": "string", "description": "The file", "required": true},
				"offset": {"type": "integer", "required": false}
			}
		}
	}`))
	require.NoError(t, err)
	assert.Equal(t, 30*time.Second, spec.Timeout)
	assert.Equal(t, []string{"file"}, spec.Tags)
	assert.Equal(t, map[string]string{"owner": "fs", "version": "2"}, spec.Metadata)
	assert.Equal(t, []string{"audit"}, spec.Filters)
	assert.JSONEq(t, `{"type":"object","properties":{"path":{"type":"string","description":"The file"},"offset":{"type":"integer"}},"required":["path"]}`, string(spec.Parameters))

	tool, err := spec.Tool(func(context.Context, json.RawMessage) (runtime.Result, error) { return runtime.TextResult("ok"), nil })
	require.NoError(t, err)
	assert.Equal(t, 30*time.Second, tool.Timeout)
	assert.Equal(t, []string{"file"}, tool.Tags)
	assert.Equal(t, []string{"audit"}, tool.Filters)
	assert.Equal(t, "fs", tool.Metadata["owner"])
	_, err = tool.Bind(context.Background(), []byte(`{"offset":1}`))
	require.Error(t, err, "path is required")
	assert.Contains(t, err.Error(), "path")

	for _, c := range []struct{ doc, want string }{
		{`{"name":"a","parameters":{"type":"object"},"timeout":-5}`, "positive number of milliseconds"},
		{`{"name":"a","parameters":{"type":"object"},"timeout":1e12}`, "at most a day"},
		{`{"name":"a","parameters":{"type":"object"},"timeout":"soon"}`, `timeout "soon"`},
	} {
		_, err := schematool.LoadSpec([]byte(c.doc))
		require.Error(t, err, c.doc)
		assert.Contains(t, err.Error(), c.want, c.doc)
	}
}

// An OpenAkita tool dict loads as written, each key onto its runtime.Tool field, and
// ExportOpenAkita writes the tool back in that form, which loads again to the same tool.
func TestSpecLoadsAndExportsOpenAkitaToolDict(t *testing.T) {
	dict := `{
		"name": "run_shell",
		"category": "System",
		"description": "Run a shell command. Use when you need to inspect or change the system.",
		"detail": "Runs the command in the workspace with a timeout.",
		"triggers": ["the user asks to run a command"],
		"prerequisites": ["a workspace is open", {"condition": "the command is known", "check": "list_commands"}],
		"examples": [{"scenario": "list files", "params": {"command": "ls"}, "expected": "the listing"}],
		"warnings": ["Destructive commands need confirmation"],
		"workflow": [{"name": "inspect", "tool": "list_dir"}, "run the command"],
		"related_tools": [{"name": "read_file", "relation": "read a file instead of cat"}],
		"input_schema": {
			"type": "object",
			"properties": {"command": {"type": "string", "description": "The command"}},
			"required": ["command"]
		}
	}`
	spec, err := schematool.LoadSpec([]byte(dict))
	require.NoError(t, err)
	tool, err := spec.Tool(func(context.Context, json.RawMessage) (runtime.Result, error) { return runtime.TextResult("ok"), nil })
	require.NoError(t, err)
	assert.Equal(t, "System", tool.Category)
	assert.Equal(t, "Runs the command in the workspace with a timeout.", tool.Detail)
	assert.Equal(t, []string{"the user asks to run a command"}, tool.Triggers)
	assert.Equal(t, []runtime.Prerequisite{{Condition: "a workspace is open"}, {Condition: "the command is known", Check: "list_commands"}}, tool.Prerequisites)
	require.Len(t, tool.Examples, 1)
	assert.JSONEq(t, `{"command":"ls"}`, string(tool.Examples[0].Args))
	assert.Equal(t, []string{"Destructive commands need confirmation"}, tool.Warnings)
	assert.Equal(t, []runtime.WorkflowStep{{Name: "inspect", Tool: "list_dir"}, {Name: "run the command"}}, tool.Workflow)
	assert.Equal(t, []runtime.Related{{Name: "read_file", Relation: "read a file instead of cat"}}, tool.Related)

	exported, err := schematool.ExportOpenAkita(tool)
	require.NoError(t, err)
	again, err := schematool.LoadSpec(exported)
	require.NoError(t, err)
	againTool, err := again.Tool(func(context.Context, json.RawMessage) (runtime.Result, error) { return runtime.TextResult("ok"), nil })
	require.NoError(t, err)
	twice, err := schematool.ExportOpenAkita(againTool)
	require.NoError(t, err)
	assert.JSONEq(t, string(exported), string(twice), "the exported dict loads to the same tool")
	assert.Contains(t, string(exported), `"category":"System"`)
	assert.Contains(t, string(exported), `"related_tools":[{"name":"read_file"`)

	_, err = schematool.LoadSpec([]byte(`{"name":"a","input_schema":{"type":"object"},"workflow":[7]}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "workflow step 1")
}
