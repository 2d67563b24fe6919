package annotations

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/internal/suggest"
)

// ValueKind is what a tag key takes after its "=".
type ValueKind int

const (
	TagFlag    ValueKind = iota // no value: `required`
	TagInt                      // a non-negative integer: `minLength=1`
	TagNumber                   // a JSON number: `minimum=-0.5`
	TagString                   // text: `pattern='^[a-z]+$'`
	TagLiteral                  // a value the field's type interprets: `default=celsius`
	TagList                     // members separated by |: `enum=a|b|c`
)

var valueKindSyntax = [...]string{"", "N", "NUMBER", "TEXT", "VALUE", "A|B|..."}

// Syntax is the placeholder for the value in help text: "N", "NUMBER", "TEXT", "VALUE",
// "A|B|...", or "" for a flag.
func (k ValueKind) Syntax() string {
	if k >= 0 && int(k) < len(valueKindSyntax) {
		return valueKindSyntax[k]
	}
	return "?"
}

// Applies is the set of JSON types a tag key constrains.
type Applies uint8

const (
	AppliesString Applies = 1 << iota // strings (and string-like: enums, time, text types)
	AppliesNumber                     // integers and numbers
	AppliesArray                      // slices and arrays: the container itself
	AppliesObject                     // maps: the container itself
	// AppliesAny marks keys about the field itself, whatever its type.
	AppliesAny Applies = AppliesString | AppliesNumber | AppliesArray | AppliesObject | 1<<4
)

// String names the types as prose: "string", "string or number", "any type".
func (a Applies) String() string {
	if a == AppliesAny {
		return "any type"
	}
	var names []string
	for i, name := range []string{"string", "number", "array", "map"} {
		if a&(1<<i) != 0 {
			names = append(names, name)
		}
	}
	return joinOr(names, "nothing")
}

// TagKey is one registered `tool:"..."` struct tag key.
type TagKey struct {
	Name    string // the JSON Schema keyword, case-sensitive: "minLength"
	Value   ValueKind
	Applies Applies
	Help    string // one sentence or paragraph
}

// Usage is the key as a user writes it: "minLength=N", "required".
func (k *TagKey) Usage() string {
	if k.Value == TagFlag {
		return k.Name
	}
	return k.Name + "=" + k.Value.Syntax()
}

// TagKeys is the registry of every struct tag key, in the order of DESIGN.md.
var TagKeys = []*TagKey{
	{Name: "required", Value: TagFlag, Applies: AppliesAny,
		Help: "The property is required even though the field is a pointer, omitempty or has a default."},
	{Name: "optional", Value: TagFlag, Applies: AppliesAny,
		Help: "The property may be left out, though the field is neither a pointer nor omitempty."},
	{Name: "nullable", Value: TagFlag, Applies: AppliesAny,
		Help: "null is accepted (and decodes to the zero value); pointers are always nullable."},
	{Name: "enum", Value: TagList, Applies: AppliesString | AppliesNumber,
		Help: "The value must be one of these, separated by |; each is converted by the field's type."},
	{Name: "default", Value: TagLiteral, Applies: AppliesAny,
		Help: "The value used when the property is absent, converted by the field's type; makes the property optional. " +
			"It must meet every keyword of its field (bounds, lengths, pattern, format, multipleOf, enum): one that breaks a keyword is an error at generation."},
	{Name: "minimum", Value: TagNumber, Applies: AppliesNumber, Help: "The smallest value allowed."},
	{Name: "maximum", Value: TagNumber, Applies: AppliesNumber, Help: "The largest value allowed."},
	{Name: "exclusiveMinimum", Value: TagNumber, Applies: AppliesNumber, Help: "The value must be greater than this."},
	{Name: "exclusiveMaximum", Value: TagNumber, Applies: AppliesNumber, Help: "The value must be less than this."},
	{Name: "multipleOf", Value: TagNumber, Applies: AppliesNumber, Help: "The value must be a multiple of this positive number."},
	{Name: "minLength", Value: TagInt, Applies: AppliesString, Help: "The fewest characters (Unicode code points) allowed."},
	{Name: "maxLength", Value: TagInt, Applies: AppliesString, Help: "The most characters (Unicode code points) allowed."},
	{Name: "pattern", Value: TagString, Applies: AppliesString,
		Help: "A regular expression (RE2 syntax) the string must match somewhere; anchor it with ^ and $ to match all of it."},
	{Name: "format", Value: TagString, Applies: AppliesString,
		Help: "A JSON Schema format the string must have; see the list of formats."},
	{Name: "minItems", Value: TagInt, Applies: AppliesArray, Help: "The fewest items allowed."},
	{Name: "maxItems", Value: TagInt, Applies: AppliesArray, Help: "The most items allowed."},
	{Name: "uniqueItems", Value: TagFlag, Applies: AppliesArray, Help: "No two items may be equal."},
	{Name: "minProperties", Value: TagInt, Applies: AppliesObject, Help: "The fewest map entries allowed."},
	{Name: "maxProperties", Value: TagInt, Applies: AppliesObject, Help: "The most map entries allowed."},
	{Name: "title", Value: TagString, Applies: AppliesAny, Help: "A short title for the property."},
	{Name: "example", Value: TagLiteral, Applies: AppliesAny,
		Help: "An example value, converted by the field's type; shown to the model."},
	{Name: "deprecated", Value: TagFlag, Applies: AppliesAny, Help: "The property is deprecated; models should avoid it."},
	{Name: "header", Value: TagString, Applies: AppliesAny,
		Help: "Mirrors the argument into the HTTP header Mcp-Param-TEXT (MCP 2026-07-28 `x-mcp-header`), so a gateway " +
			"routes the call without reading its body: `header=Region`. TEXT is an HTTP field-name token (RFC 9110: letters, " +
			"digits and a few marks, no spaces), unique in the tool ignoring case; the field is a top-level string, integer or " +
			"boolean, neither a pointer nor nullable, and no other property of the tool is nullable. Over HTTP a call whose " +
			"header disagrees with the argument, or is missing while the argument is sent, is refused."},
	{Name: "accept", Value: TagList, Applies: AppliesAny,
		Help: "Accepts what the schema variants of these providers (openai, anthropic, gemini, mcp) lose at this field, " +
			"so toolgen stops warning about it: `accept=openai|gemini` on a map field, which OpenAI strict mode and " +
			"Gemini parameters cannot describe. The decoder still enforces every constraint."},
}

// Providers are the values accept= takes: the providers toolgen emits schema variants for.
var Providers = []string{"openai", "anthropic", "gemini", "mcp"}

// Formats are the values format= accepts.
var Formats = []string{"date-time", "date", "time", "duration", "email", "hostname", "idn-hostname", "ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uuid"}

var (
	tagKeysByName = func() map[string]*TagKey {
		m := make(map[string]*TagKey, len(TagKeys))
		for _, k := range TagKeys {
			m[k.Name] = k
		}
		return m
	}()
	tagKeyNames = func() []string {
		names := make([]string, len(TagKeys))
		for i, k := range TagKeys {
			names[i] = k.Name
		}
		return names
	}()
)

// LookupTag returns the tag key with exactly this name (keys are case-sensitive), or nil.
func LookupTag(name string) *TagKey { return tagKeysByName[name] }

// tagKeyAliases are words from other libraries and from encoding/json that users reach for;
// they are too far from a key for an edit-distance suggestion.
var tagKeyAliases = map[string]string{
	"min":         "did you mean minimum (numbers), minLength (strings) or minItems (arrays)?",
	"max":         "did you mean maximum (numbers), maxLength (strings) or maxItems (arrays)?",
	"minlen":      "did you mean minLength?",
	"maxlen":      "did you mean maxLength?",
	"regex":       "did you mean pattern?",
	"regexp":      "did you mean pattern?",
	"oneof":       "did you mean enum=a|b|c?",
	"omitempty":   `omitempty belongs in the json tag: json:"name,omitempty"`,
	"omitzero":    `omitzero belongs in the json tag: json:"name,omitzero"`,
	"description": "the field's doc comment is its description",
	"desc":        "the field's doc comment is its description",
}

// TagItem is one key of a `tool:"..."` tag.
type TagItem struct {
	Key      *TagKey
	Value    string // unquoted value ('...' quotes removed); "" for flags
	HasValue bool
	Offset   int // byte offset of the key within the tag value
	// ValueOffset is the byte offset of the value within the tag value: of its first
	// character, inside the quote when quoted.
	ValueOffset int
}

// List splits the value of a TagList item (enum=a|b|c) into its members.
func (it TagItem) List() []string { return strings.Split(it.Value, "|") }

// jsonNumberPattern is the JSON number grammar (RFC 8259), which TagNumber values follow so
// that they can be copied into the schema as written.
var jsonNumberPattern = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// ParseTag splits the value of a tool:"..." struct tag. Items are separated by commas, each
// `key` or `key=value`, with white space around them ignored; a value may be single-quoted to
// hold commas or surrounding spaces ('a,b'), and inside quotes two single quotes stand for one.
//
// It reports unknown keys (with did-you-mean; keys are case-sensitive, so minlength suggests
// minLength), a flag given a value, a missing value, an unterminated quote, a value that is
// not a non-negative integer (TagInt) or a JSON number (TagNumber), an empty enum member, a
// format not in Formats, and a key given twice. Offsets index value. Items holds the
// well-formed items, in order.
func ParseTag(value string) ([]TagItem, []Problem) {
	var items []TagItem
	var problems []Problem
	seen := map[string]bool{}
	if strings.Trim(value, " \t") == "" {
		return nil, nil
	}
	var prev *TagKey // the key of the item before, when it was well-formed
	for i := 0; i <= len(value); {
		raw, p := scanTagItem(value, i)
		i = raw.end + 1 // past the comma
		if p == nil {
			p = checkTagItem(&raw, seen)
		}
		if p != nil && prev != nil && prev.Value == TagList && !raw.HasValue && LookupTag(raw.key) == nil {
			// enum=a,b or accept=openai,gemini: commas separate items, | separates members.
			p.Hint = prev.Name + " separates its values with |, not commas: " + prev.Name + "=…|" + raw.key
		}
		prev = nil
		if p == nil {
			prev = raw.Key
		}
		if p != nil {
			problems = append(problems, *p)
			continue
		}
		items = append(items, raw.TagItem)
	}
	return items, problems
}

// rawTagItem is an item as scanned, before its key and value are checked.
type rawTagItem struct {
	TagItem
	key    string // as written
	quoted bool   // the value was in '...'
	end    int    // offset of the comma after the item, or len(value)
}

// scanTagItem reads the item starting at offset i of value, up to the next comma outside
// quotes.
func scanTagItem(value string, i int) (rawTagItem, *Problem) {
	var it rawTagItem
	i = skipBlanks(value, i)
	it.Offset = i
	for i < len(value) && value[i] != ',' && value[i] != '=' {
		i++
	}
	it.key = strings.TrimRight(value[it.Offset:i], " \t")
	it.end = i
	if i == len(value) || value[i] == ',' {
		return it, nil
	}

	it.HasValue = true
	i = skipBlanks(value, i+1) // past "="
	it.ValueOffset = i
	if i == len(value) || value[i] != '\'' {
		it.end = skipToComma(value, i)
		it.Value = strings.TrimRight(value[i:it.end], " \t")
		return it, nil
	}
	text, end, ok := unquoteTagValue(value, i)
	if !ok {
		it.end = len(value)
		return it, &Problem{Offset: i, Message: "unterminated quoted value",
			Hint: "close the value with '; write '' for a quote inside it"}
	}
	it.Value, it.ValueOffset, it.quoted = text, i+1, true
	it.end = skipToComma(value, end)
	if after := skipBlanks(value, end); after < it.end {
		return it, &Problem{Offset: after, Message: "unexpected text after a quoted value",
			Hint: "separate items with commas"}
	}
	return it, nil
}

// unquoteTagValue reads a '...' value starting at the quote at i, where two quotes stand for one
// quote. It returns the text, the offset just past the closing quote, and whether it closed.
func unquoteTagValue(value string, i int) (string, int, bool) {
	var b strings.Builder
	for j := i + 1; j < len(value); j++ {
		if value[j] != '\'' {
			b.WriteByte(value[j])
			continue
		}
		if j+1 < len(value) && value[j+1] == '\'' {
			b.WriteByte('\'')
			j++
			continue
		}
		return b.String(), j + 1, true
	}
	return "", 0, false
}

func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

func skipToComma(s string, i int) int {
	if j := strings.IndexByte(s[i:], ','); j >= 0 {
		return i + j
	}
	return len(s)
}

// checkTagItem resolves the key of a scanned item and checks its value.
func checkTagItem(it *rawTagItem, seen map[string]bool) *Problem {
	switch {
	case it.key == "" && it.HasValue:
		return &Problem{Offset: it.Offset, Message: "missing tag key before ="}
	case it.key == "":
		return &Problem{Offset: it.Offset, Message: "empty item in the tool tag", Hint: "remove the extra comma"}
	}
	k := LookupTag(it.key)
	if k == nil {
		return unknownTagKey(it.key, it.Offset)
	}
	it.Key = k
	if seen[k.Name] {
		return &Problem{Offset: it.Offset, Message: "duplicate tag key " + k.Name}
	}
	seen[k.Name] = true
	return checkTagValue(it)
}

func unknownTagKey(key string, at int) *Problem {
	p := &Problem{Offset: at, Message: "unknown tag key " + strconv.Quote(key),
		Hint: "toolgen -help-directives lists every tag key"}
	if h, ok := tagKeyAliases[strings.ToLower(key)]; ok {
		p.Hint = h
	} else if c := suggest.Closest(key, tagKeyNames); c != "" {
		p.Hint = "did you mean " + c + "?"
	}
	return p
}

// checkTagValue checks the item's value against its key's ValueKind.
func checkTagValue(it *rawTagItem) *Problem {
	k := it.Key
	at := it.ValueOffset
	switch {
	case k.Value == TagFlag && it.HasValue:
		return &Problem{Offset: it.Offset, Message: k.Name + " takes no value", Hint: "write " + k.Name + " alone"}
	case k.Value == TagFlag:
		return nil
	// An empty quoted literal ('') is deliberate: an empty default or example string.
	case !it.HasValue || it.Value == "" && !(it.quoted && k.Value == TagLiteral):
		return &Problem{Offset: it.Offset, Message: "missing value for " + k.Name, Hint: "write " + k.Usage()}
	}
	switch k.Value {
	case TagInt:
		if strings.Trim(it.Value, "0123456789") != "" {
			return &Problem{Offset: at, Message: k.Name + " must be a non-negative whole number, got " + strconv.Quote(it.Value)}
		}
		if _, err := strconv.ParseInt(it.Value, 10, 32); err != nil {
			return &Problem{Offset: at, Message: k.Name + " " + it.Value + " is too large"}
		}
	case TagNumber:
		f, err := strconv.ParseFloat(it.Value, 64)
		if !jsonNumberPattern.MatchString(it.Value) || err != nil {
			return &Problem{Offset: at, Message: k.Name + " must be a number, got " + strconv.Quote(it.Value),
				Hint: "write a JSON number such as 0, -1.5 or 1e3"}
		}
		if k.Name == "multipleOf" && f <= 0 {
			return &Problem{Offset: at, Message: "multipleOf must be positive, got " + it.Value}
		}
	case TagList:
		for i, m := range it.List() {
			if m == "" {
				return &Problem{Offset: at + listMemberOffset(it.Value, i), Message: "empty member in " + k.Name,
					Hint: "write " + k.Usage()}
			}
		}
	case TagString:
		if k.Name == "format" && !slices.Contains(Formats, it.Value) {
			p := &Problem{Offset: at, Message: "unknown format " + strconv.Quote(it.Value),
				Hint: "the formats are " + strings.Join(Formats, ", ")}
			if c := suggest.Closest(it.Value, Formats); c != "" {
				p.Hint = "did you mean " + c + "?"
			}
			return p
		}
	}
	return nil
}

// listMemberOffset is the byte offset of the i'th |-separated member of s.
func listMemberOffset(s string, i int) int {
	off := 0
	for range i {
		off += strings.IndexByte(s[off:], '|') + 1
	}
	return off
}

// HeaderToken reports the first byte of name that an HTTP field-name token (RFC 9110 tchar)
// may not hold, and its offset; ok when name is a non-empty token. header=NAME must be one: the
// argument is sent as the Mcp-Param-NAME header.
func HeaderToken(name string) (bad rune, offset int, ok bool) {
	if name == "" {
		return 0, 0, false
	}
	for i, c := range name {
		if !isTChar(c) {
			return c, i, false
		}
	}
	return 0, 0, true
}

func isTChar(c rune) bool {
	switch {
	case c >= '0' && c <= '9', c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z':
		return true
	}
	return strings.ContainsRune("!#$%&'*+-.^_`|~", c)
}
