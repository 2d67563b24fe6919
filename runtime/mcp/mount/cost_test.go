package mount_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/mcp/mount"
)

// doubling is the schema of issue 33: n $defs entries, each an allOf of two $refs to the one
// before, so that the general validator, which does not memoize, validates d0 2^n times.
func doubling(n int) json.RawMessage {
	defs := []string{`"d0":{"type":"object"}`}
	for k := 1; k <= n; k++ {
		defs = append(defs, fmt.Sprintf(`"d%d":{"allOf":[{"$ref":"#/$defs/d%d"},{"$ref":"#/$defs/d%d"}]}`, k, k-1, k-1))
	}
	return json.RawMessage(fmt.Sprintf(`{"type":"object","$defs":{%s},"$ref":"#/$defs/d%d"}`, strings.Join(defs, ","), n))
}

// costlyServer lists tools with the given input (and output) schemas; each answers with its
// arguments, as its structured result.
func costlyServer(tools map[string][2]json.RawMessage) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "costly", Version: "1"}, nil)
	for name, schemas := range tools {
		t := &mcp.Tool{Name: name, Description: "A tool.", InputSchema: schemas[0], Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}
		if schemas[1] != nil {
			t.OutputSchema = schemas[1]
		}
		s.AddTool(t, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(req.Params.Arguments)}}, StructuredContent: req.Params.Arguments}, nil
		})
	}
	return s
}

// within runs fn and fails the test unless it returns within a generous time (what it bounds
// took minutes to days before).
func within(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s did not return within 20 s", what)
	}
}

// A server's schema whose validation cost doubles with each $defs entry is refused at mount
// time (the tool left out, with the reason), as input and as output schema, while an ordinary
// schema with references still mounts and validates.
func TestMountRefusesSchemasOfUnboundedCost(t *testing.T) {
	ordinary := json.RawMessage(`{"$defs":{"name":{"type":"string","minLength":1},"person":{"type":"object","properties":{"name":{"$ref":"#/$defs/name"},"friend":{"$ref":"#/$defs/person"}},"required":["name"]}},
		"type":"object","properties":{"a":{"$ref":"#/$defs/person"},"b":{"anyOf":[{"$ref":"#/$defs/person"},{"type":"null"}]}},"required":["a"]}`)
	server := costlyServer(map[string][2]json.RawMessage{
		"doubling_input":  {doubling(30)},
		"doubling_output": {json.RawMessage(`{"type":"object"}`), doubling(30)},
		"ordinary":        {ordinary, ordinary},
	})
	reg := runtime.NewRegistry()
	var m *mount.Mounted
	within(t, "mounting", func() {
		var err error
		m, err = mount.Mount(t.Context(), reg, mount.Server{Name: "costly", Dial: dialer(server)}, mount.Options{Logger: quiet})
		require.NoError(t, err)
	})
	t.Cleanup(func() { m.Close() })
	assert.Equal(t, []string{"costly_ordinary"}, m.Tools())
	skipped := map[string]string{}
	for _, s := range m.Skipped() {
		skipped[s.Tool] = s.Reason
	}
	assert.Contains(t, skipped["doubling_input"], "input schema: its subschemas, each $ref unfolded where it is used, number over 10000")
	assert.Contains(t, skipped["doubling_output"], "output schema: its subschemas, each $ref unfolded where it is used, number over 10000")

	res := invoke(reg, "costly_ordinary", `{"a":{"name":"Ada","friend":{"name":"Bob"}},"b":null}`)
	assert.False(t, res.IsError, res.Text)
	res = invoke(reg, "costly_ordinary", `{"a":{"name":"Ada","friend":{"name":""}}}`)
	assert.True(t, res.IsError)
	assert.Contains(t, res.Text, "/a/friend/name")
}

// A recursive schema whose applications double with each level of the document (an allOf of
// two properties recursing on the same name) passes the mount-time bound, which cannot know
// the document's depth: a deeply nested document is refused before validation, within the
// bound on validation steps, and a shallow one is validated. A recursive schema that does
// not multiply (a tree's left and right) validates deep documents.
func TestValidationStepsAreBounded(t *testing.T) {
	ambiguous := json.RawMessage(`{"$defs":{"a":{"type":"object","allOf":[{"properties":{"x":{"$ref":"#/$defs/a"}}},{"properties":{"x":{"$ref":"#/$defs/a"}}}]}},"$ref":"#/$defs/a","type":"object"}`)
	tree := json.RawMessage(`{"$defs":{"n":{"type":"object","properties":{"left":{"$ref":"#/$defs/n"},"right":{"$ref":"#/$defs/n"},"v":{"type":"integer"}},"anyOf":[{"required":["v"]},{"required":["left"]}]}},"$ref":"#/$defs/n","type":"object"}`)
	server := costlyServer(map[string][2]json.RawMessage{"ambiguous": {ambiguous}, "tree": {tree}})
	reg := runtime.NewRegistry()
	m, err := mount.Mount(t.Context(), reg, mount.Server{Name: "costly", Dial: dialer(server)}, mount.Options{Logger: quiet})
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
	require.Equal(t, []string{"costly_ambiguous", "costly_tree"}, m.Tools())

	nested := func(key, leaf string, depth int) string {
		return strings.Repeat(`{"`+key+`":`, depth) + leaf + strings.Repeat("}", depth)
	}
	assert.False(t, invoke(reg, "costly_ambiguous", nested("x", "{}", 5)).IsError)
	var res runtime.Result
	within(t, "validating 2^40 applications", func() { res = invoke(reg, "costly_ambiguous", nested("x", "{}", 40)) })
	assert.True(t, res.IsError)
	assert.Contains(t, res.Text, "too costly to check against the server's schema")

	deep := nested("left", `{"v":1}`, 100)
	assert.False(t, invoke(reg, "costly_tree", deep).IsError, "a recursive schema that does not multiply")
	res = invoke(reg, "costly_tree", nested("left", `{"v":"one"}`, 100))
	assert.True(t, res.IsError)
	assert.Contains(t, res.Text, "/v")
}
