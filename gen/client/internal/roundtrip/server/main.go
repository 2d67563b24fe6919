// Command server serves package catalog's tools over MCP on stdio, for the round-trip tests
// that run toolgen -client -stdio against a server process.
package main

import (
	"context"
	"log"
	"os/signal"
	"syscall"

	"github.com/toolgen-go/toolgen/gen/client/internal/roundtrip/catalog"
	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	reg := runtime.NewRegistry()
	if err := reg.Add(catalog.Tools()...); err != nil {
		log.Fatal(err)
	}
	if err := toolmcp.ServeStdio(ctx, reg); err != nil && ctx.Err() == nil {
		log.Fatal(err)
	}
}
