package parse

import (
	"go/ast"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/gen/model"
)

// SnakeCase is the default tool name of a Go name: GetWeather → get_weather, HTTPServer →
// http_server, ListUserIDs → list_user_ids, Get2FACode → get_2fa_code.
//
// Words start at an upper-case letter after a lower-case one, at the last upper-case letter of
// a run followed by lower case (HTTP|Server), and at a digit after a lower-case letter
// (Get|2FA). A run of capitals followed by a single "s" keeps it as a plural (IDs, URLs).
// Digits stay with the capitals that follow them (2FA) and with the letter run they end (V2).
// Underscores in the Go name separate words too.
func SnakeCase(goName string) string {
	rs := []rune(goName)
	var b strings.Builder
	sep := func() {
		if s := b.String(); s != "" && !strings.HasSuffix(s, "_") {
			b.WriteByte('_')
		}
	}
	for i, r := range rs {
		if r == '_' {
			sep()
			continue
		}
		if i > 0 && wordStart(rs, i) {
			sep()
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return strings.TrimSuffix(b.String(), "_")
}

// wordStart reports whether rs[i] starts a word; see SnakeCase.
func wordStart(rs []rune, i int) bool {
	prev, cur := rs[i-1], rs[i]
	nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
	switch {
	case unicode.IsUpper(cur) && unicode.IsLower(prev):
		return true
	case unicode.IsDigit(cur):
		return unicode.IsLower(prev)
	case unicode.IsUpper(cur) && unicode.IsDigit(prev):
		return nextLower
	case unicode.IsUpper(cur) && unicode.IsUpper(prev):
		if !nextLower {
			return false
		}
		// "IDs": the s ends the word as a plural rather than starting "Ds".
		plural := rs[i+1] == 's' && (i+2 == len(rs) || !unicode.IsLower(rs[i+2]))
		return !plural
	}
	return false
}

// describe splits a doc comment into the tool's description and detail. The first paragraph
// is the description, with a leading Go name dropped ("GetWeather gets …" → "Gets …"), unless
// //tool:description lines replace it; the remaining paragraphs are the detail.
func describe(doc *ast.CommentGroup, goName string, descLines []string) (description, detail string) {
	var paras []string
	if doc != nil {
		paras = paragraphs(doc.Text())
	}
	if len(paras) > 0 {
		description = dropName(paras[0], goName)
		detail = strings.Join(paras[1:], "\n\n")
	}
	if len(descLines) > 0 {
		description = strings.Join(descLines, " ")
	}
	return description, detail
}

// dropName removes a leading Go identifier equal to name and upper-cases what follows.
func dropName(text, name string) string {
	rest, ok := strings.CutPrefix(text, name+" ")
	if !ok {
		return text
	}
	rest = strings.TrimLeft(rest, " ")
	r, size := utf8.DecodeRuneInString(rest)
	if r == utf8.RuneError {
		return text
	}
	return string(unicode.ToUpper(r)) + rest[size:]
}

// docText is a comment (doc or line) as plain text: paragraphs separated by a blank line,
// directives removed; "" for nil.
func docText(cg *ast.CommentGroup) string {
	if cg == nil {
		return ""
	}
	return strings.Join(paragraphs(cg.Text()), "\n\n")
}

// paragraphs splits comment text at blank lines and joins the lines of each paragraph with
// spaces, since the line breaks of a comment are layout, not meaning. Indented lines (code in
// Go doc syntax) and list items keep their own lines.
func paragraphs(text string) []string {
	var paras []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			paras = append(paras, strings.Join(cur, "\n"))
			cur = nil
		}
	}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, " \t\r")
		if trimmed := strings.TrimLeft(line, " \t"); isListItem(trimmed) {
			line = trimmed // gofmt indents list items; the indentation is layout
		}
		switch {
		case line == "":
			flush()
		case len(cur) == 0 || ownLine(line) || ownLine(cur[len(cur)-1]) && isIndented(cur[len(cur)-1]):
			cur = append(cur, line)
		default:
			cur[len(cur)-1] += " " + strings.TrimLeft(line, " \t")
		}
	}
	flush()
	return paras
}

// ownLine reports whether a comment line keeps its line break: code or a list item.
func ownLine(line string) bool {
	return isIndented(line) || isListItem(line)
}

// isListItem reports whether a line starts with a list marker: "- ", "* ", "1. ", "2) ".
func isListItem(line string) bool {
	for _, marker := range []string{"- ", "* ", "+ ", "• "} {
		if strings.HasPrefix(line, marker) {
			return true
		}
	}
	digits := len(line) - len(strings.TrimLeft(line, "0123456789"))
	return digits > 0 && (strings.HasPrefix(line[digits:], ". ") || strings.HasPrefix(line[digits:], ") "))
}

func isIndented(line string) bool {
	return strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")
}

// modelTypeString spells a model type in Go syntax for messages: named types by name.
func modelTypeString(t *model.Type) string {
	if t == nil {
		return "invalid type"
	}
	if t.Named != nil {
		name := t.Named.Name
		if t.Named.Path == "time" || t.Named.Path == "encoding/json" {
			name = t.Named.Path[strings.LastIndexByte(t.Named.Path, '/')+1:] + "." + name
		}
		if len(t.Named.TypeArgs) > 0 {
			var args []string
			for _, a := range t.Named.TypeArgs {
				args = append(args, modelTypeString(a))
			}
			name += "[" + strings.Join(args, ", ") + "]"
		}
		return name
	}
	switch t.Kind {
	case model.KindString:
		return "string"
	case model.KindBool:
		return "bool"
	case model.KindInt, model.KindUint:
		name := "int"
		if t.Kind == model.KindUint {
			name = "uint"
		}
		if t.Bits != 0 {
			name += strconv.Itoa(t.Bits)
		}
		return name
	case model.KindFloat:
		return "float" + strconv.Itoa(t.Bits)
	case model.KindSlice:
		return "[]" + modelTypeString(t.Elem)
	case model.KindArray:
		return "[" + strconv.Itoa(t.Len) + "]" + modelTypeString(t.Elem)
	case model.KindMap:
		return "map[" + modelTypeString(t.Key) + "]" + modelTypeString(t.Elem)
	case model.KindPointer:
		return "*" + modelTypeString(t.Elem)
	case model.KindBytes:
		return "[]byte"
	case model.KindStruct:
		return "struct{...}"
	case model.KindAny:
		return "any"
	}
	return t.Kind.String()
}
