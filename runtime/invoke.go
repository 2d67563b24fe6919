package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/internal/plural"
	"github.com/toolgen-go/toolgen/internal/suggest"
	"github.com/toolgen-go/toolgen/runtime/internal/canonical"
)

// maxListedTools caps the names an unknown-tool result lists, so a large registry does not
// flood the model's context with one mistyped call.
const maxListedTools = 50

// Invoke runs one call from a model and returns what the model should read. It never panics
// and never returns an error: every failure is an error Result (IsError set) whose Text is
// written for the model, whose Kind classifies it and whose Err is the Go error for the
// operator. The steps, in order, are documented in the package manual ("The order of a
// call"): resolve, middleware, filters, loop guards, bind, repeat check, approval, client
// tools, attempts (timeout and retry), AskRetry budget, safe errors, then the size cap.
//
// Result.Duration is the wall time of the whole Invoke; Result.Attempts is how many attempts
// ran the handler (0 when the call ended before it).
func (r *Registry) Invoke(ctx context.Context, call Call) Result {
	start := monotonic()
	if len(call.Name) > MaxToolNameLength {
		// No tool has such a name: answer before hashing it or searching for a near one.
		res := UnknownToolResult(call.Name, r.NamesFor(ctx))
		res.Duration = monotonic() - start
		return res
	}
	e, cfg, names, ok := r.lookupCall(call.Name)
	// A tool outside the caller's grant is refused here, before anything reads its arguments,
	// exactly as a name no tool has: the caller's names only, for the hint and the list.
	grant, restricted := r.currentTable().grantOf(ctx)
	if restricted && (!ok || !grant.holds(e.tool.Scopes)) {
		if ok {
			names, ok = r.Names(), false
		}
		names = visibleNames(r.currentTable(), grant, names)
	}
	var renamed Repair
	if !ok {
		asked := call.Name
		e, renamed, ok = r.repairedName(cfg, &call, names)
		if ok && restricted && !grant.holds(e.tool.Scopes) {
			// A Repairer of the host's may name any tool: the grant decides again, and the
			// refusal repeats the name the caller sent, not the one it was repaired to.
			ok, call.Name = false, asked
		}
	}
	if !ok {
		res := UnknownToolResult(call.Name, names)
		res.Duration = monotonic() - start
		return res
	}
	if call.IdempotencyKey != "" {
		return r.invokeOnce(ctx, cfg, e, call, func(ctx context.Context) Result { return r.invokeResolved(ctx, start, cfg, e, call, renamed) })
	}
	return r.invokeResolved(ctx, start, cfg, e, call, renamed)
}

// invokeResolved is Invoke of a call whose tool is resolved (e), started at start.
func (r *Registry) invokeResolved(ctx context.Context, start time.Duration, cfg *registryConfig, e *toolEntry, call Call, renamed Repair) Result {
	st := newCallState(&e.tool, e.policiesOf(cfg).timeout > 0)
	st.Context, st.info = ctx, callInfo(r, call)
	if cfg.observer != nil {
		ev := event(st, EventStart)
		if cfg.argsInEvents {
			ev.Args = json.RawMessage(call.Args)
		}
		cfg.notify(st, ev)
	}
	if renamed.Kind != "" {
		st.noteRepairs(cfg.observer, []Repair{renamed})
	}

	var res Result
	if len(cfg.middleware) == 0 && len(e.tool.Filters) == 0 {
		r.core(st, st, cfg, e, call, &res)
	} else {
		res = r.throughMiddleware(st, cfg, e, call)
	}
	if res.IsError && res.Kind == "" {
		res.Kind = KindOf(res.Err)
		if res.Kind == "" {
			res.Kind = KindInternal
		}
	}
	r.capResult(st, cfg, &e.tool, call, &res)
	withRepairs(st, &res)
	res.Duration = monotonic() - start

	if cfg.observer != nil {
		observeEffects(st, cfg, &res)
		ev := event(st, EventEnd)
		ev.Attempt, ev.Duration, ev.IsError, ev.Err = res.Attempts, res.Duration, res.IsError, res.Err
		if res.IsError {
			ev.ErrKind = res.Kind
		}
		if cfg.argsInEvents {
			ev.Args = json.RawMessage(call.Args)
		}
		cfg.notify(st, ev)
	}
	return res
}

// callInfo is what CallInfoFrom tells the handlers of call.
func callInfo(r *Registry, call Call) frameInfo {
	return frameInfo{tool: call.Name, callID: call.ID, session: call.Session, userData: call.UserData, run: call.Run, reg: r}
}

// memoryStore returns the registry's in-memory session store, created on first use.
func (r *Registry) memoryStore() SessionStore {
	r.storeOnce.Do(func() { r.store = &MemoryStore{} })
	return r.store
}

// throughMiddleware runs the call through the registry's middleware and the tool's filters
// around core. A panicking middleware is recovered like a panicking handler.
func (r *Registry) throughMiddleware(st *callState, cfg *registryConfig, e *toolEntry, call Call) (res Result) {
	h := r.chainOf(cfg, e)
	defer func() {
		if v := recover(); v != nil {
			res = panicResult(e.tool.Name, v, res.Attempts)
		}
	}()
	return h(st, call)
}

// chainOf returns the middleware chain of e under cfg. Chains are built once per tool,
// registry and configuration (Use and RegisterFilter make a new configuration), so a call
// allocates nothing for its middleware; core finds the call's state in the ctx it gets.
func (r *Registry) chainOf(cfg *registryConfig, e *toolEntry) Handler {
	if c := e.chain.Load(); c != nil && c.reg == r && c.cfg == cfg {
		return c.h
	}
	filters := make([]Middleware, len(e.tool.Filters))
	for i, name := range e.tool.Filters {
		filters[i] = cfg.filters[name] // present: Add checked it, and filters are never unregistered
	}
	core := func(ctx context.Context, call Call) Result {
		st, ok := ctx.Value(callKey{}).(*callState)
		if !ok {
			// A middleware passed on a ctx of its own making: the handler gets a new
			// state, still carrying the call.
			st = newCallState(&e.tool, e.policiesOf(cfg).timeout > 0)
			st.Context, st.info = ctx, callInfo(r, call)
			ctx = st
		}
		var res Result
		r.core(ctx, st, cfg, e, call, &res)
		return res
	}
	h := chain(core, cfg.middleware, filters)
	e.chain.Store(&middlewareChain{reg: r, cfg: cfg, h: h})
	return h
}

// middlewareChain is a tool's middleware chain, for the registry and configuration it was
// built under.
type middlewareChain struct {
	reg *Registry
	cfg *registryConfig
	h   Handler
}

// core is the registry's own pipeline for a resolved tool; every step returns either what the
// next one needs or the result that ends the call. ctx is what the middleware passed on (st
// when there is none); st is the call's state.
func (r *Registry) core(ctx context.Context, st *callState, cfg *registryConfig, e *toolEntry, call Call, res *Result) {
	bound, identity, early := r.prepare(ctx, st, cfg, e, &call)
	if early != nil {
		*res = *early
		return
	}
	if refused := prepared(ctx, e.tool.Name); refused != nil {
		*res = *refused
		return
	}
	r.execute(ctx, st, cfg, e, bound, res)
	if res.IsError {
		*res = r.explainFailure(ctx, cfg, e, call, *res)
	} else if identity != "" {
		r.rememberSuccess(ctx, cfg, call.Session, identity)
	}
}

// prepare takes a call through every step before its handler runs: limits, binding, the
// repeat guard, approval. It returns the bound call and, when the repeat guard applies, the
// call's identity; or the result that ends the call before it runs (a refusal, a failure,
// a pending approval, a client tool's call), which is allocated only then.
func (r *Registry) prepare(ctx context.Context, st *callState, cfg *registryConfig, e *toolEntry, call *Call) (bound BoundCall, identity string, early *Result) {
	tool := &e.tool
	if refused := r.admit(ctx, cfg, tool, call.Session); refused != nil {
		return nil, "", refused
	}
	if refused := admitArgs(tool, e.policiesOf(cfg), call.Args); refused != nil {
		return nil, "", refused
	}
	if !tool.bindable() {
		// Only a client tool can be registered without Bind: its arguments go to the host as
		// they came.
		return nil, "", failure(clientResult(*call, json.RawMessage(canonical.Normalize(call.Args))))
	}
	bound, failed := r.bindRepairing(ctx, st, cfg, tool, call)
	if failed != nil {
		return nil, "", failed
	}

	confirm := tool.Permission == PermissionConfirm
	var canonical []byte
	if confirm || cfg.guard.RefuseRepeats {
		var err error
		if canonical, err = e.canonicalArgs(call.Args); err != nil {
			// The decoder accepted what this cannot read (or it nests too much to compare):
			// nothing to bind an approval or a repeat to, so the call does not run.
			return nil, "", &Result{
				Text:    fmt.Sprintf("%s was not run: %v. Send simpler arguments.", tool.Name, err),
				IsError: true,
				Err:     fmt.Errorf("tool %q: canonical arguments: %w", tool.Name, err),
				Kind:    KindInvalidInput,
			}
		}
	}
	if cfg.guard.RefuseRepeats {
		identity = callIdentity(tool.Name, canonical)
		switch seen, err := r.repeated(ctx, cfg, call.Session, identity); {
		case err != nil:
			return nil, "", failure(guardUnavailable(tool.Name, err))
		case seen:
			return nil, "", failure(repeatResult(tool.Name, call.Session))
		}
	}
	if confirm {
		var denied *Result
		if bound, denied = r.approve(ctx, cfg, tool, *call, bound, canonical); denied != nil {
			return nil, "", denied
		}
	}
	if tool.Client {
		return nil, "", failure(clientResult(*call, bound.Args()))
	}
	return bound, identity, nil
}

func clientResult(call Call, args any) Result {
	return Result{ClientCall: &ClientCall{CallID: call.ID, Tool: call.Name, Args: args}}
}

// explainFailure decides what the model reads of a failed run: AskRetry guidance within the
// tool's budget (and a stop notice past it), and, WithSafeErrors, only the kind of a plain Go
// error.
func (r *Registry) explainFailure(ctx context.Context, cfg *registryConfig, e *toolEntry, call Call, res Result) Result {
	tool := &e.tool
	var ask *RetryRequest
	switch {
	case errors.As(res.Err, &ask):
		budget := e.policiesOf(cfg).modelRetries
		if r.spendModelRetry(ctx, cfg, tool.Name, call.Session, budget) {
			res.Text = fmt.Sprintf("%s\nCorrect the call and call %s again.", ask.Guidance, tool.Name)
			res.Kind = KindInvalidInput
			return res
		}
		res.Text = fmt.Sprintf("%s asked for a corrected call more often than allowed (%s in this session), so it was not retried. Its last words: %s\nDo not call %s again; tell the user what went wrong.",
			tool.Name, plural.Of(budget, "time"), ask.Guidance, tool.Name)
		res.Kind = KindLimit
		res.Err = fmt.Errorf("%w: tool %q spent its AskRetry budget of %d: %w", ErrCallLimit, tool.Name, budget, res.Err)
	case cfg.safeErrors && res.Err != nil:
		var panicked *PanicError
		text, direct, ok := modelText(res.Err)
		switch {
		case !ok || errors.As(res.Err, &panicked):
			kind := KindOf(res.Err)
			res.Text = fmt.Sprintf("%s failed (%s): %s.", tool.Name, kind, kind.safeMessage())
			res.Kind = kind
		case !direct:
			// An error written for the model, wrapped in text that was not (an API key in a
			// fmt.Errorf prefix): the model reads only the inner error's own text.
			res.Text = text
		}
	}
	return res
}

// UnknownToolResult is the result of a call naming no known tool: the nearest name as a
// suggestion and the available tools (names, sorted), so the model can correct its call.
// Packages that answer calls outside a registry (disclosure's get_tool_info) use it too.
func UnknownToolResult(name string, names []string) Result {
	var b strings.Builder
	near := ""
	if len(name) <= MaxToolNameLength+3 {
		// Longer, it is no typo of a registered name (at most 3 edits count as one), and
		// the search's cost would grow with the name's length.
		near = suggest.Closest(name, names)
	}
	switch {
	case name == "":
		b.WriteString("the call names no tool.")
	case near != "":
		fmt.Fprintf(&b, "unknown tool %s; did you mean %q?", quotedName(name), near)
	case len(name) > MaxToolNameLength:
		fmt.Fprintf(&b, "unknown tool %s: tool names have at most %d characters.", quotedName(name), MaxToolNameLength)
	default:
		fmt.Fprintf(&b, "unknown tool %s.", quotedName(name))
	}
	if len(names) == 0 {
		b.WriteString(" No tools are available.")
	} else {
		listed := names[:min(len(names), maxListedTools)]
		b.WriteString(" Available tools: ")
		b.WriteString(strings.Join(listed, ", "))
		if len(names) > len(listed) {
			b.WriteString(", …")
		}
	}
	return Result{
		Text:    b.String(),
		IsError: true,
		Err:     fmt.Errorf("%w %s", ErrUnknownTool, quotedName(name)),
		Kind:    KindNotFound,
	}
}

// bind decodes the arguments, into the call allocated with st's frame when there is one. It
// guards against a panicking Bind too: generated decoders should not panic, but a bug there
// must not take the host down.
// The failure is nil when the call is bound.
func bind(ctx context.Context, tool *Tool, st *callState, args []byte) (bound BoundCall, failed *Result) {
	defer func() {
		if v := recover(); v != nil {
			bound, failed = nil, failure(panicResult(tool.Name, v, 0))
		}
	}()
	var err error
	if u := st.takeUnbound(); u != nil {
		bound, err = &u.callSlot, bindSlot(ctx, &u.callSlot, canonical.Normalize(args))
	} else {
		bound, err = tool.bindArgs(ctx, canonical.Normalize(args))
	}
	switch {
	case err != nil && generatedMismatch(tool, err):
		// The generated decoder refused the arguments' Go type, not the model's document:
		// the model cannot fix that, and is not asked to.
		return nil, failure(internalErrorResult(tool.Name, fmt.Errorf("tool %q: %w", tool.Name, err), 0))
	case err != nil:
		return nil, failure(bindErrorResult(tool.Name, err))
	case bound == nil:
		err := fmt.Errorf("tool %q: Bind returned neither a call nor an error", tool.Name)
		return nil, failure(internalErrorResult(tool.Name, err, 0))
	}
	return bound, nil
}

// failure is res as the failure of a step whose success returns no Result (or as the result
// that ends a call early).
func failure(res Result) *Result { return &res }

// generatedMismatch reports whether err, from binding a generated tool's arguments, is not
// about the document: a generated decoder table reports every problem of the model's as an
// *ArgsError, and anything else (a table older than the Go type it decodes into: "run go
// generate") is the program's.
func generatedMismatch(tool *Tool, err error) bool {
	if tool.Bind != nil || tool.binding == nil || tool.binding.Table == nil {
		return false
	}
	var argsErr *ArgsError
	return !errors.As(err, &argsErr) && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}

// epoch anchors monotonic: time.Since of a time with a monotonic reading reads only the
// monotonic clock, which costs half of what time.Now does. (runtime.nanotime read directly
// saves about 90 instructions a call but no time that could be measured, and would not follow
// a testing/synctest bubble's clock as the time package does.)
var epoch = time.Now()

// monotonic returns the time since the package loaded, by the monotonic clock.
func monotonic() time.Duration { return time.Since(epoch) }

// wallTime turns a reading of monotonic back into a time.Time, for deadlines.
func wallTime(t time.Duration) time.Time { return epoch.Add(t) }

// bindErrorResult tells the model what is wrong with its arguments and that it should call
// again. A context error is not the model's fault, so it is reported as such instead.
func bindErrorResult(name string, err error) Result {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return Result{
			Text:    fmt.Sprintf("%s did not run: the call was cancelled or timed out.", name),
			IsError: true,
			Err:     err,
		}
	}
	retry := fmt.Sprintf("\nCorrect the arguments and call %s again.", name)
	var argsErr *ArgsError
	if errors.As(err, &argsErr) {
		// A copy, so that an *ArgsError Bind shares between calls is never written to.
		named := *argsErr
		named.Tool = name
		return Result{Text: named.Error() + retry, IsError: true, Err: &named}
	}
	return Result{
		Text:    fmt.Sprintf("invalid arguments for %s: %s%s", name, echoed(err.Error(), maxEchoedText), retry),
		IsError: true,
		Err:     err,
	}
}

// runOnce runs the handler once, into res (the caller's, so that a result is not copied
// from frame to frame); the handler has run whatever it returns, so Attempts is 1.
func runOnce(ctx context.Context, tool *Tool, call BoundCall, res *Result) {
	defer func() {
		if v := recover(); v != nil {
			*res = panicResult(tool.Name, v, 1)
		}
	}()
	*res = call.Run(ctx)
	res.Attempts = 1
}

// PanicError is the Err of a result whose handler (or Bind) panicked. The model never sees
// it: its Text only says the tool failed with an internal error.
type PanicError struct {
	Tool  string // the tool whose code panicked
	Value any    // the value passed to panic
	Stack []byte // the panicking goroutine's stack, as runtime/debug.Stack formats it
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("tool %q panicked: %v", e.Tool, e.Value)
}

// Unwrap returns the panic value when it is an error, so errors.Is and errors.As see through
// the panic (for instance to a runtime.Error of the standard library).
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// panicResult must be called from the deferred function that recovered v, so that the stack
// it records still shows where the panic happened.
func panicResult(name string, v any, attempts int) Result {
	return internalErrorResult(name, &PanicError{Tool: name, Value: v, Stack: debug.Stack()}, attempts)
}

// internalErrorResult reports a failure inside the tool's code without showing its details,
// which may hold anything from file paths to secrets.
func internalErrorResult(name string, err error, attempts int) Result {
	return Result{
		Text:     fmt.Sprintf("%s failed with an internal error.", name),
		IsError:  true,
		Err:      err,
		Attempts: attempts,
	}
}
