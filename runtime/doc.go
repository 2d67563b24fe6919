// Package runtime is what programs import to run the tools toolgen generates: a Registry that
// holds them and dispatches a model's tool calls, and the Result every call ends in.
//
// # Registering tools
//
// For every package with //tool: handlers, toolgen generates a Tools function (or
// <Receiver>Tools(r) for methods) that returns the package's tools as [Tool] values. Add them
// to a registry:
//
//	reg := runtime.NewRegistry()
//	if err := reg.Add(weather.Tools()...); err != nil {
//		log.Fatal(err)
//	}
//
// [Registry.Add] refuses tools with a missing or invalid name, a name already taken, or no
// Bind function, and adds nothing when it refuses any: a program that starts has the tools
// it asked for. [Registry.Tools], [Registry.Names] and [Registry.ByTag] list tools sorted by
// name, which keeps the tool list sent to a provider stable from run to run (and its prompt
// cache warm). [Registry.Subset] builds a smaller registry for one agent:
//
//	researcher, err := reg.Subset("search_web", "fetch_page")
//
// A Registry is safe for concurrent use; tools can be added while calls run.
//
// # Invoking a call
//
// When a model asks for a tool, hand its call to [Registry.Invoke] and send the result's Text
// back to the model:
//
//	res := reg.Invoke(ctx, runtime.Call{ID: "call_1", Name: "get_weather", Args: []byte(`{"city":"Tokyo"}`)})
//
// Invoke never panics and returns no error: every failure is a [Result] with IsError set, so
// the model always gets an answer it can act on. A Result holds:
//
//   - Text: exactly what the model reads; for a structured result, the JSON text.
//   - Structured: the JSON of a structured result (handlers returning a struct), else nil.
//   - IsError: whether the call failed; tell the model so where the provider has a flag for it.
//   - Err: the Go error behind a failure, for logs and metrics; the model never reads it.
//   - Duration: the wall time of the whole Invoke, decoding included.
//   - Attempts: how many times the handler ran (0 when the call failed before it ran).
//   - Metadata: free data for the host, never sent to the model.
//
// # What the model sees when a call fails
//
// Unknown tool: the Text names the available tools, sorted (at most 50), with the nearest
// name when the call looks like a typo; Err wraps [ErrUnknownTool].
//
//	unknown tool "get_wether"; did you mean "get_weather"? Available tools: get_time, get_weather
//
// Invalid arguments: the Text lists every problem with its JSON Pointer path, then asks the
// model to call again; Err is the [*ArgsError] (its Tool field set), so errors.As finds the
// problems. Arguments that are empty, whitespace or null count as {}, because models send
// those for tools without arguments.
//
//	invalid arguments for get_weather:
//	- /citty: unknown property, did you mean "city"?
//	- /unit: must be one of "celsius", "fahrenheit", got "kelvin"
//	Correct the arguments and call get_weather again.
//
// Handler error: the handler's returned error becomes an error result whose Text is the
// error's message (see [ErrorResult]); the registry passes it through unchanged.
//
// Panic: a panic in the handler is recovered. The Text only says that the tool failed with
// an internal error; the panic value, which may hold paths, queries or secrets, never reaches
// the model. Err is a [*PanicError] carrying the value and the stack for the operator.
//
// # The name clash with the standard library
//
// This package is named runtime, like the standard library's runtime package. A file that
// needs both imports one of them under another name, for instance:
//
//	import (
//		goruntime "runtime"
//
//		"github.com/toolgen-go/toolgen/runtime"
//	)
//
// or, keeping the standard name free, toolrt "github.com/toolgen-go/toolgen/runtime".
package runtime
