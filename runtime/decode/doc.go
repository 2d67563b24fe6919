// Package decode is what toolgen's generated decoders call: a JSON reader (github.com/go-faster/jx,
// aliased so generated code imports only this package), JSON Pointer paths built on the stack,
// the problem list, and typed readers that turn a wrong JSON type into a problem instead of an
// error.
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
