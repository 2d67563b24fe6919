package mcp

import (
	"encoding/json"
	"fmt"
	"hash/maphash"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// decodeMeta reads what encoding/json reads into a map[string]any, and refuses what it refuses.
func TestDecodeMetaAsEncodingJSON(t *testing.T) {
	for _, doc := range []string{
		`{}`, ` { "a" : 1 } `, `{"a":1,"a":2}`, `{"n":-0.5e3,"big":12345678901234567890,"f":1.5}`,
		`{"s":"esc \" \\ \/ \b \f \n \r \t \u00e9 \ud83d\ude00","e":""}`,
		`{"nested":{"x":[1,"two",null,true,false,{"y":[]}]},"null":null}`,
		`{"io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true}},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`,
		// Interned names and values, escaped, and names that only begin like one.
		`{"\u006eame":"2026-07-2\u0038","nam":"2025-11-25x","namex":{"roots":"2025-06-18"},"roots":{"roots":{"roots":1}}}`,
	} {
		var want map[string]any
		require.NoError(t, json.Unmarshal([]byte(doc), &want), doc)
		got, err := decodeMeta([]byte(doc))
		require.NoError(t, err, doc)
		assert.Equal(t, want, got, doc)
	}
	// An interned member costs no allocation: a go-sdk client's _meta on 2026-07-28 holds
	// four objects (8 allocations), and its client's name and version, which are cached.
	doc := []byte(`{"io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true}},"io.modelcontextprotocol/clientInfo":{"name":"example-client","version":"v1.8.0"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`)
	allocs := testing.AllocsPerRun(100, func() { _, _ = decodeMeta(doc) })
	assert.LessOrEqual(t, allocs, 8.0, "decodeMeta's allocations: %v", allocs)
	for _, bad := range []string{`[]`, `"x"`, `{"a":1}x`, `{"a":}`, `{"a":1,}`, `{"a":1e400}`, `{`, strings.Repeat(`{"a":`, 1100) + `1` + strings.Repeat(`}`, 1100)} {
		_, err := decodeMeta([]byte(bad))
		assert.Error(t, err, "%.40s", bad)
	}
}

// The cache of clients' names gives back what was sent, whatever collides in it, and holds
// no more than its entries.
func TestRecentValuesGiveBackTheirText(t *testing.T) {
	c := valueCache{seed: maphash.MakeSeed()}
	for round := range 3 {
		for i := range 500 {
			text := fmt.Sprintf("client-%d", i)
			assert.Equal(t, text, c.value([]byte(text)), "round %d", round)
		}
	}
	long := strings.Repeat("x", 65)
	assert.Equal(t, long, c.value([]byte(long)))
}

// decodeMessage and decodeCallParams match member names exactly, as the SDK's JSON does (not
// folding case, as encoding/json does), keep the last of repeated members and refuse data
// after the value.
func TestDecodeCallAsTheSDK(t *testing.T) {
	var m message
	require.NoError(t, decodeMessage([]byte(`{"jsonrpc":"2.0","id":7,"method":"x","method":"tools/call","params":{"name":"a","Name":"b","arguments":{"k":1},"_meta":{"progressToken":1}}}`), &m))
	assert.Equal(t, "tools/call", m.Method)
	assert.JSONEq(t, `7`, string(m.ID))
	var p callParams
	require.NoError(t, decodeCallParams(m.Params, &p))
	assert.Equal(t, "a", p.Name)
	assert.JSONEq(t, `{"k":1}`, string(p.Arguments))
	decoded, err := decodeMeta(p.Meta)
	require.NoError(t, err)
	assert.True(t, callMetaOf(decoded).progressToken)
	assert.Error(t, decodeMessage([]byte(`{"method":"tools/call"} {}`), &m))
	assert.Error(t, decodeCallParams([]byte(`{"name":1}`), &p))

	decoded, err = decodeMeta([]byte(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}`))
	require.NoError(t, err)
	assert.Equal(t, callMeta{protocol: "2026-07-28", protocolSet: true, capabilities: true, elicit: true}, callMetaOf(decoded))
	decoded, err = decodeMeta([]byte(`{"io.modelcontextprotocol/protocolVersion":5,"io.modelcontextprotocol/clientCapabilities":{"elicitation":null},"progressToken":null}`))
	require.NoError(t, err)
	assert.Equal(t, callMeta{progressToken: true, protocolSet: true, capabilities: true}, callMetaOf(decoded))
	assert.Equal(t, 3, paramLength([]byte(`{"name":"abc"}`), "name"))
	assert.Equal(t, 0, paramLength([]byte(`{"name":7}`), "name"))
}
