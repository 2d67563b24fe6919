// Package mcp serves a toolgen registry over the Model Context Protocol, through the official
// Go SDK (github.com/modelcontextprotocol/go-sdk), which stays the transport, or on the wire
// (JSON).
//
// With the SDK, one call does it all:
//
//	server := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "1.0.0"}, nil)
//	toolmcp.AddTools(server, reg, nil) // every tool of reg, now and later
//
// and for the common case the server itself is one call: ServeStdio(ctx, reg, opts...), or
// HTTPHandler(reg, opts...) for streamable HTTP (stateful, or WithStateless; WithBearerAuth,
// WithPageSize, the session options below, and prompts, resources and the go-sdk's options).
//
// # Serving over HTTP
//
// Whoever reaches an HTTP server calls its tools, and answers its approval questions (see
// below): put WithBearerAuth in front of a server whose tools change anything (for one
// user's own client, WithBearerAuth(StaticToken(secret, "me"), nil)), and listen on loopback
// (127.0.0.1:PORT, not :PORT) unless others are meant to reach it. HTTPHandler
// bounds what a client can make it hold or send back:
//
//   - stateful sessions (Mcp-Session-Id) each hold goroutines and memory until they end: a
//     session idle for DefaultSessionIdle (30 minutes) is closed (within a minute more), and at most
//     DefaultMaxSessions (1000) are open at once, DefaultMaxSessionsPerClient (50) of one
//     client (its authenticated user, else its remote address, an IPv6 one by its /64);
//     past them a new session is refused with 503 or 429 and a text that says why. A
//     session the SDK closed (idle) frees its place within a second. WithSessionLimits
//     changes each bound and how clients are told apart (behind a proxy: by user, or by the
//     address the proxies in SessionLimits.TrustedProxies forwarded). A request on a session
//     the server does not hold (it ended, or another replica opened it) is answered with 404
//     and a plain text that says to route by Mcp-Session-Id or serve stateless (the
//     go-sdk client reports it as mcp.ErrSessionMissing); WithSharedSessions on a stateful handler is refused without
//     WithSessionAffinity;
//   - the go-sdk repeats a request's id, and an unknown method, tool, prompt or resource,
//     whole in its answer: HTTPHandler answers requests whose id is over MaxRequestIDBytes
//     (256), method over MaxMethodLength (128), tool or prompt name over MaxNameLength (128)
//     or resource URI over MaxResourceURIBytes (16 KiB) itself, with a short JSON-RPC error
//     that repeats none of it; request bodies stay within the SDK's 4 MiB.
//
// A handler of your own (mcp.NewStreamableHTTPHandler on NewServer) has none of these.
//
// # The calls served beside the SDK
//
// HTTPHandler and ServeStdio serve a plain tools/call themselves, beside the SDK: one request,
// without a progress token, naming a tool the server lists; over stateful HTTP (protocols up
// to 2025-11-25, as the SDK) only on a session opened by the same user whose client declared
// neither elicitation nor sampling and set no log level (what a call could send such a client
// goes on the session's own stream, not on the request's); over stdio on an initialized
// session, or on 2026-07-28 with its _meta. A 2026-07-28 call (stateless HTTP, stdio) is
// served here when its _meta names that protocol (as its Mcp-Protocol-Version header does)
// with the client's capabilities and no log level, and its Mcp-Method and Mcp-Name headers
// match its body; approval and Elicit work as on the SDK's path (input-required results, the
// answer with the next call, which is served here too). The SDK's JSON-RPC layer decodes a request five times, each with a 32 KB buffer
// (and connects a session for each stateless request); here it is decoded once, run through
// the same handler, with the same checks, and the answer is written as JSON (over HTTP
// application/json, which every streamable HTTP client accepts). Calls cost a fifth to a
// tenth of the CPU time they cost through the SDK (docs/benchmarks.md). Cancellation
// reaches these calls as it does the SDK's, from the session's own user only: another
// authenticated user's request on the session, a notifications/cancelled included, is
// refused (403) before anything acts on it, as the SDK refuses it; over stateless HTTP, RequestFrom(ctx).Session is
// nil, as no session exists, and Log sends its messages (info and above, as the SDK's
// stateless sessions do) in the answer, then an event stream. Stateful streams kept
// resumable (WithEventStore) stay the SDK's. Every other request, and every request to a server of your own
// (AddTools), goes to the SDK as before. The stateful gate, not the SDK, closes idle sessions,
// since the SDK does not see these calls.
//
// # Tools
//
// Each tool is listed with its canonical schemas (MCP speaks JSON Schema 2020-12, so no
// provider variant is needed): inputSchema, and outputSchema when the tool returns a
// structured object. Its title is Tool.Title and its annotations come from Tool.Hints: only
// the hints the directives set are sent (true), the others are left out, so a client applies
// the protocol's cautious defaults (destructive, open world) to what the tool does not claim;
// a tool without hints is sent without annotations. Its icons (Tool.Icons, //tool:icon) are
// listed as the spec's icons. Client tools (//tool:client) are not
// served: an MCP server runs its tools, and a client tool is run by the host that declared it.
//
// AddTools with nil serves every tool of the registry and follows it: tools added with
// Registry.Add or removed with Registry.Remove later reach clients through
// notifications/tools/list_changed. With a list it serves those tools, and drops one that is
// removed from the registry.
//
// # Calls
//
// A tools/call goes through Registry.Invoke. Its call id (runtime.CallInfo.CallID) is the
// JSON-RPC request id. Invalid arguments, handler errors and unknown tools are results with
// isError set, written for the model to correct itself (the 2025-11-25 rule: argument errors
// are tool errors, not protocol errors). A structured result becomes structuredContent with
// the same JSON as text content, as the spec asks for compatibility; an effect-only result
// (runtime.Result.EffectOnly) sends empty content.
//
// A handler sees the request through RequestFrom(ctx), TokenInfo(ctx) (the principal verified
// by the go-sdk's auth.RequireBearerToken in front of the HTTP handler) and Header(ctx) (the
// HTTP request's headers); WithUserData puts what a host derives from the request into
// runtime.CallInfo.UserData, for handlers that do not import this package. runtime.Progress(ctx, done, total, message) sends
// notifications/progress when the client gave a progress token, and nothing otherwise.
// Cancellation reaches the handler's ctx: notifications/cancelled on stdio, in memory and
// stateful HTTP; on stateless HTTP with protocol 2026-07-28 the client closing its request,
// when the handler is built with StreamableHTTPOptions.PropagateRequestCancellation (HTTPHandler
// sets it). Stateless HTTP on older protocols cannot route a cancellation to the request it
// cancels: the handler runs to its end or its timeout.
//
// WithTraceContext(toolotel.ContextFromMeta) (runtime/otel) continues a client's trace in the
// call: MCP clients put their trace context in the request's params._meta.
// WithRequestObserver sees every request once, on the SDK's path and beside it, and chooses
// the ctx it runs under: runtime/otel's ServerObserver records the MCP semantic conventions'
// server spans and mcp.server.operation.duration with it.
//
// # Scopes: what each caller is shown
//
// A tool with scopes (//tool:scopes, runtime.Tool.Scopes) is served only to a caller whose
// grant (runtime.Grant) holds them all. A request's grant is what WithScopes says;
// TokenScopes by default: the scopes of the token auth.RequireBearerToken verified
// (WithBearerAuth; StaticToken takes scopes too), none without a token, so a caller without
// one (stdio, in memory, HTTP without auth) is shown only the tools that need none unless
// WithScopes grants more. tools/list lists the caller's tools (in full pages of them, with a
// cursor of toolgen's, so that no page is short where a hidden tool was); a tools/call of any
// other tool is refused, on both paths, with the SDK's own error for a name it does not know,
// whose hint and list are drawn from the caller's tools; and every call runs under the grant
// (runtime.WithGrant), so the registry refuses it too, and tool_search and get_tool_info,
// which run as tools, find and describe the caller's tools alone. A session that listed tools
// is sent notifications/tools/list_changed when a request comes with a grant that shows other
// tools (a refreshed token), or when the host calls Registry.GrantsChanged naming its user
// (TokenInfo.UserID); a 2026-07-28 session and stateless HTTP have no stream for it.
// WithScopes's function runs for every request of a server with scoped tools; a server
// without any runs it once per tools/call, whose ctx then carries the grant (a Handler of a
// server of your own refuses a hidden tool through the registry alone, and the SDK lists it). docs/mcp.md, "Serving several callers safely", says what a caller
// can and cannot learn.
//
// A client that may retry a call sends an idempotency key, in params._meta under
// IdempotencyKeyMeta or in the IdempotencyKeyHeader header: the call then runs once in its
// registry session however often it is sent, on whichever replica (runtime.WithIdempotency;
// docs/scaling-out.md says what counts as the same call). WithRequestIDKeys keys calls
// without one by their request id. WithDrain takes an HTTPHandler out of service without
// failing a request: new ones get 503 with Retry-After while those in progress finish.
//
// # Sessions
//
// Each call runs in a registry session (runtime.Call.Session), the unit of loop guards, call
// limits, AskRetry budgets and session state. WithSessionKey chooses it:
// SessionPerConnection (the default: the stdio or in-memory connection, or the
// Mcp-Session-Id of stateful HTTP; every request of stateless HTTP is its own, so clients are
// never merged), SessionFromPrincipal (the authenticated user), SessionFromHeader (a
// client-supplied header, scoped by the user), SessionPerRequest, or SessionFunc. A registry
// session ends (Registry.EndSession) when the last MCP connection that used it closes, or
// WithSessionLinger later; one server keeps at most DefaultMaxLingering (1024) lingering
// (SessionLimits.MaxLingering), ending the one that has lingered longest to make room, since
// over stateless HTTP every request with a new key leaves one. A call naming a session whose
// end is under way waits for the end, then starts afresh, so the end never clears what the
// call stores. A key the client chooses (a
// header, whatever SessionFunc reads) is held until its connection closes, so one connection
// may hold at most DefaultMaxKeysPerConnection (64) besides its own, on every server
// (SessionLimits.MaxKeysPerConnection): a call naming one more is refused with a tool error
// before it runs, and the keys it holds still serve.
//
// # Approval and elicitation
//
// A //tool:confirm tool, when the registry has no Approver and no approval queue of its own,
// is approved by the user through MCP elicitation when the client supports it: the user is
// shown the tool, what it does (its //tool:confirm reason), its risk and the arguments, and
// approves or denies; an approved call runs exactly once. A client without elicitation gets
// the refusal the registry gives without an approver: approval fails closed. Elicit lets any
// handler ask the user a question during a call.
//
// Elicitation asks the connected client: whoever holds the connection answers the question,
// approvals included. The client must therefore be the user's own. A server that anyone can
// reach (HTTP without authentication) lets every caller approve its own calls, so serve such
// tools over stdio, or over HTTP behind WithBearerAuth with a secret only the user's client
// holds.
//
// On protocols up to 2025-11-25 the server sends elicitation/create and waits. Protocol
// 2026-07-28 forbids requests from the server: the call returns the question as an
// input-required result (SEP-2322) with a sealed (encrypted, authenticated) state, and the
// client calls again with the answer. A registry with an approver of its own (an allowlist)
// decides first; the user is asked about the calls it passes on (runtime.ErrUndecided), on
// both protocols. The state is bound to the tool, the arguments and the caller, expires after 15
// minutes and is accepted once: a state replayed, forged, expired or brought to another tool
// or caller is a protocol error (-32602, invalid params) and nothing runs; an answer brought
// back with other arguments is dropped and the call asks again about those.
//
// On every protocol the user is shown, and approves, the arguments in their canonical form
// (keys sorted, the schema's defaults applied), the form the registry checks the answer
// against and the handler runs with: a call that leaves an optional field out, sends it as
// its zero value or as its default, in any key order, is one call. An
// approval given for other arguments than those that would run (a middleware changed them)
// asks again. Stateless HTTP on older protocols cannot reach the client: approval fails
// closed there.
//
// # Prompts and resources
//
// WithPrompts and WithResources serve tools as MCP prompts and resources: usually the
// generated Prompts() and Resources() of a package whose handlers carry //tool:prompt or
// //tool:resource URI [mime=TYPE]. A prompt's arguments and a resource template's {variables}
// are the properties of the tool's input schema (descriptions, required), decoded into the
// args struct by the tool's own decoder; completion/complete offers the values of an enum
// argument. The handler's result becomes the prompt's messages or the resource's contents.
// Clients may subscribe to the resources without variables.
//
// # Logging, sampling and the server
//
// Log sends a log message to the client and Sample (SampleText) asks the client's model,
// from a tool call, a prompt or a resource, as Elicit asks the user. WithServerOptions and
// WithHTTPOptions pass the go-sdk's options through, WithEventStore makes streams resumable,
// and WithServerHook hands over the go-sdk server NewServer, ServeStdio and HTTPHandler
// build, for what this package does not wrap (mcp.Server.ResourceUpdated, middleware).
//
// # Long-running tools: tasks
//
// A //tool:task tool (runtime.Tool.Task) runs as an MCP task (the io.modelcontextprotocol/tasks
// extension, protocol 2026-07-28) for a request that declares the extension: HTTPHandler and
// ServeStdio answer its tools/call with a task id once the call passed the registry's checks
// (approval included, settled synchronously), run the handler in the background under a
// context the server owns, and answer tasks/get (status, then the result inlined),
// tasks/update (answers to what the handler asks with Ask or Elicit) and tasks/cancel
// themselves; server/discover advertises the extension. Other clients get the result
// synchronously (//tool:task required refuses them, -32021). Tasks are their owner's (the
// user, and the session where it outlives a request), kept in a TaskStore (memory, or
// runtime/redisstore's Store.Tasks for replicas: WithTaskStore) and bounded (TaskLimits,
// WithTaskLimits). The go-sdk's own transports (NewServer alone) refuse methods they do not
// know, so there task tools are synchronous. docs/mcp.md has the details.
//
// # The pieces alone
//
// Tools and ToolsJSON for tools/list, CallFromParams and ParseCall for tools/call params, and
// Result and ResultJSON for the CallToolResult, for a host with its own transport; Handler
// for a server that adds tools itself.
package mcp
