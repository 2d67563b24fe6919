// Command mcp-server serves toolgen tools over the Model Context Protocol with runtime/mcp and
// the official Go SDK: get_weather, and the tools of package demo that show progress and
// cancellation, a result larger than its cap, sessions, approval and questions to the user.
// It serves stdio by default (for clients that start it, such as desktop apps), or streamable
// HTTP with -http ADDR, stateless with -stateless, and requires a bearer token with -token.
// Over stdio it exits when its input closes.
//
//	go run ./examples/mcp-server                                    # stdio
//	go run ./examples/mcp-server -http localhost:8080               # http://localhost:8080
//	go run ./examples/mcp-server -http localhost:8080 -token s3cret # Authorization: Bearer s3cret
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/toolgen-go/toolgen/examples/mcp-server/demo"
	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

func main() {
	addr := flag.String("http", "", "serve streamable HTTP on this address instead of stdio")
	stateless := flag.Bool("stateless", false, "with -http: stateless HTTP (no Mcp-Session-Id)")
	token := flag.String("token", "", "with -http: require this bearer token (its user is \"demo-user\")")
	pageSize := flag.Int("page-size", 0, "tools per tools/list page (the SDK's default when 0)")
	flag.Parse()

	reg, err := newRegistry()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcp-server:", err)
		os.Exit(1)
	}
	opts := []toolmcp.Option{toolmcp.WithImplementation("toolgen-demo", "1.0.0"), toolmcp.WithPageSize(*pageSize)}
	if *addr == "" {
		if err := toolmcp.ServeStdio(context.Background(), reg, opts...); err != nil {
			log.Fatal(err)
		}
		return
	}
	if *stateless {
		opts = append(opts, toolmcp.WithStateless())
	}
	if *token != "" {
		// Calls of one user share a session across connections, kept 10 minutes after the last.
		opts = append(opts, toolmcp.WithBearerAuth(toolmcp.StaticToken(*token, "demo-user"), nil),
			toolmcp.WithSessionKey(toolmcp.SessionFromPrincipal()), toolmcp.WithSessionLinger(10*time.Minute))
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	// The address goes to stdout so that a program that starts the server on port 0 finds it.
	fmt.Printf("serving MCP on http://%s\n", ln.Addr())
	log.Fatal(http.Serve(ln, toolmcp.HTTPHandler(reg, opts...)))
}

// newRegistry returns the registry of the served tools.
func newRegistry() (*runtime.Registry, error) {
	reg := runtime.NewRegistry()
	if err := reg.Add(weather.Tools()...); err != nil {
		return nil, err
	}
	return reg, reg.Add(demo.Tools()...)
}
