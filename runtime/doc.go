// Package runtime is what programs import to run the tools toolgen generates: a Registry that
// holds them and dispatches a model's tool calls, and the Result every call ends in.
//
// # Registering tools
//
// For every package with //tool: handlers, toolgen generates a Tools function (or a Tools
// method on the handlers' receiver, w.Tools()) that returns the package's tools as [Tool]
// values. Add them to a registry:
//
//	reg := runtime.NewRegistry()
//	if err := reg.Add(weather.Tools()...); err != nil {
//		log.Fatal(err)
//	}
//
// [Registry.Add] refuses tools with a missing or invalid name, a name already taken, or no
// Bind function, and adds nothing when it refuses any: a program that starts has the tools
// it asked for. [Registry.Tools], [Registry.Names] and [Registry.ByTag] list tools sorted by
// name, which keeps the tool list sent to a provider stable from run to run (and its prompt
// cache warm). [Registry.Subset] builds a smaller registry for one agent:
//
//	researcher, err := reg.Subset("search_web", "fetch_page")
//
// A Registry is safe for concurrent use; tools can be added while calls run.
//
// A generated Tool carries its canonical InputSchema and the provider variants to derive from
// it ([Tool.Dialects]); the adapters read each variant with [Tool.Variant], which converts the
// schema on first use, with the conversion toolgen checked it with, and keeps the result.
//
// # Invoking a call
//
// When a model asks for a tool, hand its call to [Registry.Invoke] and send the result's Text
// back to the model:
//
//	res := reg.Invoke(ctx, runtime.Call{ID: "call_1", Name: "get_weather", Args: []byte(`{"city":"Tokyo"}`)})
//
// Invoke never panics and returns no error: every failure is a [Result] with IsError set, so
// the model always gets an answer it can act on. A Result holds:
//
//   - Text: exactly what the model reads; for a structured result, the JSON text.
//   - Structured: the JSON of a structured result (handlers returning a struct), else nil.
//   - IsError: whether the call failed; tell the model so where the provider has a flag for it.
//   - Err: the Go error behind a failure, for logs and metrics; the model never reads it.
//   - Duration: the wall time of the whole Invoke, decoding included.
//   - Attempts: how many attempts ran the handler (0 when the call ended before it ran).
//   - Metadata: free data for the host, never sent to the model.
//   - Kind: the [ErrorKind] of an error result.
//   - Effects: what the handler asks the host to do, as typed values the host switches on
//     ([Effect]); never sent to the model, and each reported to the observer (EventEffect). A
//     result with effects and no text is effect-only ([Result.EffectOnly]): provider adapters
//     send the model nothing for it. Handlers build one with [EffectResult].
//   - PendingApproval, ClientCall, Offloaded: see approval, client tools and result size below.
//
// # What the model sees when a call fails
//
// Unknown tool: the Text names the available tools, sorted (at most 50), with the nearest
// name when the call looks like a typo; Err wraps [ErrUnknownTool].
//
//	unknown tool "get_wether"; did you mean "get_weather"? Available tools: get_time, get_weather
//
// Invalid arguments: the Text lists every problem with its JSON Pointer path, then asks the
// model to call again; Err is the [*ArgsError] (its Tool field set), so errors.As finds the
// problems. Arguments that are empty, whitespace or null count as {}, because models send
// those for tools without arguments.
//
//	invalid arguments for get_weather:
//	- /citty: unknown property, did you mean "city"?
//	- /unit: must be one of "celsius", "fahrenheit", got "kelvin"
//	Correct the arguments and call get_weather again.
//
// Handler error: the handler's returned error becomes an error result whose Text is the
// error's message (see [ErrorResult]): handler authors write error texts for the model. With
// [WithSafeErrors] a plain Go error shows only its kind and a fixed message ("search failed
// (unavailable): temporarily unavailable; try again later."), while errors made for the model
// ([ModelError], [ModelErrorf], [AskRetry], argument problems) still pass their text; one
// wrapped in a plain error (fmt.Errorf("api_key=…: %w", err)) shows only its own text, never
// the wrapper's. Either way Err keeps the original error for the operator.
//
// Panic: a panic in the handler (or in a middleware) is recovered. The Text only says that
// the tool failed with an internal error; the panic value, which may hold paths, queries or
// secrets, never reaches the model. Err is a [*PanicError] carrying the value and the stack.
//
// Every error result has a Kind ([KindOf] classifies Go errors): invalid_input, not_found,
// permission, denied, limit, cancelled, unavailable, timeout or internal. Handlers choose a
// kind with [ModelErrorf] (text for the model) or [WithKind] (text for the operator);
// fs.ErrNotExist and fs.ErrPermission are recognised on their own. The kind decides retries:
// unavailable, timeout and internal are retried, the others are not, and [Permanent] stops
// retries for any error.
//
// # Retries
//
// //tool:retry max=3 delay=1s backoff=2 maxdelay=10s (else [WithDefaultRetry]) retries a
// failed attempt after delay·backoff^(n-1), capped at maxdelay, with "equal jitter" (half the
// delay fixed, half random). Retried: handler errors of a retryable kind, panics, timeouts.
// Never retried: invalid arguments, denials, [Permanent] errors, AskRetry, error results the
// handler built without an Err, or anything once ctx is done; cancelling ctx also ends the
// wait between attempts. Result.Attempts counts the attempts; CallInfo.Attempt tells the
// handler which one it is.
//
// A handler can also ask the model to call again with guidance: return [AskRetry]("…"). The
// model reads the guidance. Each tool may do so //tool:modelretries times per session (else
// [WithModelRetries], else [DefaultModelRetries]); past that, the model is told to stop
// calling the tool (Kind limit). This budget is separate from execution retries.
//
// # Approval
//
// A //tool:confirm tool never runs without a decision, made after its arguments are
// validated. With [WithApprover], the [Approver] is called with an [ApprovalRequest] (tool,
// call id, session, decoded and canonical arguments, reason, risk) and returns a [Decision];
// it may approve with edited arguments, which the tool's decoder validates again before the
// run, or return [ErrUndecided] to pass the call on (to the queue below, else to the serving
// layer's approver, else the refusal). With [WithApprovalQueue], the call instead returns a result with PendingApproval set
// to the request id (Text says the call waits for approval); the host lists
// [Registry.Pending], resolves with [Registry.Approve], [Registry.ApproveWithArgs] or
// [Registry.Deny], then invokes the same call again: an approved call runs exactly once, a
// denied one reports the denial, and a third invocation is refused. A request expires after
// [DefaultApprovalExpiry] (30 minutes, [WithApprovalExpiry]) if it is not decided, or not
// invoked again once decided (a decision renews it): the call is then refused with a notice
// that its request expired (Err wraps [ErrApprovalExpired]). The queue holds at most
// [DefaultMaxPendingApprovalsPerSession] (16) live requests per session,
// [DefaultMaxPendingApprovals] (1024) in all and [DefaultMaxPendingApprovalBytes] (64 MiB) of
// their arguments ([Limits].MaxPendingApprovals); a call past a bound is refused (Kind limit,
// Err wraps [ErrApprovalLimit]). Requests live in an [ApprovalStore]: a [MemoryApprovalStore]
// by default, or one shared by several processes ([WithApprovalStore]), whose insert-if-absent
// and compare-and-set on the request's state keep "runs exactly once" across them.
// A synchronous approver is waited for no longer than the call's ctx lives. The request id is an
// HMAC, under a key only the registry holds, of the tool, call id, session and canonical
// arguments: it cannot be forged, and approving it lets no other call run. The canonical
// arguments (ApprovalRequest.RawArgs, what the approver is shown; also what the repeated-call
// guard compares) are the JSON the model sent, once the decoder accepted it, with keys
// sorted, strings and numbers spelled one way and the input schema's defaults added for
// absent properties: never the decoded value marshaled again, which for a TextUnmarshaler
// without MarshalText would read {} and let one approval cover another target. A denial reaches
// the model as an error result (Kind denied) with the reason. Without an approver or a queue,
// confirm tools are refused (Kind permission): approval fails closed, as it does when the
// approver returns an error or panics.
//
// # Sessions, call context and loop guards
//
// [Call].Session names the conversation (calls without one share the session ""), and
// Call.UserData carries whatever the host wants handlers to see. A handler (or middleware)
// reads them, with the tool name, call id and attempt, through [CallInfoFrom](ctx).
// CallInfo.State is the session's key/value state ([SessionState]), kept by a [SessionStore]
// ([MemoryStore] unless [WithSessionStore]). [WithLoopGuard] limits the calls of a session in
// total and per tool, and can answer repeated identical calls with a notice instead of
// running them. [Registry.EndSession] forgets everything about a session; call it when a
// conversation ends. The guards count in the registry's memory, unless the session store
// implements [SharedCounters]: then the store counts, and replicas sharing it share each
// session's limits (see runtime/redisstore).
//
// A serving layer lends a call [CallHooks] ([WithCallHooks]): a handler's [Progress] reports
// reach the client through them (runtime/mcp sends notifications/progress; elsewhere Progress
// does nothing), and their Approver decides //tool:confirm calls when the registry has no
// approver or queue of its own (runtime/mcp asks the user by elicitation).
// [Registry.OnChange] tells a server that tools were added or removed ([Registry.Remove]).
//
// # Scopes: one registry, many callers
//
// A tool's [Tool.Scopes] (//tool:scopes) are the OAuth scopes a caller must hold to see and
// call it; what a caller holds is the [Grant] in the context of its calls ([WithGrant]; a
// context without one is the host's own and sees every tool). [Registry.ToolsFor],
// [Registry.NamesFor] and [Registry.ToolFor] list what the caller of a context may call, the
// tools to declare to a model acting for it; Invoke refuses any other before binding, with
// the result a name no tool has gets, its hint and list drawn from the caller's tools. A
// server tells its callers' sessions when grants change ([Registry.GrantsChanged]).
// runtime/mcp derives each request's grant from its verified OAuth token.
//
// # Batches
//
// [Registry.InvokeAll] runs the calls of one model turn concurrently (bounded by
// [Limits].BatchConcurrency) and returns their results in call order. A //tool:sequential tool
// is a barrier: it runs alone, after the calls before it and before the calls after it.
//
// # Repair and feedback
//
// [WithRepair] lets the registry fix what models get wrong when the schema leaves no doubt
// (runtime/repair: a tool name in another case or separator style that matches exactly one
// tool, fenced or double-encoded JSON, trailing commas, JSON, numbers or booleans sent as
// strings, null for an optional property). It runs only on calls the decoder refused, and
// the repaired arguments are validated in full; when they still fail, the model reads their
// problems and every repair, and nothing runs. Each repair is listed in
// Result.Metadata[MetadataRepairs] and sent to the observer as an EventRepair; a middleware
// that sanitizes arguments records its changes the same way with [NoteRepairs].
// [WithArgsFeedback] replaces the text of invalid-argument results, for instance with the
// model's own arguments annotated in place (runtime/repair.Annotate).
//
// # Result size
//
// A result whose Text is longer than //tool:maxresult (else [Limits].MaxResult, else
// [DefaultMaxResult], 16 KiB) is cut, so the model reads at most the cap: a preview followed
// by "[Result truncated: showing the first N of M bytes. NOTE]". The full text of a
// successful result goes to the registry's [ResultStore] ([WithResultStore]; by default a
// [MemoryResultStore] that keeps results for an hour and 64 MiB in all, making room from the
// sessions that hold the most, so a session's recent results survive what others store)
// under an opaque id, scoped to the call's session; NOTE names the id and, when the registry has a tool named
// read_result (the workspace toolkit's), how to call it. No host path ever reaches the
// model. Error results are cut and never stored. Structured is dropped from what the model
// reads (a cut document is not JSON; the store keeps it whole) and Result.Offloaded records
// the id, sizes and any store failure. A handler reads a stored result of its session with
// [ReadResult]; a server (an MCP resources/read) with [Registry.ResultStore].
//
// # Limits
//
// What a model's calls can make the registry hold or spend is bounded (the table of
// docs/limits.md lists every limit with its default):
//
//   - worker goroutines per tool, running or abandoned: [DefaultMaxAbandoned],
//     [Limits].MaxAbandoned; per session inside it: [DefaultMaxAbandonedPerSession],
//     [Limits].MaxAbandonedPerSession (see "Timeouts and abandoned goroutines");
//   - approvers still running after the call that asked them ended (an approver that
//     ignores ctx): the same two bounds, per registry and per session inside it; past
//     either, approval fails at once (Err wraps [ErrTooManyAbandoned]);
//   - approval requests: [DefaultApprovalExpiry], [DefaultMaxPendingApprovalsPerSession],
//     [DefaultMaxPendingApprovals], [DefaultMaxPendingApprovalBytes] ([WithApprovalExpiry],
//     [Limits].MaxPendingApprovals, [ApprovalLimits] for a store of your own);
//   - tool names: a call naming a tool longer than [MaxToolNameLength] is unknown at once,
//     and messages repeat at most 100 bytes of a name and 2000 of a Bind error's text;
//   - canonical arguments (approvals, repeats): the work of sorting them is bounded, past
//     which the call is refused.
//
// # Tools written by hand
//
// A Tool whose Bind is set is bound by it instead: Bind decodes and validates the raw
// arguments and returns a [BoundCall] (the arguments and a Run), or an *[ArgsError] listing
// the problems. Generated tools carry a binding of their own (the generated-code support is
// package runtime/toolimpl, which programs do not import); [Tool.BindArgs] binds a call of
// either kind without running it. A tool described by a JSON Schema needs no Bind of your
// own: runtime/schematool makes one from the schema, on the decoder tables generated code
// uses, and runtime/mcp/mount registers other MCP servers' tools.
//
// # Observability
//
// [WithObserver] receives an [Event] at the start and end of every resolved call, for every
// failed attempt and retry, for every approval step and every repair, with durations and
// attempts. An observer that panics loses that event; the panic never reaches the caller.
// [SlogObserver] logs them with log/slog. Argument values are left out unless the registry is
// built [WithArgsInEvents].
//
// # The order of a call
//
// Invoke takes each call through these steps; each may end the call with a result.
//
//  1. Resolve the tool by name (unknown tool); a tool outside the caller's [Grant] is
//     refused here as an unknown one. A call with an [Call].IdempotencyKey (of a
//     tool that is not read-only) then claims its key in the session ([WithIdempotency]): a
//     key held by an earlier request of the same call returns that request's result (or
//     waits for it), a key used for another call refuses this one, and the steps below run
//     only for the request that claimed it.
//  2. Middleware registered with [Registry.Use] or [WithMiddleware], first registered
//     outermost; then the tool's //tool:filters, in the order the directive names them
//     ([Registry.RegisterFilter]; Add refuses a tool naming an unregistered filter). A
//     middleware sees the raw Call (and may rewrite its arguments before validation), may
//     answer without going on, and sees the Result on the way back (and may redact it).
//  3. Loop guards: the session's call limits ([WithLoopGuard], //tool:maxcalls). Refused
//     calls still count against the limits they did not hit.
//  4. Bind: decode and validate the arguments (invalid arguments). A document over the
//     tool's size limit (//tool:maxargs, else [Limits].MaxArgsBytes, else
//     [DefaultMaxArgsBytes], 1 MiB) or nested deeper than [Limits].MaxArgsDepth (else
//     [DefaultMaxArgsDepth], 128) is refused before it is decoded, so that no document makes
//     decoding cost more than these limits allow.
//  5. Repeats: with LoopGuard.RefuseRepeats, a call identical (tool and canonical arguments)
//     to one that already succeeded in the session is answered with a notice, not run.
//  6. Approval, for //tool:confirm tools (see Approval). Only validated calls are approved.
//  7. Client tools (//tool:client) stop here: the Result carries a [ClientCall] with the
//     typed arguments; the host executes it and sends the outcome to the model under the
//     call's id. The registry never runs a client tool.
//  8. Attempts: the handler runs under the tool's timeout, and failed attempts are retried
//     under its retry policy.
//  9. AskRetry budget and safe errors decide the failure's text.
//  10. Back through the filters and middleware (step 2, in reverse).
//  11. Result size: a text over the tool's cap is offloaded (see Result size).
//
// # Timeouts and abandoned goroutines
//
// Each attempt has a timeout: //tool:timeout, else [WithDefaultTimeout], else
// [DefaultTimeout] (30s); //tool:timeout none disables it. The handler's ctx carries the
// deadline. So that a handler ignoring its ctx cannot hold the call, an attempt with a
// timeout runs on its own goroutine and the call returns a timeout result (Kind timeout,
// Err a [*TimeoutError]) when the deadline passes. The handler's goroutine cannot be killed:
// it is abandoned and keeps running until the handler returns, its result discarded. So that
// a hung dependency costs a bounded number of goroutines however many calls arrive at once,
// the registry bounds the attempts of a tool on worker goroutines, counting both those
// running for their call and those abandoned: [DefaultMaxAbandoned] (64, [Limits].MaxAbandoned)
// per tool, and inside that [DefaultMaxAbandonedPerSession] (16,
// [Limits].MaxAbandonedPerSession) per session, so one session's hung calls leave the tool to
// the others. A call finding no free slot waits for one within its timeout, then fails as
// unavailable ("busy", Err wraps [ErrToolBusy]); when abandoned attempts alone fill the
// tool's or the session's bound, calls are refused at once as unavailable (Err wraps
// [ErrTooManyAbandoned]) until some return. A handler that calls runtime.Goexit ends its
// call with an internal error and frees its slot. Tools without a timeout run on the
// caller's goroutine, are never abandoned and take no slot. When the caller's ctx is
// cancelled, the call ends with Kind cancelled in the same way.
//
// An abandoned handler must not take effect later, when its caller has been told the call
// failed: a handler with an effect (a file renamed into place) calls [Commit] just before
// that last step. Commit fails when the attempt has already ended; once it succeeds the
// attempt is no longer abandoned, and the call reports what the handler returns.
//
// The goroutines are workers, reused from call to call and ended after 30 to 60 seconds
// without work, so a call starts none. Handing the handler to a worker and its result back is the
// price of the guarantee: about the cost of the rest of a small call (see
// docs/benchmarks.md). A tool whose handler cannot block, such as a pure computation, can say
// //tool:timeout none and run on the caller's goroutine.
//
// # What a call allocates
//
// Nothing beyond what the generated decoder and handler allocate (the arguments' strings and
// slices, the result's text). The registry allocates each call of a generated tool with its
// own state of the call inside, in one allocation with the arguments: that state is the
// handler's ctx and holds the call's bookkeeping, the first attempt's deadline included.
// Attempts and workers are pooled, one watchdog timer serves every attempt in flight, and
// middleware chains are built once per tool (see [Middleware]).
//
// # The name clash with the standard library
//
// This package is named runtime, like the standard library's runtime package. A file that
// needs both imports one of them under another name, for instance:
//
//	import (
//		goruntime "runtime"
//
//		"github.com/toolgen-go/toolgen/runtime"
//	)
//
// or, keeping the standard name free, toolrt "github.com/toolgen-go/toolgen/runtime".
package runtime
