// Package decode is what toolgen's generated decoders call: a JSON reader (github.com/go-faster/jx,
// aliased so generated code imports only this package), JSON Pointer paths, the problem list,
// and typed readers that turn a wrong JSON type into a problem instead of an error.
//
// Generated code is short because the work is here: a decoder is a State (the reader, the
// problems and the path, pooled), an ObjectReader per struct (unknown, repeated and missing
// properties), and one helper call per field (Str, Int, Uint, Float, Boolean, Time, Slice, Map,
// Pointer, …) with a rule value holding the field's keywords (StringRule, IntRule, FloatRule),
// declared once per distinct set of keywords in the generated file. The helpers are generic
// over the field's Go type, and their containers work on []E and map[K]V inside, so one
// compiled instance serves every type of one shape. The hot helpers are one-line wrappers
// (Str, Int) or have an inlined fast path (ObjectReader.Fresh before Take), so reading a field
// costs about the calls the former inline code made.
//
// A generated decoder reads the arguments of a tool in one pass. It never stops at the first
// problem: a value of the wrong type is recorded and skipped, a constraint that fails is recorded,
// and decoding goes on, so the model is told everything that is wrong with its call at once. Only
// malformed JSON stops the pass, because nothing after a syntax error can be trusted.
//
// The functions here are an implementation detail of generated code, exported because generated
// code lives in user packages. Their behaviour is covered by toolgen's compatibility promise only
// through the generated code that calls them.
//
// Every message is written for a model that must correct its call: it says what was expected,
// what was received, and (for unknown properties) which name was probably meant.
package decode
