// Package mount puts other MCP servers' tools in a runtime.Registry: the client side of
// runtime/mcp, on the go-sdk's client. A mounted server's tools are registry tools like any
// other, so every policy of the registry applies to them (timeouts, retries, approval, loop
// guards, result caps and offload, disclosure and tool search, the provider adapters, and
// serving them again over MCP, as examples/mcp-proxy does).
//
//	m, err := mount.Mount(ctx, reg, mount.Server{Name: "files", Command: []string{"workspace-server", "-root", "."}},
//		mount.Options{Timeout: 30 * time.Second})
//	defer m.Close()
//
// A server is a command run over stdio (Server.Command), a streamable HTTP endpoint
// (Server.URL, with Server.Headers such as Authorization on every request to its origin, never
// on one redirected to another scheme, host or port; or Server.OAuth for a server behind
// OAuth 2.1: the go-sdk's auth.NewAuthorizationCodeHandler), or a transport per connection
// (Server.Dial: an in-process server).
//
// # Tools
//
// Each tool is registered as Options.Prefix (default: the server's name and "_") and its
// name. Its arguments are validated here, before anything is sent: an input schema in
// runtime/schematool's subset (toolgen's own servers', and most servers' built with typed
// SDKs) is compiled into the decoder tables generated tools use, so a model gets the same
// problems and paths; a schema outside it is validated by a general JSON Schema validator
// (santhosh-tekuri/jsonschema, which never loads a $ref from outside the document), unless
// Options.Strict leaves such tools out. A draft-07 or 2019-09 $schema is read as 2020-12,
// whose keywords agree within the subset. What is sent is the canonical form of the
// arguments (keys sorted, the schema's defaults added), the one an approver saw.
//
// A structured result is checked against the tool's outputSchema, and one that does not match,
// or a missing one the schema promises, is an error result: the server's mistake is not passed
// to the model as data. Text, images, audio and resources become the result's text and
// runtime.Result.Parts; more than MaxContentItems items are counted, not kept.
//
// # Approval
//
// A tool needs approval (runtime.PermissionConfirm) when its annotations say it is
// destructive, reading absent hints as the protocol does (destructive unless readOnlyHint or
// destructiveHint false), when Options.Confirm names it, or with Options.ConfirmAll;
// Options.Auto names tools that run without it whatever their hints. Hints are the server's
// word: a server that claims read-only for a tool that deletes is believed unless the tool is
// listed in Confirm, so list the tools you do not trust, or use ConfirmAll.
//
// # Following the server
//
// tools/list_changed makes the mount list the tools again (notifications coalesce while a
// listing is due) and bring the registry up to date: new tools added, changed ones replaced
// (removed, then added: a call in between finds no tool), gone ones removed. When the
// connection drops (the server's process exits, its HTTP session is gone, a keep-alive ping
// fails, or a call finds the connection closed), the mount reconnects with a growing delay
// (Options.ReconnectDelay, MaxReconnectDelay) and lists the tools again; the tools stay
// registered meanwhile, and their calls are error results saying the server is reconnecting.
// Cancelling a call's ctx (the registry's timeout, the caller) sends notifications/cancelled;
// the server's progress notifications reach runtime.Progress of the call, so a proxy passes
// them to its own client. Close ends it all and removes the tools.
//
// # Questions for the user
//
// A server may ask the user for input during a call (MCP elicitation). With Options.Elicit
// set, the mount declares the elicitation capability and passes each question to it, with the
// ctx of the registry call it belongs to; without it, no capability is declared and a server
// that checks goes without. ElicitThroughClient is the Elicit of a proxy: it asks the user of
// the MCP call being served (runtime/mcp.Elicit) and gives the server the answer:
//
//	m, err := mount.Mount(ctx, reg, server, mount.Options{Elicit: mount.ElicitThroughClient})
//	...
//	err = toolmcp.ServeStdio(ctx, reg) // the server's questions go to this client's user
//
// Only a question that can be tied to its call is passed on. A server on protocol 2026-07-28
// asks by returning input requests as the call's result; the go-sdk client answers them and
// calls again (at most 9 rounds a call), with the call's ctx. A server on an older protocol
// sends elicitation/create on its own, over a connection that may carry many calls, naming
// none of them: guessing the call would hand one user's answer to another call, so it gets an
// error saying it is declined. A host with one user behind every call (a command-line agent)
// sets Options.ElicitUntied to be asked those too, with a ctx that names no call.
//
// Served over runtime/mcp to a client on 2025-11-25, the question is sent to the client and
// the answer comes back within the mounted call. To a client on 2026-07-28, the served call
// ends with the question (an input-required result) and the client calls again with the
// answer: the mounted call is made again from the start, the server asks again, and gets
// the answer given to that same question (message and schema). So the server's tool runs
// once more per question, as any handler that elicits on 2026-07-28 does.
//
// # Bounds
//
// Everything a server sends is untrusted: at most MaxTools tools (over MaxListPages pages,
// MaxListBytes of them as JSON),
// names checked against the registry's pattern, descriptions cut to MaxDescriptionBytes and
// titles to MaxTitleBytes, schemas within schematool's bounds, messages within
// MaxMessageBytes (the go-sdk's stdio line and SSE event caps; a JSON HTTP response is held
// to it here), progress messages cut to MaxProgressMessage, protocol error messages to
// MaxErrorText; at most MaxElicitations questions a call reach Options.Elicit; a tool's
// icons pass on (runtime.Tool.Icons) only as https URLs or data: URIs of a known image type
// of at most 64 KiB, with valid sizes and theme, at most MaxIcons of them. docs/limits.md
// lists them.
//
// # Tracing
//
// Options.Observer sees each request the mount sends: runtime/otel's ClientObserver makes it
// a client span of the MCP semantic conventions and sends its trace context in the
// request's _meta, so the mounted server's spans join the host's trace.
//
// The general validator does not memoize: a subschema reached through several $refs is
// validated again each time, so a few KB of $defs (each an allOf of two $refs to the one
// before) would cost 2^n steps a call, which nothing interrupts. A schema it validates
// (input or output) is refused at mount time, the tool left out with the reason in Skipped,
// when unfolded (each $ref expanded where it is used; recursion not expanded again) it holds
// more than MaxSchemaExpansion (10,000) subschemas; and each document is refused
// unvalidated when validating it would take more than MaxValidationSteps (1 Mi) steps plus
// ValidationStepsPerValue (16) for each of its JSON values, counted before validating (a
// recursive schema whose applications multiply with the document's depth). Validation so
// takes time and memory linear in the document, whatever the server's schema.
package mount
