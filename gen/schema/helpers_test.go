package schema_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolgen-go/toolgen/gen/model"
)

// Model builders, so the tables read like the Go types they stand for.

func basic(k model.Kind, bits int) *model.Type { return &model.Type{Kind: k, Bits: bits} }
func str() *model.Type                         { return basic(model.KindString, 0) }
func ptr(t *model.Type) *model.Type            { return &model.Type{Kind: model.KindPointer, Elem: t} }
func sliceOf(t *model.Type) *model.Type        { return &model.Type{Kind: model.KindSlice, Elem: t} }
func arrayOf(n int, t *model.Type) *model.Type {
	return &model.Type{Kind: model.KindArray, Len: n, Elem: t}
}
func mapOf(k, v *model.Type) *model.Type { return &model.Type{Kind: model.KindMap, Key: k, Elem: v} }

func named(path, name string, t *model.Type, args ...*model.Type) *model.Type {
	t.Named = &model.GoName{Path: path, Name: name, TypeArgs: args}
	return t
}

func structOf(fields ...*model.Field) *model.Type {
	return &model.Type{Kind: model.KindStruct, Fields: fields}
}

// req is a required field, opt an optional one.
func req(name string, t *model.Type) *model.Field {
	return &model.Field{GoName: name, JSONName: name, Type: t, Required: true}
}
func opt(name string, t *model.Type) *model.Field {
	return &model.Field{GoName: name, JSONName: name, Type: t}
}

func intp(v int) *int { return &v }
func num(text string, v float64) *model.Number {
	return &model.Number{Text: text, Value: v}
}
func lits(jsons ...string) []model.Literal {
	out := make([]model.Literal, len(jsons))
	for i, j := range jsons {
		out[i] = model.Literal{JSON: j}
	}
	return out
}

// compile compiles a schema as gen/check does (2020-12, formats asserted), failing the test
// when the document is not a valid 2020-12 schema.
func compile(t *testing.T, schema []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		t.Fatalf("schema is not JSON: %v\n%s", err, schema)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource("mem:///schema.json", doc); err != nil {
		t.Fatalf("add schema: %v\n%s", err, schema)
	}
	sch, err := c.Compile("mem:///schema.json")
	if err != nil {
		t.Fatalf("schema does not compile: %v\n%s", err, schema)
	}
	return sch
}

// checkInstances asserts which documents validate against the compiled schema.
func checkInstances(t *testing.T, sch *jsonschema.Schema, valid, invalid []string) {
	t.Helper()
	for _, v := range valid {
		if err := sch.Validate(instance(t, v)); err != nil {
			t.Errorf("%s should validate: %v", v, err)
		}
	}
	for _, v := range invalid {
		if sch.Validate(instance(t, v)) == nil {
			t.Errorf("%s should not validate", v)
		}
	}
}

func instance(t *testing.T, text string) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(text)))
	if err != nil {
		t.Fatalf("bad test instance %s: %v", text, err)
	}
	return v
}

// property returns the raw schema of one property of a document, as written.
func property(t *testing.T, schema []byte, name string) string {
	t.Helper()
	var doc struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(schema, &doc); err != nil {
		t.Fatalf("schema is not JSON: %v\n%s", err, schema)
	}
	p, ok := doc.Properties[name]
	if !ok {
		t.Fatalf("no property %q in %s", name, schema)
	}
	return string(p)
}
