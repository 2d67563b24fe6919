package schema

// DurationPattern matches exactly the strings time.ParseDuration parses, apart from values
// too large for a time.Duration (about 292 years), which the generated decoder rejects. It is
// valid in both RE2 and ECMA-262, so every JSON Schema validator runs it the same way:
// an optional sign, then "0" alone or one or more decimal numbers (digits before or after a
// point, or both) each with a unit: ns, us, µs (U+00B5), μs (U+03BC), ms, s, m or h.
const DurationPattern = `^[-+]?(?:0|(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:ns|us|µs|μs|ms|s|m|h))+)$`

// Base64Pattern matches standard, padded base64 (encoding/base64.StdEncoding), what
// encoding/json reads into a []byte, so validators enforce what the decoder enforces. Unlike
// StdEncoding it does not skip line breaks: a base64 argument is one line.
const Base64Pattern = `^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$`

// Patterns of map keys of integer kinds: a canonical decimal integer (no plus sign, no
// leading zeros), which the generated decoder requires too.
const (
	intKeyPattern  = `^-?(0|[1-9][0-9]*)$`
	uintKeyPattern = `^(0|[1-9][0-9]*)$`
)

// durationNote is the description a duration carries, so the model writes Go syntax.
const durationNote = `Go duration, e.g. "1h30m".`

// Draft is the dialect every schema declares in "$schema".
const Draft = "https://json-schema.org/draft/2020-12/schema"
