// Command mcp-proxy serves another MCP server's tools again, with approval added: it starts
// the server given after "--" over stdio, mounts its tools in a registry (runtime/mcp/mount)
// and serves that registry over stdio. Each call is validated here before it reaches the
// server, and each call of a tool the server marks destructive (or one named by -confirm) is
// first put to the user through the proxy's own client (MCP elicitation), whatever the server
// would do itself:
//
//	go build -o /tmp/ws ./examples/workspace-server
//	go run ./examples/mcp-proxy -- /tmp/ws -root ~/src/project -yes
//
// Here workspace-server approves every write and command itself (-yes); behind the proxy, the
// user still approves each write_file, edit_file and shell call. Progress, cancellation and
// tools/list_changed pass through; if the server exits, the proxy starts it again.
//
// Flags: -prefix (put before every tool's name; default none), -confirm (tools that need
// approval whatever their hints, comma-separated), -confirm-all, -timeout (per call).
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/runtime/mcp/mount"
)

// options are the command's flags.
type options struct {
	prefix     string
	confirm    string // comma-separated tool names
	confirmAll bool
	timeout    time.Duration
}

func main() {
	var opts options
	flag.StringVar(&opts.prefix, "prefix", "", "put this before every tool's name")
	flag.StringVar(&opts.confirm, "confirm", "", "tools (the server's names) that need approval whatever their hints, comma-separated")
	flag.BoolVar(&opts.confirmAll, "confirm-all", false, "every call needs approval")
	flag.DurationVar(&opts.timeout, "timeout", 5*time.Minute, "bound on one call")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: mcp-proxy [flags] -- SERVER-COMMAND [ARGS...]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	reg, m, err := newProxy(ctx, mount.Server{Name: "upstream", Command: flag.Args(), Stderr: os.Stderr}, opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcp-proxy:", err)
		os.Exit(1)
	}
	defer m.Close()
	if err := toolmcp.ServeStdio(ctx, reg, toolmcp.WithImplementation("toolgen-mcp-proxy", "1.0.0")); err != nil {
		log.Fatal(err)
	}
}

// newProxy mounts the server in a registry without an approver of its own: the tools that
// need approval are then put to the connected client by runtime/mcp (elicitation), and
// refused when it cannot ask.
func newProxy(ctx context.Context, s mount.Server, opts options) (*runtime.Registry, *mount.Mounted, error) {
	reg := runtime.NewRegistry()
	o := mount.Options{Prefix: opts.prefix, NoPrefix: opts.prefix == "", ConfirmAll: opts.confirmAll, Timeout: opts.timeout}
	if opts.confirm != "" {
		o.Confirm = strings.Split(opts.confirm, ",")
	}
	m, err := mount.Mount(ctx, reg, s, o)
	if err != nil {
		return nil, nil, err
	}
	return reg, m, nil
}
