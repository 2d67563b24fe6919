// Command client is the client side of the MCP conformance suite's runs: the suite starts a
// test server for one client scenario and runs this command with the server's URL as its last
// argument and the scenario's name in MCP_CONFORMANCE_SCENARIO. It is written only with
// toolgen's public API: it mounts the server into a runtime.Registry (runtime/mcp/mount) and
// calls the scenario's tools through Registry.Invoke, as a host's agent loop would.
//
// The auth scenarios need an OAuth client, which the mount does not have (it sends the
// headers it is given), so those scenarios run and fail, as docs/standards.md records. The
// server's questions (elicitation) are accepted with their defaults.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/mcp/mount"
)

// calls are the tool calls each scenario expects, by the server's tool names; a scenario not
// listed calls every tool the server lists, without arguments.
var calls = map[string][]call{
	"initialize": nil, // the handshake and the tool listing are the scenario
	"tools_call": {{"add_numbers", `{"a":5,"b":3}`}},
}

type call struct{ tool, args string }

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: client SERVER-URL (the scenario in MCP_CONFORMANCE_SCENARIO)")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, os.Args[len(os.Args)-1], os.Getenv("MCP_CONFORMANCE_SCENARIO"), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "client:", err)
		os.Exit(1)
	}
}

// run mounts the server at url, makes the scenario's calls and prints each result to out. A
// call that ends in an error result is an error: the scenario wanted it to succeed.
func run(ctx context.Context, url, scenario string, out io.Writer) error {
	// The suite's tools carry no annotations, which the protocol reads as destructive, so
	// each call needs approval: this client stands for the user who approves them.
	approver := runtime.ApproverFunc(func(context.Context, runtime.ApprovalRequest) (runtime.Decision, error) {
		return runtime.Decision{Approved: true, By: "conformance client"}, nil
	})
	reg := runtime.NewRegistry(runtime.WithApprover(approver))
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	// The user accepts every question the server asks with the form's defaults: the go-sdk
	// fills the fields left out from the schema's defaults (SEP-1034). One user is behind
	// every call here, so questions that name no call are passed on too.
	accept := func(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{}}, nil
	}
	m, err := mount.Mount(ctx, reg, mount.Server{Name: "conformance", URL: url},
		mount.Options{NoPrefix: true, Logger: logger, Elicit: accept, ElicitUntied: true})
	if err != nil {
		return err
	}
	defer m.Close()
	fmt.Fprintf(out, "tools: %v\n", m.Tools())

	todo, listed := calls[scenario]
	if !listed {
		for _, name := range m.Tools() {
			todo = append(todo, call{name, `{}`})
		}
	}
	for i, c := range todo {
		name, ok := m.ToolName(c.tool)
		if !ok {
			return fmt.Errorf("the server lists no tool %q", c.tool)
		}
		res := reg.Invoke(ctx, runtime.Call{ID: fmt.Sprint("call-", i), Name: name, Args: json.RawMessage(c.args)})
		fmt.Fprintf(out, "%s: %s\n", c.tool, res.Text)
		if res.IsError {
			return fmt.Errorf("%s: %s (%w)", c.tool, res.Text, res.Err)
		}
	}
	return nil
}
