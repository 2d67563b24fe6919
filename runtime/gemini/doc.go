// Package gemini connects a toolgen registry to the Google Gemini API (generateContent) in
// its wire JSON, without the provider's SDK: importing it compiles no genai. The same steps
// typed by the official Go SDK (google.golang.org/genai) are in runtime/gemini/geminisdk.
//
// One turn of an agent loop has four steps:
//
//  1. Declare the tools: ToolsJSON (the request's "tools" array; geminisdk.Tool, an SDK
//     *genai.Tool) holds one function declaration per tool. A declaration uses the
//     parametersJsonSchema variant toolgen precomputed (variant.GeminiJSONSchema) when
//     the tool has it, which keeps $ref, anyOf and null, and otherwise the OpenAPI-subset
//     "parameters" variant (variant.GeminiParameters). A tool with neither is refused
//     with an error that says to regenerate; nothing is converted at run time.
//  2. Read the calls: ParseCalls from a response's or a content's wire JSON (geminisdk.Calls
//     from the SDK's resp.FunctionCalls()). Gemini sends whole calls, so there is no fragment
//     assembly; a streamed response's function calls are read chunk by chunk.
//  3. Dispatch: Dispatch runs the calls through Registry.InvokeAll, concurrently except that
//     a Sequential tool runs alone. Before validation it gives back their Go names to the
//     properties toolgen renamed because Gemini rejects their names (variant.Variant.Restore).
//     A client tool (//tool:client) is not run: its outcome's Result.ClientCall is set and
//     the host runs it.
//  4. Answer: ResponsesJSON (geminisdk.Responses) gives one functionResponse part per
//     dispatched call, in call order, each with the call's id (when the model gave
//     one) and name. The response object is {"output": value} on success, where value is the
//     structured result or the text, and {"error": text} on failure. Send them in one "user"
//     content, after the model's content replayed verbatim (it may carry thought signatures).
//     An effect-only result (runtime.Result.EffectOnly) is answered with an empty output:
//     the effects stay with the host, and the call still gets the answer Gemini requires.
//     A result's parts (runtime.Part) become the functionResponse's inline parts (PNG,
//     JPEG, WebP, PDF; InlineParts); links, text resources and a note for what cannot be sent
//     (audio) go under "attachments" in the response object.
package gemini
