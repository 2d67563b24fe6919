package agreement

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolgen-go/toolgen/runtime/decode"
)

// judge validates every document of a corpus and returns, per document, the keywords the
// validator refused it for (nil when it accepts).
func judge(t *testing.T, schema string, docs [][]byte) [][]string {
	t.Helper()
	return judgeWith(t, schema, docs, false)
}

// judgeWith is judge, with the decoder's format rules when toolgenFormats is set.
func judgeWith(t *testing.T, schema string, docs [][]byte, toolgenFormats bool) [][]string {
	t.Helper()
	sch, err := compiledWith([]byte(schema), toolgenFormats)
	if err != nil {
		t.Fatalf("schema does not compile: %v", err)
	}
	out := make([][]string, len(docs))
	for i, doc := range docs {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
		if err != nil {
			t.Fatalf("corpus document %q is not JSON: %v", doc, err)
		}
		err = sch.Validate(inst)
		if err == nil {
			continue
		}
		var verr *jsonschema.ValidationError
		if !errors.As(err, &verr) {
			t.Fatalf("validator error %T: %v", err, err)
		}
		out[i] = leafKeywords(verr)
	}
	return out
}

// leafKeywords returns, for each leaf error, the keywords from the root error down to it
// joined by "/": "required", "properties/pattern", "propertyNames/pattern", …
func leafKeywords(e *jsonschema.ValidationError) []string {
	kw := ""
	if path := e.ErrorKind.KeywordPath(); len(path) > 0 {
		kw = path[len(path)-1]
	}
	if len(e.Causes) == 0 {
		return []string{kw}
	}
	var out []string
	for _, c := range e.Causes {
		for _, leaf := range leafKeywords(c) {
			if kw != "" {
				leaf = kw + "/" + leaf
			}
			out = append(out, leaf)
		}
	}
	return out
}

// onlyFor reports whether every leaf error involves keyword.
func onlyFor(leaves []string, keyword string) bool {
	for _, leaf := range leaves {
		if !slices.Contains(strings.Split(leaf, "/"), keyword) {
			return false
		}
	}
	return len(leaves) > 0
}

// TestCorpusReachesBothSidesOfEveryKeyword holds Corpus to its purpose: for each keyword
// toolgen emits, the validator accepts some documents and refuses some for that keyword
// alone, so an agreement test on the corpus exercises the decoder's check of it.
func TestCorpusReachesBothSidesOfEveryKeyword(t *testing.T) {
	cases := []struct {
		keyword string
		schema  string
	}{
		{"type", `{"type":"object","properties":{"a":{"type":"boolean"}}}`},
		{"required", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["a","b"]}`},
		{"additionalProperties", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`},
		{"minLength", `{"type":"object","properties":{"s":{"type":"string","minLength":2}},"required":["s"]}`},
		{"maxLength", `{"type":"object","properties":{"s":{"type":"string","maxLength":3}},"required":["s"]}`},
		{"pattern", `{"type":"object","properties":{"s":{"type":"string","pattern":"^[A-Z]{3}-[0-9]{4}$"}},"required":["s"]}`},
		{"pattern", `{"type":"object","properties":{"s":{"type":"string","pattern":"(?i)^ab+c?$"}},"required":["s"]}`},
		{"minimum", `{"type":"object","properties":{"n":{"type":"integer","minimum":1}},"required":["n"]}`},
		{"maximum", `{"type":"object","properties":{"n":{"type":"number","maximum":7.5}},"required":["n"]}`},
		{"exclusiveMinimum", `{"type":"object","properties":{"n":{"type":"number","exclusiveMinimum":0}},"required":["n"]}`},
		{"exclusiveMaximum", `{"type":"object","properties":{"n":{"type":"integer","exclusiveMaximum":10}},"required":["n"]}`},
		{"multipleOf", `{"type":"object","properties":{"n":{"type":"number","multipleOf":0.1}},"required":["n"]}`},
		{"enum", `{"type":"object","properties":{"u":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["u"]}`},
		{"enum", `{"type":"object","properties":{"s":{"type":["integer","null"],"enum":[0,1,2,null]}},"required":["s"]}`},
		{"const", `{"type":"object","properties":{"c":{"const":"fixed"}},"required":["c"]}`},
		{"minItems", `{"type":"object","properties":{"l":{"type":"array","minItems":2,"items":{"type":"string"}}},"required":["l"]}`},
		{"maxItems", `{"type":"object","properties":{"l":{"type":"array","maxItems":2,"items":{"type":"integer"}}},"required":["l"]}`},
		{"uniqueItems", `{"type":"object","properties":{"l":{"type":"array","uniqueItems":true,"items":{"type":"string"}}},"required":["l"]}`},
		{"minProperties", `{"type":"object","properties":{"m":{"type":"object","minProperties":2,"additionalProperties":{"type":"integer"}}},"required":["m"]}`},
		{"maxProperties", `{"type":"object","properties":{"m":{"type":"object","maxProperties":2,"additionalProperties":{"type":"integer"}}},"required":["m"]}`},
		{"propertyNames", `{"type":"object","properties":{"m":{"type":"object","propertyNames":{"pattern":"^-?(0|[1-9][0-9]*)$"},"additionalProperties":{"type":"string"}}},"required":["m"]}`},
		{"required", `{"$defs":{"Node":{"type":"object","properties":{"name":{"type":"string","minLength":1},"children":{"type":"array","items":{"$ref":"#/$defs/Node"}}},"required":["name","children"],"additionalProperties":false}},"$ref":"#/$defs/Node"}`},
		{"minItems", `{"type":"object","properties":{"p":{"type":"array","items":{"type":"number"},"minItems":3,"maxItems":3}},"required":["p"]}`},
	}
	for _, f := range decode.FormatNames() {
		cases = append(cases, struct{ keyword, schema string }{"format",
			`{"type":"object","properties":{"f":{"type":"string","format":"` + f + `"}},"required":["f"]}`})
	}
	for _, c := range cases {
		t.Run(c.keyword, func(t *testing.T) {
			docs := Corpus([]byte(c.schema), 1)
			// Formats are judged by the decoder's rules: the validator's own know no
			// idn-hostname, and the corpus must reach both sides of what the decoder checks.
			verdicts := judgeWith(t, c.schema, docs, c.keyword == "format")
			valid, refusedForKeyword := 0, 0
			for _, kws := range verdicts {
				if kws == nil {
					valid++
				} else if onlyFor(kws, c.keyword) {
					refusedForKeyword++
				}
			}
			if valid == 0 || refusedForKeyword == 0 {
				t.Errorf("schema %s: %d documents, %d valid, %d refused for %q alone; want some of each",
					c.schema, len(docs), valid, refusedForKeyword, c.keyword)
			}
		})
	}
}

func TestCorpusHasTheAwkwardSpellings(t *testing.T) {
	schema := `{"type":"object","properties":{"n":{"type":"integer"},"s":{"type":"string"}},"required":["n","s"]}`
	docs := Corpus([]byte(schema), 1)
	verdicts := judge(t, schema, docs)
	want := []struct {
		fragment string
		valid    bool
	}{
		{`"n":0.0,`, true},              // 2.0 for an integer is an integer
		{`"n":1e2,`, true},              // exponent
		{`"n":-0,`, true},               // negative zero
		{`"n":9007199254740992,`, true}, // 2^53
		{`"n":-9007199254740992,`, true},
		{`"n":0.5,`, false}, // a fraction
		{`"n":"1"`, false},  // a number in a string
		{`"n":null`, false}, // null where not allowed
		{"\"s\":\"Grüße 世界 😀 e\u0301\"", true},
		{`"s":"q\"b\\s\/f\fb\bn\nr\rt\tc\u0001é😀"`, true},
		{`"s":"\u0061\u0062\u0063"`, true},
		{`"\u006e":`, true}, // an escaped property name
	}
	for _, w := range want {
		found := false
		for i, doc := range docs {
			if strings.Contains(string(doc), w.fragment) {
				found = true
				if got := verdicts[i] == nil; got != w.valid {
					t.Errorf("document %s: validator says valid=%v, want %v", doc, got, w.valid)
				}
			}
		}
		if !found {
			t.Errorf("no document contains %s", w.fragment)
		}
	}
}

func TestCorpusIsDeterministicAndWithinTheContract(t *testing.T) {
	schema := []byte(`{"type":"object","properties":{"id":{"type":"string","pattern":"^[a-z]+-[0-9]{2,}$"},"n":{"type":"integer","minimum":-9007199254740992},"m":{"type":"object","additionalProperties":{"type":"string","pattern":"^[-+]?(?:0|(?:(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:ns|us|µs|μs|ms|s|m|h))+)$"}}}}`)
	a, b := Corpus(schema, 7), Corpus(schema, 7)
	if !slices.EqualFunc(a, b, bytes.Equal) {
		t.Fatal("two corpora for the same seed differ")
	}
	if len(a) < 20 {
		t.Fatalf("corpus of %d documents; want a real corpus", len(a))
	}
	for _, doc := range a {
		if ex := Exception(doc); ex != "" {
			t.Errorf("corpus document %s is in exception class %q", doc, ex)
		}
	}
}

func TestCorpusOfBadSchemas(t *testing.T) {
	for _, schema := range []string{``, `{`, `[1,2]`, `"x"`, `{"type":7}`, `{"$ref":"#/nowhere"}`, `{"$ref":"#"}`,
		`{"type":"string","pattern":"("}`, `{"type":"array","minItems":-1,"maxItems":"x"}`, `{"enum":[]}`, `true`, `false`} {
		// Bad schemas must not panic; those that are JSON still give the root-level documents.
		docs := Corpus([]byte(schema), 1)
		if json := Exception([]byte(schema)) == ""; json && len(docs) == 0 {
			t.Errorf("schema %s: no documents", schema)
		}
	}
}

func TestException(t *testing.T) {
	cases := map[string]string{
		`{"a":1}`:                           "",
		`{"a":1,"b":{"a":2},"c":[{"a":3}]}`: "",
		`{"a":9007199254740992}`:            "",
		`{"a":1e300}`:                       "integer beyond ±2^53",
		`{"a":9007199254740993}`:            "integer beyond ±2^53",
		`{"a":-9007199254740993}`:           "integer beyond ±2^53",
		`{"a":1.5e39}`:                      "integer beyond ±2^53",
		`{"a":123456789012345678901234567890123456789012.5}`: "number beyond the float32 range",
		`{"a":9007199254740993.5}`:                           "",
		`{"a":1,"a":2}`:                                      "duplicate property name",
		`{"a":1,"\u0061":2}`:                                 "duplicate property name",
		`[{"a":1},{"a":1}]`:                                  "",
		`{"a":{"b":1},"b":1}`:                                "",
		`{"d":"3000000h"}`:                                   "duration overflows time.Duration",
		`{"d":"2562047h"}`:                                   "",
		`{"a":1}{}`:                                          "not JSON",
		`{"a":01}`:                                           "not JSON",
		"{\"a\":\"\xff\"}":                                   "not JSON",
		``:                                                   "not JSON",
	}
	for doc, want := range cases {
		if got := Exception([]byte(doc)); got != want {
			t.Errorf("Exception(%s) = %q, want %q", doc, got, want)
		}
	}
}

// TestCorpusFollowsPercentEncodedRefs: gen/schema percent-encodes the $defs names of
// non-ASCII types in $refs (Größe → "#/$defs/Gr%C3%B6%C3%9Fe"); the corpus must follow them
// as it follows ASCII ones, or the type's keywords go untested.
func TestCorpusFollowsPercentEncodedRefs(t *testing.T) {
	def := `{"type":"object","properties":{"w":{"type":"integer","minimum":1}},"required":["w"],"additionalProperties":false}`
	schema := `{"type":"object","properties":{"a":{"$ref":"#/$defs/Gr%C3%B6%C3%9Fe"},"b":{"$ref":"#/$defs/Size"}},` +
		`"required":["a","b"],"additionalProperties":false,"$defs":{"Größe":` + def + `,"Size":` + def + `}}`
	uses := map[string]int{}
	for _, doc := range Corpus([]byte(schema), 1) {
		var v map[string]any
		if json.Unmarshal(doc, &v) != nil {
			continue
		}
		for _, p := range []string{"a", "b"} {
			if m, ok := v[p].(map[string]any); ok && m["w"] != nil {
				uses[p]++
			}
		}
	}
	if uses["a"] == 0 || uses["a"] != uses["b"] {
		t.Errorf("documents using the properties of Größe: %d, of Size: %d; want the same, not 0", uses["a"], uses["b"])
	}
}
