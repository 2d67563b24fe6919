package mcp

import (
	"context"
	"encoding/base64"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

// A tool with scopes (//tool:scopes, runtime.Tool.Scopes) is served only to a caller whose
// grant holds them. The grant of a request is what WithScopes says, TokenScopes by default:
// the scopes of the token auth.RequireBearerToken verified (WithBearerAuth), none without a
// token. Every request runs under it: tools/list lists only what it allows, a tools/call of
// any other tool is refused as the SDK refuses a name it does not know, on both paths, and
// the registry (runtime.WithGrant in the call's ctx) checks again, so tool_search and
// get_tool_info, which run as tools, find and describe only the caller's tools.

// WithScopes sets how a request's grant is found: grant gets the request's ctx and the request
// (req.GetExtra() has the verified token and the HTTP header; it is nil over stdio and in
// memory) and returns what the caller holds. TokenScopes otherwise. A host whose grants live in
// a store of its own (roles by user) reads them here, and calls Registry.GrantsChanged when
// one changes so that the caller's sessions list their tools again. Over stdio, where no token
// is, the client is the user's own: return runtime.Grant{All: true} to serve it every tool.
// grant runs for every request of a server with scoped tools: keep it fast (cache what a
// store answers).
func WithScopes(grant func(ctx context.Context, req mcp.Request) runtime.Grant) Option {
	return func(c *config) {
		if grant != nil {
			c.grant = grant
		}
	}
}

// TokenScopes is the grant of a request by its verified token (auth.TokenInfo.Scopes, as the
// authorization server issued them, or StaticToken's): no token, no scopes. It is the default
// of WithScopes.
func TokenScopes(_ context.Context, req mcp.Request) runtime.Grant {
	if req == nil {
		return runtime.Grant{}
	}
	if extra := req.GetExtra(); extra != nil && extra.TokenInfo != nil {
		return runtime.Grant{Scopes: extra.TokenInfo.Scopes}
	}
	return runtime.Grant{}
}

// scopeState is what a served registry knows of its tools' scopes and of what each session
// was last shown.
type scopeState struct {
	grant func(ctx context.Context, req mcp.Request) runtime.Grant

	mu sync.Mutex
	// needed are the scopes of the listed tools, by tool; nil when none has any, and then
	// nothing below costs a request anything.
	needed map[string][]string
	// views are the sessions that listed tools while some needed a scope: what they were
	// shown and by whom, to tell them when that changes.
	views map[*mcp.ServerSession]*sessionView
	// send is the server's sending method handler, for a notification to one session.
	send mcp.MethodHandler
}

// sessionView is what one session was last shown.
type sessionView struct {
	principal string
	shown     string // viewKey of the grant it listed with
}

// scoped reports whether some listed tool needs a scope.
func (s *served) scoped() bool {
	s.scopes.mu.Lock()
	defer s.scopes.mu.Unlock()
	return len(s.scopes.needed) > 0
}

// grantOf returns the grant of req, whose ctx is ctx.
func (s *served) grantOf(ctx context.Context, req mcp.Request) runtime.Grant {
	return s.scopes.grant(ctx, req)
}

// visible reports whether the server lists tool name to a caller holding g.
func (s *served) visible(name string, g runtime.Grant) bool {
	s.mu.Lock()
	listed := s.names[name]
	s.mu.Unlock()
	if !listed {
		return false
	}
	s.scopes.mu.Lock()
	defer s.scopes.mu.Unlock()
	return g.Holds(s.scopes.needed[name])
}

// listedFor returns the names of the tools the server lists to a caller holding g, sorted.
func (s *served) listedFor(g runtime.Grant) []string {
	names := s.listed()
	s.scopes.mu.Lock()
	defer s.scopes.mu.Unlock()
	return slices.DeleteFunc(names, func(name string) bool { return !g.Holds(s.scopes.needed[name]) })
}

// setScopes records the scopes of a listed tool (none: forgets them); the caller holds s.mu.
func (s *served) setScopes(name string, scopes []string) {
	s.scopes.mu.Lock()
	defer s.scopes.mu.Unlock()
	if len(scopes) == 0 {
		delete(s.scopes.needed, name)
		return
	}
	if s.scopes.needed == nil {
		s.scopes.needed = map[string][]string{}
	}
	s.scopes.needed[name] = scopes
}

// viewKey names what a caller holding g is shown: the scopes it holds that some listed tool
// needs, sorted. Two grants of one key see the same tools. The caller holds s.scopes.mu.
func (st *scopeState) viewKey(g runtime.Grant) string {
	if g.All {
		return "*"
	}
	var held []string
	for _, scopes := range st.needed {
		for _, sc := range scopes {
			if slices.Contains(g.Scopes, sc) && !slices.Contains(held, sc) {
				held = append(held, sc)
			}
		}
	}
	slices.Sort(held)
	return strings.Join(held, " ")
}

// scopeTools is the receiving middleware that shows each request only the tools its grant
// allows: it trims tools/list, refuses a tools/call of a tool outside the grant with the
// SDK's own unknown-tool error, and words every unknown-tool error with the caller's tools
// alone (the nearest name, the list), so that a caller learns nothing of a tool it cannot see.
// On a session that listed tools, a request whose grant shows other tools than that listing
// did sends the session notifications/tools/list_changed.
func (s *served) scopeTools(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		scoped := s.scoped()
		g := runtime.Grant{All: true}
		if scoped {
			g = s.grantOf(ctx, req)
		}
		switch method {
		case "tools/list":
			list, ok := req.(*mcp.ListToolsRequest)
			if !scoped || !ok {
				return next(ctx, method, req)
			}
			res, err := s.listTools(ctx, next, list, g)
			if err == nil {
				s.listedWith(serverSession(req), g, req)
			}
			return res, err
		case "tools/call":
			call, _ := req.(*mcp.CallToolRequest)
			if call == nil || call.Params == nil {
				return next(ctx, method, req)
			}
			if scoped {
				s.observe(serverSession(req), g, req)
				if s.lists(call.Params.Name) && !s.visible(call.Params.Name, g) {
					// What the SDK answers for a name it does not hold, reworded as below.
					return nil, s.unknownTool(call.Params.Name, g, nil)
				}
				ctx = context.WithValue(ctx, decidedGrantKey{}, g)
			}
			res, err := next(ctx, method, req)
			var wire *jsonrpc.Error
			if errors.As(err, &wire) && wire.Code == jsonrpc.CodeInvalidParams && strings.HasPrefix(wire.Message, "unknown tool") {
				return res, s.unknownTool(call.Params.Name, g, wire.Data)
			}
			return res, err
		default:
			if scoped {
				s.observe(serverSession(req), g, req)
			}
			return next(ctx, method, req)
		}
	}
}

// listTools answers tools/list with the tools a caller holding g is listed, in pages as the
// SDK's: of its page size (that of its first page, when it has more), after the cursor. The
// SDK's pages are of every tool, so a page of them trimmed would be short, or empty, where a
// hidden tool was: a caller could count the tools it cannot see. Here every page but the last
// is full, and the cursor (toolgen's, not the SDK's) names the last tool listed.
func (s *served) listTools(ctx context.Context, next mcp.MethodHandler, req *mcp.ListToolsRequest, g runtime.Grant) (mcp.Result, error) {
	var after string
	if req.Params != nil && req.Params.Cursor != "" {
		b, err := base64.RawURLEncoding.DecodeString(req.Params.Cursor)
		name, ours := strings.CutPrefix(string(b), listCursorPrefix)
		if err != nil || !ours {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid params"} // as the SDK refuses a cursor it did not make
		}
		after = name
	}
	var first *mcp.ListToolsResult
	var visible []*mcp.Tool
	pageSize := 0
	for cursor, seen := "", map[string]bool{}; ; {
		page := &mcp.ListToolsRequest{Session: req.Session, Extra: req.Extra, Params: &mcp.ListToolsParams{Cursor: cursor}}
		if req.Params != nil {
			page.Params.Meta = req.Params.Meta
		}
		res, err := next(ctx, "tools/list", page)
		if err != nil {
			return res, err
		}
		list, ok := res.(*mcp.ListToolsResult)
		if !ok {
			return res, nil
		}
		if first == nil {
			first = list
			if list.NextCursor != "" {
				pageSize = len(list.Tools)
			}
		}
		for _, t := range list.Tools {
			if t.Name > after && s.visible(t.Name, g) {
				visible = append(visible, t)
			}
		}
		if list.NextCursor == "" || seen[list.NextCursor] {
			break
		}
		seen[list.NextCursor] = true
		cursor = list.NextCursor
	}
	slices.SortFunc(visible, func(a, b *mcp.Tool) int { return strings.Compare(a.Name, b.Name) })
	out := *first
	out.Tools, out.NextCursor = visible, ""
	if pageSize > 0 && len(visible) > pageSize {
		out.Tools = visible[:pageSize]
		out.NextCursor = base64.RawURLEncoding.EncodeToString([]byte(listCursorPrefix + visible[pageSize-1].Name))
	}
	if out.Tools == nil {
		out.Tools = []*mcp.Tool{}
	}
	// What is listed depends on the caller's grant: only its user's client may cache it.
	out.CacheScope = "private"
	return &out, nil
}

// listCursorPrefix marks a tools/list cursor listTools made.
const listCursorPrefix = "toolgen-tools-after:"

// unknownTool is the SDK's refusal of a tools/call naming no tool (-32602, "unknown tool"),
// worded as Registry.Invoke words it, with the nearest of the tools a caller holding g is
// listed and those tools, so a model can correct its call.
func (s *served) unknownTool(name string, g runtime.Grant, data []byte) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: runtime.UnknownToolResult(name, s.listedFor(g)).Text, Data: data}
}

// besideForGrant reports whether a tools/call the fast path (fastcall.go, stdio.go) would
// serve may be served there under its caller's grant: a tool outside it is the SDK's, whose
// refusal (scopeTools) is the one a name no tool has gets. It notices a changed grant as the
// middleware does for the SDK's requests.
// The grant it decides is kept in the ctx it returns, so the call does not ask WithScopes'
// function again (it may be a lookup in the host's store).
func (s *served) besideForGrant(ctx context.Context, req *mcp.CallToolRequest) (context.Context, bool) {
	if !s.scoped() {
		return ctx, true
	}
	g := s.grantOf(ctx, req)
	s.observe(req.Session, g, req)
	return context.WithValue(ctx, decidedGrantKey{}, g), s.visible(req.Params.Name, g)
}

// decidedGrantKey is the context key of the grant a request's middleware or fast path
// decided, for serveCall to run the call under.
type decidedGrantKey struct{}

// callGrant is the grant a tools/call of req runs under: the one decided for it already, or
// WithScopes' answer.
func (s *served) callGrant(ctx context.Context, req mcp.Request) runtime.Grant {
	if g, ok := ctx.Value(decidedGrantKey{}).(runtime.Grant); ok {
		return g
	}
	return s.grantOf(ctx, req)
}

// listedWith records that session ss (of the principal of req) was shown the tools of g.
func (s *served) listedWith(ss *mcp.ServerSession, g runtime.Grant, req mcp.Request) {
	if ss == nil {
		return
	}
	st := &s.scopes
	st.mu.Lock()
	defer st.mu.Unlock()
	v := st.views[ss]
	if v == nil {
		if st.views == nil {
			st.views = map[*mcp.ServerSession]*sessionView{}
		}
		v = &sessionView{}
		st.views[ss] = v
		go func() {
			_ = ss.Wait()
			st.mu.Lock()
			delete(st.views, ss)
			st.mu.Unlock()
		}()
	}
	v.principal, v.shown = requestPrincipal(req), st.viewKey(g)
}

// observe notices a request on session ss whose grant g shows other tools than the session's
// last listing, and tells the session (notifications/tools/list_changed) so that it lists
// them again.
func (s *served) observe(ss *mcp.ServerSession, g runtime.Grant, req mcp.Request) {
	if ss == nil {
		return
	}
	st := &s.scopes
	st.mu.Lock()
	v := st.views[ss]
	changed := v != nil && v.shown != st.viewKey(g)
	if changed {
		v.principal, v.shown = requestPrincipal(req), st.viewKey(g)
	}
	st.mu.Unlock()
	if changed {
		s.notifyListChanged(ss)
	}
}

// grantsChanged tells the sessions of principals (none: every session that listed tools)
// that their tools may have changed: Registry.GrantsChanged.
func (s *served) grantsChanged(principals []string) {
	st := &s.scopes
	st.mu.Lock()
	var told []*mcp.ServerSession
	for ss, v := range st.views {
		if len(principals) == 0 || slices.Contains(principals, v.principal) {
			told = append(told, ss)
		}
	}
	st.mu.Unlock()
	for _, ss := range told {
		s.notifyListChanged(ss)
	}
}

// listChangedTimeout bounds the sending of one notifications/tools/list_changed.
const listChangedTimeout = 10 * time.Second

// notifyListChanged sends ss notifications/tools/list_changed, as the SDK sends every session
// one when tools are added or removed: on its own stream, to a session of a protocol up to
// 2025-11-25 (a 2026-07-28 session is told only on a subscriptions/listen stream, which the
// SDK keeps to itself, and a stateless one has no stream to be told on).
func (s *served) notifyListChanged(ss *mcp.ServerSession) {
	st := &s.scopes
	st.mu.Lock()
	send := st.send
	st.mu.Unlock()
	init := ss.InitializeParams()
	if send == nil || init == nil || init.ProtocolVersion >= statelessProtocol {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), listChangedTimeout)
		defer cancel()
		_, _ = send(ctx, "notifications/tools/list_changed", &mcp.ServerRequest[*mcp.ToolListChangedParams]{Session: ss, Params: &mcp.ToolListChangedParams{}})
	}()
}

// keepSender is the sending middleware that keeps the server's sending handler, through
// which notifyListChanged tells one session.
func (s *served) keepSender(next mcp.MethodHandler) mcp.MethodHandler {
	s.scopes.mu.Lock()
	s.scopes.send = next
	s.scopes.mu.Unlock()
	return next
}

// serverSession is the session req came on, or nil.
func serverSession(req mcp.Request) *mcp.ServerSession {
	ss, _ := req.GetSession().(*mcp.ServerSession)
	return ss
}
