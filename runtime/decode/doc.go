// Package decode reads and validates the arguments of toolgen's tools: a JSON reader
// (github.com/go-faster/jx, aliased so generated code imports only this package), JSON Pointer
// paths, the problem list, and an interpreter of decoding tables.
//
// # Tables
//
// A generated decoder is data, not code. For each named struct type of a tool's arguments,
// toolgen declares a Struct: the property names (a Fields, shared by every type with the same
// list) and, per property, a Member holding the field's offset (unsafe.Offsetof) and a Value
// saying how to read it. A Value has a Kind (KindString, KindInt of Size bytes, KindStruct, …)
// and a rule holding the field's keywords (StringRule, IntRule, FloatRule); rules and values
// are declared once per distinct set of keywords and shared by every field that has them.
// Slices, arrays, maps, pointers and text types are named by a pointer to a zero-size generic
// (&SliceOf[E]{}, UniqueSliceOf[E], ArrayOf[E], MapOf[K, V], IntMapOf, UintMapOf, TextMapOf,
// PointerOf[T], TextOf[T, *T]) whose methods are compiled once per shape of their type parameters. Defaults
// are small generated functions, one per distinct default, so a slice or map default is fresh
// for every call; a default that is its type's zero value has none, as Into decodes into a
// zero struct. An unnamed struct type has a table like a named one, through an alias
// generated code declares for it; a field promoted through embedded pointers is a
// KindEmbedded value per pointer, which allocates it on first use; integer keywords are held
// as the whole numbers that decide the same values. A recursive type's table refers to
// itself, so generated code fills it in an init function. KindFunc, a value calling a
// function, is only for tables built at run time (runtime/schematool), never generated.
//
// Into reads a document against a table in one pass. The object loop guesses that the next
// property is the schema's next one (models mostly send them in order) and otherwise finds it
// with a perfect hash of the names built when the Fields is made (a map when no hash separates
// them).
//
// Why tables: a catalog of hundreds of tools used to compile a decoder function per type,
// and the compiler's time and the binary's size grew with every field. A table is a composite
// literal the linker lays out statically: it costs little compile time and no function tables
// or debug information, so a tool adds data to a binary rather than machine code. At start-up
// only each distinct list of names (NewFields, its lookup) and enum (NewEnum) is built, and
// each table's pointer to its Fields is stored. The interpreter keeps its state in locals and
// reads the usual kinds without a call to value (strings, integers, floats and lists of
// strings in the object loop, structs and strings in the item loop); a rule's usual case is
// settled inline and its problems worded out of line. Bind takes 0.94-1.05 the time of the
// inline decoders toolgen generated first on the benchmark documents, and up to 1.12 on the
// invalid variants of the 34-byte one (six runs of TestBaselineReport in internal/benchmarks;
// BenchmarkBindVsBaseline for benchstat).
//
// # Check
//
// The interpreter writes through unsafe pointers, so a table must agree with its Go type.
// Check proves that with reflect: every member sits at the offset of a field whose type its
// Value reads (a promoted field of a struct embedded by value included), every container's
// GoType names exactly the field's type and its items' Value agrees with the item type, every
// struct table agrees with its struct, recursively (recursive types terminate). DecodeArgs,
// which a toolimpl.Binding calls as its Table, runs Check once, before the first decode, and
// refuses to decode with a table that fails it, naming the field; a stale generated file is
// then an error that says "run go generate", never memory written at the wrong place.
//
// # Problems
//
// Decoding never stops at the first problem: a value of the wrong type is recorded and skipped,
// a constraint that fails is recorded, and decoding goes on, so the model is told everything
// that is wrong with its call at once. Only malformed JSON stops the pass, because nothing
// after a syntax error can be trusted; its one problem says what was unexpected, where (byte
// offset, line and column, up to 24 bytes of the text before it) and what was expected there
// (InvalidJSON, which reads the text once more to find the place: linear in its size, which
// the registry's MaxArgs bounds, and a byte of memory per open bracket). Every message is written for a model that must correct
// its call: it names the JSON path, says what was expected and what was received, and (for
// unknown properties) which name was probably meant. The cost is bounded whatever the model
// sends: items, properties and strings past maxItems, maxProperties and maxLength are counted
// and skipped, never built, and the problems kept and their text are capped (MaxProblems,
// MaxProblemsText).
//
// The functions here are an implementation detail of generated code, which reaches them through
// runtime/toolimpl's aliases (generated files import runtime and toolimpl only). Their behaviour is covered by toolgen's compatibility promise only
// through the generated code that uses them; toolimpl.SupportsGeneratedV7 is renamed when older
// generated code can no longer follow.
package decode
