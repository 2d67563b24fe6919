// Package schema renders the model of a tool (gen/model) into JSON Schema 2020-12: the input
// schema of its arguments and the output schema of a structured result. The emitter embeds
// the bytes in generated code, `toolgen -schemas DIR` writes them indented, and gen/check
// validates //tool:example calls against them.
//
// # Output form
//
// Schemas are compact JSON and deterministic: the same model always gives the same bytes.
// Every object is written by a small ordered writer, never through a map, with its keys in
// this order (absent keywords are skipped):
//
//	$schema $ref title description type enum format contentEncoding pattern
//	minimum exclusiveMinimum maximum exclusiveMaximum multipleOf minLength maxLength
//	minItems maxItems uniqueItems minProperties maxProperties propertyNames
//	properties required additionalProperties items anyOf allOf default examples
//	deprecated $defs
//
// Properties and required are in field order, enum values in declaration (or tag) order,
// $defs sorted by name. Numbers from tags are written as the user wrote them (10 stays 10),
// and tag literals (enum, default, example) verbatim, compacted. Strings are escaped as JSON
// requires, but <, > and & are kept as they are for the model to read.
//
// # Types
//
//	string, bool            {"type":"string"}, {"type":"boolean"}
//	int8 … int32, uint8 … uint32
//	                        {"type":"integer"} with the kind's minimum and maximum
//	int, int64              {"type":"integer"}: 64-bit bounds are not exact in a float64, so
//	                        they are left to the decoder
//	uint, uint64            {"type":"integer","minimum":0}
//	float32, float64        {"type":"number"}
//	enum types              "enum" of the constants in declaration order; the constants'
//	                        comments are added to the description as
//	                        `Values: "celsius" (degrees Celsius), "kelvin".`
//	                        (no sentence when no constant has a comment)
//	[]T, [N]T               {"type":"array","items":T}; [N]T adds minItems = maxItems = N
//	[]byte                  base64 string: contentEncoding plus Base64Pattern
//	map[K]V                 {"type":"object","additionalProperties":V}; integer keys get
//	                        "propertyNames" with a decimal-integer pattern
//	struct                  {"type":"object","properties":…,"required":…,
//	                        "additionalProperties":false}
//	time.Time               {"type":"string","format":"date-time"}
//	time.Duration           {"type":"string","pattern":DurationPattern} described as
//	                        `Go duration, e.g. "1h30m".`
//	json.RawMessage, any    {} (any JSON value)
//	TextUnmarshaler         {"type":"string"}
//
// # Null
//
// A value that may be null gets "null" added to its single "type" (and to its "enum"); a $ref
// is wrapped instead, {"anyOf":[{"$ref":…},{"type":"null"}]}, and the empty schema already
// accepts null. In input schemas a pointer, or a field tagged nullable, may be null. In output
// schemas the rule follows the generated encoder, which writes nil pointers, slices, maps,
// []byte and json.RawMessage as null: those accept null unless the field has omitempty or
// omitzero (then a nil value is left out instead). A *R or nil-able result root accepts null.
//
// # Required
//
// Input: Field.Required, as the parser decided from the tags. Output: a property is required
// when the encoder always writes it, that is without omitempty or omitzero.
//
// # Descriptions and constraints
//
// A field's description, else the doc of its named struct or enum type, becomes
// "description", followed by the notes the type adds (the enum sentence, the duration hint).
// The root has no description of its own: the tool's description covers it.
// Every keyword of the field's model.Constraints goes on the field's node, and Items on its
// element (array items or map values), one level down per container. Where the type already
// has the keyword the tighter bound wins (minimum, maximum, minItems, maxItems); a tag pattern
// on a type with its own pattern goes into allOf so both hold; a tag enum on an enum type keeps
// only the tag's values that are constants; a nullable node keeps null in its enum.
//
// # $defs
//
// Per document, a named struct used more than once in the tree or declared with //tool:defs,
// or any named type that contains itself, is rendered once under "$defs" and referred to with
// "$ref":"#/$defs/<Name>"; everything else is inlined. The root is never a $defs entry: a type
// that recurses back to the root refers to the whole document, "$ref":"#". A field's
// description and constraints on a $ref go beside it ({"$ref":…,"description":…}), which
// 2020-12 allows. The $defs entry's description is the type's doc comment.
//
// Def names are the Go type name; an instantiated generic type appends its type arguments'
// names (Page[Item] → PageItem, Page[[]Item] → PageSliceItem). When two different types would
// get the same name, all of them are qualified with their package name, joined by a dot
// (weather.Unit and units.Unit); if that still collides, with the whole import path, slashes
// turned into dots (example.com.a.units.Unit). A dot needs no escaping in a JSON Pointer or a
// URI fragment; any other character a fragment cannot hold is percent-encoded in the $ref.
package schema
