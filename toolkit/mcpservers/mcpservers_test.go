package mcpservers_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/mcp/mount"
	"github.com/toolgen-go/toolgen/toolkit/mcpservers"
)

// notes is a go-sdk server in this process with a read-only tool and a destructive one.
func notes(t *testing.T) func(context.Context) (mcp.Transport, error) {
	server := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "1"}, nil)
	server.AddTool(&mcp.Tool{Name: "read_note", Description: "Reads a note.", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		InputSchema: json.RawMessage(`{"type":"object","properties":{"title":{"type":"string","minLength":1}},"required":["title"],"additionalProperties":false}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var a struct{ Title string }
			json.Unmarshal(req.Params.Arguments, &a)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "the note " + a.Title}}}, nil
		})
	server.AddTool(&mcp.Tool{Name: "delete_note", Description: "Deletes a note.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"}},"required":["title"],"additionalProperties":false}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			t.Error("delete_note ran without approval")
			return nil, nil
		})
	server.AddTool(&mcp.Tool{Name: "fail_note", Description: "Fails, naming itself as the mount does.", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "notes_fail_note is broken"}}}, nil
		})
	return func(ctx context.Context) (mcp.Transport, error) {
		serverSide, clientSide := mcp.NewInMemoryTransports()
		if _, err := server.Connect(ctx, serverSide, nil); err != nil {
			return nil, err
		}
		return clientSide, nil
	}
}

func TestListAndCall(t *testing.T) {
	servers := runtime.NewRegistry() // no approver: destructive tools are refused
	m, err := mount.Mount(t.Context(), servers, mount.Server{Name: "notes", Dial: notes(t)}, mount.Options{Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	defer m.Close()
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add((&mcpservers.Toolkit{Registry: servers, Servers: []*mount.Mounted{m}}).Tools()...))
	invoke := func(name, args string) runtime.Result {
		return reg.Invoke(t.Context(), runtime.Call{Name: name, Args: []byte(args), Session: "s1"})
	}

	res := invoke("list_mcp_servers", `{}`)
	require.False(t, res.IsError, res.Text)
	assert.JSONEq(t, `{"servers":[{"name":"notes","connected":true,"tools":[
		{"name":"delete_note","description":"Deletes a note.","needs_approval":true},
		{"name":"fail_note","description":"Fails, naming itself as the mount does."},
		{"name":"read_note","description":"Reads a note."}]}]}`, string(res.Structured))
	res = invoke("list_mcp_servers", `{"server":"notes"}`)
	require.False(t, res.IsError, res.Text)
	assert.Contains(t, res.Text, `"input_schema":{"additionalProperties":false,"properties":{"title":{"minLength":1,"type":"string"}}`)
	res = invoke("list_mcp_servers", `{"server":"note"}`)
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, `"note" (did you mean "notes"?)`)

	res = invoke("call_mcp_tool", `{"server":"notes","tool":"read_note","arguments":{"title":"plan"}}`)
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, "the note plan", res.Text)
	res = invoke("call_mcp_tool", `{"server":"notes","tool":"read_note","arguments":{"title":"notes_read_note"}}`)
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, "the note notes_read_note", res.Text, "a tool's own answer is passed on as it is")
	res = invoke("call_mcp_tool", `{"server":"notes","tool":"fail_note","arguments":{}}`)
	require.True(t, res.IsError)
	assert.Equal(t, "notes_fail_note is broken", res.Text, "a tool's own failure is passed on as it is")
	res = invoke("call_mcp_tool", `{"server":"notes","tool":"read_note","arguments":{"titel":""}}`)
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, `/titel: unknown property`)
	assert.Contains(t, res.Text, `did you mean "title"`)
	assert.Contains(t, res.Text, "read_note", "the model's name for the tool, not the mount's")
	assert.NotContains(t, res.Text, "notes_read_note")
	res = invoke("call_mcp_tool", `{"server":"notes","tool":"read_notes","arguments":{}}`)
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, `"read_notes" (did you mean "read_note"?)`)
	res = invoke("call_mcp_tool", `{"server":"notes","tool":"delete_note","arguments":{"title":"plan"}}`)
	require.True(t, res.IsError, "approval applies through call_mcp_tool")
}
