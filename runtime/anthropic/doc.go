// Package anthropic connects a toolgen registry to the Anthropic Messages API in its wire
// JSON, without the provider's SDK: importing it compiles no anthropic-sdk-go. The same steps
// typed by the official Go SDK (github.com/anthropics/anthropic-sdk-go) are in
// runtime/anthropic/anthropicsdk.
//
// One turn of an agent loop has four steps:
//
//  1. Declare the tools: ToolsJSON (the request's "tools" array; anthropicsdk.Tools), each
//     with the input_schema toolgen precomputed for Anthropic (variant.Anthropic). With
//     the Strict option, tools that have a strict variant (variant.AnthropicStrict) are
//     sent with "strict": true; the API accepts at most 20 strict tools in a request, so more
//     is an error here rather than a 400 there. A tool generated without the variant it needs
//     is refused with an error that says to regenerate; nothing is converted at run time.
//  2. Read the calls: ParseCalls from a message's wire JSON (anthropicsdk.Calls from the
//     SDK's Message), or Stream while the message is streamed (input_json_delta fragments
//     joined per content block; a call comes out when its block stops).
//  3. Dispatch: Dispatch runs the calls through Registry.InvokeAll, concurrently except that
//     a Sequential tool runs alone. Anthropic sends optional properties as absent, so the
//     arguments need no restoring. A client tool (//tool:client) is not run: its outcome's
//     Result.ClientCall is set and the host runs it. An effect-only result
//     (runtime.Result.EffectOnly) is answered with an empty tool_result: the effects stay
//     with the host, and the tool_use still gets the answer the API requires.
//  4. Answer: ToolResultsJSON (anthropicsdk.ToolResults) gives one tool_result block per
//     dispatched call, in call order, with "is_error": true on failures. A result with parts
//     (runtime.Part) gets content blocks (Blocks): images and PDF documents as base64 blocks,
//     links and text resources as text, and a note for what cannot be sent (audio). Put them first in
//     the next user message, with the host's answers to client calls and only then any text: the API requires every tool_use to be answered in the message
//     right after it.
package anthropic
