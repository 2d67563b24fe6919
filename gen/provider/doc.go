// Package provider converts a tool's canonical input schema (gen/schema) into the dialect
// each LLM provider accepts, at generation time, and reports what a provider cannot take at
// the source position of the field concerned. The conversions themselves live in
// internal/dialect, which the runtime shares: the generated code names the enabled variant
// keys in runtime.Tool.Dialects, and runtime.Tool.Variant derives each variant from the
// canonical schema on first use, exactly as Convert does here; variant.Variant.Restore undoes
// the conversion on the arguments a provider sends back.
//
// # Providers and variants
//
// -providers names openai, anthropic, gemini and mcp (Parse); each owns these Variants keys:
//
//	openai     "openai"             strict mode when possible, else the canonical schema with
//	                                strict:false (Strict is always set, for Responses)
//	anthropic  "anthropic"          the canonical schema, as is
//	           "anthropic_strict"   strict tool use, only when it can take the schema
//	gemini     "gemini"             `parameters`, the OpenAPI 3.0 subset of Gemini's Schema
//	           "gemini_jsonschema"  `parametersJsonSchema`, the documented JSON Schema subset
//	mcp        (none)               MCP sends the canonical schemas; only checks run
//
// # Conversions
//
// OpenAI strict: every optional property is added to "required" and made nullable ("type"
// gets "null", an enum gets null, a $ref or anyOf goes into anyOf with {"type":"null"});
// NullMeansAbsent lists every optional property, so that a null the model sends there means
// "left out", as strict mode gives no other way to say it. Every object gets
// additionalProperties:false; a $ref with keywords beside it is inlined (or, when recursive,
// put in a one-branch anyOf); allOf is merged; keywords outside the strict subset (minLength,
// maxLength, uniqueItems, default, formats outside the list, …) are restated. A map, an any
// value, or a schema over the limits (5000 properties, 10 levels, 1000 enum values, 120,000
// characters) makes strict mode impossible: a warning at the field, and strict:false.
//
// Anthropic strict: additionalProperties:false everywhere, optional properties kept optional
// (24 optional and 16 union-typed parameters per request would not survive the OpenAI
// rewrite), numeric and length bounds, maxItems, minItems above 1, unknown formats and
// complex patterns restated. Recursion, maps, any values or a tool over the per-request
// limits leave the variant out (a note: the non-strict variant always works).
//
// Gemini parameters: $refs inlined, recursion cut after three levels (a warning), null as
// "nullable", enums as strings with format "enum", const as a one-value enum, maps reduced
// to objects (a warning), propertyOrdering in field order. Gemini parametersJsonSchema: the
// documented keywords only, $refs kept but alone (siblings move to a one-branch anyOf), a
// nullable enum split into anyOf of the enum and null; recursion through required
// properties is a warning. Both rename the property names Gemini rejects
// (^[a-zA-Z_][a-zA-Z0-9_]{0,63}$), recorded in Renames.
//
// Every keyword a variant cannot express is restated compactly at the end of that node's
// description, "(1–64 chars; format: uuid)", and listed in Variant.Moved as the JSON Pointer
// of the keyword in the canonical schema. The generated decoder still enforces it.
//
// # Paths
//
// NullMeansAbsent, Renames and Loops use instance paths: JSON Pointers into the arguments in
// canonical names, "*" for every item of an array or value of a map. A recursive type would
// need infinitely many paths, so its recursion is a Loop: the value at Loop.Path has the
// shape of the value at Loop.Target, an ancestor.
//
// # Diagnostics
//
// Run (after gen/check) records, per tool: an error when no enabled provider can take the
// tool (a root that is not a plain object); a warning where a provider loses something the
// user relies on (OpenAI strict impossible, a Gemini recursion cut or map, recursion through
// required properties for Gemini, an MCP result that is not an object); across the run, a
// warning above 128 tools (OpenAI, Gemini) or 20 Anthropic strict tools per request. Notes
// (moved keywords, renames, no Anthropic strict variant) are for Explain only. Positions come
// from Locate, which follows a schema pointer through the model to the field. The tool-name
// rules and the 1024-character description limit are gen/check's: its portable name rule
// satisfies every provider.
package provider
