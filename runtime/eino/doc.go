// Package eino runs a toolgen registry's tools inside CloudWeGo eino agents
// (github.com/cloudwego/eino): each tool becomes an eino tool.InvokableTool (or
// tool.EnhancedInvokableTool) whose schema.ToolInfo carries the JSON Schema toolgen emitted,
// and every call goes through Registry.Invoke, so validation with every problem's JSON path,
// timeouts, retries, loop guards, repair and approval all hold inside eino's ToolsNode, its
// ReAct agent (flow/agent/react) and the ADK's ChatModelAgent.
//
//	toolsNode, err := tooleino.ToolsNodeConfig(reg, tooleino.Options{}) // all tools, or name some
//	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
//		Name: "assistant", Description: "…", Model: chatModel,
//		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: toolsNode},
//	})
//
// # Calls
//
// The call id is eino's (compose.GetToolCallID), so a handler's runtime.CallInfo.CallID is
// the model's tool call id. The session is Options.Session's, else the ADK session value
// SessionKey (adk.WithSessionValues(map[string]any{tooleino.SessionKey: "conv-1"})); UserData
// is Options.UserData's.
//
// # Results
//
// Eino tool results have no error flag: a failed call's text starts with "Error" and is
// returned as the tool's output, never as a Go error, which would end the agent's run; the
// model reads every problem and calls again. Tool returns one text, a result's parts
// described in words; EnhancedTool returns images, audio and binary resources as eino tool
// output parts (base64 with their MIME type), for chat models that take them in tool results.
// An effect-only result reads as empty text.
//
// # Approval
//
// A //tool:confirm call that the registry does not decide itself (no runtime.WithApprover)
// interrupts the run (tool.StatefulInterrupt) with an *Approval as the interrupt's Info:
// the tool, call id, session, canonical arguments, reason and risk. The run needs a
// CheckPointStore (adk.RunnerConfig) to be resumed: resume the interrupt's ID with a
// runtime.Decision,
//
//	runner.ResumeWithParams(ctx, checkPointID, &adk.ResumeParams{
//		Targets: map[string]any{interruptID: runtime.Decision{Approved: true, By: "ana"}}})
//
// and the same call is invoked again with that decision: approved, it runs once (with
// Decision.Args, validated again, when set); denied, the model reads the reason. A resume
// that targets the call without a Decision denies it: approval fails closed. With a registry
// that queues approvals (runtime.WithApprovalQueue) the Approval carries the queue's
// RequestID and the decision is recorded there before the call runs. The first invocation,
// which asked, counts against the session's loop guards like any refused call.
//
// A client tool (//tool:client) has no one to run it in an eino agent: its calls are refused
// with a text saying so.
//
// The package is its own Go module, so programs that do not import it never download eino.
package eino
