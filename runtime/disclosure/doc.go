// Package disclosure shows a model its tools a little at a time, so that a large toolset does
// not fill the context with schemas it may never use.
//
// Level 1 is the catalog: one line per tool, its name and description, for the system
// prompt. Level 2 is get_tool_info, a tool the model calls with a tool's name to learn the
// rest: the detail paragraphs, every parameter with its type, whether it is required and its
// default, examples, when to use it (triggers), prerequisites, warnings, related tools, and
// whether a call waits for approval.
//
// # Using it with a provider
//
// Wrap the registry, put the catalog in the system prompt, declare Tools to the provider and
// send every call through Invoke:
//
//	d, err := disclosure.New(reg)
//	if err != nil { ... }
//	system := basePrompt + "\n\n" + d.Catalog()
//	// each turn:
//	tools := d.ToolsIn(ctx, session) // get_tool_info, plus every tool this conversation asked about
//	...
//	res := d.Invoke(ctx, call)
//
// A provider adapter (runtime/openai, anthropic, gemini) dispatches through a registry:
// give it d.Registry(), which runs get_tool_info and every tool of reg.
//
// At first ToolsIn holds only get_tool_info. When the model asks about a tool, that tool is
// revealed in the call's session (runtime.Call.Session): from the next request of that
// session on, ToolsIn declares its full schema too, so a provider with a native tool API lets
// the model call it (the "deferred loading" of tools). Another session's questions change
// nothing for it; Tools is the view of calls without a session. Reveal declares tools up
// front, in every session.
//
// A model that talks to tools through text (package xmlcall) needs no revealing: it can call
// any tool by name once it has read its information. Give it the catalog and the XML
// instructions for get_tool_info alone, which keeps the system prompt fixed (and a provider's
// prompt cache warm) however many tools the model learns about:
//
//	system := d.Catalog() + "\n\n" + xmlcall.Instructions([]runtime.Tool{d.InfoTool()})
//	turn := xmlcall.Run(ctx, d, reply) // get_tool_info and every other tool, by name
//
// # Without a Disclosure
//
// Catalog, Describe and Parameters work on plain runtime.Tool values, for hosts that build
// their own prompts: Describe(t).Text() is exactly what get_tool_info answers.
package disclosure
