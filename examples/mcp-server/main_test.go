package main

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestServerAnswersAClient(t *testing.T) {
	ctx := context.Background()
	server, err := newServer()
	if err != nil {
		t.Fatal(err)
	}
	serverSide, clientSide := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, serverSide, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, clientSide, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != 1 || list.Tools[0].Name != "get_weather" || list.Tools[0].OutputSchema == nil {
		t.Fatalf("tools/list: %+v", list.Tools)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": "Tokyo", "days": 1}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || res.StructuredContent == nil {
		t.Errorf("valid call: %+v", res)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"citty": "Tokyo"}})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !res.IsError || !strings.Contains(text, `did you mean "city"`) {
		t.Errorf("invalid call: %q", text)
	}
}
