package repair

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/internal/jsonpointer"
	"github.com/toolgen-go/toolgen/runtime"
)

// The kinds of repair, in runtime.Repair.Kind.
const (
	ToolName        = "tool_name"         // getWeather → get_weather
	MarkdownFence   = "markdown_fence"    // ```json {…} ``` → {…}
	TrailingComma   = "trailing_comma"    // [1,2,] → [1,2]
	JSONInString    = "json_in_string"    // "{\"a\":1}" → {"a":1} where an object or array is expected
	NumberAsString  = "number_as_string"  // "3" → 3 where a number is expected
	BooleanAsString = "boolean_as_string" // "true" → true where a boolean is expected
	NullForOptional = "null_for_optional" // "unit": null → (absent) where null is not allowed
	Sanitized       = "sanitized"         // a sanitizing filter changed a string
)

// MaxArgs is the largest argument document New's Repairer reads: repair runs only on calls
// that already failed, and a bigger document is refused as it came.
const MaxArgs = 1 << 20

// Repairer is the runtime.Repairer of this package; New returns one.
type Repairer struct{}

// New returns a Repairer for runtime.WithRepair.
func New() *Repairer { return &Repairer{} }

var _ runtime.Repairer = (*Repairer)(nil)

// RepairName maps a tool name written in another case or separator style to the one tool it
// can mean: getWeather, GetWeather, get-weather and GET_WEATHER all mean get_weather, when no
// other tool shares that spelling without case and separators.
func (*Repairer) RepairName(name string, names []string) (string, bool) {
	if name == "" || len(name) > 256 {
		return "", false
	}
	want := foldName(name)
	found := ""
	for _, n := range names {
		if foldName(n) != want {
			continue
		}
		if found != "" {
			return "", false // two tools fold the same: the intent is not clear
		}
		found = n
	}
	return found, found != "" && found != name
}

// foldName keeps only the letters and digits of a name, lower-cased.
func foldName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > utf8.RuneSelf {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// RepairArgs repairs what models get wrong most, where the tool's input schema makes the
// intent unambiguous:
//
//   - the whole document in a Markdown code fence, or sent as a JSON string;
//   - trailing commas before } or ];
//   - an object or array sent as a string holding its JSON, where the schema allows an
//     object or array there and no string;
//   - a number sent as a string, where the schema allows a number and no string. The string
//     must be a JSON number as it is ("3", "-2.5", "1e3", "1.0"): "01", "+1", " 3", "0x1F",
//     "1,000" and "NaN" are not repaired, since they may be codes, not quantities, and the
//     number's text is passed on unchanged, so the decoder still decides whether "1.0" fits
//     an integer (it does, exactly) and whether it is in range;
//   - a boolean sent as "true" or "false" (any case), where the schema allows a boolean and
//     no string; "yes", "1" and "on" are not repaired;
//   - null for an optional property whose schema does not allow null: the property is left
//     out, so its default applies (a map's entry is not a property: null there stays).
//
// Nothing else changes: not a misspelled key, not a value of another type, not a string
// where a number is wanted; the decoder reports those. The registry validates the repaired
// document in full.
func (*Repairer) RepairArgs(tool *runtime.Tool, args []byte) ([]byte, []runtime.Repair) {
	if len(args) > MaxArgs {
		return nil, nil
	}
	root, ok := rootSchema(tool.InputSchema)
	if !ok {
		return nil, nil
	}
	var fixes []runtime.Repair
	text := string(args)
	if t, ok := stripFence(text); ok {
		fixes = append(fixes, runtime.Repair{Kind: MarkdownFence, From: shorten(text), To: shorten(t)})
		text = t
	}
	doc, err := parse([]byte(text))
	if err != nil {
		t, ok := dropTrailingCommas(text)
		if !ok {
			return nil, nil
		}
		if doc, err = parse([]byte(t)); err != nil {
			return nil, nil
		}
		fixes = append(fixes, runtime.Repair{Kind: TrailingComma, From: shorten(text), To: shorten(t)})
	}
	r := &walker{fixes: fixes}
	doc = r.fix(doc, root, "")
	if len(r.fixes) == 0 {
		return nil, nil
	}
	return doc.bytes(), r.fixes
}

type walker struct {
	fixes []runtime.Repair
}

func (w *walker) note(path, kind, from, to string) {
	w.fixes = append(w.fixes, runtime.Repair{Path: path, Kind: kind, From: shorten(from), To: shorten(to)})
}

// fix returns v repaired against s; path is v's JSON Pointer.
func (w *walker) fix(v *value, s schema, path string) *value {
	switch v.kind {
	case kindString:
		return w.fixString(v, s, path)
	case kindObject:
		obj, ok := s.only("object")
		if !ok {
			return v
		}
		keys, items := v.keys[:0], v.items[:0]
		for i, key := range v.keys {
			item := v.items[i]
			p := path + "/" + jsonpointer.Escape(key)
			prop, declared, ok := obj.property(key)
			// Only a declared property is optional; dropping a map entry would change the map.
			if declared && item.isNull() && prop.types() != nil && !prop.allows("null") && !obj.required(key) {
				w.note(p, NullForOptional, "null", "(absent)")
				continue
			}
			if ok {
				item = w.fix(item, prop, p)
			}
			keys, items = append(keys, key), append(items, item)
		}
		v.keys, v.items = keys, items
	case kindArray:
		arr, ok := s.only("array")
		if !ok {
			return v
		}
		for i, item := range v.items {
			if is, ok := arr.item(i); ok {
				v.items[i] = w.fix(item, is, path+"/"+itoa(i))
			}
		}
	}
	return v
}

// fixString repairs a string where the schema wants another type and no string.
func (w *walker) fixString(v *value, s schema, path string) *value {
	if s.types() == nil || s.allows("string") {
		return v
	}
	text := v.literal
	if s.allows("object") || s.allows("array") {
		t := text
		inner := len(w.fixes)
		if stripped, ok := stripFence(t); ok {
			w.note(path, MarkdownFence, t, stripped)
			t = stripped
		}
		doc, err := parse([]byte(t))
		if err != nil {
			if c, ok := dropTrailingCommas(t); ok {
				if doc, err = parse([]byte(c)); err == nil {
					w.note(path, TrailingComma, t, c)
				}
			}
		}
		if err == nil && (doc.kind == kindObject && s.allows("object") || doc.kind == kindArray && s.allows("array")) {
			to := "object"
			if doc.kind == kindArray {
				to = "array"
			}
			w.note(path, JSONInString, text, to)
			return w.fix(doc, s, path)
		}
		w.fixes = w.fixes[:inner]
	}
	if (s.allows("number") || s.allows("integer")) && isJSONNumber(text) {
		w.note(path, NumberAsString, quoted(text), text)
		return &value{kind: kindLiteral, literal: text}
	}
	if s.allows("boolean") && (strings.EqualFold(text, "true") || strings.EqualFold(text, "false")) {
		b := strings.ToLower(text)
		w.note(path, BooleanAsString, quoted(text), b)
		return &value{kind: kindLiteral, literal: b}
	}
	return v
}

// isJSONNumber reports whether s is a number exactly as JSON writes one: no sign but -, no
// leading zero, no white space.
func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

func quoted(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// shorten cuts a value for a record at a character boundary.
func shorten(s string) string { return shortenTo(s, 60) }

func shortenTo(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
