package parse_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/gen/model"
)

// typesSource declares one tool whose args reach every row of the DESIGN.md type table.
const typesSource = `package m

import (
	"context"
	"encoding/json"
	"net/netip"
	"time"

	"example.com/m/units"
)

// Unit is a temperature unit.
type Unit string

const (
	// Celsius is metric.
	Celsius    Unit = "celsius"
	Fahrenheit Unit = "fahrenheit" // degrees Fahrenheit
	DefaultUnit     = Celsius      // an alias: not a second member
)

// Level is a priority.
type Level int

const (
	Low Level = iota + 1
	Medium
	High
)

// Node is a tree node.
type Node struct {
	Name     string  ` + "`json:\"name\"`" + `
	Children []*Node ` + "`json:\"children,omitempty\"`" + `
}

// Page is a generic page.
type Page[T any] struct {
	Items []T ` + "`json:\"items\"`" + `
	Next  string
}

// Stamp decodes itself from text.
type Stamp struct{ v string }

func (s *Stamp) UnmarshalText(b []byte) error { s.v = string(b); return nil }

type Base struct {
	// ID of the thing.
	ID    string
	Shade string ` + "`json:\"color\"`" + `
	S     string // hidden by Args.S, which is shallower
	Dup   string // conflicts with Extra.Dup at the same depth: both dropped
	inner int
}

type Extra struct {
	Shade string // no conflict: Base.Shade is named color
	Note  string
	Dup   string
}

type Args struct {
	S    string
	B    bool
	I    int
	I8   int8
	I64  int64
	U16  uint16
	F32  float32
	F64  float64
	Unit Unit
	Lvl  Level ` + "`json:\"level\"`" + `
	Ext  units.Speed ` + "`json:\"ext\"`" + `
	Sl   []string
	Arr  [3]int
	Raw  []byte
	M    map[string]int
	MI   map[int64]bool
	MT   map[Stamp]string
	St   struct {
		// Inner doc.
		X int
	}
	P     *int
	T     time.Time
	D     time.Duration
	J     json.RawMessage
	A     any
	Txt   Stamp
	Addr  netip.Addr
	Tree  Node
	Page  Page[Node]
	Skip  string ` + "`json:\"-\"`" + `
	Dash  string ` + "`json:\"-,\"`" + `
	priv  string
	Base
	*Extra
}

//tool:name types
func Types(ctx context.Context, a Args) (string, error) { return "", nil }
`

const unitsSource = `package units

// Speed is a wind speed class.
type Speed string

const (
	Calm  Speed = "calm"  // no wind
	Gale  Speed = "gale"
	Storm Speed = "storm" // take cover
)
`

func TestTypeTable(t *testing.T) {
	r := parseFiles(t, map[string]string{"m.go": typesSource, "units/units.go": unitsSource})
	r.requireNoErrors(t)
	args := r.tool(t, "types").Args
	if args.Kind != model.KindStruct || args.Named == nil || args.Named.Name != "Args" || args.Named.Path != "example.com/m" {
		t.Fatalf("args = %+v, want the named struct example.com/m.Args", args)
	}

	kinds := map[string]struct {
		kind model.Kind
		bits int
	}{
		"S": {model.KindString, 0}, "B": {model.KindBool, 0}, "I": {model.KindInt, 0},
		"I8": {model.KindInt, 8}, "I64": {model.KindInt, 64}, "U16": {model.KindUint, 16},
		"F32": {model.KindFloat, 32}, "F64": {model.KindFloat, 64}, "Sl": {model.KindSlice, 0},
		"Arr": {model.KindArray, 0}, "Raw": {model.KindBytes, 0}, "M": {model.KindMap, 0},
		"St": {model.KindStruct, 0}, "P": {model.KindPointer, 0}, "T": {model.KindTime, 0},
		"D": {model.KindDuration, 0}, "J": {model.KindRawJSON, 0}, "A": {model.KindAny, 0},
		"Txt": {model.KindText, 0}, "Addr": {model.KindText, 0}, "Tree": {model.KindStruct, 0},
	}
	for name, want := range kinds {
		f := field(t, args, name)
		if f.Type.Kind != want.kind || f.Type.Bits != want.bits {
			t.Errorf("field %s: kind %s bits %d, want %s bits %d", name, f.Type.Kind, f.Type.Bits, want.kind, want.bits)
		}
	}

	if arr := field(t, args, "Arr").Type; arr.Len != 3 || arr.Elem.Kind != model.KindInt {
		t.Errorf("[3]int = len %d elem %s", arr.Len, arr.Elem.Kind)
	}
	if m := field(t, args, "MI").Type; m.Key.Kind != model.KindInt || m.Key.Bits != 64 || m.Elem.Kind != model.KindBool {
		t.Errorf("map[int64]bool: key %s/%d elem %s", m.Key.Kind, m.Key.Bits, m.Elem.Kind)
	}
	if m := field(t, args, "MT").Type; m.Key.Kind != model.KindText {
		t.Errorf("map with TextUnmarshaler key: key kind %s", m.Key.Kind)
	}
	if txt := field(t, args, "Txt").Type; !txt.TextPointer || txt.TextMarshal {
		t.Errorf("Stamp: TextPointer %t TextMarshal %t, want true false", txt.TextPointer, txt.TextMarshal)
	}
	if addr := field(t, args, "Addr").Type; !addr.TextMarshal || addr.Named.Path != "net/netip" {
		t.Errorf("netip.Addr: %+v, want a marshaling text type", addr)
	}
	p := field(t, args, "P")
	if p.Required || !p.Nullable || p.Type.Elem.Kind != model.KindInt {
		t.Errorf("*int: required %t nullable %t", p.Required, p.Nullable)
	}
	if st := field(t, args, "St").Type; st.Named != nil || len(st.Fields) != 1 || st.Fields[0].Description != "Inner doc." {
		t.Errorf("unnamed struct: %+v", st)
	}
	if f := field(t, args, "-"); f.GoName != "Dash" {
		t.Errorf(`json:"-," names the property "-", got field %s`, f.GoName)
	}
	for _, f := range args.Fields {
		if f.GoName == "Skip" || f.GoName == "priv" || f.GoName == "inner" {
			t.Errorf("field %s should be left out", f.GoName)
		}
	}
}

func TestEnums(t *testing.T) {
	r := parseFiles(t, map[string]string{"m.go": typesSource, "units/units.go": unitsSource})
	r.requireNoErrors(t)
	args := r.tool(t, "types").Args

	unit := field(t, args, "Unit").Type
	if unit.Kind != model.KindString || unit.Doc != "Unit is a temperature unit." {
		t.Errorf("Unit: kind %s doc %q", unit.Kind, unit.Doc)
	}
	wantEnum(t, unit, []string{`Celsius "celsius" Celsius is metric.`, `Fahrenheit "fahrenheit" degrees Fahrenheit`})

	level := field(t, args, "level").Type
	if level.Kind != model.KindInt {
		t.Errorf("Level kind %s", level.Kind)
	}
	wantEnum(t, level, []string{"Low 1 ", "Medium 2 ", "High 3 "})

	// Declared in another package: order and comments come from its syntax.
	speed := field(t, args, "ext").Type
	if speed.Named.Path != "example.com/m/units" || speed.Doc != "Speed is a wind speed class." {
		t.Errorf("units.Speed: %+v doc %q", speed.Named, speed.Doc)
	}
	if !strings.HasSuffix(speed.Pos.Filename, "units.go") || speed.Pos.Line != 4 {
		t.Errorf("units.Speed position %s, want units.go:4", speed.Pos)
	}
	wantEnum(t, speed, []string{`Calm "calm" no wind`, `Gale "gale" `, `Storm "storm" take cover`})
}

func wantEnum(t *testing.T, typ *model.Type, want []string) {
	t.Helper()
	var got []string
	for _, v := range typ.Enum {
		val := ""
		if typ.Kind == model.KindString {
			val = `"` + v.String + `"`
		} else {
			val = strconv.FormatInt(v.Int, 10)
		}
		got = append(got, v.GoName+" "+val+" "+v.Doc)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("enum of %s:\n%s\nwant:\n%s", typ.Named.Name, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestRecursionGenericsEmbedding(t *testing.T) {
	r := parseFiles(t, map[string]string{"m.go": typesSource, "units/units.go": unitsSource})
	r.requireNoErrors(t)
	args := r.tool(t, "types").Args

	tree := field(t, args, "Tree").Type
	children := field(t, tree, "children").Type
	if children.Kind != model.KindSlice || children.Elem.Kind != model.KindPointer || children.Elem.Elem != tree {
		t.Errorf("Node.Children should point back at the shared Node type")
	}
	if tree.Doc != "Node is a tree node." {
		t.Errorf("Node doc %q", tree.Doc)
	}

	page := field(t, args, "Page").Type
	if page.Named.Name != "Page" || len(page.Named.TypeArgs) != 1 || page.Named.TypeArgs[0] != tree {
		t.Errorf("Page[Node]: %+v", page.Named)
	}
	if items := field(t, page, "items").Type; items.Elem != tree {
		t.Errorf("Page[Node].Items should hold the shared Node type")
	}

	// Base is embedded by value, Extra by pointer; Base.Shade (tagged "color") and
	// Extra.Shade (untagged "Shade") do not conflict; ID and Note are promoted.
	id := field(t, args, "ID")
	if len(id.Embedded) != 1 || id.Embedded[0].GoName != "Base" || id.Embedded[0].Pointer || id.Description != "ID of the thing." {
		t.Errorf("promoted ID: %+v", id)
	}
	note := field(t, args, "Note")
	if len(note.Embedded) != 1 || note.Embedded[0].GoName != "Extra" || !note.Embedded[0].Pointer ||
		note.Embedded[0].Type.Named.Name != "Extra" {
		t.Errorf("promoted Note: %+v", note.Embedded)
	}
	if f := field(t, args, "color"); f.GoName != "Shade" || f.Embedded[0].GoName != "Base" {
		t.Errorf("color: %+v", f)
	}
	if f := field(t, args, "Shade"); f.Embedded[0].GoName != "Extra" {
		t.Errorf("Shade: %+v", f)
	}
	if f := field(t, args, "S"); len(f.Embedded) != 0 {
		t.Errorf("S should be the direct field, got one via %+v", f.Embedded)
	}
	for _, f := range args.Fields {
		if f.JSONName == "Dup" {
			t.Errorf("Dup is ambiguous at one depth and should be dropped, as encoding/json does")
		}
	}
	if !strings.Contains(r.messages(), "fields Base.Dup and Extra.Dup of Args both have the JSON name \"Dup\"") {
		t.Errorf("missing warning about Dup:\n%s", r.messages())
	}
	// Promoted fields come after the direct ones, in declaration order.
	last := args.Fields[len(args.Fields)-4:]
	var names []string
	for _, f := range last {
		names = append(names, f.JSONName)
	}
	if strings.Join(names, ",") != "ID,color,Shade,Note" {
		t.Errorf("promoted field order %v", names)
	}
}
