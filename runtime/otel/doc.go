// Package otel records a toolgen registry's tool calls with OpenTelemetry, following the
// GenAI semantic conventions for tool execution: a span per call and a duration histogram.
// It uses only the OpenTelemetry API; the program chooses the SDK and exporters.
//
//	in, err := toolotel.New() // the global tracer and meter providers
//	if err != nil { … }
//	reg := runtime.NewRegistry(in.RegistryOptions(runtime.SlogObserver(logger))...)
//
// Each call that names a registered tool gets a span "execute_tool {tool}" (kind internal)
// with gen_ai.operation.name "execute_tool", gen_ai.tool.name, gen_ai.tool.call.id,
// gen_ai.tool.type "function" and gen_ai.conversation.id (the call's session). A failed call
// sets the span's status to Error and error.type to its runtime.ErrorKind (invalid_input,
// timeout, denied, …); toolgen.attempts counts the attempts that ran the handler. Failed
// attempts (toolgen.attempt.failed, or toolgen.attempt.timeout), retries (toolgen.retry) and
// approval steps (toolgen.approval, with the outcome and who decided) are span events; a call
// waiting in the approval queue carries toolgen.approval.id.
//
// The histogram gen_ai.execute_tool.duration (seconds) records every call, with the
// operation, tool name, tool type and, for failures, error.type: never the call id or
// session, which would make its series unbounded.
//
// Argument and result values are recorded only when asked (WithArguments, WithResults):
// they come from a model and may hold personal data or secrets.
//
// # MCP requests
//
// ServerObserver, given to runtime/mcp's WithRequestObserver, records each MCP request a
// server receives as the MCP semantic conventions' server span ("tools/call get_weather",
// kind server, mcp.method.name, mcp.session.id, mcp.protocol.version, jsonrpc.request.id,
// gen_ai.tool.name, error.type), the parent of the call's execute_tool span, and in the
// mcp.server.operation.duration histogram. ClientObserver, given to runtime/mcp/mount's
// Options.Observer, records a mount's requests as client spans and in
// mcp.client.operation.duration, and sends their trace context in the requests' _meta.
//
// # Trace context
//
// The span is a child of the span in the ctx given to Registry.Invoke. Over MCP, a client
// puts its trace context into the request's params._meta (traceparent, tracestate), as the
// MCP semantic conventions recommend; ContextFromMeta reads it back on the server so the
// client's trace continues into the tool call, and InjectMeta writes it on the client.
//
// # Cost
//
// The middleware makes the registry take its middleware path and starts a span per call;
// BenchmarkOverhead measures a call with and without it in the same run (see the README).
//
// The package is its own Go module, so that programs that do not import it never download
// OpenTelemetry, and so that a module next to it (the in-process Temporal server's tests)
// may select the OpenTelemetry versions it needs.
package otel
