// Package agreement holds toolgen's generated decoders to the schemas toolgen emits beside
// them. DESIGN.md promises that "the generated validator accepts exactly what the emitted
// schema accepts"; this package is the test of that promise.
//
// For every tool it runs a corpus of argument documents through two judges and fails on any
// document they disagree on:
//
//   - the tool's generated decoder (Tool.BindArgs), which accepts a document or refuses it with
//     a *runtime.ArgsError;
//   - an independent JSON Schema 2020-12 validator, github.com/santhosh-tekuri/jsonschema/v6,
//     compiled from Tool.InputSchema with format assertion on, reading each document with
//     jsonschema.UnmarshalJSON so that numbers stay exact.
//
// The decoder is held to the schema exactly: it is called on the raw document, not on what the
// registry makes of empty or null arguments.
//
// # Use
//
// A test of generated code calls [Check] with the tools it built:
//
//	func TestAgreement(t *testing.T) {
//		agreement.Check(t, weather.Tools())
//	}
//
// [Corpus] builds the documents from the schema alone: valid instances (every property, only
// the required ones, defaults, each bound reached exactly, enum members, format and pattern
// samples), then each constraint broken one at a time in an otherwise valid instance, plus
// awkward spellings a model may send (2.0 and 1e2 for integers, -0, ±2^53, escapes and text
// beyond the BMP in strings and property names). [Compare] judges one document against one
// tool; [Exception] names the exception class of a document, if any. The package's own fuzz
// target, FuzzAgreement, feeds mutated documents to the example tools; run it briefly in CI:
//
//	go test -run '^$' -fuzz FuzzAgreement -fuzztime 30s ./gen/agreement
//
// # Exceptions
//
// Some documents are outside the contract, because the schema cannot say what the Go types
// can hold, or because no JSON Schema validator sees what the decoder sees. Corpus never
// generates them, the fuzz target skips them, and Compare checks only that the decoder
// neither panics nor returns anything but nil or an *runtime.ArgsError on them:
//
//   - integers beyond ±2^53, and numbers that overflow the Go field type: a schema cannot
//     state a 64-bit bound exactly, and the decoder refuses values the Go type cannot hold.
//     Exception flags integral numbers beyond ±2^53 and any number beyond the float32 range;
//   - durations that overflow time.Duration: strings in Go duration syntax that
//     time.ParseDuration refuses ("3000000h");
//   - duplicate property names: the decoder refuses them, while the validator, reading the
//     document into a map, sees only the last;
//   - documents that are not JSON at all: not one value, not UTF-8, malformed;
//   - arrays with uniqueItems whose number items differ only beyond float64 precision
//     (5 and 5.0000000000000000001): the decoder compares the float64 values it stores, the
//     validator the decimals. Corpus generates no such pair.
//
// One more class depends on the tool, so Compare recognises it from the decoder's answer
// rather than from the document: a number that meets a float bound as written but not as the
// float the Go field holds (1e-400 for exclusiveMinimum=0 is 0 as a float64,
// 0.99999999999999999999 for exclusiveMaximum=1 is 1). The decoder refuses it, saying it
// rounds, because the handler would otherwise get a value its schema forbids; the validator
// compares decimals and accepts it. Corpus does generate such documents (bounds reached by
// many digits); a refusal whose every problem is of this kind counts as agreement.
//
// Formats are the other class recognised from the tool. The decoder checks each format by its
// RFC, as the official JSON Schema Test Suite reads it (runtime/decode), and the validator's
// own format rules depart from the RFCs: they accept a uri with spaces, quotes, "<>", "{}",
// "|", "\", "^" or non-ASCII, a hostname with a trailing dot or an invalid IDNA label
// ("xn--X"), a duration such as "P1Y2D" or "PT1H2S", an email without a local part, an IPv4
// octet or a time field with a sign ("+1"), and any idn-hostname (they do not know the
// format); and they refuse a few things the RFCs allow (a quoted-pair in an email's local
// part, an IPvFuture or percent-encoded uri host, non-ASCII userinfo in an iri). When the two
// sides disagree on a document, Compare judges it again with the validator checking every
// format with the decoder's checkers; if that verdict is the decoder's, the difference is in
// the format rules alone and counts as agreement. Every other keyword of the document is
// still held to the validator.
//
// Limits on the document as a whole (size, nesting depth) are the registry's, not Bind's, and
// so are outside this test.
//
// Check's verdicts concern the schema only. A tool whose args type has a Validate method may
// rightly refuse documents its schema allows; such tools need documents that Validate accepts.
package agreement
