package schematool_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/canonical"
	"github.com/toolgen-go/toolgen/runtime/schematool"
	"github.com/toolgen-go/toolgen/runtime/schematool/internal/shapes"
	"github.com/toolgen-go/toolgen/toolkit/artifacts"
	"github.com/toolgen-go/toolgen/toolkit/compact"
	"github.com/toolgen-go/toolgen/toolkit/presets"
)

// generatedTools are tools toolgen generated, of every shape the toolkits use: strings with
// bounds, enums and defaults, integers with limits, arrays of objects, nullable fields, maps.
func generatedTools() []runtime.Tool {
	return slices.Concat(presets.Coding(presets.CodingOptions{}),
		new(artifacts.Toolkit).Tools(), compact.Tools(), shapes.Tools())
}

// palette is what a model sends wrong, and right, at one place.
var palette = []string{`0`, `-1`, `7`, `1.5`, `1e400`, `99999999999999999999`, `""`, `"x"`, `"pending"`,
	`"` + strings.Repeat("é", 3000) + `"`, `true`, `null`, `[]`, `[1,"a"]`, `["a","a"]`, `{}`, `{"zz":1}`, `[{}]`,
	`[{"id":"","content":7,"status":"done"}]`, `"2026-01-02T03:04:05Z"`, `"not a date"`}

// documents builds argument documents putting each palette value at each place of schema
// down to three levels (properties, array items and map values, through $ref), inside
// objects that otherwise have only what the palette value replaces.
func documents(t *testing.T, schema json.RawMessage) []string {
	var root map[string]any
	require.NoError(t, json.Unmarshal(schema, &root))
	defs, _ := root["$defs"].(map[string]any)
	docs := []string{`{}`, `[]`, `"x"`, `null`, ``, `{"unknown_property":1}`, `{"a":1,"a":2}`, `{"x":`, `{} {}`}
	// wrap puts a value at a place: each place is a function of the value's text.
	var walk func(node map[string]any, wrap func(string) string, depth int)
	walk = func(node map[string]any, wrap func(string) string, depth int) {
		if ref, ok := node["$ref"].(string); ok {
			if name, ok := strings.CutPrefix(ref, "#/$defs/"); ok {
				node, _ = defs[name].(map[string]any)
			} else {
				node = root
			}
		}
		if alts, ok := node["anyOf"].([]any); ok {
			node, _ = alts[0].(map[string]any)
			walk(node, wrap, depth)
			return
		}
		if node == nil || depth > 3 {
			return
		}
		for _, v := range palette {
			docs = append(docs, wrap(v))
		}
		props, _ := node["properties"].(map[string]any)
		for name, p := range props {
			key, _ := json.Marshal(name)
			sub, _ := p.(map[string]any)
			walk(sub, func(v string) string { return wrap(`{` + string(key) + `:` + v + `}`) }, depth+1)
			walk(sub, func(v string) string { return wrap(`{` + string(key) + `:` + v + `,` + string(key) + `:` + v + `}`) }, depth+2)
		}
		if items, ok := node["items"].(map[string]any); ok {
			walk(items, func(v string) string { return wrap(`[` + v + `,7,` + v + `]`) }, depth+1)
		}
		if values, ok := node["additionalProperties"].(map[string]any); ok {
			walk(values, func(v string) string { return wrap(`{"k":` + v + `,"k2":` + v + `}`) }, depth+1)
		}
	}
	walk(root, func(v string) string { return v }, 0)
	return docs
}

// TestSameProblemsAsGenerated holds a tool built from a generated tool's input schema to the
// generated tool: for every document, the same problems (paths, wording, order), or both
// accept it with the same canonical arguments.
func TestSameProblemsAsGenerated(t *testing.T) {
	ctx := context.Background()
	tools := generatedTools()
	require.NotEmpty(t, tools)
	compared := 0
	for _, gen := range tools {
		st, err := schematool.New(gen.Name, gen.Description, gen.InputSchema, func(context.Context, json.RawMessage) (runtime.Result, error) {
			return runtime.TextResult("ran"), nil
		})
		require.NoError(t, err, "tool %s: %s", gen.Name, gen.InputSchema)
		reg := runtime.NewRegistry()
		require.NoError(t, reg.Add(st))
		for _, doc := range documents(t, gen.InputSchema) {
			_, genErr := gen.BindArgs(ctx, []byte(doc))
			bound, rtErr := st.BindArgs(ctx, []byte(doc))
			var genArgs, rtArgs *runtime.ArgsError
			switch {
			case errors.As(genErr, &genArgs):
				require.True(t, errors.As(rtErr, &rtArgs), "%s %s: generated refused (%v), schema tool: %v", gen.Name, doc, genErr, rtErr)
				assert.Equal(t, genArgs.Problems, rtArgs.Problems, "%s %s", gen.Name, doc)
			case genErr != nil:
				require.Error(t, rtErr, "%s %s", gen.Name, doc)
				assert.Equal(t, genErr.Error(), rtErr.Error(), "%s %s", gen.Name, doc)
			default:
				require.NoError(t, rtErr, "%s %s", gen.Name, doc)
				canonical := canonical.Form(gen.InputSchema)
				want, err := canonical([]byte(doc))
				require.NoError(t, err)
				assert.JSONEq(t, string(want), string(bound.Args().(json.RawMessage)), "%s %s", gen.Name, doc)
			}
			compared++
		}
	}
	t.Logf("%d tools, %d documents compared", len(tools), compared)
}
