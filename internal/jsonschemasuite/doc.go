// Package jsonschemasuite runs the official JSON Schema Test Suite (draft 2020-12, vendored
// under testdata/jsonschema-test-suite) through code toolgen generated, to hold the decoder
// to the standard the emitted schemas claim.
//
// The suite tests JSON Schema with schemas of any shape; toolgen's schemas come from Go
// types. convert_test.go turns each suite schema a typed Go field can express into an
// argument struct with tool tags and a tool (suite_args.go), go generate writes the tools'
// decoders (tools_gen.go), and suite_test.go runs every expressible test of the suite through
// Tool.BindArgs: the decoder must accept exactly the data the suite calls valid. The tests
// no typed field can express are listed, with the reason, in not-expressible.md.
//
// After changing the vendored suite or the converter:
//
//	go test ./internal/jsonschemasuite -update
//	go generate ./internal/jsonschemasuite
//
//tool:lint -description-length,-optional-default
package jsonschemasuite

//go:generate go tool toolgen
