package schema_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/gen/schema"
)

const draft = `"$schema":"https://json-schema.org/draft/2020-12/schema",`

func item() *model.Type {
	t := named("example.com/shop", "Item", structOf(req("sku", str())))
	t.Doc = "Item is one product."
	return t
}

// TestDefs checks whole documents: which types go to $defs, their names and the $refs.
func TestDefs(t *testing.T) {
	const itemDef = `"Item":{"description":"Item is one product.","type":"object","properties":{"sku":{"type":"string"}},"required":["sku"],"additionalProperties":false}`

	shared := item()
	once := item()

	node := named("example.com/tree", "Node", structOf())
	node.Fields = []*model.Field{req("name", str()), opt("next", ptr(node)), opt("children", sliceOf(node))}

	self := named("example.com/tree", "Args", structOf())
	self.Fields = []*model.Field{req("name", str()), opt("children", sliceOf(self))}

	pageItem := named("example.com/shop", "Page", structOf(req("items", sliceOf(shared))), shared)
	pageItemSlice := named("example.com/shop", "Page", structOf(req("n", basic(model.KindInt, 0))), sliceOf(shared))

	weatherUnit := named("example.com/weather", "Unit", structOf(req("w", str())))
	unitsUnit := named("example.com/units/v2", "Unit", structOf(req("u", str())))
	aUnit := named("example.com/a/units", "Unit", structOf(req("a", str())))
	bUnit := named("example.com/b/units", "Unit", structOf(req("b", str())))

	list := named("example.com/tree", "List", sliceOf(nil))
	list.Elem = list

	umlaut := named("example.com/x", "Größe", structOf(req("cm", basic(model.KindInt, 0))))

	described := &model.Field{JSONName: "b", Type: shared, Required: true, Description: "The second item.",
		Constraints: model.Constraints{Title: "B"}}

	tests := []struct {
		name    string
		args    *model.Type
		want    string
		valid   []string
		invalid []string
	}{
		{"used once: inlined", structOf(req("a", once)),
			`{` + draft + `"type":"object","properties":{"a":{"description":"Item is one product.","type":"object","properties":{"sku":{"type":"string"}},"required":["sku"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}`,
			[]string{`{"a":{"sku":"x"}}`}, []string{`{"a":{}}`}},
		{"used twice: $defs, field description beside the $ref", structOf(req("a", shared), described),
			`{` + draft + `"type":"object","properties":{"a":{"$ref":"#/$defs/Item"},"b":{"$ref":"#/$defs/Item","title":"B","description":"The second item."}},"required":["a","b"],"additionalProperties":false,"$defs":{` + itemDef + `}}`,
			[]string{`{"a":{"sku":"x"},"b":{"sku":"y"}}`}, []string{`{"a":{"sku":"x"},"b":{}}`}},
		{"twice through a slice and a pointer", structOf(req("list", sliceOf(shared)), opt("one", ptr(shared))),
			`{` + draft + `"type":"object","properties":{"list":{"type":"array","items":{"$ref":"#/$defs/Item"}},"one":{"anyOf":[{"$ref":"#/$defs/Item"},{"type":"null"}]}},"required":["list"],"additionalProperties":false,"$defs":{` + itemDef + `}}`,
			[]string{`{"list":[{"sku":"x"}],"one":null}`, `{"list":[],"one":{"sku":"y"}}`}, []string{`{"list":[null]}`, `{"list":[],"one":{}}`}},
		{"nullable $ref with description on the wrapper", structOf(&model.Field{JSONName: "a", Type: shared, Nullable: true,
			Description: "Maybe an item."}, req("b", shared)),
			`{` + draft + `"type":"object","properties":{"a":{"description":"Maybe an item.","anyOf":[{"$ref":"#/$defs/Item"},{"type":"null"}]},"b":{"$ref":"#/$defs/Item"}},"required":["b"],"additionalProperties":false,"$defs":{` + itemDef + `}}`,
			[]string{`{"a":null,"b":{"sku":"x"}}`}, []string{`{"a":{"sku":1},"b":{"sku":"x"}}`}},
		{"recursive", structOf(req("root", node)),
			`{` + draft + `"type":"object","properties":{"root":{"$ref":"#/$defs/Node"}},"required":["root"],"additionalProperties":false,"$defs":{"Node":{"type":"object","properties":{"name":{"type":"string"},"next":{"anyOf":[{"$ref":"#/$defs/Node"},{"type":"null"}]},"children":{"type":"array","items":{"$ref":"#/$defs/Node"}}},"required":["name"],"additionalProperties":false}}}`,
			[]string{`{"root":{"name":"a","next":{"name":"b","children":[{"name":"c"}]}}}`},
			[]string{`{"root":{"name":"a","next":{"children":[]}}}`, `{"root":{"name":"a","children":[{"name":"b","next":{"name":1}}]}}`}},
		{"recursion to the root", self,
			`{` + draft + `"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#"}}},"required":["name"],"additionalProperties":false}`,
			[]string{`{"name":"a","children":[{"name":"b","children":[]}]}`}, []string{`{"name":"a","children":[{}]}`}},
		{"generic instantiation", structOf(req("p", pageItem), req("q", pageItem)),
			`{` + draft + `"type":"object","properties":{"p":{"$ref":"#/$defs/PageItem"},"q":{"$ref":"#/$defs/PageItem"}},"required":["p","q"],"additionalProperties":false,"$defs":{"PageItem":{"type":"object","properties":{"items":{"type":"array","items":{"description":"Item is one product.","type":"object","properties":{"sku":{"type":"string"}},"required":["sku"],"additionalProperties":false}}},"required":["items"],"additionalProperties":false}}}`,
			[]string{`{"p":{"items":[]},"q":{"items":[{"sku":"x"}]}}`}, []string{`{"p":{"items":[{}]},"q":{"items":[]}}`}},
		{"generic with an unnamed type argument", structOf(req("p", pageItemSlice), req("q", pageItemSlice)),
			`{` + draft + `"type":"object","properties":{"p":{"$ref":"#/$defs/PageSliceItem"},"q":{"$ref":"#/$defs/PageSliceItem"}},"required":["p","q"],"additionalProperties":false,"$defs":{"PageSliceItem":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"],"additionalProperties":false}}}`,
			nil, nil},
		{"name collision: package names", structOf(req("w1", weatherUnit), req("w2", weatherUnit), req("u1", unitsUnit), req("u2", unitsUnit)),
			`{` + draft + `"type":"object","properties":{"w1":{"$ref":"#/$defs/weather.Unit"},"w2":{"$ref":"#/$defs/weather.Unit"},"u1":{"$ref":"#/$defs/units.Unit"},"u2":{"$ref":"#/$defs/units.Unit"}},"required":["w1","w2","u1","u2"],"additionalProperties":false,"$defs":{"units.Unit":{"type":"object","properties":{"u":{"type":"string"}},"required":["u"],"additionalProperties":false},"weather.Unit":{"type":"object","properties":{"w":{"type":"string"}},"required":["w"],"additionalProperties":false}}}`,
			[]string{`{"w1":{"w":"x"},"w2":{"w":"y"},"u1":{"u":"x"},"u2":{"u":"y"}}`}, []string{`{"w1":{"u":"x"},"w2":{"w":"y"},"u1":{"u":"x"},"u2":{"u":"y"}}`}},
		{"name collision: same package name", structOf(req("a1", aUnit), req("a2", aUnit), req("b1", bUnit), req("b2", bUnit)),
			`{` + draft + `"type":"object","properties":{"a1":{"$ref":"#/$defs/example.com.a.units.Unit"},"a2":{"$ref":"#/$defs/example.com.a.units.Unit"},"b1":{"$ref":"#/$defs/example.com.b.units.Unit"},"b2":{"$ref":"#/$defs/example.com.b.units.Unit"}},"required":["a1","a2","b1","b2"],"additionalProperties":false,"$defs":{"example.com.a.units.Unit":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false},"example.com.b.units.Unit":{"type":"object","properties":{"b":{"type":"string"}},"required":["b"],"additionalProperties":false}}}`,
			[]string{`{"a1":{"a":"x"},"a2":{"a":"y"},"b1":{"b":"x"},"b2":{"b":"y"}}`}, []string{`{"a1":{"b":"x"},"a2":{"a":"y"},"b1":{"b":"x"},"b2":{"b":"y"}}`}},
		{"recursive named slice", structOf(req("l", list)),
			`{` + draft + `"type":"object","properties":{"l":{"$ref":"#/$defs/List"}},"required":["l"],"additionalProperties":false,"$defs":{"List":{"type":"array","items":{"$ref":"#/$defs/List"}}}}`,
			[]string{`{"l":[[],[[]]]}`}, []string{`{"l":[1]}`}},
		{"non-ASCII name is percent-encoded in the $ref", structOf(req("a", umlaut), req("b", umlaut)),
			`{` + draft + `"type":"object","properties":{"a":{"$ref":"#/$defs/Gr%C3%B6%C3%9Fe"},"b":{"$ref":"#/$defs/Gr%C3%B6%C3%9Fe"}},"required":["a","b"],"additionalProperties":false,"$defs":{"Größe":{"type":"object","properties":{"cm":{"type":"integer"}},"required":["cm"],"additionalProperties":false}}}`,
			[]string{`{"a":{"cm":1},"b":{"cm":2}}`}, []string{`{"a":{"cm":"1"},"b":{"cm":2}}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := schema.Input(&model.Tool{Name: "t", Args: tt.args})
			if string(doc) != tt.want {
				t.Errorf("schema:\n got %s\nwant %s", doc, tt.want)
			}
			checkInstances(t, compile(t, doc), tt.valid, tt.invalid)
		})
	}
}
