package schema_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/gen/schema"
)

// TestOutput checks the output rules: required unless omitempty/omitzero, null wherever the
// generated encoder can write it.
func TestOutput(t *testing.T) {
	omitEmpty := func(f *model.Field) *model.Field { f.OmitEmpty = true; return f }
	omitZero := func(f *model.Field) *model.Field { f.OmitZero = true; return f }
	shared := item()

	tests := []struct {
		name    string
		result  *model.Type
		want    string
		valid   []string
		invalid []string
	}{
		{"required unless omitted",
			structOf(opt("a", str()), omitEmpty(req("b", str())), omitZero(opt("c", basic(model.KindInt, 0)))),
			`{` + draft + `"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"},"c":{"type":"integer"}},"required":["a"],"additionalProperties":false}`,
			[]string{`{"a":""}`, `{"a":"","b":"x","c":1}`}, []string{`{"b":"x"}`, `{"a":null}`}},
		{"nil-able fields accept null unless omitted",
			structOf(opt("s", sliceOf(str())), opt("m", mapOf(str(), str())), opt("p", ptr(str())),
				opt("raw", basic(model.KindRawJSON, 0)), opt("bytes", basic(model.KindBytes, 0)),
				omitEmpty(opt("s2", sliceOf(str()))), omitZero(opt("p2", ptr(str())))),
			`{` + draft + `"type":"object","properties":{"s":{"type":["array","null"],"items":{"type":"string"}},"m":{"type":["object","null"],"additionalProperties":{"type":"string"}},"p":{"type":["string","null"]},"raw":{},"bytes":{"type":["string","null"],"contentEncoding":"base64","pattern":"` + jsonEscape(schema.Base64Pattern) + `"},"s2":{"type":"array","items":{"type":"string"}},"p2":{"type":"string"}},"required":["s","m","p","raw","bytes"],"additionalProperties":false}`,
			[]string{`{"s":null,"m":null,"p":null,"raw":null,"bytes":null}`, `{"s":[],"m":{},"p":"x","raw":1,"bytes":"aGk=","s2":["a"],"p2":"y"}`},
			[]string{`{"s":null,"m":null,"p":null,"raw":null,"bytes":null,"s2":null}`, `{"s":null,"m":null,"p":null,"raw":null,"bytes":null,"p2":null}`}},
		{"elements may be null",
			structOf(opt("m", mapOf(str(), sliceOf(str()))), opt("l", sliceOf(ptr(shared)))),
			`{` + draft + `"type":"object","properties":{"m":{"type":["object","null"],"additionalProperties":{"type":["array","null"],"items":{"type":"string"}}},"l":{"type":["array","null"],"items":{"description":"Item is one product.","type":["object","null"],"properties":{"sku":{"type":"string"}},"required":["sku"],"additionalProperties":false}}},"required":["m","l"],"additionalProperties":false}`,
			[]string{`{"m":{"a":null},"l":[null,{"sku":"x"}]}`}, []string{`{"m":{"a":[null]},"l":[]}`}},
		{"nullable tag does not apply to output", structOf(&model.Field{JSONName: "a", Type: str(), Nullable: true}),
			`{` + draft + `"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}`,
			[]string{`{"a":"x"}`}, []string{`{"a":null}`}},
		{"pointer root", ptr(structOf(opt("a", str()))),
			`{` + draft + `"type":["object","null"],"properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}`,
			[]string{`null`, `{"a":"x"}`}, []string{`{}`}},
		{"slice root", sliceOf(shared),
			`{` + draft + `"type":["array","null"],"items":{"description":"Item is one product.","type":"object","properties":{"sku":{"type":"string"}},"required":["sku"],"additionalProperties":false}}`,
			[]string{`null`, `[{"sku":"x"}]`}, []string{`[null]`}},
		{"scalar root", basic(model.KindInt, 16), `{` + draft + `"type":"integer","minimum":-32768,"maximum":32767}`,
			[]string{`5`}, []string{`null`, `40000`}},
		{"$defs in output", structOf(opt("a", shared), opt("b", ptr(shared))),
			`{` + draft + `"type":"object","properties":{"a":{"$ref":"#/$defs/Item"},"b":{"anyOf":[{"$ref":"#/$defs/Item"},{"type":"null"}]}},"required":["a","b"],"additionalProperties":false,"$defs":{"Item":{"description":"Item is one product.","type":"object","properties":{"sku":{"type":"string"}},"required":["sku"],"additionalProperties":false}}}`,
			[]string{`{"a":{"sku":"x"},"b":null}`}, []string{`{"a":null,"b":null}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := schema.Output(&model.Tool{Name: "t", Result: tt.result})
			if string(doc) != tt.want {
				t.Errorf("schema:\n got %s\nwant %s", doc, tt.want)
			}
			checkInstances(t, compile(t, doc), tt.valid, tt.invalid)
		})
	}
}

func TestOutputWithoutResult(t *testing.T) {
	if got := schema.Output(&model.Tool{Name: "t", Args: structOf()}); got != nil {
		t.Errorf("Output of a text tool = %s, want nil", got)
	}
	if got := schema.Output(nil); got != nil {
		t.Errorf("Output(nil) = %s, want nil", got)
	}
}

func TestInputWithoutArgs(t *testing.T) {
	const want = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{},"additionalProperties":false}`
	doc := schema.Input(&model.Tool{Name: "t"})
	if string(doc) != want {
		t.Errorf("Input = %s, want %s", doc, want)
	}
	checkInstances(t, compile(t, doc), []string{`{}`}, []string{`{"a":1}`, `null`, `[]`})
}
