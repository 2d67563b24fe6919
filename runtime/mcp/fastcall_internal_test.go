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
