package toolimpl

import "github.com/toolgen-go/toolgen/runtime/decode"

// SupportsGeneratedV7 is referenced by every generated file: when the runtime changes in a way
// older generated code cannot follow, or generated code needs what an older runtime lacks, the
// constant is renamed, and code generated for another release fails to build at its first
// line with a name that says why, instead of misbehaving. The history:
//
//   - V7: the variant keys a generated file lists and a client tool's Run are toolimpl's
//     (VariantOpenAI, …, ClientCallResult), not runtime's.
//   - V6: generated code imports only runtime and runtime/toolimpl; toolimpl holds the names
//     of runtime/decode and runtime/encode it uses (decode.go).
//   - V5: every decoder is a table (decode.KindEmbedded; decode.WithinStruct is gone).
//   - V4: the bindings are in toolimpl, not runtime.
//   - V3 (decode.SupportsGeneratedV3): schemas in pieces. V2: decoders are tables. V1:
//     generated functions calling helpers that are gone.
const SupportsGeneratedV7 = true

// SupportsGeneratedV6 and SupportsGeneratedV5 were the markers of the two releases before V7,
// whose files name runtime.VariantOpenAI and other names runtime no longer declares. They
// are variables, so that such a file fails to build at its first line with the reason in the
// type's name: "toolimpl.SupportsGeneratedV6 (variable of struct type
// decode.GeneratedCodeIsStaleRunGoGenerate) is not constant".
var SupportsGeneratedV6, SupportsGeneratedV5 decode.GeneratedCodeIsStaleRunGoGenerate
