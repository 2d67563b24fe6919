// Package parse is the semantic heart of toolgen: it turns a loaded Go package (see gen/load)
// into the model (gen/model), reporting every mistake as a positioned diagnostic.
//
// # Directives
//
// Every comment of every file is read, and each is given the target of the declaration it
// documents: a func (OnFunc), a method (OnMethod), a type (OnType), the package (OnPackage), or
// nothing. The annotations package parses the //tool: lines and reports unknown, misspelled,
// misplaced and malformed directives; this package turns its byte offsets into file:line:col.
// A func or method is a tool when its doc comment holds a //tool: line; a type is a client tool
// when its doc holds //tool:client. A directive that may appear once and appears twice is an
// error at the second, and the first one counts. //tool:tags in the package doc comment gives
// the default tags of tools without their own.
//
// # Descriptions
//
// The doc comment without directive lines is split into paragraphs. The first is the
// description, with a leading word equal to the Go name dropped ("GetWeather gets …" →
// "Gets …"); //tool:description lines replace it. The others are the detail. Line breaks
// inside a paragraph become spaces, except for list items and indented (code) lines.
//
// # Handlers
//
// The allowed forms are those of DESIGN.md §2; anything else is an error listing them. A
// string result is text, a runtime.Result is used as is, and any other result is structured and
// mapped like an args type. Generic handlers and methods of generic types are errors. The args
// type's Validate(context.Context) error, found in the method set of *T, sets
// Handler.Validate; a Validate with another signature is a warning, since it would not run.
//
// # Types
//
// Types follow the DESIGN.md table through go/types. time.Time, time.Duration and
// json.RawMessage are recognised first; then any type (other than a basic one) implementing
// encoding.TextUnmarshaler is a text type; a type implementing json.Unmarshaler but not
// TextUnmarshaler is an error (a result type: json.Marshaler without TextMarshaler). Named types
// are converted once and shared, registered before their fields so recursion terminates. Named
// string and integer types with typed constants become enums in declaration order; constants
// repeating a value (aliases) are left out, since enum members are unique. For types declared
// in another package of the module the loader provides its syntax for doc comments and
// constant order; standard library syntax is never loaded (its enums, such as time.Month, are
// ordered by export data positions and have no comments).
//
// # Fields
//
// Struct fields follow encoding/json: json tag names, "-" skipped, unexported fields skipped,
// embedded structs promoted breadth first with the shallower field winning, and two fields of
// one name at one depth both dropped (with a warning) unless exactly one is json-tagged. The
// json option ",string" is an error, since the model reads and writes numbers as numbers.
// A field is required unless it is a pointer, omitempty, omitzero, has a default, or is tagged
// optional; `required` forces it.
//
// # Tag keywords
//
// Each keyword of the tool tag lands on the first level of the field's type it fits: the field
// (pointers looked through), then the element of each slice, array or map in turn
// (Constraints.Items). String keywords fit strings and text types but not time.Time or
// time.Duration, whose format is fixed; number keywords fit integers and floats; minItems,
// maxItems and uniqueItems fit slices and arrays (min/maxItems on a fixed array is an error,
// uniqueItems needs scalar items); minProperties and maxProperties fit maps; enum fits the first
// scalar level other than bool; default, example, title, deprecated and the flags belong to the
// field. Values are converted by the target type to canonical JSON: durations to their
// String form ("90s" → "1m30s"), times to RFC 3339, numbers as encoding/json writes them.
// Defaults are supported on scalar fields only; examples on other fields are JSON text.
package parse
