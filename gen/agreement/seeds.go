package agreement

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/big"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/toolgen-go/toolgen/internal/jsonpointer"
)

// Seed is an argument document derived from a tool's input schema, for the fuzz target
// toolgen -tests generates, with what the tool's decoder must make of it.
type Seed struct {
	// Note says what the document is, for a reader of the generated test and its failures:
	// "valid", "/city missing", "/days of the wrong type", "/unit off by one letter".
	Note string
	Args []byte
	// Problems are the JSON Pointers of the problems the decoder must refuse the document
	// with, in document order; nil for a valid document.
	Problems []string
}

// Seed limits: a generated test file stays readable, and its seeds run in a fraction of a
// second under go test.
const (
	maxValidSeeds   = 12
	maxInvalidSeeds = 48
	maxSeedBytes    = 256 // longer valid documents of the corpus (a maxLength reached) are left out
)

// Seeds derives the seeds of a tool's fuzz target from its input schema and its example
// calls (valid documents, checked when the code was generated):
//
//   - valid documents of the Corpus, bounds reached exactly and enum members included: the
//     first 12 of at most 256 bytes;
//   - from the valid document with the most properties (the base), each required property
//     missing, each property of a wrong type (true, or "x" where true is allowed), each enum
//     string off by one letter (an integer enum one past its largest member), at every
//     depth of the base (the first item of an array);
//   - the base with every top-level property of a wrong type at once, so that the decoder
//     is seen to report every problem, not only the first;
//   - an array instead of the object of arguments.
//
// Each invalid seed is judged by the validator, with the decoder's format rules: it is kept
// only when the validator refuses it at exactly the pointers the seed names, so a seed's
// Problems are what the schema says, not what this function guesses. Documents in an
// exception class are left out. A schema that is not JSON gives no seeds.
func Seeds(schema []byte, examples [][]byte) []Seed {
	sch, err := compiledWith(schema, true)
	if err != nil {
		return nil
	}
	root, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil
	}
	s := &seeder{gen: &generator{root: root}, schema: sch, seen: map[string]bool{}}
	for _, ex := range examples {
		s.seen[string(ex)] = true // the examples are seeds of their own
	}
	g := &generator{root: root, rng: rand.New(rand.NewPCG(uint64(CheckSeed), 0x746f6f6c67656e))}
	var valid []value
	for _, v := range g.variants(root, 0).valid {
		doc := encodeValue(v)
		if Exception(doc) == "" && !surrogateEscape.Match(doc) && sch.Validate(mustInstance(doc)) == nil {
			valid = append(valid, v)
		}
	}
	for _, v := range pickValid(valid) {
		doc := encodeValue(v)
		if !s.seen[string(doc)] {
			s.seen[string(doc)] = true
			s.out = append(s.out, Seed{Note: "valid", Args: doc})
		}
	}
	base := baseDocument(examples, valid)
	if obj, ok := base.(jsonObject); ok {
		s.walk(obj, root, "", func(v value) value { return v }, 0)
		s.allWrong(obj, root)
	}
	s.add(jsonArray{}, "an array instead of an object", []string{""})
	return s.out
}

// surrogateEscape matches a \u escape of a UTF-16 surrogate. Seeds leave such documents out:
// how encoding/json reads a lone surrogate escape is one of the things its json/v2 engine
// (Go 1.27) may do differently, and the seeds, judged at generate time, must be the same
// whichever Go runs toolgen.
var surrogateEscape = regexp.MustCompile(`\\u[dD][89a-fA-F][0-9a-fA-F]{2}`)

// seeder collects the seeds of one schema.
type seeder struct {
	gen     *generator // resolves references
	schema  *jsonschema.Schema
	seen    map[string]bool
	out     []Seed
	invalid int
}

// mustInstance reads a document as the validator does; it is only called on documents the
// seeder encoded, which are JSON.
func mustInstance(doc []byte) any {
	v, _ := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	return v
}

// baseDocument is the valid document mutations start from: of the examples and the valid
// corpus documents, the object with the most members (the first of equals).
func baseDocument(examples [][]byte, valid []value) value {
	var candidates []value
	for _, ex := range examples {
		if v, err := jsonschema.UnmarshalJSON(bytes.NewReader(ex)); err == nil {
			if _, ok := v.(map[string]any); ok {
				candidates = append(candidates, orderedValue(ex))
			}
		}
	}
	candidates = append(candidates, valid...)
	var best value
	most := -1
	for _, c := range candidates {
		if obj, ok := c.(jsonObject); ok && len(obj) > most {
			best, most = obj, len(obj)
		}
	}
	return best
}

// add keeps doc as an invalid seed when the validator refuses it at exactly the pointers
// problems names (in any order; the seed lists them in document order).
func (s *seeder) add(v value, note string, problems []string) {
	if s.invalid >= maxInvalidSeeds {
		return
	}
	doc := encodeValue(v)
	if s.seen[string(doc)] || Exception(doc) != "" || surrogateEscape.Match(doc) {
		return
	}
	err := s.schema.Validate(mustInstance(doc))
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return
	}
	got := problemPointers(verr, nil)
	slices.Sort(got)
	want := slices.Clone(problems)
	slices.Sort(want)
	if !slices.Equal(slices.Compact(got), want) {
		return
	}
	s.seen[string(doc)] = true
	s.invalid++
	s.out = append(s.out, Seed{Note: note, Args: doc, Problems: problems})
}

// problemPointers returns the JSON Pointers of the leaf errors of e, as the decoder names
// them: a missing required property or an unknown one at the property itself.
func problemPointers(e *jsonschema.ValidationError, out []string) []string {
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			out = problemPointers(c, out)
		}
		return out
	}
	at := ""
	for _, tok := range e.InstanceLocation {
		at += "/" + jsonpointer.Escape(tok)
	}
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		for _, name := range k.Missing {
			out = append(out, at+"/"+jsonpointer.Escape(name))
		}
	case *kind.AdditionalProperties:
		for _, name := range k.Properties {
			out = append(out, at+"/"+jsonpointer.Escape(name))
		}
	default:
		out = append(out, at)
	}
	return out
}

// maxSeedDepth bounds how deep into the base document mutations go.
const maxSeedDepth = 8

// walk adds the mutations of obj, found at pointer at in the base under schema s; put
// returns the base document with obj replaced.
func (s *seeder) walk(obj jsonObject, sch any, at string, put func(value) value, depth int) {
	osch := s.objectSchema(sch)
	if osch == nil || depth > maxSeedDepth {
		return
	}
	props, _ := osch["properties"].(map[string]any)
	for _, name := range stringList(osch["required"]) {
		if obj.has(name) {
			s.add(put(obj.without(name)), at+"/"+jsonpointer.Escape(name)+" missing", []string{at + "/" + jsonpointer.Escape(name)})
		}
	}
	for _, m := range obj {
		ptr := at + "/" + jsonpointer.Escape(m.key.s)
		ps, ok := props[m.key.s]
		if !ok {
			ps = osch["additionalProperties"]
		}
		if ps == nil {
			continue
		}
		for _, wrong := range []value{jsonBool(true), str("x")} {
			before := s.invalid
			s.add(put(obj.with(m.key, wrong)), ptr+" of the wrong type", []string{ptr})
			if s.invalid > before {
				break
			}
		}
		if off, ok := s.offByOne(ps); ok {
			s.add(put(obj.with(m.key, off)), ptr+" off by one letter", []string{ptr})
		}
		key := m.key
		within := func(v value) value { return put(obj.with(key, v)) }
		s.descend(m.val, ps, ptr, within, depth)
	}
}

// descend continues walk into v, the value at pointer at under schema sch.
func (s *seeder) descend(v value, sch any, at string, put func(value) value, depth int) {
	switch v := v.(type) {
	case jsonObject:
		s.walk(v, sch, at, put, depth+1)
	case jsonArray:
		items := s.itemsSchema(sch)
		if len(v) == 0 || items == nil {
			return
		}
		first := func(e value) value {
			c := slices.Clone(v)
			c[0] = e
			return put(c)
		}
		if off, ok := s.offByOne(items); ok {
			s.add(first(off), at+"/0 off by one letter", []string{at + "/0"})
		}
		s.descend(v[0], items, at+"/0", first, depth+1)
	}
}

// allWrong adds the base with every top-level property of a wrong type at once.
func (s *seeder) allWrong(obj jsonObject, sch any) {
	if len(obj) < 2 {
		return
	}
	var problems []string
	out := slices.Clone(obj)
	for i, m := range obj {
		// true is of the wrong type for anything but a boolean or an unconstrained value; the
		// validator's verdict is the check.
		out[i] = member{m.key, jsonBool(true)}
		if s.objectSchemaAccepts(sch, m.key.s) {
			out[i] = member{m.key, str("x")}
		}
		problems = append(problems, "/"+jsonpointer.Escape(m.key.s))
	}
	s.add(out, "every property of the wrong type", problems)
}

// objectSchemaAccepts reports whether the property name of an object under sch takes true.
func (s *seeder) objectSchemaAccepts(sch any, name string) bool {
	osch := s.objectSchema(sch)
	if osch == nil {
		return false
	}
	props, _ := osch["properties"].(map[string]any)
	ps := s.gen.resolve(props[name])
	ok := false
	visit(s.gen, ps, func(m map[string]any) {
		if t := typeSet(m); t["boolean"] {
			ok = true
		}
	})
	return ok
}

// offByOne returns a value one letter away from the first string member of the enum of sch
// (the last letter moved on by one), or one past the largest integer member, when that is
// not a member too.
func (s *seeder) offByOne(sch any) (value, bool) {
	var members []any
	visit(s.gen, s.gen.resolve(sch), func(m map[string]any) {
		if e, ok := m["enum"].([]any); ok && members == nil {
			members = e
		}
	})
	for _, e := range members {
		str0, ok := e.(string)
		if !ok || str0 == "" {
			continue
		}
		r, size := utf8.DecodeLastRuneInString(str0)
		next := r + 1
		if r == 'z' || r == 'Z' || r == '9' {
			next = r - 1
		}
		off := str0[:len(str0)-size] + string(next)
		if !slices.Contains(members, any(off)) {
			return str(off), true
		}
	}
	return nil, false
}

// visit calls fn on sch and, through references, on the branches of its anyOf and oneOf (a
// nullable field's schema is {"anyOf": [T, {"type": "null"}]}).
func visit(g *generator, sch any, fn func(map[string]any)) {
	m, ok := g.resolve(sch).(map[string]any)
	if !ok {
		return
	}
	fn(m)
	for _, key := range []string{"anyOf", "oneOf"} {
		branches, _ := m[key].([]any)
		for _, b := range branches {
			visit(g, b, fn)
		}
	}
}

// objectSchema returns the schema of sch, or of one of its branches, that describes an
// object's properties.
func (s *seeder) objectSchema(sch any) map[string]any {
	var found map[string]any
	visit(s.gen, sch, func(m map[string]any) {
		_, props := m["properties"]
		_, extra := m["additionalProperties"].(map[string]any)
		if found == nil && (props || extra || typeSet(m)["object"]) {
			found = m
		}
	})
	return found
}

// itemsSchema returns the items schema of sch, or of one of its branches.
func (s *seeder) itemsSchema(sch any) any {
	var found any
	visit(s.gen, sch, func(m map[string]any) {
		if items, ok := m["items"]; ok && found == nil {
			found = items
		}
	})
	return found
}

// orderedValue reads a JSON document into a corpus value, members in the order written and
// numbers as written; it is only called on documents the validator read.
func orderedValue(doc []byte) value {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	v, _ := readValue(dec)
	return v
}

func readValue(dec *json.Decoder) (value, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			arr := jsonArray{}
			for dec.More() {
				e, err := readValue(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, e)
			}
			_, err := dec.Token()
			return arr, err
		}
		obj := jsonObject{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			name, _ := k.(string)
			e, err := readValue(dec)
			if err != nil {
				return nil, err
			}
			obj = append(obj, member{str(name), e})
		}
		_, err := dec.Token()
		return obj, err
	case string:
		return str(t), nil
	case json.Number:
		return jsonNumber(t), nil
	case bool:
		return jsonBool(t), nil
	}
	return jsonNull{}, nil
}

// pickValid chooses the valid seeds among the valid documents of the corpus: one spelling of
// each value (the corpus spells a value several ways: 0, 0.0 and -0, escaped names), short
// documents only, taken in turn from the documents that vary each top-level property, so
// that every property's bounds and members get their turn before the limit.
func pickValid(valid []value) []value {
	if len(valid) == 0 {
		return nil
	}
	first, _ := valid[0].(jsonObject)
	buckets := map[string][]value{}
	var order []string
	spelled := map[string]bool{}
	for _, v := range valid {
		if len(encodeValue(v)) > maxSeedBytes || beyondFloat(v) {
			continue
		}
		canonical := canonicalText(v)
		if spelled[canonical] {
			continue
		}
		spelled[canonical] = true
		key := varies(first, v)
		if _, ok := buckets[key]; !ok {
			order = append(order, key)
		}
		buckets[key] = append(buckets[key], v)
	}
	var out []value
	for len(out) < maxValidSeeds {
		took := false
		for _, key := range order {
			if b := buckets[key]; len(b) > 0 && len(out) < maxValidSeeds {
				out = append(out, b[0])
				buckets[key] = b[1:]
				took = true
			}
		}
		if !took {
			break
		}
	}
	return out
}

// varies names the first top-level member of v that differs from base: "" when none does or
// the two are not objects with the same members.
func varies(base jsonObject, v value) string {
	obj, ok := v.(jsonObject)
	if !ok || len(obj) != len(base) {
		return ""
	}
	for i, m := range obj {
		if m.key.s != base[i].key.s {
			return ""
		}
		if !bytes.Equal(encodeValue(m.val), encodeValue(base[i].val)) {
			return m.key.s
		}
	}
	return ""
}

// canonicalText spells v one way whatever its spelling: members sorted by name, strings by
// their content, numbers by their exact value; so 0, 0.0 and -0, or a name and its escaped
// spelling, come out the same.
func canonicalText(v value) string {
	var b strings.Builder
	var write func(v value)
	write = func(v value) {
		switch v := v.(type) {
		case jsonString:
			b.WriteString(strconv.Quote(v.s))
		case jsonNumber:
			if r, ok := new(big.Rat).SetString(string(v)); ok {
				b.WriteString(r.RatString())
			} else {
				b.WriteString(string(v))
			}
		case jsonArray:
			b.WriteByte('[')
			for i, e := range v {
				if i > 0 {
					b.WriteByte(',')
				}
				write(e)
			}
			b.WriteByte(']')
		case jsonObject:
			sorted := slices.Clone(v)
			slices.SortStableFunc(sorted, func(x, y member) int { return strings.Compare(x.key.s, y.key.s) })
			b.WriteByte('{')
			for i, m := range sorted {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(strconv.Quote(m.key.s))
				b.WriteByte(':')
				write(m.val)
			}
			b.WriteByte('}')
		default:
			b.Write(encodeValue(v))
		}
	}
	write(v)
	return b.String()
}

// beyondFloat reports whether v holds a number a float64 cannot tell from its neighbours: more
// than 17 significant digits, or an exponent beyond ±300. The corpus writes such numbers to
// reach a bound by a hair, where the decoder may rightly refuse a number that rounds onto or
// past a float bound (see the package doc); a valid seed must be valid to both.
func beyondFloat(v value) bool {
	switch v := v.(type) {
	case jsonNumber:
		mantissa, exp, _ := strings.Cut(strings.ToLower(string(v)), "e")
		digits := strings.Trim(strings.NewReplacer("-", "", ".", "").Replace(mantissa), "0")
		e, _ := strconv.Atoi(exp)
		return len(digits) > 17 || e > 300 || e < -300
	case jsonArray:
		return slices.ContainsFunc(v, beyondFloat)
	case jsonObject:
		return slices.ContainsFunc(v, func(m member) bool { return beyondFloat(m.val) })
	}
	return false
}
