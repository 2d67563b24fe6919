package schema_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/gen/schema"
)

func unitEnum() *model.Type {
	t := named("example.com/weather", "Unit", str())
	t.Doc = "Unit is a temperature unit."
	t.Enum = []*model.EnumValue{
		{GoName: "Celsius", String: "celsius", Doc: "degrees Celsius"},
		{GoName: "Fahrenheit", String: "fahrenheit", Doc: "degrees Fahrenheit."},
		{GoName: "Kelvin", String: "kelvin"},
	}
	return t
}

func levelEnum() *model.Type {
	t := named("example.com/weather", "Level", basic(model.KindInt, 0))
	t.Enum = []*model.EnumValue{{GoName: "Low", Int: 1}, {GoName: "High", Int: 2}}
	return t
}

// TestFieldTypes renders one field per Go type row of DESIGN.md §2 and checks the exact
// schema of the property, that the document compiles, and which values it accepts.
func TestFieldTypes(t *testing.T) {
	textType := named("net/netip", "Addr", basic(model.KindText, 0))
	textType.Doc = "Addr represents an IPv4 or IPv6 address (long standard library doc)."
	tests := []struct {
		name    string
		field   *model.Field
		want    string
		valid   []string
		invalid []string
	}{
		{"string", req("v", str()), `{"type":"string"}`, []string{`"x"`, `""`}, []string{`1`, `null`}},
		{"bool", req("v", basic(model.KindBool, 0)), `{"type":"boolean"}`, []string{`true`}, []string{`"true"`, `null`}},
		{"int", req("v", basic(model.KindInt, 0)), `{"type":"integer"}`,
			[]string{`0`, `-9007199254740991`, `3.0`}, []string{`1.5`, `"1"`}},
		{"int64", req("v", basic(model.KindInt, 64)), `{"type":"integer"}`, []string{`-5`}, []string{`0.5`}},
		{"int8", req("v", basic(model.KindInt, 8)), `{"type":"integer","minimum":-128,"maximum":127}`,
			[]string{`-128`, `127`}, []string{`-129`, `128`}},
		{"int16", req("v", basic(model.KindInt, 16)), `{"type":"integer","minimum":-32768,"maximum":32767}`,
			[]string{`-32768`, `32767`}, []string{`32768`}},
		{"int32", req("v", basic(model.KindInt, 32)), `{"type":"integer","minimum":-2147483648,"maximum":2147483647}`,
			[]string{`2147483647`}, []string{`2147483648`, `-2147483649`}},
		{"uint8", req("v", basic(model.KindUint, 8)), `{"type":"integer","minimum":0,"maximum":255}`,
			[]string{`0`, `255`}, []string{`-1`, `256`}},
		{"uint16", req("v", basic(model.KindUint, 16)), `{"type":"integer","minimum":0,"maximum":65535}`,
			[]string{`65535`}, []string{`65536`}},
		{"uint32", req("v", basic(model.KindUint, 32)), `{"type":"integer","minimum":0,"maximum":4294967295}`,
			[]string{`4294967295`}, []string{`4294967296`}},
		{"uint", req("v", basic(model.KindUint, 0)), `{"type":"integer","minimum":0}`,
			[]string{`0`, `18446744073709551615`}, []string{`-1`}},
		{"uint64", req("v", basic(model.KindUint, 64)), `{"type":"integer","minimum":0}`, []string{`7`}, []string{`-1`}},
		{"float32", req("v", basic(model.KindFloat, 32)), `{"type":"number"}`, []string{`1.5`, `2`}, []string{`"1.5"`}},
		{"float64", req("v", basic(model.KindFloat, 64)), `{"type":"number"}`, []string{`-1e300`}, []string{`true`}},
		{"string enum with comments", req("v", unitEnum()),
			`{"description":"Unit is a temperature unit. Values: \"celsius\" (degrees Celsius), \"fahrenheit\" (degrees Fahrenheit), \"kelvin\".","type":"string","enum":["celsius","fahrenheit","kelvin"]}`,
			[]string{`"kelvin"`}, []string{`"rankine"`, `null`}},
		{"int enum without comments", req("v", levelEnum()), `{"type":"integer","enum":[1,2]}`,
			[]string{`1`, `2`}, []string{`3`, `"1"`}},
		{"int8 enum keeps no bounds", req("v", &model.Type{Kind: model.KindInt, Bits: 8,
			Enum: []*model.EnumValue{{Int: -1, Doc: "below"}, {Int: 1, Doc: "above"}}}),
			`{"description":"Values: -1 (below), 1 (above).","type":"integer","enum":[-1,1]}`,
			[]string{`-1`}, []string{`0`}},
		{"slice", req("v", sliceOf(str())), `{"type":"array","items":{"type":"string"}}`,
			[]string{`[]`, `["a","b"]`}, []string{`[1]`, `null`, `"a"`}},
		{"array", req("v", arrayOf(3, basic(model.KindInt, 0))),
			`{"type":"array","minItems":3,"maxItems":3,"items":{"type":"integer"}}`,
			[]string{`[1,2,3]`}, []string{`[1,2]`, `[1,2,3,4]`}},
		{"bytes", req("v", basic(model.KindBytes, 0)),
			`{"type":"string","contentEncoding":"base64","pattern":"` + jsonEscape(schema.Base64Pattern) + `"}`,
			[]string{`""`, `"aGk="`, `"aGVsbG8="`, `"aGVsbA=="`, `"+/+/"`}, []string{`"aGk"`, `"a"`, `"aG=k"`, `"aGk=\n"`, `"a-_b"`}},
		{"map string key", req("v", mapOf(str(), basic(model.KindInt, 0))),
			`{"type":"object","additionalProperties":{"type":"integer"}}`,
			[]string{`{}`, `{"a":1}`}, []string{`{"a":"1"}`, `[]`}},
		{"map int key", req("v", mapOf(basic(model.KindInt, 0), str())),
			`{"type":"object","propertyNames":{"pattern":"^-?(0|[1-9][0-9]*)$"},"additionalProperties":{"type":"string"}}`,
			[]string{`{"0":"a","-12":"b","7":"c"}`}, []string{`{"01":"a"}`, `{"x":"a"}`, `{"+1":"a"}`, `{"1.5":"a"}`}},
		{"map uint key", req("v", mapOf(basic(model.KindUint, 16), str())),
			`{"type":"object","propertyNames":{"pattern":"^(0|[1-9][0-9]*)$"},"additionalProperties":{"type":"string"}}`,
			[]string{`{"12":"a"}`}, []string{`{"-1":"a"}`}},
		{"map text key", req("v", mapOf(textType, str())),
			`{"type":"object","additionalProperties":{"type":"string"}}`, []string{`{"::1":"a"}`}, nil},
		{"struct", req("v", structOf(req("a", str()), opt("b", basic(model.KindBool, 0)))),
			`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"boolean"}},"required":["a"],"additionalProperties":false}`,
			[]string{`{"a":"x"}`, `{"a":"x","b":true}`}, []string{`{}`, `{"a":"x","c":1}`, `{"a":"x","b":null}`}},
		{"empty struct", req("v", structOf()), `{"type":"object","properties":{},"additionalProperties":false}`,
			[]string{`{}`}, []string{`{"a":1}`}},
		{"time", req("v", named("time", "Time", basic(model.KindTime, 0))),
			`{"type":"string","format":"date-time"}`,
			[]string{`"2024-05-01T10:00:00Z"`, `"2024-05-01T10:00:00.5+02:00"`}, []string{`"yesterday"`, `"2024-05-01"`}},
		{"duration", req("v", named("time", "Duration", basic(model.KindDuration, 0))),
			`{"description":"Go duration, e.g. \"1h30m\".","type":"string","pattern":"` + jsonEscape(schema.DurationPattern) + `"}`,
			[]string{`"1h30m"`, `"0"`, `"-1.5s"`, `"300ms"`}, []string{`"90"`, `"1d"`, `""`, `5`}},
		{"raw json", opt("v", named("encoding/json", "RawMessage", basic(model.KindRawJSON, 0))), `{}`,
			[]string{`null`, `{"a":[1]}`, `"x"`}, nil},
		{"any with description", &model.Field{JSONName: "v", Type: basic(model.KindAny, 0), Description: "Anything."},
			`{"description":"Anything."}`, []string{`1`, `null`}, nil},
		{"text unmarshaler", req("v", textType), `{"type":"string"}`, []string{`"::1"`}, []string{`1`}},
		{"pointer", opt("v", ptr(str())), `{"type":["string","null"]}`, []string{`"a"`, `null`}, []string{`1`}},
		{"pointer to pointer", opt("v", ptr(ptr(basic(model.KindInt, 8)))),
			`{"type":["integer","null"],"minimum":-128,"maximum":127}`, []string{`null`, `3`}, []string{`300`}},
		{"pointer to enum", opt("v", ptr(levelEnum())), `{"type":["integer","null"],"enum":[1,2,null]}`,
			[]string{`null`, `1`}, []string{`3`}},
		{"pointer to struct", opt("v", ptr(structOf(req("a", str())))),
			`{"type":["object","null"],"properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}`,
			[]string{`null`, `{"a":"x"}`}, []string{`{}`}},
		{"pointer to time", opt("v", ptr(basic(model.KindTime, 0))), `{"type":["string","null"],"format":"date-time"}`,
			[]string{`null`}, []string{`"soon"`}},
		{"pointer to any", opt("v", ptr(basic(model.KindAny, 0))), `{}`, []string{`null`}, nil},
		{"nullable string", &model.Field{JSONName: "v", Type: str(), Nullable: true, Required: true},
			`{"type":["string","null"]}`, []string{`null`, `"a"`}, nil},
		{"nullable enum", &model.Field{JSONName: "v", Type: levelEnum(), Nullable: true},
			`{"type":["integer","null"],"enum":[1,2,null]}`, []string{`null`}, []string{`0`}},
		{"nullable pointer stays single null", &model.Field{JSONName: "v", Type: ptr(str()), Nullable: true},
			`{"type":["string","null"]}`, []string{`null`}, nil},
		{"slice of pointers", req("v", sliceOf(ptr(str()))),
			`{"type":"array","items":{"type":["string","null"]}}`, []string{`["a",null]`}, []string{`null`}},
		{"pointer to slice", opt("v", ptr(sliceOf(str()))),
			`{"type":["array","null"],"items":{"type":"string"}}`, []string{`null`, `[]`}, []string{`[null]`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := &model.Tool{Name: "t", Args: structOf(tt.field)}
			doc := schema.Input(tool)
			if got := property(t, doc, "v"); got != tt.want {
				t.Errorf("schema of v:\n got %s\nwant %s", got, tt.want)
			}
			sch := compile(t, doc)
			wrap := func(vals []string) []string {
				out := make([]string, len(vals))
				for i, v := range vals {
					out[i] = `{"v":` + v + `}`
				}
				return out
			}
			checkInstances(t, sch, wrap(tt.valid), wrap(tt.invalid))
		})
	}
}

// jsonEscape escapes a pattern as writeString does, for building expected documents.
func jsonEscape(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' || s[i] == '"' {
			out = append(out, '\\')
		}
		out = append(out, s[i])
	}
	return string(out)
}
