// Package openai connects a toolgen registry to the OpenAI Chat Completions and Responses
// APIs, on the wire (JSON) or through the official Go SDK (github.com/openai/openai-go/v3).
//
// One turn of an agent loop has four steps, each available in both forms:
//
//  1. Declare the tools: ChatTools / ResponsesTools (SDK types) or ChatToolsJSON /
//     ResponsesToolsJSON (the request's "tools" array). Each tool is sent with the schema
//     toolgen precomputed for OpenAI (runtime.VariantOpenAI) and with "strict" always set
//     explicitly, because the Responses API otherwise guesses. A tool generated without that
//     variant is refused with an error that says to regenerate; nothing is converted at run
//     time.
//  2. Read the calls: ChatCalls / ResponsesCalls from the SDK's response types, ParseChatCalls
//     / ParseResponsesCalls from the wire JSON, or ChatStream / ResponsesStream while the
//     response is streamed (fragments joined per index for Chat, per item id for Responses; a
//     call comes out only once complete).
//  3. Dispatch: Dispatch runs the calls through Registry.InvokeAll, concurrently except that
//     a Sequential tool runs alone. Before validation it undoes the strict-mode rewrite: a
//     null at a property that was optional in the Go type means "absent", so it is removed
//     and the field's default applies (runtime.Variant.Restore). A client tool (//tool:client)
//     is not run: its outcome's Result.ClientCall is set and the host runs it. An
//     effect-only result (runtime.Result.EffectOnly) is answered with empty content: the
//     effects stay with the host, and the call id still gets the answer the API requires.
//  4. Answer: ChatToolMessages / ResponsesOutputs (SDK) or ChatToolMessagesJSON /
//     ResponsesOutputsJSON (wire) give one tool message or function_call_output item per
//     dispatched call, in call order. OpenAI has no error flag, so an error result's text is
//     prefixed with "Error: ". ChatToolMessage and ResponsesOutput format one result, for the
//     host's answers to client calls.
//
// Pairing: Chat results carry the call's tool_call_id; Responses results carry its call_id
// (not the item id). The assistant message (Chat) or the function_call and reasoning items
// (Responses) must be sent back before the results, as the API requires: with the SDK,
// message.ToParam() does it for Chat and ResponsesReplay for Responses (unless the request
// uses previous_response_id).
package openai
