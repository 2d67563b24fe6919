// Command mcp-server serves toolgen's get_weather tool over the Model Context Protocol, with
// the official Go SDK: over stdio by default (for clients that start it, such as desktop
// apps), or over streamable HTTP with -http ADDR. Over stdio it exits when its input closes.
//
//	go run ./examples/mcp-server              # stdio
//	go run ./examples/mcp-server -http :8080  # http://localhost:8080
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

func main() {
	addr := flag.String("http", "", "serve streamable HTTP on this address instead of stdio")
	flag.Parse()
	server, err := newServer()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcp-server:", err)
		os.Exit(1)
	}
	if *addr != "" {
		log.Printf("serving MCP on http://%s", *addr)
		handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
		log.Fatal(http.ListenAndServe(*addr, handler))
	}
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}

// newServer returns an MCP server with the weather tools.
func newServer() (*mcp.Server, error) {
	reg := runtime.NewRegistry()
	if err := reg.Add(weather.Tools()...); err != nil {
		return nil, err
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "toolgen-weather", Version: "1.0.0"}, nil)
	toolmcp.AddTools(server, reg, reg.Tools())
	return server, nil
}
