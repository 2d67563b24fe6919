package mcp_test

import (
	"bufio"
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

// BenchmarkStatelessCall measures the server's work for one stateless tools/call of
// get_weather, byte for byte as a go-sdk v1.8.0 client sends it, on each protocol it speaks
// (2025-11-25, and its default, 2026-07-28, whose calls carry the _meta triple and the
// standard headers): HTTPHandler (its own path), the same registry behind the SDK's own
// handler (AddTools), and the floor, a net/http handler that reads the request and writes a
// canned answer, all in one run on one goroutine (ServeHTTP on a recorder: no network), so
// ns/op is the server's CPU time a call and the rows' ratios are what to read.
func BenchmarkStatelessCall(b *testing.B) {
	const args = `"name":"get_weather","arguments":{"city":"Tokyo","unit":"celsius"}`
	requests := map[string]struct {
		body   string
		header map[string]string
	}{
		"2025-11-25": {`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{` + args + `}}`,
			map[string]string{"Mcp-Protocol-Version": "2025-11-25"}},
		"2026-07-28": {`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true}},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"},` + args + `}}`,
			map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "get_weather"}},
	}
	registry := func(b *testing.B) *runtime.Registry {
		reg := runtime.NewRegistry()
		if err := reg.Add(fixture.WeatherTool()); err != nil {
			b.Fatal(err)
		}
		return reg
	}
	canned := []byte(`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"{\"city\":\"Tokyo\",\"temperature\":21,\"unit\":\"celsius\"}"}],"structuredContent":{"city":"Tokyo","temperature":21,"unit":"celsius"}}}`)
	handlers := []struct {
		name string
		h    func(b *testing.B) http.Handler
	}{
		{"floor", func(*testing.B) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write(canned)
			})
		}},
		{"HTTPHandler", func(b *testing.B) http.Handler { return toolmcp.HTTPHandler(registry(b), toolmcp.WithStateless()) }},
		{"SDK handler", func(b *testing.B) http.Handler {
			server := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
			toolmcp.AddTools(server, registry(b), nil)
			return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{Stateless: true})
		}},
	}
	for _, protocol := range []string{"2025-11-25", "2026-07-28"} {
		request := requests[protocol]
		for _, handler := range handlers {
			b.Run(protocol+"/"+handler.name, func(b *testing.B) {
				h := handler.h(b)
				b.ReportAllocs()
				for b.Loop() {
					req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/", strings.NewReader(request.body))
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Accept", "application/json, text/event-stream")
					for k, v := range request.header {
						req.Header.Set(k, v)
					}
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, req)
					if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `\"temperature\":21`) {
						b.Fatal(rec.Code, rec.Body.String())
					}
				}
			})
		}
	}
}

// BenchmarkStdioCall makes tools/call requests of get_weather over stdio as ServeStdio serves
// them (through pipes, in one process), on both protocols, and a floor: a loop that reads a
// line and writes a canned answer. Each op is one request line written and one answer read.
func BenchmarkStdioCall(b *testing.B) {
	const args = `"name":"get_weather","arguments":{"city":"Tokyo","unit":"celsius"}`
	calls := map[string]string{
		"2025-11-25": `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{` + args + `}}`,
		"2026-07-28": `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true}},"io.modelcontextprotocol/clientInfo":{"name":"example-client","version":"v1.8.0"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"},` + args + `}}`,
	}
	canned := []byte(`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"{\"city\":\"Tokyo\",\"temperature\":21,\"unit\":\"celsius\"}"}],"structuredContent":{"city":"Tokyo","temperature":21,"unit":"celsius"}}}` + "\n")
	run := func(b *testing.B, serve func(in io.Reader, out io.Writer), handshake []string, call string) {
		toServer, fromClient := io.Pipe()
		toClient, fromServer := io.Pipe()
		go serve(toServer, fromServer)
		b.Cleanup(func() { _ = fromClient.Close(); _ = toClient.Close() })
		answers := bufioReader(toClient)
		for _, line := range handshake {
			if _, err := io.WriteString(fromClient, line+"\n"); err != nil {
				b.Fatal(err)
			}
			if strings.Contains(line, `"id"`) {
				if _, err := answers.ReadBytes('\n'); err != nil {
					b.Fatal(err)
				}
			}
		}
		line := []byte(call + "\n")
		b.ReportAllocs()
		for b.Loop() {
			if _, err := fromClient.Write(line); err != nil {
				b.Fatal(err)
			}
			answer, err := answers.ReadBytes('\n')
			if err != nil || !strings.Contains(string(answer), `\"temperature\":21`) {
				b.Fatal(err, string(answer))
			}
		}
	}
	b.Run("floor", func(b *testing.B) {
		run(b, func(in io.Reader, out io.Writer) {
			lines := bufioReader(in)
			for {
				if _, err := lines.ReadSlice('\n'); err != nil {
					return
				}
				if _, err := out.Write(canned); err != nil {
					return
				}
			}
		}, nil, calls["2025-11-25"])
	})
	for _, protocol := range []string{"2025-11-25", "2026-07-28"} {
		var handshake []string
		if protocol == "2025-11-25" {
			handshake = []string{
				`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
				`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`,
			}
		}
		b.Run(protocol+"/ServeStdio", func(b *testing.B) {
			reg := runtime.NewRegistry()
			if err := reg.Add(fixture.WeatherTool()); err != nil {
				b.Fatal(err)
			}
			var fast func() int64
			started := make(chan struct{})
			run(b, func(in io.Reader, out io.Writer) {
				var done <-chan error
				fast, done = toolmcp.ServeLines(b.Context(), reg, in, out)
				close(started)
				<-done
			}, handshake, calls[protocol])
			<-started
			b.ReportMetric(float64(fast())/float64(b.N), "beside/op")
		})
	}
}

func bufioReader(r io.Reader) *bufio.Reader { return bufio.NewReaderSize(r, 64<<10) }
