package mcp

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// appendAnswer writes what json.Marshal writes of the same response, for every text.
func TestAppendAnswerAsJSONMarshal(t *testing.T) {
	texts := []string{"", "plain", "quote \" backslash \\ slash /", "<html> & </html>", "line\nbreak\ttab\r\x00\x1f", "é 日本 🙂", "bad \xff\xfe utf-8", "\u2028\u2029"}
	for _, text := range texts {
		for _, res := range []*mcp.CallToolResult{
			{Content: []mcp.Content{&mcp.TextContent{Text: text}}},
			{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: true},
			{Content: []mcp.Content{&mcp.TextContent{Text: text}, &mcp.TextContent{Text: "second"}}, StructuredContent: json.RawMessage(`{"a": [1, 2.5e3, "x"]}`)},
			{Content: []mcp.Content{}},
		} {
			for _, id := range []string{`1`, `"id-1"`} {
				for _, form := range []answerForm{{}, {serverInfo: []byte(`{"name":"s","version":"1"}`), resultType: "complete"}} {
					fast, ok := appendAnswer(nil, json.RawMessage(id), res, form)
					require.True(t, ok)
					want, err := marshalAnswer(json.RawMessage(id), res, form)
					require.NoError(t, err)
					if form.resultType != "" {
						assert.Contains(t, string(want), `"resultType":"complete"`)
						assert.Contains(t, string(want), `"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}`)
					}
					require.True(t, json.Valid(fast), "%q", fast)
					var got, exp any
					require.NoError(t, json.Unmarshal(fast, &got))
					require.NoError(t, json.Unmarshal(want, &exp))
					assert.Equal(t, exp, got, "%q", text)
				}
			}
		}
	}
	for _, other := range []*mcp.CallToolResult{
		{Content: []mcp.Content{&mcp.ImageContent{Data: []byte{1}, MIMEType: "image/png"}}},
		{Content: []mcp.Content{&mcp.TextContent{Text: "x"}}, StructuredContent: json.RawMessage(`{bad`)},
		{Content: []mcp.Content{&mcp.TextContent{Text: "x"}}, StructuredContent: map[string]any{"a": 1}},
	} {
		_, ok := appendAnswer(nil, json.RawMessage(`1`), other, answerForm{})
		assert.False(t, ok, "left to json.Marshal: %+v", other)
	}
}

// paramHeaders finds x-mcp-header where the SDK looks for it, under properties at any depth,
// and nowhere else; a schema it cannot read that names the keyword counts as marked.
func TestParamHeaders(t *testing.T) {
	for schema, want := range map[string]bool{
		`{"type":"object"}`: false,
		`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A"}}}`:                         true,
		`{"type":"object","properties":{"o":{"type":"object","properties":{"b":{"x-mcp-header":"B"}}}}}`:    true,
		`{"type":"object","properties":{"a":{"type":["string","null"]},"b":{"x-mcp-header":"B"}}}`:          true,
		`{"type":"object","properties":{"x-mcp-header":{"type":"string"}}}`:                                 false,
		`{"type":"object","properties":{"a":{"type":"string","description":"see \"x-mcp-header\""}}}`:       false,
		`{"type":"object","$defs":{"D":{"type":"object","properties":{"b":{"x-mcp-header":"B"}}}}}`:         false,
		`{"type":"object","properties":{"a":{"x-mcp-header":"A"}},"required":"not a list","properties2":[}`: true,
	} {
		assert.Equal(t, want, paramHeaders(json.RawMessage(schema)), schema)
	}
}
