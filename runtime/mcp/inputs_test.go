//lint:file-ignore SA1019 sampling and roots are deprecated by protocol 2026-07-28 (SEP-2577) but still served, which is what these tests check.

package mcp_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

var nameSchema = map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}, "required": []string{"name"}}

// askAllTool asks for a name, a completion and the roots at once, under keys of its own.
func askAllTool() runtime.Tool {
	return funcTool("ask_all", func(ctx context.Context, _ funcArgs) runtime.Result {
		answers, err := toolmcp.Ask(ctx,
			toolmcp.ElicitInput("user_name", "Name?", nameSchema),
			toolmcp.SampleInput("greeting", &mcp.CreateMessageParams{MaxTokens: 5, Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "Greet"}}}}),
			toolmcp.RootsInput("client_roots"))
		if err != nil {
			return runtime.ErrorResult(err)
		}
		greeting := answers["greeting"].(*mcp.CreateMessageResult).Content.(*mcp.TextContent).Text
		roots := answers["client_roots"].(*mcp.ListRootsResult).Roots
		return runtime.TextResult(fmt.Sprintf("%s %v (%d root: %s)", greeting, answers["user_name"].(*mcp.ElicitResult).Content["name"], len(roots), roots[0].URI))
	})
}

func answeringClient() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Alice"}}, nil
		},
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Role: "assistant", Model: "m", Content: &mcp.TextContent{Text: "Hello"}}, nil
		},
	}
}

// Ask puts elicitation, sampling and roots to the client, on every protocol: requests to the
// client up to 2025-11-25, one input-required result with the handler's own keys on
// 2026-07-28 (which toolgen's Elicit and Sample could not: one question a round, under
// toolgen_elicit, and no sampling there).
func TestAskElicitsSamplesAndListsRoots(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(askAllTool()))
	for name, sopts := range protocols {
		t.Run(name, func(t *testing.T) {
			server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
			toolmcp.AddTools(server, reg, nil)
			client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, answeringClient())
			client.AddRoots(&mcp.Root{URI: "file:///work", Name: "work"})
			serverSide, clientSide := mcp.NewInMemoryTransports()
			ss, err := server.Connect(t.Context(), serverSide, nil)
			require.NoError(t, err)
			t.Cleanup(func() { _ = ss.Close() })
			cs, err := client.Connect(t.Context(), clientSide, sopts)
			require.NoError(t, err)
			t.Cleanup(func() { _ = cs.Close() })
			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "ask_all", Arguments: map[string]any{}})
			require.NoError(t, err)
			require.False(t, res.IsError, "%v", res.Content)
			assert.Equal(t, "Hello Alice (1 root: file:///work)", res.Content[0].(*mcp.TextContent).Text)
		})
	}

	t.Run("one round, the handler's keys", func(t *testing.T) {
		cs := inMemory(t, reg, &mcp.ClientOptions{
			ElicitationHandler:   answeringClient().ElicitationHandler,
			CreateMessageHandler: answeringClient().CreateMessageHandler,
			MultiRoundTrip:       &mcp.MultiRoundTripOptions{Disabled: true},
		}, nil)
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "ask_all", Arguments: map[string]any{}})
		require.NoError(t, err)
		require.True(t, res.NeedsInput())
		var keys []string
		for k := range res.InputRequests {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		assert.Equal(t, []string{"client_roots", "greeting", "user_name"}, keys)
		assert.IsType(t, &mcp.ListRootsParams{}, res.InputRequests["client_roots"])

		answers := mcp.InputResponseMap{
			"user_name":    &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Bob"}},
			"greeting":     &mcp.CreateMessageResult{Role: "assistant", Model: "m", Content: &mcp.TextContent{Text: "Hi"}},
			"client_roots": &mcp.ListRootsResult{Roots: []*mcp.Root{{URI: "file:///a"}}},
		}
		// An answer left out is asked again, with the others kept.
		partial := maps(answers, "user_name", "greeting")
		again, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "ask_all", Arguments: map[string]any{}, InputResponses: partial, RequestState: res.RequestState})
		require.NoError(t, err)
		require.True(t, again.NeedsInput())
		assert.Len(t, again.InputRequests, 1)
		assert.Contains(t, again.InputRequests, "client_roots")

		done, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "ask_all", Arguments: map[string]any{}, InputResponses: maps(answers, "client_roots"), RequestState: again.RequestState})
		require.NoError(t, err)
		require.False(t, done.NeedsInput())
		assert.Equal(t, "Hi Bob (1 root: file:///a)", done.Content[0].(*mcp.TextContent).Text)

		// The state is sealed: changed, it is a protocol error, and nothing runs.
		_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "ask_all", Arguments: map[string]any{}, InputResponses: answers, RequestState: res.RequestState + "-TAMPERED"})
		var wire *jsonrpc.Error
		require.ErrorAs(t, err, &wire)
		assert.Equal(t, int64(jsonrpc.CodeInvalidParams), wire.Code)
	})

	t.Run("a capability the client did not declare", func(t *testing.T) {
		cs := inMemory(t, reg, &mcp.ClientOptions{ElicitationHandler: answeringClient().ElicitationHandler}, nil)
		_, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "ask_all", Arguments: map[string]any{}})
		var wire *jsonrpc.Error
		require.ErrorAs(t, err, &wire)
		assert.Equal(t, int64(mcp.CodeMissingRequiredClientCapabilities), wire.Code)
		assert.JSONEq(t, `{"requiredCapabilities":{"sampling":{}}}`, string(wire.Data))
	})
}

func maps(m mcp.InputResponseMap, keys ...string) mcp.InputResponseMap {
	out := mcp.InputResponseMap{}
	for _, k := range keys {
		out[k] = m[k]
	}
	return out
}

// A prompt (and a resource) can ask too: on 2026-07-28 prompts/get returns the question as an
// input-required result and runs again with the answer.
func TestPromptElicits(t *testing.T) {
	prompt := funcTool("contextual", func(ctx context.Context, _ funcArgs) runtime.Result {
		_, content, err := toolmcp.ElicitNamed(ctx, "user_context", "Context?", map[string]any{"type": "object", "properties": map[string]any{"context": map[string]any{"type": "string"}}})
		if err != nil {
			return runtime.ErrorResult(err)
		}
		return runtime.TextResult(fmt.Sprint("Context: ", content["context"]))
	})
	server := toolmcp.NewServer(runtime.NewRegistry(), toolmcp.WithPrompts(prompt))
	for name, sopts := range protocols {
		t.Run(name, func(t *testing.T) {
			cs := connectInMemory(t, server, &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"context": "tests"}}, nil
			}}, sopts)
			res, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "contextual"})
			require.NoError(t, err)
			require.Len(t, res.Messages, 1)
			assert.Equal(t, "Context: tests", res.Messages[0].Content.(*mcp.TextContent).Text)
		})
	}
	t.Run("the question, by its key", func(t *testing.T) {
		cs := connectInMemory(t, server, &mcp.ClientOptions{MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
			ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, fmt.Errorf("unused") }}, nil)
		res, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "contextual"})
		require.NoError(t, err)
		require.True(t, res.NeedsInput())
		assert.Contains(t, res.InputRequests, "user_context")
		assert.NotEmpty(t, res.RequestState)
		_, err = cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "contextual", RequestState: res.RequestState + "x",
			InputResponses: mcp.InputResponseMap{"user_context": &mcp.ElicitResult{Action: "accept"}}})
		var wire *jsonrpc.Error
		require.ErrorAs(t, err, &wire)
		assert.Equal(t, int64(jsonrpc.CodeInvalidParams), wire.Code)
	})
}
