// Package schematool makes tools that exist only at run time: a name, a description, a JSON
// Schema and a handler, or a spec loaded from JSON or YAML, the way the seed systems declare
// their tools as data. Such a tool is a runtime.Tool like a generated one, and validates its
// arguments with the same decoder tables generated code declares, so a model gets the same
// problems, JSON Pointer paths and words from it, and every registry policy (timeouts,
// retries, approval with the canonical arguments, guards, repair, disclosure, tool search,
// the provider adapters and MCP) applies unchanged.
//
//	tool, err := schematool.New("search_docs", "Searches the documentation.", schema,
//		func(ctx context.Context, args json.RawMessage) (runtime.Result, error) { … })
//	tool.Timeout = 10 * time.Second // any policy, as on a generated tool
//	err = reg.Add(tool)
//
// The handler receives the canonical arguments, the form approvals are bound to: the
// document the schema accepted, keys sorted, the schema's defaults added for absent
// properties. It is what an approver saw, so what was approved is exactly what runs.
//
// It is a package of its own, not part of package runtime, because it reads YAML and compiles
// schemas, which programs of generated tools never need, and because its manual (the subset
// below) would crowd runtime's.
//
// # The subset
//
// Compile accepts what toolgen's own schemas hold (gen/schema), and refuses anything else
// with the schema's JSON Pointer and what to change, never ignoring a keyword:
//
//	root            {"type":"object","properties":…}; "$schema"
//	                only 2020-12; "$defs" only here
//	string          enum, format (the formats runtime/decode checks), pattern (RE2, as
//	                generated code holds patterns to package regexp), minLength, maxLength,
//	                contentEncoding "base64"
//	integer         enum, minimum, exclusiveMinimum, maximum, exclusiveMaximum, multipleOf:
//	                whole numbers within 64 bits; the value is read as an int64
//	number          the same keywords, any number; read as a float64
//	boolean         no keywords
//	array           items (required), minItems, maxItems, uniqueItems (items of a scalar
//	                type only)
//	object          properties and required, closed by "additionalProperties": false or
//	                open without it (or with true): an open object accepts the members it
//	                does not define and hands them to the handler unchanged; or
//	                additionalProperties a schema (a map), with minProperties, maxProperties;
//	                {"type":"object"} alone is an open object of no properties
//	{}              any JSON value
//	null            "type": [T, "null"] (an enum then lists null too), and the one anyOf
//	                toolgen writes: [{"$ref": …}, {"type": "null"}]
//	$ref            "#" or "#/$defs/NAME", with annotations beside it
//	annotations     title, description, default, examples, deprecated, $comment; defaults and
//	                examples must pass the schema, as toolgen checks them
//
// Outside: properties beside an additionalProperties schema, boolean subschemas, oneOf, allOf, not, if/then/else, const,
// patternProperties, propertyNames, prefixItems, contains, dependent keywords, "type" lists of
// two non-null types, remote or JSON-Pointer $refs beyond $defs, and other drafts' $schema.
// Two shapes toolgen writes are refused too: allOf (a pattern tag on a duration field) and
// fractional bounds on an integer (generated code checks those inline, not with a table).
//
// # How a schema becomes tables
//
// An object of properties becomes a Go struct made with reflect.StructOf and a decode.Struct
// over its fields' offsets, proved by decode.Check before the first call as a generated table
// is; strings, integers, numbers and booleans are read into string, int64, float64 and bool
// with the rules of their keywords. Arrays and maps of those are the containers generated code
// names (decode.SliceOf[string], decode.MapOf[string, float64], …); items and values of other
// shapes, and every $ref (which may recurse), are boxed: a cell of their type allocated per
// value and read by its own table. So one pass reads and validates a document, as a generated
// decoder does, with one allocation more per boxed value. Each distinct list of property names
// is registered with the decoder once per process (problem paths name properties by it), so
// lists are shared and their number bounded (MaxPropertyLists).
//
// Every cost of compiling is bounded (MaxSchemaBytes, MaxSchemaDepth, MaxSchemaNodes,
// MaxProperties, MaxEnumValues, MaxPatternLength; docs/limits.md), because runtime/mcp/mount
// compiles the schemas of other MCP servers' tools here.
//
// # Specs
//
// LoadSpec reads a tool from JSON or YAML (keys: name, description, parameters, or
// input_schema or inputSchema, timeout, retry {max, delay, backoff, max_delay}, tags,
// permission auto or confirm), keeping the order of YAML mappings, so properties keep theirs;
// unknown keys and YAML aliases are errors. Spec.Tool makes the tool.
package schematool
