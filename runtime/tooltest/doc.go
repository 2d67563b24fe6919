// Package tooltest tests tools and the agents that use them: it calls a tool as a model's
// call goes and asserts on what the model reads, serves a registry to the MCP go-sdk client
// in memory, answers approvals from a script, and stands in for a model's API with a local
// server that answers a scripted conversation. It is a package of the root module and needs
// nothing beyond it (testify and the MCP go-sdk, which toolgen requires already).
//
// # Calling a tool
//
// Call runs a call through Registry.Invoke, validation, policies and all, and returns a
// Result; its Require methods stop the test when the result is not what they say, and chain:
//
//	reg := runtime.NewRegistry()
//	require.NoError(t, reg.Add(weather.Tools()...))
//	tooltest.Call(t, reg, "get_weather", `{"city":"Tokyo"}`).RequireOK(t).RequireJSON(t, `{"city":"Tokyo",…}`)
//	tooltest.Call(t, reg, "get_weather", `{"city":"","unit":"kelvin"}`).RequireProblems(t, "/city", "/unit")
//
// Arguments are JSON text (a string or bytes, sent as they are: what a model sends, mistakes
// included) or a value to marshal. RequireProblems checks that an invalid call is refused
// with a problem at each JSON Pointer given, in document order, and nothing else: the model
// is told of every mistake at once. The calls of one test share the registry session
// t.Name(), as one conversation's calls do; InSession, WithCallID and WithUserData set the
// call's other fields.
//
// # Over MCP
//
// ConnectMCP serves a registry with runtime/mcp.NewServer and connects the go-sdk client to
// it over the SDK's in-memory transports: the real server and client, every message encoded
// as on a wire. The client speaks its default revision (2026-07-28) unless WithProtocol
// names another; WithElicitation gives it the elicitation capability and the handler that
// answers the server's questions, approvals of //tool:confirm tools included (on 2025-11-25
// through elicitation/create, on 2026-07-28 through input-required results the client
// answers by calling again). MCPClient.Call returns the same Result as Call, built from the
// CallToolResult: text content, structuredContent and, for invalid arguments, the problems
// the text lists (ProblemsFromText).
//
//	client := tooltest.ConnectMCP(t, reg, tooltest.WithProtocol("2025-11-25"))
//	client.Call(t, "get_weather", `{"city":"Tokyo"}`).RequireOK(t)
//
// # Approvals
//
// NewApprover returns a runtime.Approver answering from a script (Approve, Deny,
// ApproveWithArgs, each naming the tool it expects) and recording the requests it was asked
// (Requests: what the user would have been shown). Asked about another tool, or once too
// often, it fails the test and denies, so approval fails closed; an answer never asked for
// fails the test when it ends.
//
// # Scripted models
//
// ChatCompletionsModel, ResponsesModel, AnthropicModel and GeminiModel start a local HTTP
// server speaking that provider's API, which answers each request with the next Turn of a
// script: Reply(text), or CallTools(calls...) for a turn of tool calls. Give its URL to the
// provider's SDK or to an agent framework's model as the base URL, and run the agent:
//
//	model := tooltest.ChatCompletionsModel(t,
//		tooltest.CallTools(tooltest.ToolCall{Name: "get_weather", Args: `{"city":"Tokyo","unit":"kelvin"}`}),
//		tooltest.CallTools(tooltest.ToolCall{Name: "get_weather", Args: `{"city":"Tokyo"}`}).
//			Expect(func(t testing.TB, req tooltest.Request) {
//				got, _ := req.Result("call_1")
//				assert.Contains(t, got, "/unit: must be one of")
//			}),
//		tooltest.Reply("17 degrees in Tokyo."),
//	)
//	llm, _ := openai.New(openai.WithBaseURL(model.URL()), openai.WithToken("test"))
//
// Every API answers unstreamed or streamed, as the request asks. A request is read into a
// Request: the tools declared, the tool results sent, the model asked for, the body. The
// model fails the test (t.Errorf) when the agent sends a request it cannot read or to
// another API's endpoint, a request past the script, or one that leaves a call of the turn
// before unanswered (the provider would refuse it too), and when a turn's Expect check
// fails; it answers each of those with an HTTP 400 in the provider's error shape, so the
// agent stops with an error. When the test ends it fails the test for each turn left unused:
// an agent that stopped early does not pass.
//
// Calls the script leaves without an ID are numbered across the script: call_1, call_2, …
// (toolu_1, … on Anthropic's API). Gemini's API names calls by name, so there a call carries
// an id only when the script gives one.
package tooltest
