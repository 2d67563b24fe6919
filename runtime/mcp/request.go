package mcp

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// callContext is what the MCP layer knows of a call it serves, kept in the handler's ctx.
type callContext struct {
	req     *mcp.CallToolRequest
	served  *served
	session string // the registry session
	peer    peer   // the client's protocol and capabilities
	round   *round // multi-round-trip state (elicitation on protocol 2026-07-28)
	// task is how the call asks its client once it runs as an MCP task (taskserve.go).
	task atomic.Pointer[taskAsker]
}

type callContextKey struct{}

func callContextFrom(ctx context.Context) *callContext {
	c, _ := ctx.Value(callContextKey{}).(*callContext)
	return c
}

// RequestFrom returns the tools/call request a handler's ctx belongs to, when the call came
// over MCP: its session, params and, over HTTP, Extra.Header and Extra.TokenInfo (the
// principal the go-sdk's auth.RequireBearerToken verified).
func RequestFrom(ctx context.Context) (*mcp.CallToolRequest, bool) {
	if c := callContextFrom(ctx); c != nil {
		return c.req, true
	}
	return nil, false
}

// TokenInfo returns the verified bearer token of the MCP call a handler's ctx belongs to, or
// nil (no call over MCP, no auth middleware). Its UserID is the principal.
func TokenInfo(ctx context.Context) *auth.TokenInfo {
	if c := callContextFrom(ctx); c != nil && c.req.Extra != nil {
		return c.req.Extra.TokenInfo
	}
	return nil
}

// Header returns the HTTP request header of the MCP call a handler's ctx belongs to, or nil
// (stdio, or no call over MCP).
func Header(ctx context.Context) http.Header {
	if c := callContextFrom(ctx); c != nil && c.req.Extra != nil {
		return c.req.Extra.Header
	}
	return nil
}

// idKey is the context key under which the go-sdk keeps the JSON-RPC id of the request being
// handled. The SDK does not export it, so its type is found once, by walking the first
// handler context it reaches, and the key is rebuilt from the type: after that, reading the
// id is a ctx.Value. TestCallIDIsTheRequestID fails if a new SDK version moves it.
var idKey atomic.Pointer[any]

const sdkPackage = "github.com/modelcontextprotocol/go-sdk/mcp"

// requestID returns the JSON-RPC id of the request ctx is handling, as text, or "".
func requestID(ctx context.Context) string {
	k := idKey.Load()
	if k == nil {
		t := findIDKeyType(ctx)
		if t == nil {
			return ""
		}
		key := reflect.Zero(t).Interface()
		idKey.Store(&key)
		k = &key
	}
	id, ok := ctx.Value(*k).(jsonrpc.ID)
	if !ok || !id.IsValid() {
		return ""
	}
	switch v := id.Raw().(type) {
	case string:
		return v
	case int64:
		return strconv.FormatInt(v, 10)
	default:
		return fmt.Sprint(v)
	}
}

// findIDKeyType walks ctx's chain of parents for a value keyed by the SDK's idContextKey.
func findIDKeyType(ctx context.Context) reflect.Type {
	v := reflect.ValueOf(ctx)
	for range 64 {
		for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return nil
			}
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			return nil
		}
		if key := v.FieldByName("key"); key.IsValid() && key.Kind() == reflect.Interface && !key.IsNil() {
			if t := key.Elem().Type(); t.Name() == "idContextKey" && t.PkgPath() == sdkPackage {
				return t
			}
		}
		parent := v.FieldByName("Context")
		if !parent.IsValid() {
			parent = v.FieldByName("c") // context.withoutCancelCtx
		}
		if !parent.IsValid() {
			return nil
		}
		v = parent
	}
	return nil
}
