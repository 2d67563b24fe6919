package provider_test

import (
	"github.com/toolgen-go/toolgen/gen/model"
)

// Hand-built models: every row of the type table of DESIGN.md §2, constraints of every kind,
// recursion, a shared struct ($defs), and property names Gemini rejects.

func at(line int) model.Position {
	return model.Position{Filename: "tools.go", Line: line, Column: 2}
}

func intp(n int) *int { return &n }

func num(text string, v float64) *model.Number { return &model.Number{Text: text, Value: v} }

func field(line int, name string, typ *model.Type, required bool) *model.Field {
	return &model.Field{Pos: at(line), GoName: name, JSONName: name, Type: typ, Required: required, Description: "The " + name + "."}
}

func kind(k model.Kind) *model.Type { return &model.Type{Kind: k} }

func named(name string, t *model.Type, line int) *model.Type {
	t.Named = &model.GoName{Path: "example.com/m", Name: name}
	t.Pos = model.Position{Filename: "types.go", Line: line, Column: 6}
	return t
}

func tool(name string, args *model.Type) *model.Tool {
	return &model.Tool{Pos: model.Position{Filename: "tools.go", Line: 1, Column: 6}, Name: name, Description: "Does " + name + ".", Args: args}
}

func ptr(t *model.Type) *model.Type { return &model.Type{Kind: model.KindPointer, Elem: t} }

// scalarsTool has one field of every scalar row, required and optional, with constraints.
func scalarsTool() *model.Tool {
	unit := named("Unit", &model.Type{Kind: model.KindString, Enum: []*model.EnumValue{{String: "celsius", Doc: "degrees"}, {String: "kelvin"}}}, 3)
	level := named("Level", &model.Type{Kind: model.KindInt, Enum: []*model.EnumValue{{Int: 1}, {Int: 2}, {Int: 3}}}, 4)
	name := field(10, "name", kind(model.KindString), true)
	name.Constraints = model.Constraints{MinLength: intp(1), MaxLength: intp(64), Pattern: "^[a-z]+$"}
	id := field(11, "id", kind(model.KindString), false)
	id.Constraints = model.Constraints{Format: "uuid", Examples: []model.Literal{{JSON: `"0b7c2e4a-7d8e-4a51-9f2e-0123456789ab"`}}}
	site := field(12, "site", kind(model.KindString), false)
	site.Constraints = model.Constraints{Format: "uri", Deprecated: true}
	count := field(13, "count", &model.Type{Kind: model.KindInt, Bits: 8}, false)
	count.Constraints = model.Constraints{Minimum: num("0", 0), Maximum: num("100", 100), MultipleOf: num("5", 5), Default: &model.Literal{JSON: "10"}}
	ratio := field(14, "ratio", &model.Type{Kind: model.KindFloat, Bits: 64}, true)
	ratio.Constraints = model.Constraints{ExclusiveMinimum: num("0", 0), ExclusiveMaximum: num("1", 1)}
	big := field(15, "big", &model.Type{Kind: model.KindUint, Bits: 64}, false)
	flag := field(16, "flag", kind(model.KindBool), false)
	when := field(17, "when", kind(model.KindTime), false)
	wait := field(18, "wait", kind(model.KindDuration), false)
	wait.Constraints = model.Constraints{Pattern: "^[0-9]+s$"} // a second pattern: allOf
	data := field(19, "data", kind(model.KindBytes), false)
	text := field(20, "text", &model.Type{Kind: model.KindText, TextPointer: true}, false)
	u := field(21, "unit", unit, false)
	u.Constraints = model.Constraints{Default: &model.Literal{JSON: `"celsius"`}}
	lvl := field(22, "level", ptr(level), false)
	lvl.Nullable = true
	note := field(23, "note", ptr(kind(model.KindString)), false)
	note.Nullable = true
	args := named("ScalarArgs", &model.Type{Kind: model.KindStruct, Fields: []*model.Field{name, id, site, count, ratio, big, flag, when, wait, data, text, u, lvl, note}}, 8)
	return tool("scalars", args)
}

// containersTool has slices, arrays, nested structs, a shared struct and Gemini-hostile names.
func containersTool() *model.Tool {
	point := named("Point", &model.Type{Kind: model.KindStruct, Fields: []*model.Field{
		field(40, "x", kind(model.KindFloat), true),
		field(41, "y", kind(model.KindFloat), false),
	}}, 39)
	tags := field(30, "tags", &model.Type{Kind: model.KindSlice, Elem: kind(model.KindString)}, false)
	tags.Constraints = model.Constraints{MinItems: intp(2), MaxItems: intp(10), UniqueItems: true, Items: &model.Constraints{MinLength: intp(1)}}
	pair := field(31, "pair", &model.Type{Kind: model.KindArray, Len: 2, Elem: kind(model.KindInt)}, true)
	from := field(32, "from", point, true)
	to := field(33, "to", ptr(point), false)
	to.Nullable = true
	inner := field(34, "inner", &model.Type{Kind: model.KindStruct, Fields: []*model.Field{
		field(35, "deep-name", kind(model.KindString), false),
		field(36, "2nd", kind(model.KindBool), true),
	}}, false)
	points := field(37, "points", &model.Type{Kind: model.KindSlice, Elem: point}, false)
	dash := field(38, "x-trace", kind(model.KindString), false)
	args := named("ContainerArgs", &model.Type{Kind: model.KindStruct, Fields: []*model.Field{tags, pair, from, to, inner, points, dash}}, 29)
	return tool("containers", args)
}

// recursiveTool has a recursive named struct (a $defs entry) and recursion to the root.
func recursiveTool() *model.Tool {
	node := named("Node", &model.Type{Kind: model.KindStruct}, 50)
	node.Fields = []*model.Field{
		field(51, "label", kind(model.KindString), false),
		field(52, "child-nodes", &model.Type{Kind: model.KindSlice, Elem: node}, false),
		field(53, "next", ptr(node), false),
	}
	node.Fields[2].Nullable = true
	root := named("TreeArgs", &model.Type{Kind: model.KindStruct}, 55)
	root.Fields = []*model.Field{
		field(56, "tree", node, true),
		field(57, "sub", ptr(root), false),
		field(58, "title", kind(model.KindString), false),
	}
	root.Fields[1].Nullable = true
	return tool("recursive", root)
}

// looseTool has what OpenAI strict cannot describe: a map and an any value.
func looseTool() *model.Tool {
	meta := field(60, "meta", &model.Type{Kind: model.KindMap, Key: kind(model.KindString), Elem: kind(model.KindInt)}, false)
	meta.Constraints = model.Constraints{MaxProperties: intp(5)}
	byID := field(61, "by_id", &model.Type{Kind: model.KindMap, Key: kind(model.KindInt), Elem: kind(model.KindString)}, false)
	raw := field(62, "raw", kind(model.KindRawJSON), false)
	anyv := field(63, "anything", kind(model.KindAny), true)
	args := named("LooseArgs", &model.Type{Kind: model.KindStruct, Fields: []*model.Field{field(59, "q", kind(model.KindString), true), meta, byID, raw, anyv}}, 58)
	return tool("loose", args)
}

// noArgsTool has no arguments at all.
func noArgsTool() *model.Tool { return tool("ping", nil) }

func handBuilt() []*model.Tool {
	return []*model.Tool{scalarsTool(), containersTool(), recursiveTool(), looseTool(), noArgsTool()}
}
