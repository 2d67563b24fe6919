package annotations

import (
	"strings"
	"testing"
)

// item is an expected TagItem, by key name.
type item struct {
	key         string
	value       string
	hasValue    bool
	offset      int
	valueOffset int
}

func checkItems(t *testing.T, input string, got []TagItem, wants []item) {
	t.Helper()
	if len(got) != len(wants) {
		t.Fatalf("%q: got %d items %+v, want %d", input, len(got), got, len(wants))
	}
	for i, w := range wants {
		g := got[i]
		if g.Key == nil || g.Key.Name != w.key || g.Value != w.value || g.HasValue != w.hasValue ||
			g.Offset != w.offset || g.ValueOffset != w.valueOffset {
			t.Errorf("%q: item %d = {%v %q %v %d %d}, want %+v", input, i, g.Key, g.Value, g.HasValue,
				g.Offset, g.ValueOffset, w)
		}
	}
}

func TestParseTagValid(t *testing.T) {
	cases := []struct {
		tag   string
		items []item
	}{
		{"", nil},
		{"   ", nil},
		{"required", []item{{"required", "", false, 0, 0}}},
		{"minLength=1,maxLength=32", []item{{"minLength", "1", true, 0, 10}, {"maxLength", "32", true, 12, 22}}},
		{" minimum = -1.5 , maximum=1e3 ", []item{{"minimum", "-1.5", true, 1, 11}, {"maximum", "1e3", true, 18, 26}}},
		// Quotes hold commas; the value offset is inside the quote.
		{"pattern='^[a-z]{1,3}$',format=email", []item{{"pattern", "^[a-z]{1,3}$", true, 0, 9}, {"format", "email", true, 23, 30}}},
		{"default='it''s',title='a, b'", []item{{"default", "it's", true, 0, 9}, {"title", "a, b", true, 16, 23}}},
		{"default=' padded '", []item{{"default", " padded ", true, 0, 9}}},
		// An empty quoted literal is an empty default string.
		{"default=''", []item{{"default", "", true, 0, 9}}},
		{"enum=celsius|fahrenheit,default=celsius", []item{{"enum", "celsius|fahrenheit", true, 0, 5}, {"default", "celsius", true, 24, 32}}},
		{"minItems=0,maxItems=10,uniqueItems", []item{{"minItems", "0", true, 0, 9}, {"maxItems", "10", true, 11, 20}, {"uniqueItems", "", false, 23, 0}}},
		{"multipleOf=0.01,exclusiveMinimum=0,exclusiveMaximum=100", []item{
			{"multipleOf", "0.01", true, 0, 11}, {"exclusiveMinimum", "0", true, 16, 33}, {"exclusiveMaximum", "100", true, 35, 52}}},
		{"minProperties=1,maxProperties=5,nullable,optional,deprecated,example=Tokyo", []item{
			{"minProperties", "1", true, 0, 14}, {"maxProperties", "5", true, 16, 30}, {"nullable", "", false, 32, 0},
			{"optional", "", false, 41, 0}, {"deprecated", "", false, 50, 0}, {"example", "Tokyo", true, 61, 69}}},
	}
	for _, c := range cases {
		items, problems := ParseTag(c.tag)
		if len(problems) > 0 {
			t.Errorf("%q: unexpected problems %+v", c.tag, problems)
			continue
		}
		checkItems(t, c.tag, items, c.items)
	}
}

func TestParseTagProblems(t *testing.T) {
	cases := []struct {
		tag      string
		problems []want
		items    int // well-formed items still returned
	}{
		{"minlength=1", []want{{0, `unknown tag key "minlength"`, "did you mean minLength?"}}, 0},
		{"required,maxlenght=3", []want{{9, `unknown tag key "maxlenght"`, "did you mean maxLength?"}}, 1},
		{"accept=openai,gemini", []want{{14, `unknown tag key "gemini"`, "accept separates its values with |, not commas: accept=…|gemini"}}, 1},
		{"enum=a,b", []want{{7, `unknown tag key "b"`, "enum separates its values with |, not commas: enum=…|b"}}, 1},
		{"min=1", []want{{0, `unknown tag key "min"`, "minimum (numbers), minLength (strings) or minItems"}}, 0},
		{"omitempty", []want{{0, `unknown tag key "omitempty"`, "json tag"}}, 0},
		{"description='x, y',required", []want{{0, `unknown tag key "description"`, "doc comment"}}, 1},
		{"colour=red", []want{{0, `unknown tag key "colour"`, "-help-directives"}}, 0},
		{"required=true", []want{{0, "required takes no value", "write required alone"}}, 0},
		{"uniqueItems=false", []want{{0, "uniqueItems takes no value", ""}}, 0},
		{"minLength", []want{{0, "missing value for minLength", "minLength=N"}}, 0},
		{"maxLength= ,required", []want{{0, "missing value for maxLength", ""}}, 1},
		{"title=''", []want{{0, "missing value for title", ""}}, 0},
		{"default=", []want{{0, "missing value for default", "default=VALUE"}}, 0},
		{"pattern='abc", []want{{8, "unterminated quoted value", "''"}}, 0},
		{"pattern='a'b,required", []want{{11, "unexpected text after a quoted value", "commas"}}, 1},
		{"minLength=-1", []want{{10, `minLength must be a non-negative whole number, got "-1"`, ""}}, 0},
		{"minLength=1.5", []want{{10, `minLength must be a non-negative whole number, got "1.5"`, ""}}, 0},
		{"maxItems=+3", []want{{9, `maxItems must be a non-negative whole number, got "+3"`, ""}}, 0},
		{"maxLength=99999999999", []want{{10, "maxLength 99999999999 is too large", ""}}, 0},
		{"minimum=abc", []want{{8, `minimum must be a number, got "abc"`, "JSON number"}}, 0},
		{"maximum=1.", []want{{8, `maximum must be a number, got "1."`, ""}}, 0},
		{"maximum=+1", []want{{8, `maximum must be a number, got "+1"`, ""}}, 0},
		{"maximum=0x10", []want{{8, `maximum must be a number, got "0x10"`, ""}}, 0},
		{"maximum=1e999", []want{{8, `maximum must be a number, got "1e999"`, ""}}, 0},
		{"multipleOf=0", []want{{11, "multipleOf must be positive, got 0", ""}}, 0},
		{"enum=a||b", []want{{7, "empty member in enum", "enum=A|B|..."}}, 0},
		{"enum=a|", []want{{7, "empty member in enum", ""}}, 0},
		{"format=emial", []want{{7, `unknown format "emial"`, "did you mean email?"}}, 0},
		{"format=phone", []want{{7, `unknown format "phone"`, "date-time, date, time"}}, 0},
		{"required,required", []want{{9, "duplicate tag key required", ""}}, 1},
		{"minLength=1, minLength=2", []want{{13, "duplicate tag key minLength", ""}}, 1},
		{"required,,optional", []want{{9, "empty item in the tool tag", "extra comma"}}, 2},
		{"required,", []want{{9, "empty item in the tool tag", ""}}, 1},
		{",required", []want{{0, "empty item in the tool tag", ""}}, 1},
		{"=5", []want{{0, "missing tag key before =", ""}}, 0},
		// Every problem is reported, not just the first.
		{"minlength=1,format=x,required=1", []want{
			{0, `unknown tag key "minlength"`, ""},
			{19, `unknown format "x"`, ""},
			{21, "required takes no value", ""},
		}, 0},
	}
	for _, c := range cases {
		items, problems := ParseTag(c.tag)
		checkProblems(t, c.tag, problems, c.problems)
		if len(items) != c.items {
			t.Errorf("%q: %d well-formed items %+v, want %d", c.tag, len(items), items, c.items)
		}
	}
}

// TestEveryTagKey parses each registered key with a value of its kind, and a flag with a
// value or a valued key without one fails.
func TestEveryTagKey(t *testing.T) {
	sample := map[ValueKind]string{TagInt: "3", TagNumber: "2.5", TagString: "email", TagLiteral: "x", TagList: "a|b"}
	for _, k := range TagKeys {
		if LookupTag(k.Name) != k {
			t.Errorf("LookupTag(%q) does not return the registered key", k.Name)
		}
		if k.Help == "" || k.Applies == 0 {
			t.Errorf("tag key %s needs Help and Applies", k.Name)
		}
		tag := k.Name
		if k.Value != TagFlag {
			tag += "=" + sample[k.Value]
		}
		items, problems := ParseTag(tag)
		if len(problems) > 0 || len(items) != 1 || items[0].Key != k {
			t.Errorf("%q: items %+v, problems %+v", tag, items, problems)
		}
		bad := k.Name + "=1"
		if k.Value != TagFlag {
			bad = k.Name
		}
		if _, problems := ParseTag(bad); len(problems) != 1 {
			t.Errorf("%q: want one problem, got %+v", bad, problems)
		}
	}
	if LookupTag("minlength") != nil {
		t.Error("tag keys are case-sensitive")
	}
}

func TestTagItemList(t *testing.T) {
	items, _ := ParseTag("enum='a,b|c'")
	if got := strings.Join(items[0].List(), ";"); got != "a,b;c" {
		t.Errorf("List() = %q, want a,b;c", got)
	}
}

func TestAppliesString(t *testing.T) {
	for a, want := range map[Applies]string{
		AppliesAny: "any type", AppliesString: "string", AppliesString | AppliesNumber: "string or number",
		AppliesArray | AppliesObject: "array or map",
	} {
		if got := a.String(); got != want {
			t.Errorf("Applies(%d).String() = %q, want %q", a, got, want)
		}
	}
}

// FuzzParseTag checks that no tag makes the parser panic, that offsets stay inside the tag,
// and that every item points at its key.
func FuzzParseTag(f *testing.F) {
	for _, seed := range []string{
		"minLength=1,maxLength=32", "pattern='a,b''c'", "enum=a||b", "'", "=,=", "default=''",
		"format=email, required ,", "title='x' y", "\xff=\xff",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, tag string) {
		items, problems := ParseTag(tag)
		for _, p := range problems {
			if p.Offset < 0 || p.Offset > len(tag) {
				t.Errorf("%q: offset %d outside the tag", tag, p.Offset)
			}
		}
		for _, it := range items {
			if !strings.HasPrefix(tag[it.Offset:], it.Key.Name) {
				t.Errorf("%q: item offset %d does not point at key %s", tag, it.Offset, it.Key.Name)
			}
			if it.HasValue && (it.ValueOffset <= it.Offset || it.ValueOffset > len(tag)) {
				t.Errorf("%q: value offset %d of %s out of place", tag, it.ValueOffset, it.Key.Name)
			}
		}
	})
}
