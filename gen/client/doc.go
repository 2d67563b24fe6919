// Package client is toolgen -client: it turns an MCP server's tool listing into a Go package
// that calls those tools with compile-time types. docs/clients.md is the user's guide (type
// mapping, fallbacks, names); this comment is how it is built.
//
// The phases, each its own file, with the IR (ir.go) as the only thing passed between the
// last two:
//
//	fetch    (fetch.go)     a live server's listing through the go-sdk client; the bytes of
//	                        the tools/list results are tapped as they arrive (connection
//	                        wrapper; for HTTP, the response bodies), because the SDK decodes
//	                        schemas into maps, which lose the order of properties
//	parse    (listing.go,   the document into an ordered JSON tree, bounded (limits below)
//	          jsontree.go)
//	build    (build*.go)    schemas → IR: every Go name decided (names.go), every fallback
//	                        chosen, every problem recorded at its JSON Pointer
//	emit     (emit.go)      IR → Go source, with jennifer; it decides nothing
//
// Everything in a listing is untrusted: its size, depth and counts are bounded (the Max
// constants, listed in docs/limits.md), its text reaches the generated file only as Go string
// literals (jennifer's Lit), struct tags of names encoding/json accepts, identifiers goName
// built from letters and digits, and line comments with what Go source cannot hold dropped.
package client
