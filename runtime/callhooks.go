package runtime

import (
	"context"
	"fmt"
	"slices"
	"sync"
)

// CallHooks are what a serving layer (runtime/mcp) lends the calls it makes: a way to report
// progress to the client and a way to ask the user for approval. Install them in the ctx given
// to Invoke with WithCallHooks; handlers never see them, they call Progress.
type CallHooks struct {
	// Progress receives what the handler reports with Progress. Nil: reports are dropped.
	Progress func(ctx context.Context, done, total float64, message string)
	// Approver decides a call of a //tool:confirm tool when the registry has neither an
	// Approver (WithApprover) nor an approval queue (WithApprovalQueue), which would otherwise
	// refuse it: runtime/mcp asks the user through MCP elicitation. It is called as an
	// Approver is: once per call, an error or a panic denies.
	Approver Approver
	// Prepared is called once per call, after the call passed every check before its handler
	// runs (limits, arguments, the repeat guard, approval) and before its first attempt: runtime/mcp
	// turns a call into an MCP task there, so that a question settled before it (an approval)
	// is answered synchronously. An error ends the call, unrun, with the error's text as its
	// result, for the model to read.
	Prepared func(ctx context.Context) error
}

type callHooksKey struct{}

// WithCallHooks returns ctx carrying hooks for the calls invoked under it.
func WithCallHooks(ctx context.Context, hooks *CallHooks) context.Context {
	return context.WithValue(ctx, callHooksKey{}, hooks)
}

func callHooksFrom(ctx context.Context) *CallHooks {
	h, _ := ctx.Value(callHooksKey{}).(*CallHooks)
	return h
}

// Progress tells whoever waits for the running call how far it got: done of total units
// (total 0 when unknown) and an optional message. Over MCP it becomes notifications/progress
// when the client asked for progress; elsewhere it does nothing, so handlers call it freely.
func Progress(ctx context.Context, done, total float64, message string) {
	if h := callHooksFrom(ctx); h != nil && h.Progress != nil {
		h.Progress(ctx, done, total, message)
	}
}

// prepared calls the Prepared hook the serving layer lent the call, if any, and returns the
// result that ends the call when it refuses.
func prepared(ctx context.Context, tool string) *Result {
	h := callHooksFrom(ctx)
	if h == nil || h.Prepared == nil {
		return nil
	}
	if err := h.Prepared(ctx); err != nil {
		return &Result{Text: err.Error(), IsError: true, Err: fmt.Errorf("tool %q: %w", tool, err), Kind: KindUnavailable}
	}
	return nil
}

// hookApprover returns the approver the serving layer lent the call, or nil.
func hookApprover(ctx context.Context) Approver {
	if h := callHooksFrom(ctx); h != nil {
		return h.Approver
	}
	return nil
}

// DecidesApprovals reports whether the registry decides //tool:confirm calls itself, with an
// Approver or an approval queue; when it does not, a call is decided by the approver of its
// CallHooks or refused.
func (r *Registry) DecidesApprovals() bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	c := r.config()
	return c.approver != nil || c.approvalQueue
}

// hookSet holds the functions a registry calls on an event (OnChange, OnGrantsChanged).
type hookSet[F any] struct {
	mu  sync.Mutex
	seq int
	fns map[int]F
}

// add registers fn and returns the function that unregisters it.
func (h *hookSet[F]) add(fn F) (cancel func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.fns == nil {
		h.fns = make(map[int]F)
	}
	h.seq++
	id := h.seq
	h.fns[id] = fn
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		delete(h.fns, id)
	}
}

// all returns the functions registered now, to call without the set's lock.
func (h *hookSet[F]) all() []F {
	h.mu.Lock()
	defer h.mu.Unlock()
	fns := make([]F, 0, len(h.fns))
	for _, fn := range h.fns {
		fns = append(fns, fn)
	}
	return fns
}

// OnChange registers fn to be called after tools are added to or removed from the registry
// (Add, Remove), for a server that must tell its clients (MCP's tools/list_changed). fn runs
// on the goroutine that changed the registry, after the change, without the registry's lock.
// The returned function unregisters fn.
func (r *Registry) OnChange(fn func()) (cancel func()) { return r.changes.add(fn) }

// notifyChange calls the OnChange functions; the caller must not hold r.mu.
func (r *Registry) notifyChange() {
	for _, fn := range r.changes.all() {
		fn()
	}
}

// Remove unregisters the named tools and reports how many it held. Calls already running
// finish; later calls of a removed tool are unknown-tool results.
func (r *Registry) Remove(names ...string) int {
	r.mu.Lock()
	n := 0
	for _, name := range names {
		if _, ok := r.tools[name]; !ok {
			continue
		}
		delete(r.tools, name)
		r.table.Store(nil)
		if i, found := slices.BinarySearch(r.names, name); found {
			r.names = slices.Delete(r.names, i, i+1)
		}
		n++
	}
	r.mu.Unlock()
	if n > 0 {
		r.notifyChange()
	}
	return n
}
