package agreement

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/decode"
)

const (
	citySchema  = `{"type":"object","properties":{"city":{"type":"string","minLength":1}},"required":["city"],"additionalProperties":false}`
	routeSchema = `{"type":"object","properties":{"from":{"type":"string","minLength":1},"to":{"type":"string","maxLength":3},"stops":{"type":"integer","minimum":0}},"required":["from","to","stops"],"additionalProperties":false}`
)

type boundCall struct{}

func (boundCall) Args() any                          { return nil }
func (boundCall) Run(context.Context) runtime.Result { return runtime.Result{} }

// fakeTool is a tool over citySchema whose decoder is bind.
func fakeTool(bind func(doc []byte) error) runtime.Tool {
	return runtime.Tool{
		Name:        "fake",
		InputSchema: []byte(citySchema),
		Bind: func(_ context.Context, doc []byte) (runtime.BoundCall, error) {
			if err := bind(doc); err != nil {
				return nil, err
			}
			return boundCall{}, nil
		},
	}
}

var refuse = &runtime.ArgsError{Problems: []runtime.Problem{{Path: "/city", Message: "no"}}}

func TestCompare(t *testing.T) {
	acceptAll := fakeTool(func([]byte) error { return nil })
	refuseAll := fakeTool(func([]byte) error { return refuse })
	cases := []struct {
		name string
		tool runtime.Tool
		doc  string
		want string // a fragment of the report; "" for agreement
	}{
		{"both accept", acceptAll, `{"city":"Tokyo"}`, ""},
		{"both refuse", refuseAll, `{"city":""}`, ""},
		{"decoder too lenient", acceptAll, `{"city":""}`, "schema validator refuses"},
		{"decoder too strict", refuseAll, `{"city":"Tokyo"}`, "generated decoder refuses: /city: no"},
		{"panic", fakeTool(func([]byte) error { panic("boom") }), `{"city":"Tokyo"}`, "panics: boom"},
		{"panic on an exception document", fakeTool(func([]byte) error { panic("boom") }), `{`, "panics"},
		{"plain error", fakeTool(func([]byte) error { return errors.New("bad") }), `{"city":""}`, "not *runtime.ArgsError"},
		{"empty ArgsError", fakeTool(func([]byte) error { return &runtime.ArgsError{} }), `{"city":""}`, "without problems"},
		{"writes to its input", fakeTool(func(doc []byte) error { doc[0] = ' '; return refuse }), `{"city":""}`, "modified its input"},
		{"missing decoder", runtime.Tool{InputSchema: []byte(citySchema)}, `{"city":"Tokyo"}`, "the tool has no binding"},
		{"duplicate keys are an exception", acceptAll, `{"city":"","city":"x"}`, ""},
		{"not JSON is an exception", acceptAll, `{"city":`, ""},
		{"bad schema", runtime.Tool{InputSchema: []byte(`{"type":"nonsense"}`), Bind: acceptAll.Bind}, `{}`, "does not compile"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Compare(c.tool, []byte(c.doc))
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Errorf("Compare(%s) = %q, want %q", c.doc, got, c.want)
			}
		})
	}
}

// TestCompareFormatRules: where the decoder's format rules follow the RFCs and the validator's
// do not, the decoder's verdict counts as agreement; every other difference is still reported.
func TestCompareFormatRules(t *testing.T) {
	const linkSchema = `{"type":"object","properties":{"link":{"type":"string","format":"uri"}},"required":["link"],"additionalProperties":false}`
	tool := func(bind func(link string) bool) runtime.Tool {
		return runtime.Tool{Name: "links", InputSchema: []byte(linkSchema),
			Bind: func(_ context.Context, doc []byte) (runtime.BoundCall, error) {
				var args struct{ Link string }
				if err := json.Unmarshal(doc, &args); err != nil || !bind(args.Link) {
					return nil, &runtime.ArgsError{Problems: []runtime.Problem{{Path: "/link", Message: "must be a URI"}}}
				}
				return boundCall{}, nil
			}}
	}
	rfc := tool(decode.IsURI)
	lenient := tool(func(string) bool { return true })
	strict := tool(func(string) bool { return false })
	for _, c := range []struct {
		name string
		tool runtime.Tool
		doc  string
		want string
	}{
		{"a space, refused by the RFC and accepted by the validator", rfc, `{"link":"https://example.org/foo bar"}`, ""},
		{"both accept", rfc, `{"link":"https://example.org/foo%20bar"}`, ""},
		{"a decoder laxer than both", lenient, `{"link":"no scheme"}`, "schema validator refuses"},
		{"a decoder stricter than both", strict, `{"link":"https://example.org/"}`, "generated decoder refuses"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Compare(c.tool, []byte(c.doc))
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Errorf("Compare(%s) = %q, want %q", c.doc, got, c.want)
			}
		})
	}
}

// recorder is a testing.TB that keeps what Check reports instead of failing.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func TestCheckReportsDisagreementsAndCapsThem(t *testing.T) {
	var rec recorder
	lenient := fakeTool(func([]byte) error { return nil })
	lenient.InputSchema = []byte(routeSchema)
	Check(&rec, []runtime.Tool{lenient})
	if len(rec.errors) != maxReports+1 {
		t.Fatalf("%d reports for a decoder that accepts everything, want %d and a count:\n%s",
			len(rec.errors), maxReports+1, strings.Join(rec.errors, "\n"))
	}
	if last := rec.errors[maxReports]; !strings.Contains(last, "more disagreements not shown") {
		t.Errorf("last report %q, want the count of the rest", last)
	}

	rec = recorder{}
	Check(&rec, []runtime.Tool{{Name: "broken", InputSchema: []byte(`{`), Bind: fakeTool(nil).Bind}})
	if len(rec.errors) != 1 || !strings.Contains(rec.errors[0], "no corpus") {
		t.Errorf("reports for a schema that is not JSON: %q", rec.errors)
	}
}

func TestCheckRunsTheExamples(t *testing.T) {
	// A decoder that refuses only the tool's example: only the corpus would miss it.
	example := `{"city":"Example-only"}`
	tool := fakeTool(nil)
	tool.Bind = func(_ context.Context, doc []byte) (runtime.BoundCall, error) {
		if string(doc) == example {
			return nil, refuse
		}
		return validatorBind(doc)
	}
	tool.Examples = []runtime.Example{{Args: []byte(example)}}
	var rec recorder
	Check(&rec, []runtime.Tool{tool})
	if len(rec.errors) != 1 || !strings.Contains(rec.errors[0], "Example-only") {
		t.Errorf("reports: %q; want one, about the example", rec.errors)
	}
}

// validatorBind is a decoder for citySchema that agrees with the validator by construction.
func validatorBind(doc []byte) (runtime.BoundCall, error) {
	sch, err := compiled([]byte(citySchema))
	if err != nil {
		return nil, err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil || sch.Validate(inst) != nil {
		return nil, refuse
	}
	return boundCall{}, nil
}
