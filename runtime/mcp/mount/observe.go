package mount

import (
	"context"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// observeSending is the client's sending middleware of Options.Observer: it describes each
// request as it leaves, sends what the observer adds to its _meta, and reports how it ended.
func (m *Mounted) observeSending(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		info := &toolmcp.RequestInfo{Method: method, Transport: m.transportName()}
		params := req.GetParams()
		hasParams := params != nil && !(reflect.ValueOf(params).Kind() == reflect.Pointer && reflect.ValueOf(params).IsNil())
		if hasParams {
			// A copy: the map may be the caller's (a progress token), and the observer
			// writes into it.
			info.Meta = map[string]any{}
			for k, v := range params.GetMeta() {
				info.Meta[k] = v
			}
			switch p := params.(type) {
			case *mcp.CallToolParams:
				info.Tool = p.Name
			case *mcp.CallToolParamsRaw:
				info.Tool = p.Name
			case *mcp.ReadResourceParams:
				info.ResourceURI = p.URI
			}
		}
		if cs, ok := req.GetSession().(*mcp.ClientSession); ok && cs != nil {
			info.Session = cs.ID()
			if r := cs.InitializeResult(); r != nil {
				info.Protocol = r.ProtocolVersion
			}
		}
		if info.Protocol == "" {
			if p, ok := params.(*mcp.InitializeParams); ok && hasParams {
				info.Protocol = p.ProtocolVersion
			}
		}
		ctx, done := m.opts.Observer(ctx, info)
		if hasParams && len(info.Meta) > 0 {
			params.SetMeta(info.Meta)
		}
		res, err := next(ctx, method, req)
		if done != nil {
			out := toolmcp.RequestOutcome{Err: err}
			if r, ok := res.(*mcp.CallToolResult); ok && r != nil {
				out.ToolError = r.IsError
			}
			done(out)
		}
		return res, err
	}
}

// transportName is RequestInfo.Transport of the server's requests.
func (m *Mounted) transportName() string {
	switch {
	case m.server.URL != "":
		return "http"
	case len(m.server.Command) > 0:
		return "stdio"
	}
	return ""
}
