package askmcp_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/toolkit/ask"
	"github.com/toolgen-go/toolgen/toolkit/ask/askmcp"
)

// protocols are the two ways the server reaches the user: an elicitation/create request (up to
// 2025-11-25) and an input-required result the client answers by calling again (2026-07-28).
var protocols = map[string]*mcp.ClientSessionOptions{"2025-11-25": {ProtocolVersion: "2025-11-25"}, "2026-07-28": nil}

// connect serves reg over MCP in memory to a client that answers elicitations with answer
// (nil: a client without the elicitation capability) and speaks protocol version.
func connect(t *testing.T, reg *runtime.Registry, version string, answer func(*mcp.ElicitRequest) *mcp.ElicitResult) *mcp.ClientSession {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	toolmcp.AddTools(server, reg, reg.Tools())
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(t.Context(), st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	var opts *mcp.ClientOptions
	if answer != nil {
		opts = &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return answer(req), nil
		}}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, opts).Connect(t.Context(), ct, protocols[version])
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

func callText(t *testing.T, cs *mcp.ClientSession, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "ask_user", Arguments: args})
	require.NoError(t, err)
	require.NotEmpty(t, res.Content)
	return res.Content[0].(*mcp.TextContent).Text, res.IsError
}

func newRegistry(t *testing.T, k *ask.Toolkit) *runtime.Registry {
	t.Helper()
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(k.Tools()...))
	return reg
}

func TestElicitation(t *testing.T) {
	for version := range protocols {
		t.Run(version, func(t *testing.T) { testElicitation(t, version) })
	}
}

func testElicitation(t *testing.T, version string) {
	var asked *mcp.ElicitParams
	var reply *mcp.ElicitResult
	cs := connect(t, newRegistry(t, &ask.Toolkit{Answerer: askmcp.Answerer{}}), version, func(req *mcp.ElicitRequest) *mcp.ElicitResult {
		asked = req.Params
		return reply
	})

	reply = &mcp.ElicitResult{Action: "accept", Content: map[string]any{"answer": "stage-2"}}
	text, isErr := callText(t, cs, map[string]any{"question": "Staging host?"})
	require.False(t, isErr, text)
	assert.Equal(t, "The user answered: stage-2", text)
	assert.Equal(t, "Staging host?", asked.Message)

	reply = &mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": "SQLite", "comment": "small data"}}
	text, _ = callText(t, cs, map[string]any{"question": "Which database?", "options": []string{"PostgreSQL", "SQLite"}})
	assert.Equal(t, "The user chose: SQLite\nThey added: small data", text)
	schema := asked.RequestedSchema.(map[string]any)
	assert.Equal(t, []any{"PostgreSQL", "SQLite"}, schema["properties"].(map[string]any)["choice"].(map[string]any)["enum"])

	reply = &mcp.ElicitResult{Action: "accept", Content: map[string]any{"option_1": true, "option_2": false, "option_3": true}}
	text, _ = callText(t, cs, map[string]any{"question": "Which features?", "options": []string{"auth", "billing", "search"}, "multi_select": true})
	assert.Equal(t, "The user chose: auth, search", text)

	// An answer outside the options never reaches the model as a choice: the go-sdk client
	// refuses to send it (and the server would refuse it, see runtime/mcp).
	reply = &mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": "Oracle"}}
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "ask_user", Arguments: map[string]any{"question": "Which database?", "options": []string{"PostgreSQL", "SQLite"}}})
	if err == nil {
		assert.True(t, res.IsError)
	} else {
		assert.ErrorContains(t, err, "does not match requested schema")
	}

	// An empty form counts as declined.
	reply = &mcp.ElicitResult{Action: "accept", Content: map[string]any{}}
	text, _ = callText(t, cs, map[string]any{"question": "Which features?", "options": []string{"auth", "billing"}, "multi_select": true})
	assert.Equal(t, "The user declined to answer.", text)

	for _, action := range []string{"decline", "cancel"} {
		reply = &mcp.ElicitResult{Action: action}
		text, isErr = callText(t, cs, map[string]any{"question": "Delete it all?"})
		require.False(t, isErr)
		assert.Equal(t, "The user declined to answer.", text)
	}
}

// Where the client cannot be asked, the question goes to the queue (or, without one, the
// model is told no user can be asked).
func TestWithoutElicitation(t *testing.T) {
	for version := range protocols {
		queue := &ask.Queue{}
		cs := connect(t, newRegistry(t, &ask.Toolkit{Answerer: askmcp.Answerer{}, Queue: queue}), version, nil)
		text, isErr := callText(t, cs, map[string]any{"question": "Staging host?"})
		require.False(t, isErr, text)
		assert.Contains(t, text, "has not answered yet", version)
		assert.Len(t, queue.Pending(), 1, version)
	}

	res := newRegistry(t, &ask.Toolkit{Answerer: askmcp.Answerer{}}).Invoke(t.Context(),
		runtime.Call{Name: "ask_user", Args: []byte(`{"question":"Staging host?"}`)})
	require.True(t, res.IsError, "not an MCP call")
	assert.Contains(t, res.Text, "no user can be asked here")
}
