package annotations

import (
	"fmt"
	"strings"
)

// Help is the plain-text reference printed by toolgen -help-directives: every directive with
// its syntax, where it may appear and whether it repeats, every struct tag key, and the
// formats. It is generated from Directives, TagKeys and Formats.
func Help() string {
	var b strings.Builder
	b.WriteString("Directives: //tool:NAME ARGS lines in a doc comment, no space after //.\n")
	b.WriteString("A func or method whose doc comment holds one is a tool.\n\n")
	for _, d := range Directives {
		b.WriteString(d.Usage() + "\n")
		where := "    on: " + d.Targets.String()
		if d.Repeatable {
			where += "; repeatable"
		}
		b.WriteString(where + "\n")
		wrap(&b, d.Help, "    ", 96)
		b.WriteString("\n")
	}
	b.WriteString("Struct tag keys: tool:\"KEY,KEY=VALUE,...\" on fields of the arguments type.\n")
	b.WriteString("Quote a value with '...' to hold commas; write '' for a quote inside it.\n\n")
	for _, k := range TagKeys {
		fmt.Fprintf(&b, "%-24s on %s\n", k.Usage(), k.Applies)
		wrap(&b, k.Help, "    ", 96)
	}
	b.WriteString("\nFormats (format=): " + strings.Join(Formats, ", ") + "\n")
	b.WriteString("\nLint rules (//tool:lint -RULE turns one off); warnings, errors under -strict:\n")
	for _, r := range LintRules {
		fmt.Fprintf(&b, "%-24s %s\n", r.Name, r.Help)
	}
	return b.String()
}

// wrap writes text as lines of at most width bytes (longer words stand alone), each starting
// with indent.
func wrap(b *strings.Builder, text, indent string, width int) {
	line := indent
	for _, w := range strings.Fields(text) {
		if line != indent && len(line)+1+len(w) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if line != indent {
			line += " "
		}
		line += w
	}
	b.WriteString(line + "\n")
}

// Markdown is the same reference as Markdown tables, for the annotation reference section of
// docs/authoring.md (kept in sync by this package's tests).
func Markdown() string {
	var b strings.Builder
	b.WriteString("### Directives\n\n")
	b.WriteString("`//tool:` lines in the doc comment of a handler (no space after `//`). " +
		"*on* says which doc comments may hold the directive; repeatable ones may appear " +
		"on several lines.\n\n")
	b.WriteString("| directive | on | repeatable | meaning |\n|---|---|---|---|\n")
	for _, d := range Directives {
		repeatable := ""
		if d.Repeatable {
			repeatable = "yes"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", code(d.Usage()), d.Targets, repeatable, cell(d.Help))
	}
	b.WriteString("\n### Struct tag keys\n\n")
	b.WriteString("Comma-separated in a `tool:\"...\"` tag; a value may be single-quoted to " +
		"hold commas (`pattern='^[a-z]{1,3}$'`), with `''` for a quote inside it. On a slice, " +
		"array or map field, keys that do not apply to the container apply to its elements.\n\n")
	b.WriteString("| key | applies to | meaning |\n|---|---|---|\n")
	for _, k := range TagKeys {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", code(k.Usage()), k.Applies, cell(k.Help))
	}
	b.WriteString("\nFormats for `format=`: ")
	for i, f := range Formats {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(code(f))
	}
	b.WriteString(".\n")
	b.WriteString("\n### Lint rules\n\nAuthoring rules (those of the OpenAkita tool specification). Each finding is a warning, an " +
		"error under `-strict`; `//tool:lint -RULE` on a tool, or in the package doc comment, turns a rule off.\n\n")
	b.WriteString("| rule | checks |\n|---|---|\n")
	for _, r := range LintRules {
		fmt.Fprintf(&b, "| %s | %s |\n", code(r.Name), cell(r.Help))
	}
	return b.String()
}

// code formats s as a Markdown code span inside a table cell, where | must be escaped.
func code(s string) string { return "`" + strings.ReplaceAll(s, "|", `\|`) + "`" }

// cell makes prose safe in a table cell: words holding Markdown syntax (regular expressions,
// snake_case names, =>) become code spans, leaving surrounding parentheses and punctuation out.
func cell(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		core := strings.TrimLeft(w, "(")
		lead := w[:len(w)-len(core)]
		trimmed := strings.TrimRight(core, ".,;:)")
		trail := core[len(trimmed):]
		if strings.ContainsAny(trimmed, "[]*_^$<>|\\`") {
			words[i] = lead + code(trimmed) + trail
		}
	}
	return strings.Join(words, " ")
}
