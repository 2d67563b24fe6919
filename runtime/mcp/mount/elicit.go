package mount

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// inCall marks the ctx of one call's CallTool, so that the elicitation handler knows the
// call a question belongs to: the go-sdk fulfils the input requests of a tools/call result
// (protocol 2026-07-28) with the ctx CallTool was given. A server's own elicitation/create
// (older protocols) comes with the connection's ctx, which names no call.
type inCall struct {
	m *Mounted

	mu    sync.Mutex
	asked int
	err   error // the first error Options.Elicit returned, for Run to report as it is
}

type inCallKey struct{}

// errUntiedElicitation is what a server's elicitation/create gets: it cannot be tied to a call.
var errUntiedElicitation = &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest,
	Message: "this client passes on elicitation only as a tools/call input request (protocol 2026-07-28); an elicitation/create request names no call, so it is declined"}

// elicitationHandler is the go-sdk handler that passes questions to Options.Elicit; nil
// without one, so no capability is declared.
func (m *Mounted) elicitationHandler() func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	if m.opts.Elicit == nil {
		return nil
	}
	return func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		if req.Params == nil {
			return nil, errUntiedElicitation
		}
		c, _ := ctx.Value(inCallKey{}).(*inCall)
		if c == nil || c.m != m {
			return m.elicitUntied(ctx, req.Params)
		}
		c.mu.Lock()
		c.asked++
		over := c.asked > MaxElicitations
		c.mu.Unlock()
		if over {
			return nil, fmt.Errorf("the MCP server %s asked more than %d questions in one call", m.server.Name, MaxElicitations)
		}
		res, err := m.opts.Elicit(ctx, req.Params)
		if err == nil && res == nil {
			err = errors.New("mount: Options.Elicit returned no result")
		}
		if err != nil {
			c.mu.Lock()
			if c.err == nil {
				c.err = err
			}
			c.mu.Unlock()
			return nil, err
		}
		return res, nil
	}
}

// elicitUntied passes on a question that names no call, when Options.ElicitUntied allows it,
// at most MaxElicitations at once: a server sending more while those wait is refused, so it
// cannot pile up questions for the user.
func (m *Mounted) elicitUntied(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	if !m.opts.ElicitUntied {
		return nil, errUntiedElicitation
	}
	select {
	case m.untied <- struct{}{}:
		defer func() { <-m.untied }()
	default:
		return nil, fmt.Errorf("the MCP server %s has %d questions waiting already", m.server.Name, MaxElicitations)
	}
	res, err := m.opts.Elicit(ctx, p)
	if err == nil && res == nil {
		err = errors.New("mount: Options.Elicit returned no result")
	}
	return res, err
}

// elicitError returns the first error Options.Elicit returned during the call; nil without
// an Options.Elicit (c nil).
func (c *inCall) elicitError() error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// ElicitThroughClient is an Options.Elicit for tools served over MCP by runtime/mcp (a
// proxy): it asks the user through the MCP client of the call being served, with
// runtime/mcp.Elicit, and gives the server the user's answer. Outside such a call
// (ErrNotMCPCall), or when that client cannot be asked (ErrNoElicitation), the server gets
// "cancel": no one made a choice. A URL-mode question, which runtime/mcp cannot forward, gets
// "decline".
//
// When the served call is on protocol 2026-07-28 too, the first question ends the call with
// an input-required result to the client; the client calls again with the answer, the mounted
// call is made again from the start, and the server, asking the same question (message and
// schema), gets the answer. So each question costs one more call to the mounted server; a
// question that changes between calls is asked again.
func ElicitThroughClient(ctx context.Context, params *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	if params == nil {
		return &mcp.ElicitResult{Action: "cancel"}, nil
	}
	if params.Mode != "" && params.Mode != "form" {
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
	action, content, err := toolmcp.Elicit(ctx, params.Message, params.RequestedSchema)
	switch {
	case errors.Is(err, toolmcp.ErrNotMCPCall), errors.Is(err, toolmcp.ErrNoElicitation):
		return &mcp.ElicitResult{Action: "cancel"}, nil
	case err != nil:
		return nil, err // on 2026-07-28: the question goes to the client; returned as it is
	}
	return &mcp.ElicitResult{Action: action, Content: content}, nil
}
