package agreement

import (
	"bytes"
	"encoding/json"
	"math/big"
	"math/rand/v2"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolgen-go/toolgen/internal/jsonpointer"
)

// Corpus returns argument documents for a schema: valid instances built from the schema
// (every property, only required ones, defaults, boundary values: minLength, maxLength,
// minimum, maximum, enum members, formats, patterns — for a pattern, a few strings found by
// trying candidates against regexp), and invalid mutations of them (each constraint violated
// one at a time: wrong type, missing required, unknown property, out-of-range numbers, too
// short/long, bad format, non-matching pattern, too many/few items, duplicate items, null
// where not allowed, fractional numbers for integers, 2.0 for integers (valid!), 1e2, -0,
// huge numbers within ±2^53, unicode and escapes in strings). Deterministic for a seed.
//
// Each document changes one thing in an otherwise valid instance, so that a disagreement
// points at one keyword; a few per object combine two mutations, to check that the decoder
// goes on after a problem. The corpus never holds a document in the exception classes of the
// package documentation (see [Exception]). A schema that is not JSON gives no documents.
func Corpus(schema []byte, seed int64) [][]byte {
	root, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil
	}
	g := &generator{root: root, rng: rand.New(rand.NewPCG(uint64(seed), 0x746f6f6c67656e))}
	v := g.variants(root, 0)

	var docs [][]byte
	seen := map[string]bool{}
	add := func(val value) {
		doc := encodeValue(val)
		if seen[string(doc)] || Exception(doc) != "" {
			return
		}
		seen[string(doc)] = true
		docs = append(docs, doc)
	}
	for _, val := range v.valid {
		add(val)
	}
	for _, val := range v.invalid {
		add(val)
	}
	// The whole document of the wrong type, and the empty object (the registry's reading of
	// empty arguments), whatever the schema says.
	for _, val := range []value{jsonObject{}, jsonNull{}, jsonArray{}, str(""), jsonNumber("0"), jsonBool(false)} {
		add(val)
	}
	return docs
}

// generator builds the variants of a schema. Everything it decides by chance comes from rng,
// so a seed fixes the corpus.
type generator struct {
	root any
	rng  *rand.Rand
}

// variants are instances of one (sub)schema: valid[0], when present, is the base instance the
// enclosing object or array embeds while one of its other members varies. Which list a value
// is in is the generator's intent only; the validator has the last word.
type variants struct {
	valid   []value
	invalid []value
}

const (
	// fullDepth is the nesting below which only minimal instances are built, which bounds
	// the corpus of recursive schemas.
	fullDepth = 6
	// hardDepth stops minimal instances of schemas that recurse through required members.
	hardDepth = 24
	// maxCount bounds the arrays and maps built to reach a maxItems or maxProperties.
	maxCount = 1000
)

var maxSafeInteger = new(big.Rat).SetInt64(1 << 53)

// epsilon, 10^-30, moves a number by less than a float64 can tell near any value the corpus
// uses: the two sides must still tell the numbers apart.
var epsilon = new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(10), big.NewInt(30), nil))

// resolve follows local $ref chains ("#/$defs/Name"), the only references toolgen emits.
func (g *generator) resolve(s any) any {
	for range 32 {
		m, ok := s.(map[string]any)
		if !ok {
			return s
		}
		ref, ok := m["$ref"].(string)
		if !ok {
			return s
		}
		target, ok := g.pointer(ref)
		if !ok {
			return s
		}
		s = target
	}
	return s
}

// pointer looks up a same-document reference: a JSON Pointer in URI-fragment form, so
// percent-encoded as gen/schema writes the names of non-ASCII types.
func (g *generator) pointer(ref string) (any, bool) {
	ptr, ok := jsonpointer.RefPointer(ref)
	if !ok {
		return nil, false
	}
	cur := g.root
	for _, tok := range jsonpointer.Tokens(ptr) {
		switch c := cur.(type) {
		case map[string]any:
			if cur, ok = c[tok]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// jsonTypes lists the JSON Schema type names in the order their instances are preferred as
// a base: null last, so that a nullable field is present in the base instance.
var jsonTypes = []string{"object", "array", "string", "integer", "number", "boolean", "null"}

// typeSet returns the types a schema allows; nil means any type.
func typeSet(s map[string]any) map[string]bool {
	switch t := s["type"].(type) {
	case string:
		return map[string]bool{t: true}
	case []any:
		set := map[string]bool{}
		for _, e := range t {
			if name, ok := e.(string); ok {
				set[name] = true
			}
		}
		return set
	}
	return nil
}

// wrongTypes returns one value of each JSON type the set does not allow.
func wrongTypes(types map[string]bool) []value {
	var out []value
	if !types["object"] {
		out = append(out, jsonObject{})
	}
	if !types["array"] {
		out = append(out, jsonArray{}, jsonArray{str("1")})
	}
	if !types["string"] {
		out = append(out, str("1"))
	}
	if !types["integer"] && !types["number"] {
		out = append(out, jsonNumber("1"))
	}
	if !types["number"] && types["integer"] {
		out = append(out, jsonNumber("1.5"))
	}
	if !types["boolean"] {
		out = append(out, jsonBool(true))
	}
	if !types["null"] {
		out = append(out, jsonNull{})
	}
	return out
}

// anyValues are instances of a schema without constraints (json.RawMessage, any).
func anyValues() []value {
	return []value{
		jsonObject{{str("a"), jsonArray{jsonNumber("1"), jsonObject{{str("b"), jsonNull{}}}}}, {str("é"), str("😀")}},
		jsonObject{}, jsonArray{}, str("s"), jsonNumber("0"), jsonNumber("-1.5e3"), jsonBool(true), jsonNull{},
	}
}

func (g *generator) variants(s any, depth int) variants {
	s = g.resolve(s)
	switch s := s.(type) {
	case bool:
		if s {
			return variants{valid: anyValues()}
		}
		return variants{invalid: []value{jsonNull{}, jsonObject{}}}
	case map[string]any:
		if depth >= fullDepth {
			return variants{valid: []value{g.minimal(s, depth)}}
		}
		return g.schemaVariants(s, depth)
	}
	return variants{}
}

func (g *generator) schemaVariants(s map[string]any, depth int) variants {
	if c, ok := s["const"]; ok {
		return variants{valid: []value{fromSchemaValue(c)}, invalid: append(wrongTypes(nil), str("not the constant"))}
	}
	if members, ok := s["enum"].([]any); ok {
		return enumVariants(members, typeSet(s))
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		if branches, ok := s[kw].([]any); ok {
			var v variants
			for _, b := range branches {
				bv := g.variants(b, depth+1)
				v.valid = append(v.valid, bv.valid...)
				v.invalid = append(v.invalid, bv.invalid...)
			}
			return v
		}
	}

	types := typeSet(s)
	if types == nil {
		if _, ok := s["properties"]; ok {
			types = map[string]bool{"object": true}
		} else if _, ok := s["items"]; ok {
			types = map[string]bool{"array": true}
		} else {
			return variants{valid: anyValues()}
		}
	}
	var v variants
	for _, t := range jsonTypes {
		if !types[t] {
			continue
		}
		var tv variants
		switch t {
		case "object":
			tv = g.objectVariants(s, depth)
		case "array":
			tv = g.arrayVariants(s, depth)
		case "string":
			tv = g.stringVariants(s)
		case "integer":
			tv = numberVariants(s, true)
		case "number":
			if types["integer"] {
				continue // the integer instances are numbers too
			}
			tv = numberVariants(s, false)
		case "boolean":
			tv = variants{valid: []value{jsonBool(true), jsonBool(false)}}
		case "null":
			tv = variants{valid: []value{jsonNull{}}}
		}
		v.valid = append(v.valid, tv.valid...)
		v.invalid = append(v.invalid, tv.invalid...)
	}
	if def, ok := s["default"]; ok {
		v.valid = append(v.valid, fromSchemaValue(def))
	}
	v.invalid = append(v.invalid, wrongTypes(types)...)
	return v
}

// enumVariants: every member, the string members again spelled with escapes and the integer
// members as 2.0 and 2e0; non-members close to the members (another case, a suffix, the next
// integer, a fraction) and values of the wrong type.
func enumVariants(members []any, types map[string]bool) variants {
	var v variants
	var ints []*big.Rat
	hasNull := false
	for _, m := range members {
		v.valid = append(v.valid, fromSchemaValue(m))
		switch m := m.(type) {
		case string:
			v.valid = append(v.valid, escapedString(m))
			v.invalid = append(v.invalid, str(m+"x"))
			if swapped := swapCase(m); swapped != m {
				v.invalid = append(v.invalid, str(swapped))
			}
			if m != "" {
				v.invalid = append(v.invalid, str(" "+m), str(m[:len(m)-1]))
			}
		case json.Number:
			r, ok := new(big.Rat).SetString(string(m))
			if !ok {
				continue
			}
			if r.IsInt() {
				ints = append(ints, r)
				v.valid = append(v.valid, jsonNumber(r.Num().String()+".0"), jsonNumber(r.Num().String()+"e0"))
			}
			v.invalid = append(v.invalid, jsonNumber(ratText(new(big.Rat).Add(r, big.NewRat(1, 2)))))
		case nil:
			hasNull = true
		}
	}
	if len(ints) > 0 {
		lo, hi := ints[0], ints[0]
		for _, r := range ints {
			if r.Cmp(lo) < 0 {
				lo = r
			}
			if r.Cmp(hi) > 0 {
				hi = r
			}
		}
		v.invalid = append(v.invalid,
			jsonNumber(ratText(new(big.Rat).Sub(lo, big.NewRat(1, 1)))),
			jsonNumber(ratText(new(big.Rat).Add(hi, big.NewRat(1, 1)))))
	}
	if types == nil {
		types = map[string]bool{}
		for _, m := range members {
			switch m.(type) {
			case string:
				types["string"] = true
			case json.Number:
				types["number"] = true
			case bool:
				types["boolean"] = true
			}
		}
	}
	types["null"] = hasNull
	v.invalid = append(v.invalid, wrongTypes(types)...)
	if !types["string"] {
		v.invalid = append(v.invalid, str("0")) // a member's name or digits as a string
	}
	return v
}

// minimal returns a small instance: null where allowed, else only required members, fewest
// items, shortest strings. It keeps recursive schemas finite.
func (g *generator) minimal(s any, depth int) value {
	s = g.resolve(s)
	m, ok := s.(map[string]any)
	if !ok || depth > hardDepth {
		return jsonNull{}
	}
	if c, ok := m["const"]; ok {
		return fromSchemaValue(c)
	}
	if members, ok := m["enum"].([]any); ok && len(members) > 0 {
		return fromSchemaValue(members[0])
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		if branches, ok := m[kw].([]any); ok && len(branches) > 0 {
			return g.minimal(branches[0], depth+1)
		}
	}
	types := typeSet(m)
	switch {
	case types == nil:
		return jsonObject{}
	case types["null"]:
		return jsonNull{}
	case types["object"]:
		props, _ := m["properties"].(map[string]any)
		var out jsonObject
		for _, name := range stringList(m["required"]) {
			out = append(out, member{str(name), g.minimal(props[name], depth+1)})
		}
		return out
	case types["array"]:
		out := jsonArray{}
		for range intKeyword(m, "minItems") {
			out = append(out, g.minimal(m["items"], depth+1))
		}
		return out
	case types["string"]:
		return firstValid(g.stringVariants(m))
	case types["integer"]:
		return firstValid(numberVariants(m, true))
	case types["number"]:
		return firstValid(numberVariants(m, false))
	case types["boolean"]:
		return jsonBool(false)
	}
	return jsonNull{}
}

func firstValid(v variants) value {
	if len(v.valid) > 0 {
		return v.valid[0]
	}
	return jsonNull{}
}

// intKeyword returns a non-negative integer keyword, or -1 when it is absent.
func intKeyword(s map[string]any, name string) int {
	n, ok := s[name].(json.Number)
	if !ok {
		return -1
	}
	i, err := strconv.Atoi(string(n))
	if err != nil || i < 0 {
		return -1
	}
	return i
}

func ratKeyword(s map[string]any, name string) *big.Rat {
	n, ok := s[name].(json.Number)
	if !ok {
		return nil
	}
	r, ok := new(big.Rat).SetString(string(n))
	if !ok {
		return nil
	}
	return r
}

func stringList(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, e := range list {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func (g *generator) objectVariants(s map[string]any, depth int) variants {
	props, _ := s["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	sort.Strings(names)
	required := stringList(s["required"])
	isRequired := map[string]bool{}
	for _, r := range required {
		isRequired[r] = true
	}
	minProps, maxProps := intKeyword(s, "minProperties"), intKeyword(s, "maxProperties")

	children := map[string]variants{}
	base := jsonObject{}
	for _, name := range names {
		cv := g.variants(props[name], depth+1)
		children[name] = cv
		switch {
		case len(cv.valid) > 0:
			base = append(base, member{str(name), cv.valid[0]})
		case isRequired[name]:
			base = append(base, member{str(name), jsonNull{}})
		}
	}
	if maxProps >= 0 {
		// Keep the required members and as many others as fit.
		for i := len(base) - 1; i >= 0 && len(base) > maxProps; i-- {
			if !isRequired[base[i].key.s] {
				base = base.without(base[i].key.s)
			}
		}
	}

	// What may go beyond the named properties: a schema for map values, anything, or nothing.
	extra, closed := s["additionalProperties"], false
	if b, ok := extra.(bool); ok {
		closed, extra = !b, nil
	}
	var extraVariants *variants
	if m, ok := extra.(map[string]any); ok {
		ev := g.variants(m, depth+1)
		extraVariants = &ev
	}
	keys, badKeys := g.propertyNameSamples(s)
	_, namedKeys := s["propertyNames"]
	entry := func(i int) jsonString {
		switch {
		case i < len(keys):
			return str(keys[i])
		case namedKeys:
			return str(strconv.Itoa(100 + i)) // integer-keyed maps
		}
		return str("k" + strconv.Itoa(i))
	}
	extraBase := value(jsonNumber("1"))
	if extraVariants != nil {
		extraBase = firstValid(*extraVariants)
	}
	// withEntries returns o with n more members that are not named properties.
	withEntries := func(o jsonObject, n int) jsonObject {
		out := append(jsonObject(nil), o...)
		tries := n + len(keys) + len(props) + len(o)
		for i := 0; n > 0 && i <= tries; i++ {
			k := entry(i)
			if props[k.s] != nil || out.has(k.s) {
				continue
			}
			out = append(out, member{k, extraBase})
			n--
		}
		return out
	}
	if !closed && minProps > len(base) {
		base = withEntries(base, minProps-len(base))
	}

	var v variants
	v.valid = append(v.valid, base)
	var onlyRequired jsonObject
	for _, m := range base {
		if isRequired[m.key.s] {
			onlyRequired = append(onlyRequired, m)
		}
	}
	if len(onlyRequired) != len(base) && len(onlyRequired) >= max(minProps, 0) {
		v.valid = append(v.valid, onlyRequired)
	}
	escaped := make(jsonObject, len(base))
	for i, m := range base {
		escaped[i] = member{escapedString(m.key.s), m.val}
	}
	if len(escaped) > 0 {
		v.valid = append(v.valid, escaped)
	}
	for _, name := range names {
		for _, cv := range children[name].valid[min(1, len(children[name].valid)):] {
			v.valid = append(v.valid, base.with(str(name), cv))
		}
	}

	for _, r := range required {
		v.invalid = append(v.invalid, base.without(r))
	}
	if closed {
		v.invalid = append(v.invalid, base.with(str("zz_unknown"), jsonNumber("1")))
		if len(names) > 0 {
			v.invalid = append(v.invalid, base.with(str(names[0]+"s"), jsonNumber("1")))
			if swapped := swapCase(names[0]); swapped != names[0] && props[swapped] == nil {
				v.invalid = append(v.invalid, base.with(str(swapped), firstValid(children[names[0]])))
			}
		}
	}
	type mutation struct {
		key jsonString
		val value
	}
	var mutations []mutation
	for _, name := range names {
		for _, cv := range children[name].invalid {
			v.invalid = append(v.invalid, base.with(str(name), cv))
			mutations = append(mutations, mutation{str(name), cv})
		}
	}
	// Two problems in one document: the decoder must report both and still refuse it.
	for range min(2, len(mutations)/2) {
		a, b := mutations[g.rng.IntN(len(mutations))], mutations[g.rng.IntN(len(mutations))]
		v.invalid = append(v.invalid, base.with(a.key, a.val).with(b.key, b.val))
	}

	if !closed {
		// Entries beyond the named properties: map keys, unicode and escaped keys, the
		// empty key, and each value variant.
		v.valid = append(v.valid, withEntries(base, 1))
		for _, k := range []jsonString{str("ключ 😀"), escapedString("k/~é"), str("")} {
			v.valid = append(v.valid, base.with(k, extraBase))
		}
		if extraVariants != nil {
			for _, ev := range extraVariants.valid[min(1, len(extraVariants.valid)):] {
				v.valid = append(v.valid, base.with(entry(0), ev))
			}
			for _, ev := range extraVariants.invalid {
				v.invalid = append(v.invalid, base.with(entry(0), ev))
			}
		}
		for _, k := range badKeys {
			v.invalid = append(v.invalid, base.with(str(k), extraBase))
		}
		if maxProps >= 0 && maxProps <= maxCount {
			v.valid = append(v.valid, withEntries(base, maxProps-len(base)))
			v.invalid = append(v.invalid, withEntries(base, maxProps+1-len(base)))
		}
	} else if maxProps >= 0 && len(names) > maxProps {
		full := jsonObject{}
		for _, name := range names {
			full = append(full, member{str(name), firstValid(children[name])})
		}
		v.invalid = append(v.invalid, full)
	}
	if minProps > 0 {
		short := base
		for len(short) >= minProps {
			short = short[:len(short)-1]
		}
		v.invalid = append(v.invalid, short)
	}
	return v
}

// propertyNameSamples returns keys for map entries: ones the propertyNames schema (the
// integer-keyed maps' pattern) accepts, and string variants it should refuse.
func (g *generator) propertyNameSamples(s map[string]any) (good, bad []string) {
	pn, ok := g.resolve(s["propertyNames"]).(map[string]any)
	if !ok {
		return nil, nil
	}
	pv := g.stringVariants(pn)
	for _, v := range pv.valid {
		if k, ok := v.(jsonString); ok && k.raw == "" {
			good = append(good, k.s)
		}
	}
	for _, v := range pv.invalid {
		if k, ok := v.(jsonString); ok {
			bad = append(bad, k.s)
		}
	}
	// Integer keys beyond what the pattern generator tried.
	if pattern, _ := pn["pattern"].(string); pattern != "" {
		if re, err := regexp.Compile(pattern); err == nil {
			for _, k := range []string{"0", "1", "2", "-1", "42", "-0", "01", "1.5", "1e2", " 1", "x"} {
				if re.MatchString(k) {
					good = append(good, k)
				} else {
					bad = append(bad, k)
				}
			}
		}
	}
	return dedupe(good), dedupe(bad)
}

func dedupe(list []string) []string {
	seen := map[string]bool{}
	out := list[:0]
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func (g *generator) arrayVariants(s map[string]any, depth int) variants {
	minItems, maxItems := intKeyword(s, "minItems"), intKeyword(s, "maxItems")
	unique, _ := s["uniqueItems"].(bool)
	var prefix []variants
	if list, ok := s["prefixItems"].([]any); ok {
		for _, p := range list {
			prefix = append(prefix, g.variants(p, depth+1))
		}
	}
	items, hasItems := s["items"]
	itemVariants := variants{valid: anyValues()}
	if hasItems {
		itemVariants = g.variants(items, depth+1)
	}

	// element returns the valid item for position i; for uniqueItems it cycles through the
	// valid variants, which are distinct as far as the generator can tell.
	element := func(i int) value {
		if i < len(prefix) {
			return firstValid(prefix[i])
		}
		if len(itemVariants.valid) == 0 {
			return jsonNull{}
		}
		if unique {
			return itemVariants.valid[(i-len(prefix))%len(itemVariants.valid)]
		}
		return itemVariants.valid[0]
	}
	build := func(n int) jsonArray {
		out := make(jsonArray, n)
		for i := range out {
			out[i] = element(i)
		}
		return out
	}
	n := max(minItems, len(prefix), 1)
	if maxItems >= 0 && n > maxItems {
		n = maxItems
	}
	base := build(n)
	// at returns base with position i replaced by e (base extended to hold i when needed).
	at := func(i int, e value) jsonArray {
		out := build(max(len(base), i+1))
		out[i] = e
		return out
	}

	var v variants
	v.valid = append(v.valid, base)
	if minItems <= 0 {
		v.valid = append(v.valid, jsonArray{})
	} else {
		v.valid = append(v.valid, build(minItems))
		v.invalid = append(v.invalid, build(minItems-1))
	}
	if maxItems >= 0 && maxItems <= maxCount {
		v.valid = append(v.valid, build(maxItems))
		v.invalid = append(v.invalid, build(maxItems+1))
	}
	for i, p := range prefix {
		for _, e := range p.valid[min(1, len(p.valid)):] {
			v.valid = append(v.valid, at(i, e))
		}
		for _, e := range p.invalid {
			v.invalid = append(v.invalid, at(i, e))
		}
	}
	first := len(prefix)
	for _, e := range itemVariants.valid[min(1, len(itemVariants.valid)):] {
		v.valid = append(v.valid, at(first, e))
	}
	for _, e := range itemVariants.invalid {
		v.invalid = append(v.invalid, at(first, e))
	}
	if len(itemVariants.invalid) > 0 {
		// The same problem further in, where the decoder has already kept items.
		e := itemVariants.invalid[g.rng.IntN(len(itemVariants.invalid))]
		v.invalid = append(v.invalid, at(first+1+g.rng.IntN(3), e))
	}
	if unique {
		dup := build(max(n, first+2))
		dup[first+1] = dup[first]
		v.invalid = append(v.invalid, dup)
		if len(itemVariants.valid) > 1 {
			v.valid = append(v.valid, jsonArray{itemVariants.valid[0], itemVariants.valid[1]})
		}
		// Items equal only in their spelling, and items different only beyond float64 precision.
		switch e := firstValid(itemVariants).(type) {
		case jsonString:
			v.invalid = append(v.invalid, jsonArray{e, escapedString(e.s)})
		case jsonNumber:
			if r, ok := new(big.Rat).SetString(string(e)); ok {
				v.valid = append(v.valid, jsonArray{e, jsonNumber(ratText(r.Add(r, epsilon)))})
			}
		}
	}
	return v
}

// escapesSample holds every short JSON escape, a control character and text beyond the BMP.
const escapesSample = "q\"b\\s/f\fb\bn\nr\rt\tc\x01é😀"

// shortEscaped spells s with JSON's short escapes, "/" as "\/", and other control characters
// as \u escapes.
func shortEscaped(s string) jsonString {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '/':
			b.WriteString(`\/`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte("0123456789abcdef"[r>>4])
				b.WriteByte("0123456789abcdef"[r&0xF])
				continue
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return jsonString{s: s, raw: b.String()}
}

func (g *generator) stringVariants(s map[string]any) variants {
	minLen, maxLen := intKeyword(s, "minLength"), intKeyword(s, "maxLength")
	format, _ := s["format"].(string)
	pattern, _ := s["pattern"].(string)
	fits := func(x string) bool {
		n := runeLen(x)
		return (minLen < 0 || n >= minLen) && (maxLen < 0 || n <= maxLen)
	}
	// clamp returns the length nearest to n that the bounds allow.
	clamp := func(n int) int {
		if minLen >= 0 && n < minLen {
			n = minLen
		}
		if maxLen >= 0 && n > maxLen {
			n = maxLen
		}
		return n
	}

	var good, bad []string
	samples, knownFormat := formatSamples[format]
	constrained := knownFormat || pattern != ""
	if knownFormat {
		good, bad = append(good, samples.good...), append(bad, samples.bad...)
	}
	if pattern != "" {
		match, other := patternSamples(pattern, g.rng)
		if knownFormat {
			// Both must hold: keep the format samples on the pattern's side.
			re := regexp.MustCompile(pattern) // patternSamples returned matches, so it compiles
			var both []string
			for _, x := range good {
				if re.MatchString(x) {
					both = append(both, x)
				} else {
					bad = append(bad, x)
				}
			}
			good = both
		} else {
			good, bad = match, other
		}
	}
	var v variants
	if !constrained {
		good = append(good, fitLength("abc", clamp(3), "abc"), fitLength(unicodeSample, clamp(runeLen(unicodeSample)), "x"),
			fitLength(escapesSample, clamp(runeLen(escapesSample)), "x"))
		if minLen <= 0 {
			good = append(good, "")
		} else {
			good = append(good, fitLength("", minLen, "a"), fitLength("", minLen, "😀é"))
			bad = append(bad, fitLength("", minLen-1, "a"), fitLength("", minLen-1, "😀é"))
		}
		if maxLen >= 0 {
			good = append(good, fitLength("", maxLen, "a"), fitLength("", maxLen, "é😀"))
			bad = append(bad, fitLength("", maxLen+1, "a"), fitLength("", maxLen+1, "é😀"))
		}
	} else if len(good) > 0 {
		// The bounds on top of a format or pattern: cut or pad a match past them.
		if minLen > 0 {
			bad = append(bad, fitLength(good[0], minLen-1, "a"))
		}
		if maxLen >= 0 {
			bad = append(bad, fitLength(good[0], maxLen+1, good[0]))
		}
	}
	// The base is the first candidate within the length bounds.
	sort.SliceStable(good, func(i, j int) bool { return fits(good[i]) && !fits(good[j]) })

	for _, x := range good {
		if strings.ContainsAny(x, "\"\\/\b\f\n\r\t") {
			v.valid = append(v.valid, shortEscaped(x))
		} else {
			v.valid = append(v.valid, str(x))
		}
	}
	if len(good) > 0 {
		v.valid = append(v.valid, escapedString(good[0]))
	}
	if !constrained {
		// A lone surrogate escape: both sides read it as U+FFFD, one character.
		v.valid = append(v.valid, jsonString{s: "\uFFFDx", raw: `"\ud800x"`})
	}
	for _, x := range bad {
		v.invalid = append(v.invalid, str(x))
	}
	return v
}

// numberVariants builds numbers around every bound: on it, a step inside and outside, and
// 10^-30 either side (closer than a float64 can tell), in several spellings (2.0, 1e2, -0);
// fractions for integers; non-multiples for multipleOf; ±2^53 when unbounded. Nothing beyond
// ±2^53 (see the package documentation).
func numberVariants(s map[string]any, integer bool) variants {
	minimum, maximum := ratKeyword(s, "minimum"), ratKeyword(s, "maximum")
	exclMin, exclMax := ratKeyword(s, "exclusiveMinimum"), ratKeyword(s, "exclusiveMaximum")
	multipleOf := ratKeyword(s, "multipleOf")
	if multipleOf != nil && multipleOf.Sign() <= 0 {
		multipleOf = nil
	}
	ok := func(x *big.Rat) bool {
		switch {
		case integer && !x.IsInt(),
			minimum != nil && x.Cmp(minimum) < 0,
			maximum != nil && x.Cmp(maximum) > 0,
			exclMin != nil && x.Cmp(exclMin) <= 0,
			exclMax != nil && x.Cmp(exclMax) >= 0:
			return false
		case multipleOf != nil:
			return new(big.Rat).Quo(x, multipleOf).IsInt()
		}
		return true
	}
	one := big.NewRat(1, 1)
	step := one
	if !integer {
		step = big.NewRat(1, 4)
	}
	add := func(a, b *big.Rat) *big.Rat { return new(big.Rat).Add(a, b) }
	sub := func(a, b *big.Rat) *big.Rat { return new(big.Rat).Sub(a, b) }

	// Candidates for the base, best first; the first one in range wins.
	var candidates []*big.Rat
	candidates = append(candidates, big.NewRat(0, 1), one)
	if !integer {
		candidates = append(candidates, big.NewRat(5, 2))
	}
	lo, hi := minimum, maximum
	if exclMin != nil {
		candidates = append(candidates, add(exclMin, step))
		if lo == nil || exclMin.Cmp(lo) > 0 {
			lo = exclMin
		}
	}
	if exclMax != nil {
		candidates = append(candidates, sub(exclMax, step))
		if hi == nil || exclMax.Cmp(hi) < 0 {
			hi = exclMax
		}
	}
	for _, b := range []*big.Rat{minimum, maximum} {
		if b != nil {
			candidates = append(candidates, b)
		}
	}
	if lo != nil && hi != nil {
		mid := new(big.Rat).Quo(add(lo, hi), big.NewRat(2, 1))
		candidates = append(candidates, mid)
		if integer {
			candidates = append(candidates, new(big.Rat).SetInt(new(big.Int).Quo(mid.Num(), mid.Denom())))
		}
	}
	if multipleOf != nil {
		for _, b := range []*big.Rat{lo, hi} {
			if b != nil {
				q := new(big.Int).Quo(new(big.Rat).Quo(b, multipleOf).Num(), new(big.Rat).Quo(b, multipleOf).Denom())
				for _, k := range []int64{-1, 0, 1} {
					candidates = append(candidates, new(big.Rat).Mul(multipleOf, new(big.Rat).SetInt(new(big.Int).Add(q, big.NewInt(k)))))
				}
			}
		}
	}
	var base *big.Rat
	for _, c := range candidates {
		if ok(c) {
			base = c
			break
		}
	}

	var v variants
	seen := map[string]bool{}
	put := func(text string) {
		r, parsed := new(big.Rat).SetString(text)
		if !parsed || seen[text] || new(big.Rat).Abs(r).Cmp(maxSafeInteger) > 0 {
			return
		}
		seen[text] = true
		if ok(r) {
			v.valid = append(v.valid, jsonNumber(text))
		} else {
			v.invalid = append(v.invalid, jsonNumber(text))
		}
	}
	// spell writes x in its plain form and, for the valid ones, in other spellings of the
	// same number.
	spell := func(x *big.Rat) {
		text := ratText(x)
		put(text)
		if !ok(x) {
			return
		}
		if x.IsInt() {
			put(text + ".0")
			put(exponentForm(x))
			if x.Sign() == 0 {
				put("-0")
				put("-0.0")
				put("0e5")
			}
		} else {
			put(strings.ToUpper(exponentForm(x)))
		}
	}
	if base != nil {
		spell(base)
	}
	for _, b := range []*big.Rat{minimum, maximum, exclMin, exclMax} {
		if b == nil {
			continue
		}
		for _, x := range []*big.Rat{b, sub(b, one), add(b, one), sub(b, step), add(b, step), sub(b, epsilon), add(b, epsilon)} {
			spell(x)
		}
	}
	if !integer && (exclMin != nil && exclMin.Sign() == 0 || minimum != nil && minimum.Sign() == 0) {
		// Positive and negative values that round to zero in a float64.
		put("1e-400")
		put("-1e-400")
	}
	if base != nil {
		put(ratText(add(base, big.NewRat(1, 2))))      // a fraction
		put(ratText(add(base, epsilon)))               // a fraction too small for a float64
		put(ratText(new(big.Rat).Neg(add(base, one)))) // the sign flipped
		spell(new(big.Rat).Mul(base, big.NewRat(100, 1)))
	}
	put("1e2")
	put("1E+2")
	put("-0")
	if lo == nil || hi == nil {
		put("9007199254740992")
		put("-9007199254740992")
		put("9007199254740991")
		put("9.007199254740991e15")
	}
	if multipleOf != nil && base != nil {
		spell(add(base, multipleOf))
		spell(add(base, new(big.Rat).Quo(multipleOf, big.NewRat(2, 1))))
		spell(add(base, new(big.Rat).Quo(multipleOf, big.NewRat(3, 1))))
	}
	// The base first, so that enclosing instances are valid.
	if base != nil && len(v.valid) > 0 {
		text := ratText(base)
		for i, x := range v.valid {
			if string(x.(jsonNumber)) == text {
				v.valid[0], v.valid[i] = v.valid[i], v.valid[0]
				break
			}
		}
	}
	return v
}

// exponentForm spells a non-zero x as mantissa "e" exponent (100 → "1e2", 7 → "70e-1",
// 0.25 → "25e-2"), and zero as "0e0".
func exponentForm(x *big.Rat) string {
	if x.Sign() == 0 {
		return "0e0"
	}
	text := ratText(new(big.Rat).Abs(x))
	sign := ""
	if x.Sign() < 0 {
		sign = "-"
	}
	if intPart, frac, found := strings.Cut(text, "."); found {
		digits := strings.TrimLeft(intPart+frac, "0")
		return sign + digits + "e-" + strconv.Itoa(len(frac))
	}
	trimmed := strings.TrimRight(text, "0")
	if zeros := len(text) - len(trimmed); zeros > 0 {
		return sign + trimmed + "e" + strconv.Itoa(zeros)
	}
	return sign + text + "0e-1"
}
