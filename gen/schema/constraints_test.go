package schema_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/gen/schema"
)

func withConstraints(f *model.Field, c model.Constraints) *model.Field {
	f.Constraints = c
	return f
}

// TestConstraints checks that every tag keyword lands on the node it belongs to: the field,
// or (Items) the element of its container, and how tag keywords combine with the type's own.
func TestConstraints(t *testing.T) {
	tests := []struct {
		name    string
		field   *model.Field
		want    string
		valid   []string
		invalid []string
	}{
		{"string keywords", withConstraints(req("v", str()), model.Constraints{
			MinLength: intp(1), MaxLength: intp(3), Pattern: "^[a-z]+$", Title: "Code",
			Default: &model.Literal{JSON: `"abc"`}, Examples: lits(`"ab"`, `"xyz"`), Deprecated: true}),
			`{"title":"Code","type":"string","pattern":"^[a-z]+$","minLength":1,"maxLength":3,"default":"abc","examples":["ab","xyz"],"deprecated":true}`,
			[]string{`"a"`, `"abc"`}, []string{`""`, `"abcd"`, `"AB"`}},
		{"format", withConstraints(req("v", str()), model.Constraints{Format: "email"}),
			`{"type":"string","format":"email"}`, []string{`"a@b.example"`}, []string{`"not an email"`}},
		{"numbers verbatim", withConstraints(req("v", basic(model.KindFloat, 64)), model.Constraints{
			ExclusiveMinimum: num("0", 0), Maximum: num("1e2", 100), MultipleOf: num("0.5", 0.5)}),
			`{"type":"number","exclusiveMinimum":0,"maximum":1e2,"multipleOf":0.5}`,
			[]string{`0.5`, `100`}, []string{`0`, `100.5`, `0.7`}},
		{"malformed number text falls back to the value", withConstraints(req("v", basic(model.KindFloat, 64)),
			model.Constraints{Minimum: num("ten", 10)}), `{"type":"number","minimum":10}`, []string{`10`}, []string{`9`}},
		{"tag bound tighter than the kind", withConstraints(req("v", basic(model.KindInt, 8)), model.Constraints{
			Minimum: num("0", 0), Maximum: num("1000", 1000)}),
			`{"type":"integer","minimum":0,"maximum":127}`, []string{`0`, `127`}, []string{`-1`, `128`}},
		{"uint minimum kept against a looser tag", withConstraints(req("v", basic(model.KindUint, 0)), model.Constraints{
			Minimum: num("-5", -5), Maximum: num("7", 7)}),
			`{"type":"integer","minimum":0,"maximum":7}`, []string{`7`}, []string{`-1`, `8`}},
		{"items of a slice", withConstraints(req("v", sliceOf(str())), model.Constraints{
			MaxItems: intp(2), UniqueItems: true, Items: &model.Constraints{MinLength: intp(1), MaxLength: intp(3)}}),
			`{"type":"array","maxItems":2,"uniqueItems":true,"items":{"type":"string","minLength":1,"maxLength":3}}`,
			[]string{`["a","bc"]`}, []string{`["a","b","c"]`, `["a","a"]`, `[""]`, `["abcd"]`}},
		{"items of items", withConstraints(req("v", sliceOf(sliceOf(basic(model.KindInt, 0)))), model.Constraints{
			Items: &model.Constraints{MinItems: intp(1), Items: &model.Constraints{Minimum: num("0", 0)}}}),
			`{"type":"array","items":{"type":"array","minItems":1,"items":{"type":"integer","minimum":0}}}`,
			[]string{`[[0,1]]`}, []string{`[[]]`, `[[-1]]`}},
		{"map values and size", withConstraints(req("v", mapOf(str(), basic(model.KindInt, 0))), model.Constraints{
			MinProperties: intp(1), MaxProperties: intp(2), Items: &model.Constraints{Maximum: num("9", 9)}}),
			`{"type":"object","minProperties":1,"maxProperties":2,"additionalProperties":{"type":"integer","maximum":9}}`,
			[]string{`{"a":9}`}, []string{`{}`, `{"a":1,"b":2,"c":3}`, `{"a":10}`}},
		{"items through a pointer to a slice", withConstraints(opt("v", ptr(sliceOf(str()))), model.Constraints{
			Items: &model.Constraints{Enum: lits(`"x"`, `"y"`)}}),
			`{"type":["array","null"],"items":{"type":"string","enum":["x","y"]}}`,
			[]string{`null`, `["x"]`}, []string{`["z"]`}},
		{"enum items of pointers keep null", withConstraints(req("v", sliceOf(ptr(str()))), model.Constraints{
			Items: &model.Constraints{Enum: lits(`"x"`)}}),
			`{"type":"array","items":{"type":["string","null"],"enum":["x",null]}}`,
			[]string{`["x",null]`}, []string{`["y"]`}},
		{"array size tightened by a tag", withConstraints(req("v", arrayOf(2, str())), model.Constraints{
			MinItems: intp(1), MaxItems: intp(5)}),
			`{"type":"array","minItems":2,"maxItems":2,"items":{"type":"string"}}`, []string{`["a","b"]`}, []string{`["a"]`}},
		{"tag enum on a string", withConstraints(req("v", str()), model.Constraints{Enum: lits(`"a"`, `"b c"`)}),
			`{"type":"string","enum":["a","b c"]}`, []string{`"b c"`}, []string{`"c"`}},
		{"tag enum on a pointer keeps null", withConstraints(opt("v", ptr(str())), model.Constraints{Enum: lits(`"a"`)}),
			`{"type":["string","null"],"enum":["a",null]}`, []string{`null`, `"a"`}, []string{`"b"`}},
		{"tag enum on an enum type narrows it", withConstraints(req("v", unitEnum()), model.Constraints{
			Enum: lits(`"kelvin"`, `"celsius"`, `"rankine"`)}),
			`{"description":"Unit is a temperature unit. Values: \"celsius\" (degrees Celsius), \"kelvin\".","type":"string","enum":["kelvin","celsius"]}`,
			[]string{`"kelvin"`, `"celsius"`}, []string{`"fahrenheit"`, `"rankine"`}},
		{"tag enum with no constant matches nothing", withConstraints(req("v", levelEnum()), model.Constraints{
			Enum: lits(`7`)}), `{"type":"integer","enum":[]}`, nil, []string{`7`, `1`}},
		{"tag enum compared by value", withConstraints(req("v", unitEnum()), model.Constraints{
			Enum: lits(`"k\u0065lvin"`)}), `{"description":"Unit is a temperature unit.","type":"string","enum":["k\u0065lvin"]}`,
			[]string{`"kelvin"`}, []string{`"celsius"`}},
		{"tag pattern beside the duration pattern", withConstraints(req("v", basic(model.KindDuration, 0)),
			model.Constraints{Pattern: "^[0-9]+s$"}),
			`{"description":"Go duration, e.g. \"1h30m\".","type":"string","pattern":"` + jsonEscape(schema.DurationPattern) + `","allOf":[{"pattern":"^[0-9]+s$"}]}`,
			[]string{`"30s"`}, []string{`"1m"`, `"30"`}},
		{"literals compacted, invalid literal quoted", withConstraints(opt("v", basic(model.KindAny, 0)), model.Constraints{
			Default: &model.Literal{JSON: `{ "a" : [1, 2] }`}, Examples: lits(`not json`)}),
			`{"default":{"a":[1,2]},"examples":["not json"]}`, []string{`1`}, nil},
		{"description replaces the type doc, notes stay", withConstraints(&model.Field{JSONName: "v", Type: unitEnum(),
			Description: "Temperature unit"}, model.Constraints{}),
			`{"description":"Temperature unit. Values: \"celsius\" (degrees Celsius), \"fahrenheit\" (degrees Fahrenheit), \"kelvin\".","type":"string","enum":["celsius","fahrenheit","kelvin"]}`,
			nil, nil},
		{"description escaping", &model.Field{JSONName: "v", Type: str(), Description: "Use a < b & \"c\"\n\ttab \u2028 \x01 \xff."},
			`{"description":"Use a < b & \"c\"\n\ttab \u2028 \u0001 \ufffd.","type":"string"}`, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := schema.Input(&model.Tool{Name: "t", Args: structOf(tt.field)})
			if got := property(t, doc, "v"); got != tt.want {
				t.Errorf("schema of v:\n got %s\nwant %s", got, tt.want)
			}
			sch := compile(t, doc)
			for _, v := range tt.valid {
				checkInstances(t, sch, []string{`{"v":` + v + `}`}, nil)
			}
			for _, v := range tt.invalid {
				checkInstances(t, sch, nil, []string{`{"v":` + v + `}`})
			}
		})
	}
}
