// Package mcp serves a toolgen registry over the Model Context Protocol, through the official
// Go SDK (github.com/modelcontextprotocol/go-sdk) or on the wire (JSON).
//
// With the SDK, one call does it all:
//
//	server := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "1.0.0"}, nil)
//	toolmcp.AddTools(server, reg, reg.Tools())
//
// Each tool is listed with its canonical schemas (MCP speaks JSON Schema 2020-12, so no
// provider variant is needed): inputSchema, and outputSchema when the tool returns a
// structured object. Its title is Tool.Title and its annotations come from Tool.Hints
// (readOnlyHint, destructiveHint, idempotentHint, openWorldHint); a tool without hints is
// sent without annotations, so clients apply the protocol's cautious defaults instead of
// being told it is harmless. Client tools (//tool:client) are not served: an MCP server runs
// its tools, and a client tool is run by the host that declared it.
//
// A tools/call goes through Registry.Invoke with the MCP session's id as runtime.Call.Session,
// so per-session policies apply per connected client. Invalid arguments, handler errors and
// unknown tools are results with isError set, written for the model to correct itself (the
// 2025-11-25 rule: argument errors are tool errors, not protocol errors). A structured result
// becomes structuredContent with the same JSON as text content, as the spec asks for
// compatibility; an effect-only result (runtime.Result.EffectOnly) sends empty content.
//
// The pieces are also available alone: Tools and ToolsJSON for tools/list, CallFromParams and
// ParseCall for tools/call params, and Result and ResultJSON for the CallToolResult.
package mcp
