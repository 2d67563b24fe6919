// Command workspace-server serves the workspace toolkit (read_file, write_file, edit_file,
// list_dir, glob, grep, shell, read_result) over the Model Context Protocol, on a directory:
// over stdio by default (for clients that start it), or over streamable HTTP with -http ADDR.
//
//	go run ./examples/workspace-server -root ~/src/project        # stdio
//	go run ./examples/workspace-server -root . -http :8080       # http://localhost:8080
//
// write_file, edit_file and shell need approval. By default the server asks the user through
// the client (MCP elicitation), and refuses when the client cannot ask. -yes approves every
// call instead (for trusted, local use only: the model can then run any command as you);
// -allow approves the shell commands starting with the given prefixes (see
// workspace.AllowCommands) without asking; without -yes, every other call that needs approval
// is left to the user, asked by elicitation (during the call on 2025-11-25, by an
// input-required result on 2026-07-28), and refused when the client cannot ask.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
	"github.com/toolgen-go/toolgen/toolkit/workspace"
)

// options are the command's flags.
type options struct {
	root  string
	yes   bool
	allow string // comma-separated command prefixes
}

func main() {
	var opts options
	addr := flag.String("http", "", "serve streamable HTTP on this address instead of stdio")
	flag.StringVar(&opts.root, "root", ".", "the directory the tools work in")
	flag.BoolVar(&opts.yes, "yes", false, "approve every write, edit and command (trusted local use only)")
	flag.StringVar(&opts.allow, "allow", "", `shell command prefixes to approve, comma-separated, e.g. "git status,ls" (see workspace.AllowCommands for prefixes not to allow)`)
	flag.Parse()

	server, sb, err := newServer(opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "workspace-server:", err)
		os.Exit(1)
	}
	defer sb.Close()
	if *addr != "" {
		log.Printf("serving the workspace %s over MCP on http://%s", opts.root, *addr)
		handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
			&mcp.StreamableHTTPOptions{PropagateRequestCancellation: true})
		log.Fatal(http.ListenAndServe(*addr, handler))
	}
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}

// newServer returns an MCP server with the workspace tools on opts.root, and the sandbox to
// close when done.
func newServer(opts options) (*mcp.Server, *sandbox.Local, error) {
	sb, err := sandbox.OpenLocal(opts.root, sandbox.LocalOptions{})
	if err != nil {
		return nil, nil, err
	}
	var approver runtime.Approver // nil: the server asks the user through the client
	if opts.yes {
		approver = runtime.ApproverFunc(func(context.Context, runtime.ApprovalRequest) (runtime.Decision, error) {
			return runtime.Decision{Approved: true, By: "-yes"}, nil
		})
	}
	w := workspace.New(sb)
	if opts.allow != "" {
		approver = w.AllowCommands(approver, strings.Split(opts.allow, ",")...)
	}
	var regOpts []runtime.Option
	if approver != nil {
		regOpts = append(regOpts, runtime.WithApprover(approver))
	}
	reg := runtime.NewRegistry(regOpts...)
	if err := reg.Add(workspace.WorkspaceTools(w)...); err != nil {
		sb.Close()
		return nil, nil, err
	}
	return toolmcp.NewServer(reg, toolmcp.WithImplementation("toolgen-workspace", "1.0.0")), sb, nil
}
