// Package openai connects a toolgen registry to the OpenAI Chat Completions and Responses
// APIs in their wire JSON, without the provider's SDK: importing it compiles no openai-go.
// The same steps typed by the official Go SDK (github.com/openai/openai-go/v3) are in
// runtime/openai/openaisdk.
//
// One turn of an agent loop has four steps:
//
//  1. Declare the tools: ChatToolsJSON / ResponsesToolsJSON (the request's "tools" array;
//     openaisdk.ChatTools / ResponsesTools for the SDK). Each tool is sent with the schema
//     toolgen precomputed for OpenAI (variant.OpenAI) and with "strict" always set
//     explicitly, because the Responses API otherwise guesses. A tool generated without that
//     variant is refused with an error that says to regenerate; nothing is converted at run
//     time.
//  2. Read the calls: ParseChatCalls / ParseResponsesCalls from the wire JSON
//     (openaisdk.ChatCalls / ResponsesCalls from the SDK's types), or ChatStream /
//     ResponsesStream while the response is streamed (fragments joined per index for Chat, per item id for Responses; a
//     call comes out only once complete).
//  3. Dispatch: Dispatch runs the calls through Registry.InvokeAll, concurrently except that
//     a Sequential tool runs alone. Before validation it undoes the strict-mode rewrite: a
//     null at a property that was optional in the Go type means "absent", so it is removed
//     and the field's default applies (variant.Variant.Restore). A client tool (//tool:client)
//     is not run: its outcome's Result.ClientCall is set and the host runs it. An
//     effect-only result (runtime.Result.EffectOnly) is answered with empty content: the
//     effects stay with the host, and the call id still gets the answer the API requires.
//  4. Answer: ChatToolMessagesJSON / ResponsesOutputsJSON (openaisdk.ChatToolMessages /
//     ResponsesOutputs) give one tool message or function_call_output item per dispatched
//     call, in call order. OpenAI has no error flag, so an error result's text is prefixed
//     with "Error: " (Content). The host answers a client call the same way, with an
//     Outcome of its own. A result's parts (runtime.Part) go to Responses as an array
//     output (OutputItems): images as input_image, PDFs as input_file, links and text
//     resources as input_text, and a note for what cannot be sent (audio). Chat Completions
//     tool messages carry text only: the parts follow the text as text (ChatContent).
//
// Pairing: Chat results carry the call's tool_call_id; Responses results carry its call_id
// (not the item id). The assistant message (Chat) or the function_call and reasoning items
// (Responses) must be sent back before the results, as the API requires: on the wire, the
// message or the output items as the API returned them; with the SDK, message.ToParam() for
// Chat and openaisdk.ResponsesReplay for Responses (unless the request uses
// previous_response_id).
package openai
