package tooltest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/runtime/tooltest"
)

func TestConnectMCPServesTheRegistry(t *testing.T) {
	reg := weatherRegistry(t)
	client := tooltest.ConnectMCP(t, reg)
	assert.Equal(t, "2026-07-28", client.Protocol(), "the go-sdk client's default")
	assert.Equal(t, []string{"get_weather"}, client.ToolNames(t))

	client.Call(t, "get_weather", `{"city":"Tokyo"}`).RequireJSON(t, tokyo)
	res := client.Call(t, "get_weather", map[string]any{"city": "", "unit": "kelvin"}).RequireProblems(t, "/city", "/unit")
	require.NotNil(t, res.MCP)
	assert.True(t, res.MCP.IsError, "the CallToolResult as the client received it")
	direct := tooltest.Call(t, reg, "get_weather", `{"city":"","unit":"kelvin"}`)
	assert.Equal(t, direct.Problems, res.Problems, "the problems read back from MCP's text are the registry's")
	client.Call(t, "get_weather", `{"city":"Atlantis"}`).RequireError(t, "no weather station")

	legacy := tooltest.ConnectMCP(t, reg, tooltest.WithProtocol("2025-11-25"))
	assert.Equal(t, "2025-11-25", legacy.Protocol())
	legacy.Call(t, "get_weather", `{"city":"Tokyo"}`).RequireJSON(t, tokyo)

	// A revision the server does not speak stops the test.
	failures := record(t, "TestOld", func(t testing.TB) {
		tooltest.ConnectMCP(t, reg, tooltest.WithServerOptions(toolmcp.WithServerOptions(mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-06-18"}})),
			tooltest.WithProtocol("2025-11-25"))
		t.Errorf("not stopped")
	})
	require.Len(t, failures, 1)
	assert.Contains(t, failures[0], "tooltest: the protocol the server agreed to")
}

// sendMail is a //tool:confirm tool counting its runs.
func sendMail(runs *atomic.Int32) runtime.Tool {
	return runtime.Tool{
		Name: "send_mail", Description: "Sends a mail.", InputSchema: []byte(`{"type":"object","properties":{"to":{"type":"string"}},"required":["to"]}`),
		Permission: runtime.PermissionConfirm, ConfirmReason: "sends a mail in the user's name",
		Bind: func(_ context.Context, data []byte) (runtime.BoundCall, error) {
			var args struct{ To string }
			if err := json.Unmarshal(data, &args); err != nil || args.To == "" {
				return nil, &runtime.ArgsError{Problems: []runtime.Problem{{Path: "/to", Message: "required"}}}
			}
			return mailCall{runs: runs, to: args.To}, nil
		},
	}
}

type mailCall struct {
	runs *atomic.Int32
	to   string
}

func (c mailCall) Args() any { return c.to }
func (c mailCall) Run(context.Context) runtime.Result {
	c.runs.Add(1)
	return runtime.TextResult("sent to " + c.to)
}

func TestElicitationAnswersApprovalOnEveryProtocol(t *testing.T) {
	for _, protocol := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(protocol, func(t *testing.T) {
			var runs atomic.Int32
			reg := runtime.NewRegistry()
			require.NoError(t, reg.Add(sendMail(&runs)))
			var asked []string
			approve := true
			client := tooltest.ConnectMCP(t, reg, tooltest.WithProtocol(protocol),
				tooltest.WithElicitation(func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					asked = append(asked, req.Params.Message)
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": approve}}, nil
				}))
			client.Call(t, "send_mail", `{"to":"ann@example.com"}`).RequireText(t, "sent to ann@example.com")
			approve = false
			client.Call(t, "send_mail", `{"to":"eve@example.com"}`).RequireError(t, "denied")
			assert.EqualValues(t, 1, runs.Load(), "the approved call ran, the denied one did not")
			require.Len(t, asked, 2)
			assert.Contains(t, asked[0], "ann@example.com")
			assert.Contains(t, asked[1], "eve@example.com")

			// Without the capability approval fails closed.
			tooltest.ConnectMCP(t, reg, tooltest.WithProtocol(protocol)).Call(t, "send_mail", `{"to":"ann@example.com"}`).RequireError(t, "approval")
			assert.EqualValues(t, 1, runs.Load())
		})
	}
}

func TestClientOptionsKeepTheElicitationHandler(t *testing.T) {
	var runs atomic.Int32
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(sendMail(&runs)))
	var changed atomic.Int32
	yes := tooltest.WithElicitation(func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
	})
	others := tooltest.WithClientOptions(mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed.Add(1) }})
	for i, opts := range [][]tooltest.MCPOption{{yes, others}, {others, yes}} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			tooltest.ConnectMCP(t, reg, opts...).Call(t, "send_mail", `{"to":"ann@example.com"}`).RequireText(t, "sent to ann@example.com")
		})
	}
}
