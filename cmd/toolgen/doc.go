// Toolgen turns ordinary typed Go functions into LLM tools at build time.
//
// A handler is a func (or method) with a typed argument struct whose doc comment holds at
// least one //tool: directive:
//
//	// GetWeather gets the current weather for a city.
//	//
//	//tool:name get_weather
//	//tool:timeout 10s
//	func GetWeather(ctx context.Context, args WeatherArgs) (Weather, error)
//
// Add toolgen to the module as a tool and a go:generate line to the package:
//
//	go get -tool github.com/toolgen-go/toolgen/cmd/toolgen
//
//	//go:generate go tool toolgen
//
// Then go generate ./... writes tools_gen.go next to the handlers. It holds Tools() (and
// <Receiver>Tools(r) for methods), returning runtime.Tool values with the JSON Schema of the
// arguments and of the result, a decoder that validates the arguments while it decodes them
// (every problem reported with its JSON Pointer path), and guards that stop the package from
// building when the file is stale: when a handler's signature or an argument or result type
// changed (a field added, removed, moved, retyped or retagged), the first build error starts
// "in call to runGoGenerate_toolgen" and names what changed. Register them with
// the runtime:
//
//	reg := runtime.NewRegistry()
//	if err := reg.Add(weather.Tools()...); err != nil { ... }
//	res := reg.Invoke(ctx, runtime.Call{ID: "call_1", Name: "get_weather", Args: args})
//
// # Usage
//
//	toolgen [flags] [packages]
//
// With no packages, toolgen processes the package in the current directory, which is where
// go generate runs it. Patterns such as ./... are accepted.
//
// Flags:
//
//	-output NAME        name of the generated file in each package (default tools_gen.go)
//	-schemas DIR        also write <tool>.schema.json (and <tool>.output.schema.json) files
//	-tags LIST          extra build tags for loading, comma-separated
//	-tests              also write tools_gen_test.go (NAME_test.go for -output NAME) in each
//	                    package: the tools' examples run and compared with their expected
//	                    results, and a fuzz target per tool; //tool:tests in a package doc
//	                    comment does the same for that package, and is what -check ./... sees
//	-check              write nothing; print a unified diff and exit 1 when a file is stale
//	-strict             treat warnings as errors
//	-providers LIST     providers whose schema variants are checked and derived, comma-separated:
//	                    openai, anthropic, gemini, mcp (default all)
//	-explain TOOL       write nothing; print what TOOL is sent to each provider: every schema
//	                    variant, what the runtime undoes, and each keyword moved or dropped,
//	                    with positions
//	-provider P         with -explain: only provider P
//	-report             write nothing; print what each tool's definition costs per provider:
//	                    bytes as the adapters send it and estimated tokens (bytes/4), the
//	                    catalog's total, and the total of the tools not deferred
//	-help-directives    print the reference of every directive and tag key
//	-debug-model        print the parsed model (for bug reports)
//	-v                  list the files written or removed, and say when no package holds a tool
//
// toolgen loads packages with -tags=toolgen and starts every generated file with
// //go:build !toolgen, so a stale generated file never breaks the next run.
//
// # Typed clients for MCP servers
//
//	toolgen -client DIR [-package NAME] [-output FILE] (-from FILE | -stdio COMMAND | -url URL) [flags]
//
// -client goes the other way: it reads the tools of an MCP server, of any implementation, and
// writes DIR/client_gen.go, a package with a typed argument struct and result type per tool
// (from its inputSchema and outputSchema, doc comments from the descriptions, constants for
// string enums) and a method of Client per tool that calls it over a go-sdk
// *mcp.ClientSession and decodes its structured result; a tool's error result is a
// *ToolError. The tools come from:
//
//	-from FILE          a saved tools/list result ({"tools":[…]}) or JSON-RPC response
//	-stdio COMMAND      a server this command starts (split at spaces, run without a shell)
//	-url URL            a streamable HTTP server; -header "NAME: VALUE" (repeatable) is sent
//	                    with every request, and never printed
//	-save FILE          with -stdio or -url: also write the listing read, for -from
//	-timeout D          with -stdio or -url: how long connecting and listing may take (1m)
//	-package NAME       the package name (default: DIR's base name)
//
// -output, -check (write nothing; diff and exit 1 when DIR's file or the -save file is stale),
// -strict (warnings fail) and -v apply as they do to tools. A schema toolgen cannot read is an
// error at its JSON Pointer into the listing (tools.json#/tools/2/inputSchema/properties/a/type:
// …), all of them reported; a construct Go cannot type precisely (oneOf, tuples, …) is a
// warning and a documented fallback (json.RawMessage, a map). docs/clients.md has the type
// mapping and the naming rules; docs/limits.md the bounds on what a listing can make it do.
//
// # Errors
//
// Mistakes in directives, tags, types or signatures are reported like compiler errors, as
// file:line:col: message (paths relative to the current directory; run by go generate, which
// starts toolgen in each package's directory, relative to the module root, so that the lines
// of go generate ./... say which package they are about), with the correction in
// the message line ("unknown directive //tool:timout; did you mean //tool:timeout?") and an
// indented hint where more help helps; every error is reported, not only the first, and
// nothing is written while there is one. Warnings (a parameter without a description, a
// provider that cannot express a field) print without failing unless -strict is given; each
// says how to answer it (tool:"accept=PROVIDER", //tool:lint -RULE). Notes never fail a run.
//
// Tool names are unique within a package (the catalog its Tools() returns), so go generate,
// which runs toolgen on one package at a time, and toolgen -check ./... agree.
//
// -check prints the diff with the JSON in generated raw strings (schemas) indented, so that a
// one-keyword change is a one-line change.
//
// Exit status: 0 on success, 1 when the code has errors or (with -check) a file is stale, 2
// for bad flags or a failure that is not the code's fault.
//
// # Directives
//
// The annotation reference (every //tool: directive and every tool:"..." tag key) is printed
// by toolgen -help-directives and reproduced in docs/authoring.md; both come from the registry in
// package github.com/toolgen-go/toolgen/annotations.
package main
