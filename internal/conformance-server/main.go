// Command conformance-server serves package everything over streamable HTTP, written only with
// toolgen's API (generated tools, prompts and resources, runtime/mcp), for the official MCP
// conformance suite (@modelcontextprotocol/conformance). Its test runs the suite's server
// scenarios against it, stateful and stateless:
//
//	go run ./internal/conformance-server -http 127.0.0.1:3000             # stateful
//	go run ./internal/conformance-server -http 127.0.0.1:3000 -stateless
//
// It prints "serving MCP on URL" once it listens.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/internal/conformance-server/everything"
	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

func main() {
	addr := flag.String("http", "127.0.0.1:3000", "serve streamable HTTP on this address")
	stateless := flag.Bool("stateless", false, "stateless HTTP (no Mcp-Session-Id)")
	flag.Parse()

	handler, err := newHandler(*stateless)
	if err != nil {
		log.Fatal(err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("serving MCP on http://%s/mcp\n", ln.Addr())
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	log.Fatal(http.Serve(ln, mux))
}

// newHandler serves everything's tools, prompts and resources, with resumable streams and
// updates of the watched resource every 3 seconds.
func newHandler(stateless bool) (http.Handler, error) {
	reg := runtime.NewRegistry()
	if err := reg.Add(everything.Tools()...); err != nil {
		return nil, err
	}
	opts := []toolmcp.Option{
		toolmcp.WithImplementation("mcp-conformance-test-server", "1.0.0"),
		toolmcp.WithPrompts(everything.Prompts()...),
		toolmcp.WithResources(everything.Resources()...),
		toolmcp.WithEventStore(mcp.NewMemoryEventStore(nil)),
		toolmcp.WithServerHook(func(s *mcp.Server) { go updateWatched(s) }),
	}
	if stateless {
		opts = append(opts, toolmcp.WithStateless())
	}
	return toolmcp.HTTPHandler(reg, opts...), nil
}

func updateWatched(s *mcp.Server) {
	for range time.Tick(3 * time.Second) {
		_ = s.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: everything.WatchedResourceURI})
	}
}
