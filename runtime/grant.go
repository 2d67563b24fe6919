package runtime

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Grant is what one caller may call: the OAuth scopes (RFC 6749 §3.3) it holds. A caller may
// see and call a tool when it holds every scope of Tool.Scopes; a tool without scopes is for
// every caller, so a grant without scopes sees only those.
//
// The registry finds a call's grant in its context (WithGrant). A context without one is the
// host's own: it sees every tool, as a registry did before scopes, so an agent loop calling
// its own registry needs nothing. A server that serves other callers puts each request's
// grant in its context: runtime/mcp does, from the request's verified token (auth.TokenInfo
// Scopes) or the host's function (its WithScopes option).
//
//	ctx = runtime.WithGrant(ctx, runtime.Grant{Scopes: []string{"repo:read"}})
//	tools := reg.ToolsFor(ctx)           // declare these: openai.Declarations(tools)
//	res := reg.Invoke(ctx, call)         // a tool outside the grant is an unknown tool
type Grant struct {
	// Scopes are the scope tokens the caller holds, in any order. nil or empty: none.
	Scopes []string
	// All holds every scope: a caller the host trusts with every tool (the local user of a
	// stdio server). A context without a grant is treated as All.
	All bool
}

// Holds reports whether g holds every scope of needed (a Tool's Scopes).
func (g Grant) Holds(needed []string) bool { return g.holds(needed) }

// holds reports whether g holds every scope of needed.
func (g Grant) holds(needed []string) bool {
	if g.All {
		return true
	}
	for _, s := range needed {
		if !slices.Contains(g.Scopes, s) {
			return false
		}
	}
	return true
}

type grantKey struct{}

// WithGrant returns ctx carrying g: the registry lists (ToolsFor, NamesFor) and runs (Invoke,
// InvokeAll) only the tools g allows for calls made with it.
func WithGrant(ctx context.Context, g Grant) context.Context {
	return context.WithValue(ctx, grantKey{}, g)
}

// GrantFrom returns the grant ctx carries, and false when it carries none (the host's own
// calls, which see every tool).
func GrantFrom(ctx context.Context) (Grant, bool) {
	g, ok := ctx.Value(grantKey{}).(Grant)
	return g, ok
}

// grantOf returns the grant the calls of ctx run under, and whether it restricts them: false
// when ctx has none, when it holds every scope, or when no tool of t needs a scope (the
// common case, which then costs no context lookup).
func (t *toolTable) grantOf(ctx context.Context) (Grant, bool) {
	if !t.scoped {
		return Grant{}, false
	}
	g, ok := GrantFrom(ctx)
	return g, ok && !g.All
}

// ToolsFor returns the tools the caller of ctx may call (see Grant), sorted by name: what to
// declare to a model acting for that caller (openai.Declarations(reg.ToolsFor(ctx)), and the
// same for every provider adapter). Without a grant in ctx it is Tools.
func (r *Registry) ToolsFor(ctx context.Context) []Tool {
	g, restricted := r.currentTable().grantOf(ctx)
	tools := r.Tools()
	if !restricted {
		return tools
	}
	return slices.DeleteFunc(tools, func(t Tool) bool { return !g.holds(t.Scopes) })
}

// NamesFor returns the names of the tools the caller of ctx may call, sorted: what an
// unknown-tool result lists to that caller.
func (r *Registry) NamesFor(ctx context.Context) []string {
	t := r.currentTable()
	g, restricted := t.grantOf(ctx)
	if !restricted {
		return r.Names()
	}
	return visibleNames(t, g, r.Names())
}

// ToolFor returns the tool called name when the caller of ctx may call it: a tool outside
// its grant is reported as absent, as Invoke treats it.
func (r *Registry) ToolFor(ctx context.Context, name string) (Tool, bool) {
	t, ok := r.Tool(name)
	if !ok {
		return Tool{}, false
	}
	if g, restricted := r.currentTable().grantOf(ctx); restricted && !g.holds(t.Scopes) {
		return Tool{}, false
	}
	return t, true
}

// visibleNames keeps the names of names whose tools in t g allows (names is reused).
func visibleNames(t *toolTable, g Grant, names []string) []string {
	return slices.DeleteFunc(names, func(name string) bool {
		e, ok := t.tools[name]
		return !ok || !g.holds(e.tool.Scopes)
	})
}

// ValidScope reports whether s is an OAuth scope token (RFC 6749 §3.3:
// 1*( %x21 / %x23-5B / %x5D-7E ), printable ASCII but space, '"' and '\'), as Tool.Scopes
// must hold.
func ValidScope(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool {
		return r != 0x21 && (r < 0x23 || r > 0x5B) && (r < 0x5D || r > 0x7E)
	}) < 0
}

// checkScopes reports the first of scopes that is not an OAuth scope token.
func checkScopes(scopes []string) error {
	for _, s := range scopes {
		if !ValidScope(s) {
			return fmt.Errorf("invalid scope %s: a scope token (RFC 6749 §3.3) is one or more printable ASCII characters but space, '\"' and '\\'", strconv.Quote(s))
		}
	}
	return nil
}

// GrantsChanged tells whoever serves the registry that the grants of principals changed (for
// runtime/mcp, auth.TokenInfo.UserID; none: every caller's): a host whose WithScopes function
// reads grants from a store of its own calls it after changing one. runtime/mcp then sends
// notifications/tools/list_changed to the sessions of those principals, which list their
// tools again. Grants carried by a token need no call: a request whose token holds other
// scopes than its session's last listing is noticed as it arrives. Call it on the registry
// that is served (toolsearch's and disclosure's Registry are registries of their own).
func (r *Registry) GrantsChanged(principals ...string) {
	for _, fn := range r.grants.all() {
		fn(slices.Clone(principals))
	}
}

// OnGrantsChanged registers fn to be called by GrantsChanged, on its goroutine, with its
// principals. The returned function unregisters fn.
func (r *Registry) OnGrantsChanged(fn func(principals []string)) (cancel func()) {
	return r.grants.add(fn)
}
