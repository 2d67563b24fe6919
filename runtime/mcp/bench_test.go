package mcp_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// BenchmarkToolsCall measures one tools/call from the go-sdk client, in memory, to get_weather
// served through AddTools (registry, validation, session tracking, timeout worker) and to the
// same tool written as a raw go-sdk handler, in the same run: their ratio is toolgen's cost
// on top of the SDK's transport.
func BenchmarkToolsCall(b *testing.B) {
	args := map[string]any{"city": "Tokyo", "unit": "celsius"}
	run := func(b *testing.B, server *mcp.Server) {
		serverSide, clientSide := mcp.NewInMemoryTransports()
		ss, err := server.Connect(b.Context(), serverSide, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer ss.Close()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(b.Context(), clientSide, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		params := &mcp.CallToolParams{Name: "get_weather", Arguments: args}
		b.ReportAllocs()
		for b.Loop() {
			res, err := cs.CallTool(b.Context(), params)
			if err != nil || res.IsError {
				b.Fatal(err, res)
			}
		}
	}
	b.Run("raw go-sdk tool", func(b *testing.B) {
		server := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
		server.AddTool(&mcp.Tool{Name: "get_weather", InputSchema: json.RawMessage(fixture.WeatherSchema)},
			func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				var a struct{ City, Unit string }
				if err := json.Unmarshal(req.Params.Arguments, &a); err != nil {
					return nil, err
				}
				out, _ := json.Marshal(map[string]any{"city": a.City, "unit": a.Unit, "temperature": 21})
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(out)}}, StructuredContent: json.RawMessage(out)}, nil
			})
		run(b, server)
	})
	b.Run("AddTools", func(b *testing.B) {
		server := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
		reg := runtime.NewRegistry()
		if err := reg.Add(fixture.WeatherTool()); err != nil {
			b.Fatal(err)
		}
		toolmcp.AddTools(server, reg, nil)
		run(b, server)
	})
}
