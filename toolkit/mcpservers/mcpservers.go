// Package mcpservers lets a model choose MCP servers' tools itself: list_mcp_servers shows the
// servers mounted for it and their tools, call_mcp_tool calls one of them (OpenAkita's tools
// of the same names). The servers are mounted with runtime/mcp/mount in a registry of their
// own, which the model does not see: only these two tools are in the model's registry, so a
// catalog of many servers costs the model's context two tool definitions.
//
//	servers := runtime.NewRegistry(runtime.WithApprover(approver)) // the mounted tools' policies
//	files, err := mount.Mount(ctx, servers, mount.Server{Name: "files", Command: []string{"workspace-server", "-root", "."}}, mount.Options{})
//	…
//	reg.Add((&mcpservers.Toolkit{Registry: servers, Servers: []*mount.Mounted{files}}).Tools()...)
//
// A call_mcp_tool call runs through that registry (Registry.Invoke, in the caller's session
// and with its user data), so every policy of a mounted tool applies as if the model had
// called it directly: its arguments are validated against the tool's input schema (and the
// problems name the tool's own arguments), destructive tools need approval (the serving
// layer's, over MCP: the user's client is asked), its timeout, result cap and offload hold.
// Progress and cancellation pass through. A server that is reconnecting says so, and
// list_mcp_servers shows it as not connected.
package mcpservers

//go:generate go tool toolgen

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/internal/suggest"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/mcp/mount"
)

// Toolkit holds the mounted servers.
type Toolkit struct {
	// Registry holds the servers' tools, mounted with their policies.
	Registry *runtime.Registry
	// Servers are the servers the model may choose from, mounted in Registry.
	Servers []*mount.Mounted
}

// ListArgs are the arguments of list_mcp_servers.
type ListArgs struct {
	// Server, when given, lists that server's tools with their arguments' schemas; empty
	// lists every server with its tools' names and descriptions.
	Server string `json:"server,omitempty" tool:"default='',maxLength=128"`
}

// ServerInfo is one server in list_mcp_servers' answer.
type ServerInfo struct {
	Name      string     `json:"name"`
	Connected bool       `json:"connected"`
	Tools     []ToolInfo `json:"tools"`
}

// ToolInfo is one tool of a server.
type ToolInfo struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// NeedsApproval says the user is asked before each call.
	NeedsApproval bool `json:"needs_approval,omitempty"`
	// InputSchema is the JSON Schema of the arguments, when one server is listed.
	InputSchema json.RawMessage `json:"input_schema,omitempty"`
}

// Servers is list_mcp_servers' answer.
type Servers struct {
	Servers []ServerInfo `json:"servers"`
}

// ListMCPServers lists the MCP servers you can use and their tools.
//
// Call it without arguments to see every server and what its tools do, then with a server's
// name to see the arguments its tools take, before calling one with call_mcp_tool.
//
//tool:name list_mcp_servers
//tool:hints readonly,idempotent
//tool:timeout 5s
//tool:example {}
//tool:example {"server":"files"}
func (k *Toolkit) ListMCPServers(_ context.Context, args ListArgs) (Servers, error) {
	out := Servers{Servers: []ServerInfo{}}
	if args.Server != "" {
		if _, err := k.server(args.Server); err != nil {
			return Servers{}, err
		}
	}
	for _, m := range k.Servers {
		if args.Server != "" && m.Name() != args.Server {
			continue
		}
		info := ServerInfo{Name: m.Name(), Connected: m.Connected(), Tools: []ToolInfo{}}
		for _, name := range m.Tools() {
			t, ok := k.Registry.Tool(name)
			if !ok {
				continue
			}
			ti := ToolInfo{Name: t.Metadata["mcp.tool"], Description: t.Description, NeedsApproval: t.Permission == runtime.PermissionConfirm}
			if args.Server != "" {
				ti.InputSchema = t.InputSchema
			}
			info.Tools = append(info.Tools, ti)
		}
		out.Servers = append(out.Servers, info)
	}
	return out, nil
}

// CallArgs are the arguments of call_mcp_tool.
type CallArgs struct {
	// Server is the server's name, as list_mcp_servers shows it.
	Server string `json:"server" tool:"minLength=1,maxLength=128"`
	// Tool is the tool's name on that server.
	Tool string `json:"tool" tool:"minLength=1,maxLength=128"`
	// Arguments are the tool's arguments, a JSON object as its input schema describes.
	Arguments json.RawMessage `json:"arguments,omitempty" tool:"accept=openai"`
}

// CallMCPTool calls a tool of an MCP server and returns its result.
//
// See the servers, their tools and the tools' arguments with list_mcp_servers first.
//
//tool:name call_mcp_tool
//tool:hints openworld
//tool:timeout none
//tool:example {"server":"files","tool":"read_file","arguments":{"path":"README.md"}}
func (k *Toolkit) CallMCPTool(ctx context.Context, args CallArgs) (runtime.Result, error) {
	m, err := k.server(args.Server)
	if err != nil {
		return runtime.Result{}, err
	}
	name, ok := m.ToolName(args.Tool)
	if !ok {
		var remote []string
		for _, n := range m.Tools() {
			if t, ok := k.Registry.Tool(n); ok {
				remote = append(remote, t.Metadata["mcp.tool"])
			}
		}
		slices.Sort(remote)
		return runtime.Result{}, runtime.ModelErrorf(runtime.KindNotFound, "the server %s has no tool %s; its tools: %s",
			args.Server, suggest.Quoted(args.Tool, remote), strings.Join(remote, ", "))
	}
	call := runtime.Call{Name: name, Args: args.Arguments}
	if info, ok := runtime.CallInfoFrom(ctx); ok {
		call.ID, call.Session, call.UserData = info.CallID, info.Session, info.UserData
	}
	res := k.Registry.Invoke(ctx, call)
	// The inner registry's own messages (bad arguments, a timeout) name the tool as it holds
	// it, with the mount's prefix: the model knows it as server and tool. What the server's
	// tool answered, a failure included, is passed on as it is.
	var remote *mount.ToolError
	if res.IsError && !errors.As(res.Err, &remote) {
		res.Text = strings.ReplaceAll(res.Text, name, args.Tool)
	}
	return res, nil
}

// server finds a server by name, or says which there are.
func (k *Toolkit) server(name string) (*mount.Mounted, error) {
	var names []string
	for _, m := range k.Servers {
		if m.Name() == name {
			return m, nil
		}
		names = append(names, m.Name())
	}
	return nil, runtime.ModelErrorf(runtime.KindNotFound, "there is no MCP server %s; the servers: %s", suggest.Quoted(name, names), strings.Join(names, ", "))
}
