package disclosure

import (
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
)

// Catalog renders level 1: one line per tool, "- name: description", in the order given
// (Registry.Tools sorts by name). The description is folded onto one line; a tool without one
// shows its title, or its name alone. The tool's Warnings (//tool:warning) follow it on its
// line, after "Warning:".
//
// When any tool has a Category, tools are grouped under "category:" headings, categories
// sorted, and tools without a category come last under "other:".
//
// When any tool has a PackageDescription (its package's //tool:description), the tools of
// each package description come together under it as a heading, in the order the first of
// each comes, each group as above; tools without one come last under "Other tools:".
func Catalog(tools []runtime.Tool) string {
	if !slices.ContainsFunc(tools, func(t runtime.Tool) bool { return t.PackageDescription != "" }) {
		return categories(tools)
	}
	var packages []string
	for _, t := range tools {
		if !slices.Contains(packages, t.PackageDescription) {
			packages = append(packages, t.PackageDescription)
		}
	}
	if i := slices.Index(packages, ""); i >= 0 {
		packages = append(slices.Delete(packages, i, i+1), "") // tools of no package's last
	}
	var b strings.Builder
	for _, p := range packages {
		var in []runtime.Tool
		for _, t := range tools {
			if t.PackageDescription == p {
				in = append(in, t)
			}
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		heading := oneLine(p)
		if p == "" {
			heading = "Other tools:"
		}
		b.WriteString(heading)
		b.WriteByte('\n')
		b.WriteString(categories(in))
	}
	return b.String()
}

// categories renders tools as Catalog does when they have no package description.
func categories(tools []runtime.Tool) string {
	var b strings.Builder
	grouped := slices.ContainsFunc(tools, func(t runtime.Tool) bool { return t.Category != "" })
	if !grouped {
		for _, t := range tools {
			catalogLine(&b, t)
		}
		return strings.TrimRight(b.String(), "\n")
	}
	var categories []string
	for _, t := range tools {
		if t.Category != "" && !slices.Contains(categories, t.Category) {
			categories = append(categories, t.Category)
		}
	}
	slices.Sort(categories)
	categories = append(categories, "") // uncategorised tools last
	for i, c := range categories {
		var in []runtime.Tool
		for _, t := range tools {
			if t.Category == c {
				in = append(in, t)
			}
		}
		if len(in) == 0 {
			continue
		}
		if i > 0 && b.Len() > 0 {
			b.WriteByte('\n')
		}
		if c == "" {
			c = "other"
		}
		b.WriteString(oneLine(c))
		b.WriteString(":\n")
		for _, t := range in {
			catalogLine(&b, t)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

func catalogLine(b *strings.Builder, t runtime.Tool) {
	b.WriteString("- ")
	b.WriteString(t.Name)
	summary := t.Description
	if summary == "" {
		summary = t.Title
	}
	if summary = oneLine(summary); summary != "" {
		b.WriteString(": ")
		b.WriteString(summary)
	}
	// A warning is what the model must know before it chooses the tool, not after.
	prev := ""
	for i, w := range t.Warnings {
		switch {
		case i == 0:
			b.WriteString(" Warning: ")
		case strings.HasSuffix(prev, ".") || strings.HasSuffix(prev, "!"):
			b.WriteString(" ")
		default:
			b.WriteString("; ")
		}
		prev = oneLine(w)
		b.WriteString(prev)
	}
	b.WriteByte('\n')
}
