package parse_test

import (
	"fmt"
	"strings"
	"testing"
)

// at formats "m.go:LINE:COL: message" for the line of src holding marker, at the column of
// the first occurrence of colText on that line.
func at(t *testing.T, src, marker, colText, message string) string {
	t.Helper()
	line := lineOf(t, src, marker)
	text := strings.Split(src, "\n")[line-1]
	col := strings.Index(text, colText)
	if col < 0 {
		t.Fatalf("%q not on line %q", colText, text)
	}
	return fmt.Sprintf("m.go:%d:%d: %s", line, col+1, message)
}

const directiveErrors = `package m

import "context"

type A struct{ X string }

// One has a typo.
//
//tool:nmae one
func One(ctx context.Context, a A) (string, error) { return "", nil }

// Two repeats a directive.
//
//tool:name two
//tool:timeout 1s
//tool:timeout 2s
//tool:meta k=1
//tool:meta k=2
func Two(ctx context.Context, a A) (string, error) { return "", nil }

// Three has a directive in its body.
//tool:name three
func Three(ctx context.Context, a A) (string, error) {
	//tool:timeout 1s
	return "", nil
}

//tool:name floating

// Four is a plain type with a directive.
//
//tool:title Four
type Four struct{}

// Five is not in directive form.
// tool:name five
func Five() {}

// Wrong is a generic handler.
//
//tool:name generic
func Wrong[T any](ctx context.Context, a A) (string, error) { return "", nil }

// Sig has a bad signature.
//
//tool:name sig
func Sig(a A, b A) (string, error) { return "", nil }

// NotStruct takes a string.
//
//tool:name notstruct
func NotStruct(ctx context.Context, s string) (string, error) { return "", nil }

// OnlyErr lacks args.
//
//tool:name onlyerr
func OnlyErr(ctx context.Context) error { return nil }

// Client is a client tool that is not a struct.
//
//tool:client
type Client string

// Ünicode has a name no provider accepts: the check phase reports it, not parse.
//
//tool:timeout 1s
func Ünicode(ctx context.Context) (string, error) { return "", nil } //tool:name x

// Misplaced has directives that belong on a type, or have arguments they do not take.
//
//tool:client
//tool:sequential now
func Misplaced(ctx context.Context, a A) (string, error) { return "", nil }

// Seq is a client tool with a policy of handlers.
//
//tool:client
//tool:sequential
type Seq struct{}
`

func TestDirectiveDiagnostics(t *testing.T) {
	src := directiveErrors
	r := parseFiles(t, map[string]string{"m.go": src})
	wantErrors(t, r, []string{
		at(t, src, "//tool:nmae", "//", "unknown directive //tool:nmae; did you mean //tool:name?"),
		at(t, src, "//tool:timeout 2s", "//", "duplicate //tool:timeout"),
		at(t, src, "//tool:meta k=2", "k=2", `duplicate //tool:meta key "k"`),
		at(t, src, "\t//tool:timeout 1s", "//", "//tool:timeout is not in a doc comment"),
		at(t, src, "//tool:name floating", "//", "//tool:name is not in a doc comment"),
		at(t, src, "//tool:title Four", "//", "type Four has //tool: directives but no //tool:client"),
		at(t, src, "// tool:name five", "//", "not a directive: write //tool:name with no space after //"),
		at(t, src, "func Wrong", "Wrong", "handler Wrong must not be generic"),
		at(t, src, "func Sig", "Sig", "handler Sig has an unsupported signature: the first of two parameters must be context.Context"),
		at(t, src, "func NotStruct", "NotStruct", "handler NotStruct: args must be a struct or a pointer to one, found string"),
		at(t, src, "func OnlyErr", "OnlyErr", "handler OnlyErr has an unsupported signature: a handler returning only error"),
		at(t, src, "type Client", "Client", "client tool type Client must be a struct type, found string"),
		at(t, src, "//tool:name x", "//", "//tool:name is not in a doc comment"),
		fmt.Sprintf("m.go:%d:1: //tool:client is not allowed on a func", lineOf(t, src, "//tool:sequential now")-1),
		at(t, src, "//tool:sequential now", "now", "//tool:sequential takes no arguments"),
		fmt.Sprintf("m.go:%d:1: //tool:sequential is not allowed on a type", lineOf(t, src, "type Seq")-1),
	})
	msgs := r.messages()
	for _, hint := range []string{
		"hint: previous //tool:timeout at m.go:" + fmt.Sprint(lineOf(t, src, "//tool:timeout 1s")) + ":1; keep one",
		"hint: a handler is one of func(ctx context.Context, args T) (R, error)",
	} {
		if !strings.Contains(msgs, hint) {
			t.Errorf("missing %q in:\n%s", hint, msgs)
		}
	}
	// Tools with errors are still in the model, so later checks see every name.
	r.tool(t, "one")
	r.tool(t, "three")
	if two := r.tool(t, "two"); two.Timeout.String() != "1s" {
		t.Errorf("the first of duplicate directives counts: timeout %s", two.Timeout)
	}
	r.tool(t, "ünicode")
	// A directive with problems is not applied, whatever its name.
	if m := r.tool(t, "misplaced"); m.Client || m.Sequential || m.Handler.Name != "Misplaced" {
		t.Errorf("misplaced: client=%t sequential=%t handler %q; want a handler tool without the directives",
			m.Client, m.Sequential, m.Handler.Name)
	}
	if seq := r.tool(t, "seq"); !seq.Client || seq.Sequential {
		t.Errorf("seq: client=%t sequential=%t; want a client tool without //tool:sequential", seq.Client, seq.Sequential)
	}
}

const typeErrors = `package m

import (
	"context"
	"encoding/json"
)

type Inner struct {
	C chan int
}

type Custom struct{}

func (c *Custom) UnmarshalJSON(b []byte) error { return nil }

type Args struct {
	Opts  Inner
	F     func()
	Z     complex128
	I     interface{ M() }
	Bad   map[[2]int]string
	Cust  Custom
	Str   int ` + "`json:\",string\"`" + `
	Tag   string ` + "`json:\"x\" tool`" + `
	Raw   json.RawMessage
}

// Broken has broken args.
//
//tool:name broken
func Broken(ctx context.Context, a Args) (string, error) { return "", nil }

type Out struct{ Ch chan int }

// Result has a broken result.
//
//tool:name result
func Result(ctx context.Context) (Out, error) { return Out{}, nil }
`

func TestTypeDiagnostics(t *testing.T) {
	src := typeErrors
	r := parseFiles(t, map[string]string{"m.go": src})
	wantErrors(t, r, []string{
		at(t, src, "C chan int", "C", "unsupported type chan int at Args.Opts.C (field Opts.C)"),
		at(t, src, "F     func()", "F", "unsupported type func() at Args.F (field F)"),
		at(t, src, "Z     complex128", "Z", "unsupported type complex128 at Args.Z (field Z)"),
		at(t, src, "I     interface", "I", "unsupported type interface{M()} at Args.I (field I)"),
		at(t, src, "Bad   map", "Bad", "unsupported map key type [2]int at Args.Bad (field Bad)"),
		at(t, src, "Cust  Custom", "Cust", "type Custom at Args.Cust (field Cust) implements json.Unmarshaler"),
		at(t, src, "Str   int", "Str", `json option "string" of field Str is not supported`),
		at(t, src, "Tag   string", "Tag", "malformed struct tag of field Tag"),
		at(t, src, "Ch chan int", "Ch", "unsupported type chan int at Out.Ch (result of Result)"),
	})
	// The bad fields are left out; the good ones stay.
	args := r.tool(t, "broken").Args
	field(t, args, "Raw")
	field(t, args, "Opts")
	for _, f := range args.Fields {
		if f.GoName == "F" || f.GoName == "Z" {
			t.Errorf("field %s has an unsupported type and should be dropped", f.GoName)
		}
	}
}
