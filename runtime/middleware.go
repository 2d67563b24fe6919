package runtime

import (
	"context"
	"maps"
	"slices"
)

// Handler handles a call: the registry's pipeline from loop guards to the run, or the next
// middleware around it.
type Handler func(ctx context.Context, call Call) Result

// Middleware wraps a Handler. It sees the Call before its arguments are validated (and may
// rewrite them), may answer without calling next (short-circuit), and sees the Result that
// next returns (and may rewrite or redact it) before the size cap applies. A middleware reads
// the tool name, call id and session with CallInfoFrom.
//
// The registry calls a Middleware once per tool to build that tool's chain (again after Use
// or RegisterFilter change the configuration), and the Handler it returns serves every call
// of the tool, possibly at the same time: keep per-call state in the call, not in the
// closure. A middleware should pass on the ctx it got, or one derived from it, so that the
// handler's CallInfoFrom finds the call.
type Middleware func(next Handler) Handler

// Use adds middleware applied to every call, outermost first: the first middleware given to
// the first Use sees the call first and the result last. Tools' named filters run inside all
// of them.
func (r *Registry) Use(mw ...Middleware) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.updateConfig(func(c *registryConfig) {
		// A new slice, so that calls holding the old configuration are not disturbed.
		c.middleware = append(slices.Clip(c.middleware), mw...)
	})
}

// RegisterFilter registers mw under name, for the tools whose //tool:filters name it.
// Register filters before adding such tools: Add refuses a tool naming an unregistered filter.
// Registering a name again replaces its middleware for later calls.
func (r *Registry) RegisterFilter(name string, mw Middleware) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.updateConfig(func(c *registryConfig) {
		filters := maps.Clone(c.filters)
		if filters == nil {
			filters = make(map[string]Middleware)
		}
		filters[name] = mw
		c.filters = filters
	})
}

// chain wraps core so that a call passes the registry's middleware in Use order, then the
// tool's filters in //tool:filters order, then core; results return the opposite way.
func chain(core Handler, middleware []Middleware, filters []Middleware) Handler {
	h := core
	for i := len(filters) - 1; i >= 0; i-- {
		if filters[i] != nil {
			h = filters[i](h)
		}
	}
	for i := len(middleware) - 1; i >= 0; i-- {
		if middleware[i] != nil {
			h = middleware[i](h)
		}
	}
	return h
}
