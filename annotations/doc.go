// Package annotations is the grammar of what toolgen reads from Go source: the //tool:
// directives in doc comments and the keys of `tool:"..."` struct tags. It holds one registry
// of each (Directives, TagKeys, Formats); the parsers, the did-you-mean hints, the text of
// toolgen -help-directives (Help) and the reference in docs/authoring.md (Markdown) all come from those
// registries, so a directive or key is added in exactly one place.
//
// The package knows nothing about go/packages, types or positions in files: it takes the text
// of one comment or one tag value and reports problems at byte offsets into that text. The
// caller turns offsets into file:line:col.
//
// # Directives
//
// A directive is a line comment in Go's directive form, with no space after the slashes:
//
//	//tool:timeout 10s
//
// gofmt keeps such lines as they are and go doc hides them. ParseComment takes one comment
// and the kind of declaration whose doc comment holds it (a Target), and returns the
// directive with a typed Value, or problems:
//
//   - an unknown name, with a did-you-mean hint: //tool:nmae suggests //tool:name;
//   - a directive where it may not appear: execution policies such as //tool:timeout belong
//     to handler funcs and methods, descriptive ones may also describe a client tool's type,
//     //tool:tags may also give a package's default tags, and any directive outside a doc
//     comment (target 0) is misplaced rather than silently ignored;
//   - bad arguments, at the offset of the offending argument;
//   - near misses that would otherwise be read as prose: "// tool:name", "//tool:Name",
//     "//tools:name", "//tool: name" and directives inside /* */ comments.
//
// To leave prose alone, a near miss needs "tool" (or, glued to the colon, a near spelling of
// it) before the colon and a directive name after it; with a space after the colon the name
// must match exactly. "// Tool: the hammer is a tool." and "// tools: see below" are prose.
//
// The Value of each directive:
//
//	name                          string matching NamePattern (see IsValidName)
//	title, category, description  string (description is repeatable: the caller joins lines)
//	trigger, prerequisite,        string, repeatable
//	warning
//	tags, filters                 []string, from words separated by commas and/or spaces
//	scopes                        []string: OAuth scope tokens (RFC 6749 §3.3) separated by spaces
//	timeout                       Timeout: a positive Go duration, or none
//	retry                         Retry: max, delay, backoff, maxdelay with defaults filled in
//	confirm                       Confirm: an optional reason
//	risk                          string: low, medium or high
//	hints                         Hints: readonly, idempotent, destructive, openworld
//	example                       Example: ["SCENARIO"] JSON [=> EXPECTED], repeatable
//	related                       Related: NAME [RELATION], repeatable
//	meta                          Meta: key=value, repeatable
//	maxresult                     int64 bytes: 4096, 512B, 4KB (1000), 4KiB (1024), MB, MiB...
//	maxargs                       int64 bytes, as maxresult
//	maxcalls, modelretries        int >= 1
//	sequential, client            true: they take no arguments
//
// ParseComment checks one line. Duplicates of a non-repeatable directive, contradictions
// between directives (readonly with destructive) and references to other tools are for the
// caller, which sees the whole doc comment and catalog; Directive.Repeatable says which
// directives may repeat.
//
// # Struct tags
//
// ParseTag splits the value of a tool:"..." tag into items, comma-separated `key` or
// `key=value`, with JSON Schema keyword names verbatim and case-sensitive:
//
//	tool:"minLength=1,maxLength=32,pattern='^[a-z, ]+$'"
//
// A value may be single-quoted to hold commas or surrounding spaces, two quotes standing for
// one inside. Each TagKey says what its value is (ValueKind) and which JSON types it
// constrains (Applies); the caller decides, from the field's type, whether a key constrains
// the field or its elements and converts literal values (default=, example=, enum=).
package annotations
