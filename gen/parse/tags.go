package parse

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/annotations"
	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/internal/suggest"
)

// tagKey is the struct tag key holding toolgen's constraints.
const tagKey = "tool"

// tagContext is what applying one field's tool tag needs: the field, the levels its
// keywords may land on, and how to turn an offset into the tag's value into a position.
type tagContext struct {
	p      *parser
	f      *model.Field
	s      *site
	at     func(offset int) model.Position
	levels []*model.Type        // levels[0]: the field's type; then one per container, pointers removed
	cons   []*model.Constraints // cons[i] constrains levels[i]; cons[0] is the field's own
}

// applyTag reads the tool:"..." tag of a field into f.Constraints and sets Required and
// Nullable. lit is the tag's literal when the syntax is known; without it problems are
// reported at the field.
func (p *parser) applyTag(f *model.Field, tag string, lit *ast.BasicLit, s *site) {
	value, at, found := p.toolTag(tag, lit, f.Pos)
	tc := &tagContext{p: p, f: f, s: s, at: at, cons: []*model.Constraints{&f.Constraints}}
	for t := deref(f.Type); t != nil; {
		tc.levels = append(tc.levels, t)
		if t.Kind != model.KindSlice && t.Kind != model.KindArray && t.Kind != model.KindMap {
			break
		}
		t = deref(t.Elem)
	}

	var required, optional, nullable *annotations.TagItem
	var enum, def *annotations.TagItem
	var examples []annotations.TagItem
	var header *annotations.TagItem
	if found {
		items, problems := annotations.ParseTag(value)
		for _, pr := range problems {
			p.problem(at(pr.Offset), pr)
		}
		for i := range items {
			it := &items[i]
			switch it.Key.Name {
			case "required":
				required = it
			case "optional":
				optional = it
			case "nullable":
				nullable = it
			case "deprecated":
				f.Constraints.Deprecated = true
			case "title":
				f.Constraints.Title = it.Value
			case "enum":
				enum = it // after the loop: default and examples are checked against it
			case "default":
				def = it
			case "example":
				examples = append(examples, *it)
			case "accept":
				tc.accept(it)
			case "header":
				header = it // after the loop: nullable decides whether it may be
			default:
				tc.keyword(it)
			}
		}
	}
	if enum != nil {
		tc.enum(enum)
	}
	if def != nil {
		f.DefaultWritten = true
		tc.defaultValue(def)
	}
	for i := range examples {
		tc.example(&examples[i])
	}
	tc.checkBounds()
	if header != nil {
		tc.header(header, nullable != nil)
	}

	isPointer := f.Type.Kind == model.KindPointer
	f.Nullable = isPointer || nullable != nil
	f.Required = !(isPointer || f.OmitEmpty || f.OmitZero || f.Constraints.Default != nil || optional != nil)
	if required != nil {
		f.Required = true
		if optional != nil {
			p.errorf(at(optional.Offset), "keep one of them", "field %s is tagged both required and optional", f.GoName)
		}
	}
}

// accept records the providers whose loss at this field is accepted (tool:"accept=openai|gemini").
func (tc *tagContext) accept(it *annotations.TagItem) {
	for _, name := range it.List() {
		if slices.Contains(annotations.Providers, name) {
			tc.f.Accept = append(tc.f.Accept, name)
			continue
		}
		d := tc.p.diags.Errorf(tc.at(it.ValueOffset), "accept=%s of field %s: %q is not a provider", it.Value, tc.f.GoName, name)
		if c := suggest.Closest(name, annotations.Providers); c != "" {
			d.WithHint("did you mean %s?", c)
		} else {
			d.WithHint("the providers are %s", strings.Join(annotations.Providers, ", "))
		}
	}
}

// header records header=NAME, the HTTP header the argument is mirrored into
// (Mcp-Param-NAME, the schema's x-mcp-header). The go-sdk mirrors and checks only a string,
// integer or boolean property whose "type" is one name: not a number, not a pointer or
// nullable field (whose type is ["T","null"], and a schema holding one has the go-sdk read no
// header of the tool at all). Where the field sits and other fields of the tool are checked with
// the tool (gen/check).
func (tc *tagContext) header(it *annotations.TagItem, nullable bool) {
	f := tc.f
	if bad, off, ok := annotations.HeaderToken(it.Value); !ok {
		if it.Value == "" {
			tc.p.errorf(tc.at(it.Offset), "write the header name, e.g. header=Region: the client sends Mcp-Param-Region",
				"header of field %s needs a name", f.GoName)
			return
		}
		tc.p.errorf(tc.at(it.ValueOffset+off), "a header name is an HTTP token (RFC 9110): letters, digits and !#$%&'*+-.^_`|~, no spaces",
			"header=%s of field %s: %q may not appear in an HTTP header name", it.Value, f.GoName, bad)
		return
	}
	switch {
	case f.Type.Kind == model.KindPointer || nullable:
		tc.p.errorf(tc.at(it.Offset), "make the field a plain "+tc.typeName(deref(f.Type))+" (add omitempty to leave it optional): a nullable property's type is [\"T\",\"null\"], and the go-sdk then mirrors no header of the tool",
			"header does not apply to the nullable field %s", f.GoName)
		return
	case !headerKind(f.Type.Kind):
		tc.p.errorf(tc.at(it.Offset), "header applies to a string, integer or boolean field (MCP x-mcp-header allows no number, array or object)",
			"header does not apply to %s (field %s)", tc.typeName(f.Type), tc.s.path)
		return
	}
	f.Header = it.Value
	f.HeaderPos = tc.at(it.ValueOffset)
}

// headerKind reports whether a field of kind k has a schema type x-mcp-header allows: string,
// integer or boolean.
func headerKind(k model.Kind) bool {
	switch k {
	case model.KindString, model.KindText, model.KindTime, model.KindDuration, model.KindInt, model.KindUint, model.KindBool:
		return true
	}
	return false
}

// deref removes pointers: a pointer's keywords constrain its target.
func deref(t *model.Type) *model.Type {
	for t != nil && t.Kind == model.KindPointer {
		t = t.Elem
	}
	return t
}

// level returns the constraints of level i, creating the Items chain down to it.
func (tc *tagContext) level(i int) *model.Constraints {
	for len(tc.cons) <= i {
		last := tc.cons[len(tc.cons)-1]
		if last.Items == nil {
			last.Items = &model.Constraints{}
		}
		tc.cons = append(tc.cons, last.Items)
	}
	return tc.cons[i]
}

// place finds the first level the keyword fits, or reports that none does.
func (tc *tagContext) place(it *annotations.TagItem) (int, bool) {
	for i, t := range tc.levels {
		if fits(it.Key, t) {
			if i == 0 && t.Kind == model.KindArray && (it.Key.Name == "minItems" || it.Key.Name == "maxItems") {
				tc.p.errorf(tc.at(it.Offset), fmt.Sprintf("use a slice for a variable number of items; an array always has %d", t.Len),
					"%s does not apply to the fixed-length array %s (field %s)", it.Key.Name, tc.typeName(t), tc.s.path)
				return 0, false
			}
			return i, true
		}
	}
	tc.p.errorf(tc.at(it.Offset), fmt.Sprintf("%s applies to %s", it.Key.Name, it.Key.Applies),
		"%s does not apply to %s (field %s)", it.Key.Name, tc.typeName(tc.f.Type), tc.s.path)
	return 0, false
}

// fits reports whether a keyword constrains values of type t. String keywords fit strings
// and text types but not time.Time and time.Duration, whose string format is fixed; enum fits
// every scalar but bool.
func fits(k *annotations.TagKey, t *model.Type) bool {
	if k.Name == "enum" {
		switch t.Kind {
		case model.KindString, model.KindText, model.KindInt, model.KindUint, model.KindFloat,
			model.KindTime, model.KindDuration:
			return true
		}
		return false
	}
	var a annotations.Applies
	switch t.Kind {
	case model.KindString, model.KindText:
		a = annotations.AppliesString
	case model.KindInt, model.KindUint, model.KindFloat:
		a = annotations.AppliesNumber
	case model.KindSlice, model.KindArray:
		a = annotations.AppliesArray
	case model.KindMap:
		a = annotations.AppliesObject
	}
	return k.Applies&a != 0
}

// typeName spells a model type the way a user wrote it, for messages.
func (tc *tagContext) typeName(t *model.Type) string { return modelTypeString(t) }

// keyword sets a container, string or number keyword at the level it fits.
func (tc *tagContext) keyword(it *annotations.TagItem) {
	i, ok := tc.place(it)
	if !ok {
		return
	}
	c := tc.level(i)
	switch it.Key.Name {
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
		// The annotations package checked the JSON number grammar, so the text is kept as
		// written and parses.
		v, _ := strconv.ParseFloat(it.Value, 64)
		n := &model.Number{Text: it.Value, Value: v}
		switch it.Key.Name {
		case "minimum":
			c.Minimum = n
		case "maximum":
			c.Maximum = n
		case "exclusiveMinimum":
			c.ExclusiveMinimum = n
		case "exclusiveMaximum":
			c.ExclusiveMaximum = n
		case "multipleOf":
			c.MultipleOf = n
		}
	case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties":
		n, _ := strconv.Atoi(it.Value)
		switch it.Key.Name {
		case "minLength":
			c.MinLength = &n
		case "maxLength":
			c.MaxLength = &n
		case "minItems":
			c.MinItems = &n
		case "maxItems":
			c.MaxItems = &n
		case "minProperties":
			c.MinProperties = &n
		case "maxProperties":
			c.MaxProperties = &n
		}
	case "pattern":
		if _, err := regexp.Compile(it.Value); err != nil {
			tc.p.errorf(tc.at(it.ValueOffset), "patterns use RE2 syntax (https://github.com/google/re2/wiki/Syntax): no lookaround or backreferences",
				"pattern of field %s does not compile: %v", tc.f.GoName, err)
			return
		}
		c.Pattern = it.Value
	case "format":
		c.Format = it.Value
	case "uniqueItems":
		if i+1 >= len(tc.levels) {
			return // the element type failed to convert, and that was reported
		}
		if items := tc.levels[i+1]; !isScalar(items) {
			tc.p.errorf(tc.at(it.Offset), "uniqueItems compares items by value; use it on slices of strings, numbers or booleans",
				"uniqueItems needs scalar items, but the items of field %s are %s", tc.f.GoName, tc.typeName(items))
			return
		}
		c.UniqueItems = true
	default:
		tc.p.errorf(tc.at(it.Offset), "", "tag key %s is not supported by the parser", it.Key.Name)
	}
}

// isScalar reports whether a type is a JSON string, number or boolean.
func isScalar(t *model.Type) bool {
	switch t.Kind {
	case model.KindString, model.KindBool, model.KindInt, model.KindUint, model.KindFloat,
		model.KindText, model.KindTime, model.KindDuration:
		return true
	}
	return false
}

// enum converts enum=a|b|c by the type of the level it lands on.
func (tc *tagContext) enum(it *annotations.TagItem) {
	i, ok := tc.place(it)
	if !ok {
		return
	}
	t := tc.levels[i]
	var lits []model.Literal
	off := it.ValueOffset
	for _, m := range it.List() {
		lit, err := literal(m, t)
		if err != "" {
			tc.p.errorf(tc.at(off), enumHint(t), "enum member %q of field %s: %s", m, tc.f.GoName, err)
			return
		}
		lits = append(lits, lit)
		off += len(m) + 1
	}
	tc.level(i).Enum = lits
}

// defaultValue converts default=V by the field's type: a scalar, an enum, a duration or a time.
func (tc *tagContext) defaultValue(it *annotations.TagItem) {
	t := tc.levels[0]
	if !isScalar(t) {
		tc.p.errorf(tc.at(it.Offset), "defaults are supported for string, bool, numeric, enum, duration and time fields; set other defaults in the handler",
			"default does not apply to %s (field %s)", tc.typeName(tc.f.Type), tc.s.path)
		return
	}
	lit, err := literal(it.Value, t)
	if err != "" {
		tc.p.errorf(tc.at(it.ValueOffset), enumHint(t), "default of field %s: %s", tc.f.GoName, err)
		return
	}
	if e := tc.cons[0].Enum; len(e) > 0 && !slices.Contains(e, lit) {
		tc.p.errorf(tc.at(it.ValueOffset), "make the default one of the enum members",
			"default %s of field %s is not in its enum", lit.JSON, tc.f.GoName)
		return
	}
	if broken := brokenKeywords(lit, tc.cons[0]); len(broken) > 0 {
		// The schema would ship a default it refuses, and a call leaving the field out would
		// get a value the same call could not send. The default is still recorded, so the
		// field stays optional as written and no "has no default" warning follows.
		tc.p.errorf(tc.at(it.ValueOffset), "make the default meet every keyword of its field, or change the keyword",
			"default %s of field %s breaks %s", lit.JSON, tc.f.GoName, strings.Join(broken, " and "))
	}
	tc.cons[0].Default = &lit
}

// example converts example=V by the field's type; for other types V is JSON text.
func (tc *tagContext) example(it *annotations.TagItem) {
	t := tc.levels[0]
	if isScalar(t) {
		lit, err := literal(it.Value, t)
		if err != "" {
			tc.p.errorf(tc.at(it.ValueOffset), enumHint(t), "example of field %s: %s", tc.f.GoName, err)
			return
		}
		tc.cons[0].Examples = append(tc.cons[0].Examples, lit)
		return
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(it.Value)); err != nil {
		tc.p.errorf(tc.at(it.ValueOffset), `write the example as JSON in single quotes: example='["a","b"]'`,
			"example of field %s is not valid JSON: %v", tc.f.GoName, err)
		return
	}
	tc.cons[0].Examples = append(tc.cons[0].Examples, model.Literal{JSON: buf.String()})
}

// checkBounds reports lower bounds above upper bounds at every level.
func (tc *tagContext) checkBounds() {
	for i, c := range tc.cons {
		where := tc.f.GoName
		if i > 0 {
			where += " (items)"
		}
		if c.Minimum != nil && c.Maximum != nil && c.Minimum.Value > c.Maximum.Value {
			tc.p.errorf(tc.f.Pos, "", "minimum %s is greater than maximum %s in field %s", c.Minimum.Text, c.Maximum.Text, where)
		}
		if c.ExclusiveMinimum != nil && c.ExclusiveMaximum != nil && c.ExclusiveMinimum.Value >= c.ExclusiveMaximum.Value {
			tc.p.errorf(tc.f.Pos, "", "exclusiveMinimum %s is not less than exclusiveMaximum %s in field %s", c.ExclusiveMinimum.Text, c.ExclusiveMaximum.Text, where)
		}
		if t := tc.levels[min(i, len(tc.levels)-1)]; t.Kind == model.KindInt || t.Kind == model.KindUint {
			// The decoder holds integer bounds as whole numbers of the 64-bit range.
			if keyword, text, bad := model.IntegerKeywordNoValue(t.Kind == model.KindUint, c); bad && keyword == "multipleOf" {
				tc.p.errorf(tc.f.Pos, "", "multipleOf %s in field %s is beyond the range of %s: only 0 would be a multiple", text, where, modelTypeString(t))
			} else if bad {
				tc.p.errorf(tc.f.Pos, "", "%s %s in field %s leaves no value of %s: no call could pass", keyword, text, where, modelTypeString(t))
			}
		}
		checkIntBounds(tc, "minLength", c.MinLength, "maxLength", c.MaxLength, where)
		checkIntBounds(tc, "minItems", c.MinItems, "maxItems", c.MaxItems, where)
		checkIntBounds(tc, "minProperties", c.MinProperties, "maxProperties", c.MaxProperties, where)
	}
}

func checkIntBounds(tc *tagContext, loName string, lo *int, hiName string, hi *int, where string) {
	if lo != nil && hi != nil && *lo > *hi {
		tc.p.errorf(tc.f.Pos, "", "%s %d is greater than %s %d in field %s", loName, *lo, hiName, *hi, where)
	}
}

// enumHint lists the members of an enum type, for a value outside it.
func enumHint(t *model.Type) string {
	if len(t.Enum) == 0 {
		return ""
	}
	var vals []string
	for _, v := range t.Enum {
		switch {
		case t.Kind == model.KindString:
			vals = append(vals, v.String)
		case v.GoName != "":
			vals = append(vals, fmt.Sprintf("%s (%d)", v.GoName, v.Int))
		default:
			vals = append(vals, strconv.FormatInt(v.Int, 10))
		}
	}
	return "the values of " + t.Named.Name + " are " + strings.Join(vals, ", ")
}

// literal converts a tag value to the canonical JSON text of a value of type t, or explains
// why it cannot. A value of an integer enum may be written as the constant's Go name
// (default=High for High Level = iota).
func literal(v string, t *model.Type) (model.Literal, string) {
	if t.Kind == model.KindInt || t.Kind == model.KindUint {
		if i := slices.IndexFunc(t.Enum, func(e *model.EnumValue) bool { return e.GoName == v && v != "" }); i >= 0 {
			v = strconv.FormatInt(t.Enum[i].Int, 10)
		}
	}
	switch t.Kind {
	case model.KindString, model.KindText:
		if t.Kind == model.KindString && len(t.Enum) > 0 && !slices.ContainsFunc(t.Enum, func(e *model.EnumValue) bool { return e.String == v }) {
			return model.Literal{}, fmt.Sprintf("%q is not a value of %s", v, t.Named.Name)
		}
		return model.Literal{JSON: jsonString(v)}, ""
	case model.KindBool:
		b, err := strconv.ParseBool(v)
		if err != nil || (v != "true" && v != "false") {
			if want := suggest.Closest(v, []string{"true", "false"}); want != "" {
				return model.Literal{}, fmt.Sprintf("%q is not true or false; did you mean %s?", v, want)
			}
			return model.Literal{}, fmt.Sprintf("%q is not true or false", v)
		}
		return model.Literal{JSON: strconv.FormatBool(b)}, ""
	case model.KindInt:
		n, err := strconv.ParseInt(v, 10, bitsOr64(t.Bits))
		if err != nil {
			return model.Literal{}, notInteger(v, err, t)
		}
		if len(t.Enum) > 0 && !slices.ContainsFunc(t.Enum, func(e *model.EnumValue) bool { return e.Int == n }) {
			return model.Literal{}, fmt.Sprintf("%d is not a value of %s", n, t.Named.Name)
		}
		return model.Literal{JSON: strconv.FormatInt(n, 10)}, ""
	case model.KindUint:
		n, err := strconv.ParseUint(v, 10, bitsOr64(t.Bits))
		if err != nil {
			if _, errSigned := strconv.ParseInt(v, 10, 64); errSigned == nil {
				err = strconv.ErrRange // a negative integer, which ParseUint calls a syntax error
			}
			return model.Literal{}, notInteger(v, err, t)
		}
		if len(t.Enum) > 0 && (n > math.MaxInt64 || !slices.ContainsFunc(t.Enum, func(e *model.EnumValue) bool { return e.Int == int64(n) })) {
			return model.Literal{}, fmt.Sprintf("%d is not a value of %s", n, t.Named.Name)
		}
		return model.Literal{JSON: strconv.FormatUint(n, 10)}, ""
	case model.KindFloat:
		f, err := strconv.ParseFloat(v, bitsOr64(t.Bits))
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return model.Literal{}, fmt.Sprintf("%q is not a number", v)
		}
		return model.Literal{JSON: formatFloat(f, bitsOr64(t.Bits))}, ""
	case model.KindDuration:
		d, err := time.ParseDuration(v)
		if err != nil {
			return model.Literal{}, fmt.Sprintf("%q is not a Go duration such as 1h30m", v)
		}
		return model.Literal{JSON: jsonString(d.String())}, ""
	case model.KindTime:
		tm, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			return model.Literal{}, fmt.Sprintf("%q is not an RFC 3339 date-time such as 2006-01-02T15:04:05Z", v)
		}
		return model.Literal{JSON: jsonString(tm.Format(time.RFC3339Nano))}, ""
	}
	return model.Literal{}, "values of " + modelTypeString(t) + " cannot be written in a tag"
}

// notInteger words a failed integer parse: a value that is no integer, or one that is but
// does not fit the field's type.
func notInteger(v string, err error, t *model.Type) string {
	if errors.Is(err, strconv.ErrRange) {
		return fmt.Sprintf("%s is out of range for %s", v, modelTypeString(t))
	}
	return fmt.Sprintf("%q is not an integer", v)
}

func bitsOr64(bits int) int {
	if bits == 0 {
		return 64
	}
	return bits
}

// jsonString quotes s as JSON, leaving <, > and & alone (they are valid in JSON and a schema
// is not HTML).
func jsonString(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(buf.String(), "\n")
}

// formatFloat writes f as encoding/json does: plain decimals for ordinary magnitudes,
// exponents for very large and very small ones.
func formatFloat(f float64, bits int) string {
	b, _ := json.Marshal(f) // finite: checked by the caller
	if bits == 32 {
		b, _ = json.Marshal(float32(f))
	}
	return string(b)
}

// toolTag finds the tool:"..." key in a struct tag. It returns its value and a function from
// offsets in that value to positions in the source: through the tag literal's quoting (a raw
// `...` or an interpreted "..." literal) and the tag value's own quoting.
func (p *parser) toolTag(tag string, lit *ast.BasicLit, fieldPos model.Position) (string, func(int) model.Position, bool) {
	fallback := func(int) model.Position { return fieldPos }
	value, quotedAt, ok := lookupTag(tag, tagKey)
	if !ok {
		return "", fallback, false
	}
	if lit == nil {
		return value, fallback, true
	}
	litOffs := unquoteOffsets(lit.Value)
	valOffs := unquoteOffsets(tag[quotedAt : quotedAt+quotedLen(tag[quotedAt:])])
	if litOffs == nil || valOffs == nil || len(litOffs) != len(tag)+1 {
		return value, fallback, true
	}
	start := p.l.Position(lit.Pos())
	return value, func(off int) model.Position {
		off = min(max(off, 0), len(valOffs)-1)
		return advance(start, lit.Value, litOffs[quotedAt+valOffs[off]])
	}, true
}

// lookupTag is reflect.StructTag.Lookup that also returns the offset of the value's opening
// quote in tag.
func lookupTag(tag, key string) (value string, quotedAt int, ok bool) {
	i := 0
	for i < len(tag) {
		for i < len(tag) && tag[i] == ' ' {
			i++
		}
		start := i
		for i < len(tag) && tag[i] > ' ' && tag[i] != ':' && tag[i] != '"' && tag[i] != 0x7f {
			i++
		}
		if i == start || i+1 >= len(tag) || tag[i] != ':' || tag[i+1] != '"' {
			return "", 0, false
		}
		name := tag[start:i]
		i++
		q := i
		n := quotedLen(tag[q:])
		if n == 0 {
			return "", 0, false
		}
		i = q + n
		if name == key {
			v, err := strconv.Unquote(tag[q:i])
			if err != nil {
				return "", 0, false
			}
			return v, q, true
		}
	}
	return "", 0, false
}

// quotedLen is the length of the double-quoted string at the start of s, quotes included, or
// 0 when it does not close.
func quotedLen(s string) int {
	if s == "" || s[0] != '"' {
		return 0
	}
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return 0
}

// unquoteOffsets maps each byte of the unquoted form of the Go string literal q to the offset
// in q of the text that produced it, plus one entry for the end (the closing quote). It
// returns nil when q is not a valid literal.
func unquoteOffsets(q string) []int {
	if len(q) < 2 {
		return nil
	}
	var offs []int
	if q[0] == '`' {
		for i := 1; i < len(q)-1; i++ {
			if q[i] != '\r' { // raw literals drop carriage returns
				offs = append(offs, i)
			}
		}
		return append(offs, len(q)-1)
	}
	if q[0] != '"' {
		return nil
	}
	rest, at := q[1:len(q)-1], 1
	for rest != "" {
		r, multibyte, tail, err := strconv.UnquoteChar(rest, '"')
		if err != nil {
			return nil
		}
		n := 1
		if r >= utf8.RuneSelf && multibyte {
			n = utf8.RuneLen(r)
		}
		for range n {
			offs = append(offs, at)
		}
		at += len(rest) - len(tail)
		rest = tail
	}
	return append(offs, at)
}
