package tooltest

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// MCPOption configures the client and server of ConnectMCP.
type MCPOption func(*mcpConfig)

type mcpConfig struct {
	protocol string
	client   mcp.ClientOptions
	server   []toolmcp.Option
}

// WithProtocol makes the client ask for the protocol revision revision ("2025-06-18",
// "2025-11-25", "2026-07-28"), instead of the go-sdk client's default (its latest,
// 2026-07-28). ConnectMCP stops the test if the server does not agree to it.
//
// The revision decides how the server reaches the user: up to 2025-11-25 it sends
// elicitation/create during the call; on 2026-07-28 the call returns an input-required
// result, and the go-sdk client calls again with the answer. A test of approval or Elicit
// runs on both to cover both.
func WithProtocol(revision string) MCPOption {
	return func(c *mcpConfig) { c.protocol = revision }
}

// WithElicitation declares the elicitation capability and answers the server's questions
// (approvals of //tool:confirm tools, runtime/mcp.Elicit) with handler. Without it the client
// declares no elicitation, and approval over MCP fails closed.
func WithElicitation(handler func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)) MCPOption {
	return func(c *mcpConfig) { c.client.ElicitationHandler = handler }
}

// WithClientOptions sets the go-sdk client's options (sampling, roots, notification
// handlers, …); WithElicitation applies on top of them whichever comes first.
func WithClientOptions(opts mcp.ClientOptions) MCPOption {
	return func(c *mcpConfig) {
		handler := c.client.ElicitationHandler
		c.client = opts
		if handler != nil {
			c.client.ElicitationHandler = handler
		}
	}
}

// WithServerOptions passes options to runtime/mcp.NewServer (prompts, resources, session
// keys, …).
func WithServerOptions(opts ...toolmcp.Option) MCPOption {
	return func(c *mcpConfig) { c.server = append(c.server, opts...) }
}

// MCPClient is a go-sdk client connected in memory to a go-sdk server serving a registry,
// as ConnectMCP returns it.
type MCPClient struct {
	// Session is the go-sdk client session, for what MCPClient does not wrap (prompts,
	// resources, a call with a progress token).
	Session *mcp.ClientSession
}

// ConnectMCP serves reg with runtime/mcp.NewServer and connects the go-sdk client to it over
// the go-sdk's in-memory transports: the real server and client, the protocol negotiated,
// every request and answer encoded as on a wire, without a process or a port. Both close
// when the test ends. It stops the test if the client cannot connect.
func ConnectMCP(t testing.TB, reg *runtime.Registry, opts ...MCPOption) *MCPClient {
	t.Helper()
	var cfg mcpConfig
	for _, o := range opts {
		o(&cfg)
	}
	server := toolmcp.NewServer(reg, cfg.server...)
	serverSide, clientSide := mcp.NewInMemoryTransports()
	ctx := context.WithoutCancel(t.Context()) // the sessions outlive the test's context, to its cleanups
	ss, err := server.Connect(ctx, serverSide, nil)
	require.NoError(t, err, "tooltest: connecting the server")
	t.Cleanup(func() { _ = ss.Close() })
	var sopts *mcp.ClientSessionOptions
	if cfg.protocol != "" {
		sopts = &mcp.ClientSessionOptions{ProtocolVersion: cfg.protocol}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "tooltest", Version: "1.0.0"}, &cfg.client)
	cs, err := client.Connect(ctx, clientSide, sopts)
	require.NoError(t, err, "tooltest: connecting the client")
	t.Cleanup(func() { _ = cs.Close() })
	if cfg.protocol != "" {
		require.Equal(t, cfg.protocol, cs.InitializeResult().ProtocolVersion, "tooltest: the protocol the server agreed to")
	}
	return &MCPClient{Session: cs}
}

// Protocol returns the protocol revision the client and server agreed on.
func (c *MCPClient) Protocol() string { return c.Session.InitializeResult().ProtocolVersion }

// ToolNames returns the names of the tools the server lists (tools/list, every page), in
// its order. It stops the test if listing fails.
func (c *MCPClient) ToolNames(t testing.TB) []string {
	t.Helper()
	var names []string
	for tool, err := range c.Session.Tools(t.Context(), nil) {
		require.NoError(t, err, "tooltest: tools/list")
		names = append(names, tool.Name)
	}
	return names
}

// Call calls the tool name with args (as Call takes them) through tools/call, and returns
// what the client received: Text is its text content, Structured its structuredContent,
// Problems the argument problems its text lists. An input-required round (2026-07-28) is
// answered by the client with WithElicitation's handler, as the go-sdk client does. It
// stops the test on a protocol error (the server refused the request itself): a tool's
// failure is a result with IsError, for the Require methods to judge.
func (c *MCPClient) Call(t testing.TB, name string, args any) *Result {
	t.Helper()
	params := &mcp.CallToolParams{Name: name}
	if data := argsJSON(t, args); data != nil {
		params.Arguments = json.RawMessage(data)
	}
	res, err := c.Session.CallTool(t.Context(), params)
	require.NoError(t, err, "tooltest: tools/call %s", name)
	out := &Result{Tool: name, IsError: res.IsError, MCP: res}
	var texts []string
	for _, content := range res.Content {
		if text, ok := content.(*mcp.TextContent); ok {
			texts = append(texts, text.Text)
		}
	}
	out.Text = strings.Join(texts, "\n")
	if res.StructuredContent != nil {
		data, err := json.Marshal(res.StructuredContent)
		require.NoError(t, err, "tooltest: the structuredContent of %s", name)
		out.Structured = data
	}
	if res.IsError {
		out.Problems = ProblemsFromText(out.Text)
	}
	return out
}
