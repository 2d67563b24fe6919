package mcp_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// chargeRegistry serves a tool that is not idempotent, counting its runs.
func chargeRegistry(t *testing.T, runs *atomic.Int64) *runtime.Registry {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(fixture.JSONTool("charge", func(_ context.Context, args map[string]any) runtime.Result {
		return runtime.TextResult(fmt.Sprintf("charged %v, charge #%d", args["amount"], runs.Add(1)))
	})))
	return reg
}

// One conversation for every request, so that over stateless HTTP too a key outlives a
// request.
var oneConversation = toolmcp.WithSessionKey(toolmcp.SessionFunc(func(context.Context, mcp.Request) (string, error) {
	return "conversation", nil
}))

// A call sent again with the idempotency key in its _meta gets the first result and runs
// nothing, on every protocol, transport and server path.
func TestAKeyInMetaRunsTheCallOnce(t *testing.T) {
	var runs atomic.Int64
	reg := chargeRegistry(t, &runs)
	eachServing(t, reg, nil, func(t *testing.T, s serving, cs *mcp.ClientSession) {
		before := runs.Load()
		params := &mcp.CallToolParams{Name: "charge", Arguments: map[string]any{"amount": 5}, Meta: mcp.Meta{toolmcp.IdempotencyKeyMeta: "key of " + s.String()}}
		var texts []string
		for range 2 {
			res, err := cs.CallTool(t.Context(), params)
			require.NoError(t, err)
			require.False(t, res.IsError)
			texts = append(texts, res.Content[0].(*mcp.TextContent).Text)
		}
		assert.Equal(t, texts[0], texts[1])
		assert.Equal(t, before+1, runs.Load())
	}, oneConversation)
}

// WithRequestIDKeys: a request resent as it was (a proxy's retry) runs once; one with
// another id runs again.
func TestRequestIDKeysRunAResentRequestOnce(t *testing.T) {
	var runs atomic.Int64
	srv := httptest.NewServer(toolmcp.HTTPHandler(chargeRegistry(t, &runs), toolmcp.WithStateless(), oneConversation, toolmcp.WithRequestIDKeys()))
	t.Cleanup(srv.Close)
	post := func(id string) string {
		_, body := postHTTP(t, srv.URL, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"charge","arguments":{"amount":5}}}`, nil)
		return string(body)
	}
	first := post(`"req-1"`)
	assert.Contains(t, first, "charge #1")
	assert.Equal(t, first, post(`"req-1"`))
	assert.Equal(t, int64(1), runs.Load())
	assert.Contains(t, post(`"req-2"`), "charge #2")
}

// A key is its user's: on a session several users share (a SessionFunc's, or a header's
// without a user in it), another user sending the same key, or the same request id with
// WithRequestIDKeys, runs their own call rather than being shown the first user's result, on
// toolgen's path and on the SDK's (a progress token sends the call there).
func TestAKeyIsItsUsers(t *testing.T) {
	var runs atomic.Int64
	srv := httptest.NewServer(toolmcp.HTTPHandler(chargeRegistry(t, &runs), toolmcp.WithStateless(),
		toolmcp.WithBearerAuth(bearer, nil), oneConversation, toolmcp.WithRequestIDKeys()))
	t.Cleanup(srv.Close)
	for _, path := range []struct{ name, meta string }{{"toolgen", ""}, {"sdk", `,"_meta":{"progressToken":1}`}} {
		for _, keyed := range []struct{ name, id, header string }{{"header", `"h-` + path.name + `"`, "k-" + path.name}, {"request id", `"r-` + path.name + `"`, ""}} {
			t.Run(path.name+" "+keyed.name, func(t *testing.T) {
				call := func(user string) string {
					header := map[string]string{"Authorization": "Bearer token-" + user}
					if keyed.header != "" {
						header[toolmcp.IdempotencyKeyHeader] = keyed.header
					}
					_, msg := postRaw(t, srv.URL, `{"jsonrpc":"2.0","id":`+keyed.id+`,"method":"tools/call","params":{"name":"charge","arguments":{"amount":5}`+path.meta+`}}`, header)
					return msg["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"].(string)
				}
				before := runs.Load()
				ann := call("ann")
				assert.Equal(t, ann, call("ann"), "ann's retry gets her result")
				assert.NotEqual(t, ann, call("bob"), "bob's call with ann's key is his own")
				assert.Equal(t, before+2, runs.Load())
			})
		}
	}
}
