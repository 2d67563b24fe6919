package mcp_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// rawWeatherServer serves get_weather as a raw go-sdk handler, the baseline of the benchmarks.
func rawWeatherServer() *mcp.Server {
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
	return server
}

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
	b.Run("raw go-sdk tool", func(b *testing.B) { run(b, rawWeatherServer()) })
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

// BenchmarkIdleSession opens b.N stateful sessions over streamable HTTP, each making one
// tools/call of get_weather, and reports the live heap each holds once they are idle (B/session,
// after two collections: no fragmentation, no goroutine stacks, which mcpload's figure counts
// too), for the same tool as a raw go-sdk handler and through HTTPHandler, in the same run.
// Run it with a fixed count: go test -run '^$' -bench IdleSession -benchtime 1000x.
func BenchmarkIdleSession(b *testing.B) {
	run := func(b *testing.B, h http.Handler) {
		srv := httptest.NewServer(h)
		defer srv.Close()
		client := &http.Client{}
		post := func(session, body string) string {
			req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(body))
			if err != nil {
				b.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
			if session != "" {
				req.Header.Set("Mcp-Session-Id", session)
			}
			res, err := client.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			defer res.Body.Close()
			if _, err := io.Copy(io.Discard, res.Body); err != nil || res.StatusCode >= 300 {
				b.Fatal(res.Status, err)
			}
			return res.Header.Get("Mcp-Session-Id")
		}
		open := func() string {
			id := post("", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
			post(id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			post(id, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Tokyo","unit":"celsius"}}}`)
			return id
		}
		live := func() uint64 {
			goruntime.GC()
			goruntime.GC()
			var m goruntime.MemStats
			goruntime.ReadMemStats(&m)
			return m.HeapAlloc
		}
		for range 20 { // the first sessions grow what every session shares
			open()
		}
		ids := make([]string, 0, b.N)
		before := live()
		for b.Loop() {
			ids = append(ids, open())
		}
		b.StopTimer()
		after := live()
		b.ReportMetric((float64(after)-float64(before))/float64(len(ids)), "B/session")
		goruntime.KeepAlive(ids)
	}
	b.Run("raw go-sdk tool", func(b *testing.B) {
		server := rawWeatherServer()
		run(b, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	})
	b.Run("HTTPHandler", func(b *testing.B) {
		reg := runtime.NewRegistry()
		if err := reg.Add(fixture.WeatherTool()); err != nil {
			b.Fatal(err)
		}
		run(b, toolmcp.HTTPHandler(reg, toolmcp.WithSessionLimits(toolmcp.SessionLimits{Max: -1, MaxPerClient: -1})))
	})
}
