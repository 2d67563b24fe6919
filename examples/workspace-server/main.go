// Command workspace-server serves the workspace toolkit (read_file, write_file, edit_file,
// list_dir, glob, grep, shell, read_result) over the Model Context Protocol, on a directory:
// over stdio by default (for clients that start it), or over streamable HTTP with -http ADDR.
//
//	go run ./examples/workspace-server -root ~/src/project       # stdio
//
//	export TOOLGEN_TOKEN=$(openssl rand -hex 32)                 # and give it to your client
//	go run ./examples/workspace-server -root . -http :8080       # http://127.0.0.1:8080
//
// Over HTTP the server can run commands for whoever reaches it, so it refuses to start
// without a bearer token: TOOLGEN_TOKEN (or -token, which other users of the machine can see
// in the process list), at least 16 characters; the client sends it as "Authorization:
// Bearer TOKEN", and every other request is refused with 401. An address without a host
// (:8080) listens on loopback only (127.0.0.1:8080); name the interface to listen on others
// (0.0.0.0:8080). The approval questions go to the connected client (below), so give the
// token to your own client only: whoever holds it approves the calls it makes.
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
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
	"github.com/toolgen-go/toolgen/toolkit/workspace"
)

// minTokenLength is the shortest bearer token -http accepts.
const minTokenLength = 16

// options are the command's flags.
type options struct {
	root  string
	yes   bool
	allow string // comma-separated command prefixes
}

func main() {
	var opts options
	addr := flag.String("http", "", "serve streamable HTTP on this address instead of stdio (:PORT listens on loopback only)")
	token := flag.String("token", "", "the bearer token HTTP clients must send (default $TOOLGEN_TOKEN; the environment keeps it out of the process list)")
	flag.StringVar(&opts.root, "root", ".", "the directory the tools work in")
	flag.BoolVar(&opts.yes, "yes", false, "approve every write, edit and command (trusted local use only)")
	flag.StringVar(&opts.allow, "allow", "", `shell command prefixes to approve, comma-separated, e.g. "git status,ls" (see workspace.AllowCommands for prefixes not to allow)`)
	flag.Parse()

	if *addr != "" {
		if *token == "" {
			*token = os.Getenv("TOOLGEN_TOKEN")
		}
		srv, sb, err := newHTTPServer(opts, *addr, *token)
		if err != nil {
			fmt.Fprintln(os.Stderr, "workspace-server:", err)
			os.Exit(1)
		}
		defer sb.Close()
		log.Printf("serving the workspace %s over MCP on http://%s (bearer token required)", opts.root, srv.Addr)
		log.Fatal(srv.ListenAndServe())
	}
	server, sb, err := newServer(opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "workspace-server:", err)
		os.Exit(1)
	}
	defer sb.Close()
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}

// newHTTPServer returns the HTTP server of -http addr: on loopback when addr names no host,
// behind the bearer token, which it refuses to do without.
func newHTTPServer(opts options, addr, token string) (*http.Server, *sandbox.Local, error) {
	switch {
	case token == "":
		return nil, nil, errors.New("refusing to serve over HTTP without authentication: its clients can run commands; set TOOLGEN_TOKEN (or -token) to a secret, e.g. $(openssl rand -hex 32)")
	case len(token) < minTokenLength:
		return nil, nil, fmt.Errorf("the bearer token is %d characters: use at least %d random ones, e.g. $(openssl rand -hex 32)", len(token), minTokenLength)
	}
	listen, err := listenAddr(addr)
	if err != nil {
		return nil, nil, err
	}
	reg, sb, err := newRegistry(opts)
	if err != nil {
		return nil, nil, err
	}
	handler := toolmcp.HTTPHandler(reg, toolmcp.WithImplementation("toolgen-workspace", "1.0.0"),
		toolmcp.WithBearerAuth(toolmcp.StaticToken(token, "owner"), nil))
	return &http.Server{Addr: listen, Handler: handler}, sb, nil
}

// listenAddr returns addr, on loopback when it names no host (":8080" or "8080").
func listenAddr(addr string) (string, error) {
	if !strings.Contains(addr, ":") {
		addr = ":" + addr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("-http %q: %w", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}

// newServer returns an MCP server with the workspace tools on opts.root, and the sandbox to
// close when done.
func newServer(opts options) (*mcp.Server, *sandbox.Local, error) {
	reg, sb, err := newRegistry(opts)
	if err != nil {
		return nil, nil, err
	}
	return toolmcp.NewServer(reg, toolmcp.WithImplementation("toolgen-workspace", "1.0.0")), sb, nil
}

// newRegistry returns a registry of the workspace tools on opts.root, approved as opts say,
// and the sandbox to close when done.
func newRegistry(opts options) (*runtime.Registry, *sandbox.Local, error) {
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
	if err := reg.Add(w.Tools()...); err != nil {
		sb.Close()
		return nil, nil, err
	}
	return reg, sb, nil
}
