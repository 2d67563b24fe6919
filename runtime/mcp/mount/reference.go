package mount

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/toolgen-go/toolgen/internal/jsonpointer"
	"github.com/toolgen-go/toolgen/internal/schemaformat"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/canonical"
)

// The general validator (github.com/santhosh-tekuri/jsonschema, which toolgen's generator
// checks examples with) validates what schematool's subset cannot: input schemas of other
// shapes, and every output schema. It never loads anything: a $ref outside the document is an
// error when the schema is compiled.

// maxReferenceProblems caps the problems reported from one validation.
const maxReferenceProblems = 20

var printer = message.NewPrinter(language.English)

// referenceSchema is a compiled schema checked with the general validator.
type referenceSchema struct {
	schema    *jsonschema.Schema
	anchors   *anchors // what checkCost follows of it
	canonical func([]byte) ([]byte, error)
}

const schemaURL = "mcp:///schema.json"

// refuseLoads is the compiler's loader: a remote server's schema must not make this process
// read files or fetch URLs.
type refuseLoads struct{}

func (refuseLoads) Load(url string) (any, error) {
	return nil, fmt.Errorf("the schema refers to %q, outside itself", url)
}

func compileReference(doc []byte) (*referenceSchema, error) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(refuseLoads{})
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	schemaformat.Register(c)
	if err := c.AddResource(schemaURL, v); err != nil {
		return nil, err
	}
	s, err := c.Compile(schemaURL)
	if err != nil {
		return nil, err
	}
	a := collectAnchors(s)
	if err := checkExpansion(s, a); err != nil {
		return nil, err
	}
	return &referenceSchema{schema: s, anchors: a, canonical: canonical.Form(doc)}, nil
}

// check validates doc and returns its problems as "/path: message", sorted.
func (o *referenceSchema) check(doc []byte) []string {
	problems, err := o.problems(doc)
	if errors.Is(err, errTooCostly) {
		return []string{fmt.Sprintf("(root): too costly to check, validating it would take more than %d steps (subschemas applied to values, members and items gone over) and %d for each JSON value", MaxValidationSteps, ValidationStepsPerValue)}
	}
	if err != nil {
		return []string{err.Error()}
	}
	out := make([]string, len(problems))
	for i, p := range problems {
		out[i] = shownPath(p.Path) + ": " + p.Message
	}
	return out
}

func shownPath(p string) string {
	if p == "" {
		return "(root)"
	}
	return p
}

func (o *referenceSchema) problems(doc []byte) ([]runtime.Problem, error) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return nil, errors.New("not valid JSON")
	}
	if err := checkCost(o.schema, o.anchors, v); err != nil {
		return nil, err
	}
	err = o.schema.Validate(v)
	var verr *jsonschema.ValidationError
	if err == nil {
		return nil, nil
	}
	if !errors.As(err, &verr) {
		return nil, err
	}
	var out []runtime.Problem
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(out) >= maxReferenceProblems {
			return
		}
		if len(e.Causes) == 0 {
			p := runtime.Problem{Path: pointer(e.InstanceLocation), Message: e.ErrorKind.LocalizedString(printer)}
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(verr)
	slices.SortFunc(out, func(a, b runtime.Problem) int { return strings.Compare(a.Path+a.Message, b.Path+b.Message) })
	return out, nil
}

// Validate checks a call's arguments with the general validator: its problems, with their
// JSON Pointer paths, in its words.
func (o *referenceSchema) Validate(args []byte) (json.RawMessage, error) {
	problems, err := o.problems(args)
	if errors.Is(err, errTooCostly) {
		return nil, &runtime.ArgsError{Problems: []runtime.Problem{{Message: fmt.Sprintf(
			"the arguments are too costly to check against the server's schema: validating them would take more than %d steps (subschemas applied to values, members and items gone over) and %d for each JSON value they hold; send fewer or less deeply nested values",
			MaxValidationSteps, ValidationStepsPerValue)}}}
	}
	if err != nil {
		return nil, &runtime.ArgsError{Problems: []runtime.Problem{{Message: "the arguments are " + err.Error() + "; send one JSON object"}}}
	}
	if len(problems) > 0 {
		return nil, &runtime.ArgsError{Problems: problems}
	}
	return o.canonical(args)
}

func pointer(tokens []string) string {
	var b strings.Builder
	for _, tok := range tokens {
		b.WriteByte('/')
		b.WriteString(jsonpointer.Escape(tok))
	}
	return b.String()
}
