package emit

import (
	"slices"
	"strings"
	"unicode"

	"github.com/dave/jennifer/jen"
)

// Schemas are declared in pieces, so that what several schemas of a package share is stored
// once in the binary: the linker keeps one copy of each distinct string, but a schema is one
// string, and tools of a catalog repeat whole properties (an "email" with its description, a
// shared Address type) inside schemas that differ elsewhere. A property (any object member
// whose value is an object) that occurs at least twice in the package and is long enough to
// pay for its reference becomes a constant; toolimpl.BindTools joins the pieces.

// minSharedPiece is the shortest member text worth a piece of its own: a piece costs a string
// header (16 bytes) for itself and one for the text it splits off after it.
const minSharedPiece = 64

// schemaPieces decides how each schema text of a package is cut into pieces.
type schemaPieces struct {
	chosen map[string]int    // member text -> how many schemas hold it as a piece
	parts  map[string]string // shared member text -> its constant
	schema map[string]string // whole schema text several tools share -> its constant
	decls  []pieceConst      // the constants: the whole schemas, then the parts, each by name
}

// pieceConst is a constant the schemas are built from.
type pieceConst struct{ name, text, doc string }

// newSchemaPieces studies every schema text of a package (a text may be listed once per use).
// labels[i] names what texts[i] describes (CreateOrderArgs, OrderOutput): a whole schema
// several tools share is named after the label of its uses that sorts first.
func newSchemaPieces(texts [][]byte, labels []string) *schemaPieces {
	p := &schemaPieces{parts: map[string]string{}, schema: map[string]string{}}
	uses := map[string]int{}
	for _, text := range texts {
		uses[string(text)]++
	}
	var schemaTexts []string
	for _, text := range texts {
		if uses[string(text)] > 1 && !slices.Contains(schemaTexts, string(text)) {
			schemaTexts = append(schemaTexts, string(text))
		}
	}
	// Count the members of each distinct schema text, once per schema that holds it; a whole
	// schema several tools share is one constant, so its members are not pieces.
	memberUses := map[string]int{}
	seen := map[string]bool{}
	for _, text := range texts {
		if seen[string(text)] || uses[string(text)] > 1 {
			continue
		}
		seen[string(text)] = true
		for _, s := range objectMembers(text) {
			memberUses[string(text[s[0]:s[1]])]++
		}
	}
	// Choose top-down: a shared member is one piece and what it holds is not looked at. A
	// member chosen only once (its other uses were inside bigger pieces) stays inline.
	chosen := map[string]int{}
	p.chosen = chosen
	for text := range seen {
		for _, piece := range cut([]byte(text), func(m string) bool { return memberUses[m] > 1 }) {
			if piece.shared {
				chosen[piece.text]++
			}
		}
	}
	declare := func(text, name, comment string) {
		p.decls = append(p.decls, pieceConst{name: name, text: text, doc: name + " " + comment})
	}
	for _, text := range schemaTexts {
		label := ""
		for i, t := range texts {
			if string(t) == text && i < len(labels) && (label == "" || labels[i] < label) {
				label = labels[i]
			}
		}
		name := "toolgenSchema" + label
		if label == "" {
			name += "_" + contentHash(text)[:hashDigits]
		}
		p.schema[text] = name
		declare(text, name, "is a schema several tools share.")
	}
	// A comma between two members would be a piece of its own, a string header for one byte:
	// a member that follows a comma in several places is declared with it.
	afterComma := map[string]int{}
	for text := range seen {
		for _, piece := range foldCommas(p.cutShared([]byte(text)), func(string) bool { return true }) {
			if piece.shared && piece.text[0] == ',' {
				afterComma[piece.text]++
			}
		}
	}
	var partTexts []string
	for _, text := range texts {
		if _, whole := p.schema[string(text)]; whole {
			continue
		}
		for _, piece := range foldCommas(p.cutShared(text), func(m string) bool { return afterComma[m] > 1 }) {
			if piece.shared && !slices.Contains(partTexts, piece.text) {
				partTexts = append(partTexts, piece.text)
			}
		}
	}
	for text, name := range partNames(partTexts) {
		p.parts[text] = name
		declare(text, name, "is a part several schemas share.")
	}
	// Whole schemas first, then parts, each by name: the order of the tools does not move them.
	part := func(c pieceConst) bool { return strings.HasPrefix(c.name, "toolgenPart") }
	slices.SortFunc(p.decls, func(a, b pieceConst) int {
		if part(a) != part(b) {
			return map[bool]int{false: -1, true: 1}[part(a)]
		}
		return strings.Compare(a.name, b.name)
	})
	return p
}

// cutShared cuts text at the members chosen more than once.
func (p *schemaPieces) cutShared(text []byte) []schemaPiece {
	return cut(text, func(m string) bool { return p.chosen[m] > 1 })
}

// render returns the pieces of text as a string slice literal: {} for no schema.
func (p *schemaPieces) render(text []byte) jen.Code {
	if text == nil {
		return jen.Values()
	}
	if name, ok := p.schema[string(text)]; ok {
		return jen.Values(jen.Id(name))
	}
	var out []jen.Code
	for _, piece := range foldCommas(p.cutShared(text), func(m string) bool { return p.parts[m] != "" }) {
		if piece.shared {
			out = append(out, jen.Id(p.parts[piece.text]))
		} else {
			out = append(out, schemaLines([]byte(piece.text)))
		}
	}
	return jen.Values(out...)
}

// schemaPiece is a run of a schema text: a shared member, or text between shared members.
type schemaPiece struct {
	text   string
	shared bool
}

// cut splits text at the outermost members that shared reports, of at least minSharedPiece
// bytes.
func cut(text []byte, shared func(member string) bool) []schemaPiece {
	var out []schemaPiece
	pos := 0
	for _, s := range objectMembers(text) {
		if s[0] < pos || s[1]-s[0] < minSharedPiece || !shared(string(text[s[0]:s[1]])) {
			continue
		}
		if s[0] > pos {
			out = append(out, schemaPiece{text: string(text[pos:s[0]])})
		}
		out = append(out, schemaPiece{text: string(text[s[0]:s[1]]), shared: true})
		pos = s[1]
	}
	if pos < len(text) {
		out = append(out, schemaPiece{text: string(text[pos:])})
	}
	return out
}

// foldCommas joins a piece that is only a comma to the shared member after it, when shared
// says the joined text is a part.
func foldCommas(pieces []schemaPiece, shared func(member string) bool) []schemaPiece {
	out := pieces[:0:0]
	for i := 0; i < len(pieces); i++ {
		if pieces[i].text == "," && !pieces[i].shared && i+1 < len(pieces) && pieces[i+1].shared && shared(","+pieces[i+1].text) {
			out = append(out, schemaPiece{text: "," + pieces[i+1].text, shared: true})
			i++
			continue
		}
		out = append(out, pieces[i])
	}
	return out
}

// objectMembers returns the spans of the members of text whose value is an object
// (`"key":{...}`), at any depth, ordered by where they start. text is JSON as the schema
// package writes it.
func objectMembers(text []byte) [][2]int {
	type container struct {
		object bool
		key    int // where the object's last key starts
		member int // where the member this container is the value of starts; -1: none
	}
	var stack []container
	var spans [][2]int
	prev := byte(0) // the last byte outside strings that is not white space
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '"':
			if n := len(stack); n > 0 && stack[n-1].object && (prev == '{' || prev == ',') {
				stack[n-1].key = i
			}
			for i++; i < len(text) && text[i] != '"'; i++ {
				if text[i] == '\\' {
					i++
				}
			}
			prev = '"'
		case '{', '[':
			member := -1
			if n := len(stack); n > 0 && stack[n-1].object && prev == ':' {
				member = stack[n-1].key
			}
			stack = append(stack, container{object: c == '{', key: -1, member: member})
			prev = c
		case '}', ']':
			if n := len(stack); n > 0 {
				top := stack[n-1]
				stack = stack[:n-1]
				if top.object && top.member >= 0 {
					spans = append(spans, [2]int{top.member, i + 1})
				}
			}
			prev = c
		case ' ', '\t', '\n', '\r':
		default:
			prev = c
		}
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	return spans
}

// partNames names the constant of each shared member after its key: toolgenPartAddress for
// "address". Members with one key (an "address" of two shapes) are told apart by their text
// alone: the one whose text sorts first keeps the name, each other adds a hash of its text, as
// does a member whose key has no letters to name it by.
func partNames(members []string) map[string]string {
	byBase := map[string][]string{}
	for _, m := range members {
		base := partBase(m)
		byBase[base] = append(byBase[base], m)
	}
	names := map[string]string{}
	for base, ms := range byBase {
		slices.Sort(ms)
		for i, m := range ms {
			if i == 0 && base != "toolgenPart" {
				names[m] = base
			} else {
				names[m] = base + "_" + contentHash(m)[:hashDigits]
			}
		}
	}
	return names
}

// partBase is the name a member's key gives it: toolgenPartShipTo for "ship_to".
func partBase(member string) string {
	member = strings.TrimPrefix(member, ",") // a member after a comma may be declared with it
	key := member[1 : strings.IndexByte(member[1:], '"')+1]
	var b strings.Builder
	up := true
	for _, r := range key {
		if r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r)) {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	return "toolgenPart" + capFragment(b.String(), key)
}

// schemaLines renders a schema text (or a piece of one) as raw strings joined by +, one line
// per member whose value is an object (a property, items, additionalProperties), so adding a
// field changes the lines of that field rather than one line holding the whole schema. The
// compiler folds the concatenation into one constant: the binary's bytes are the same as for
// one literal.
func schemaLines(text []byte) jen.Code {
	var cuts []int
	for _, s := range objectMembers(text) {
		if s[0] > 0 && (len(cuts) == 0 || cuts[len(cuts)-1] != s[0]) {
			cuts = append(cuts, s[0])
		}
	}
	if len(cuts) == 0 {
		return rawString(text)
	}
	code := jen.Line().Add(rawString(text[:cuts[0]]))
	for i, at := range cuts {
		end := len(text)
		if i+1 < len(cuts) {
			end = cuts[i+1]
		}
		code.Op("+").Line().Add(rawString(text[at:end]))
	}
	return code
}
