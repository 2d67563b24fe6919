package check

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/toolgen-go/toolgen/gen/diag"
	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/gen/schema"
	"github.com/toolgen-go/toolgen/internal/jsonpointer"
	"github.com/toolgen-go/toolgen/internal/schemaformat"
)

// schemaURL is where a compiled schema claims to live; nothing is ever fetched from it.
const schemaURL = "mem:///schema.json"

var printer = message.NewPrinter(language.English)

// checkSchemas compiles the tool's emitted schemas and validates its examples against the
// input schema.
func checkSchemas(t *model.Tool, diags *diag.List) {
	input, err := compile(schema.Input(t))
	if err != nil {
		diags.Errorf(t.Pos, "internal error: toolgen emitted an invalid schema for %s: input schema: %v (please report)", t.Name, oneLine(err))
	}
	if out := schema.Output(t); out != nil {
		if _, err := compile(out); err != nil {
			diags.Errorf(t.Pos, "internal error: toolgen emitted an invalid schema for %s: output schema: %v (please report)", t.Name, oneLine(err))
		}
	}
	if input == nil {
		return
	}
	for _, ex := range t.Examples {
		checkExample(t, ex, input, diags)
	}
}

// compile compiles a schema document the way every check uses it: draft 2020-12, formats
// asserted by the decoder's rules (an example with a bad date-time or a uri with a space must
// fail here, as it fails in the decoder).
func compile(doc []byte) (*jsonschema.Schema, error) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	schemaformat.Register(c)
	if err := c.AddResource(schemaURL, v); err != nil {
		return nil, err
	}
	return c.Compile(schemaURL)
}

func checkExample(t *model.Tool, ex model.Example, input *jsonschema.Schema, diags *diag.List) {
	name := "example"
	if ex.Scenario != "" {
		name = "example " + strconv.Quote(ex.Scenario)
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(ex.Args))
	if err != nil {
		diags.Errorf(ex.Pos, "%s of %s is not valid JSON: %v", name, t.Name, err).
			WithHint("write the arguments as one JSON object, e.g. {\"city\":\"Tokyo\"}")
		return
	}
	err = input.Validate(v)
	if err == nil {
		return
	}
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		diags.Errorf(ex.Pos, "%s of %s does not match its input schema: %v", name, t.Name, oneLine(err))
		return
	}
	diags.Errorf(ex.Pos, "%s of %s does not match its input schema: %s", name, t.Name, strings.Join(problems(verr), "; ")).
		WithHint("examples are shown to the model; fix the example or the argument types")
}

// problems lists the leaves of a validation error as "/path: message", sorted (the validator
// walks objects in map order) and without repeats. Inside an anyOf, the branch that only says "want null" is left out:
// it is the nullable wrapper toolgen adds, and the other branch tells what is wrong.
func problems(e *jsonschema.ValidationError) []string {
	var out []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		causes := e.Causes
		if _, ok := e.ErrorKind.(*kind.AnyOf); ok {
			causes = slices.DeleteFunc(slices.Clone(causes), func(c *jsonschema.ValidationError) bool {
				k, ok := c.ErrorKind.(*kind.Type)
				return ok && slices.Equal(k.Want, []string{"null"}) && len(e.Causes) > 1
			})
		}
		if len(causes) == 0 {
			p := pointer(e.InstanceLocation) + ": " + e.ErrorKind.LocalizedString(printer)
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
			return
		}
		for _, c := range causes {
			walk(c)
		}
	}
	walk(e)
	slices.Sort(out)
	return out
}

// pointer writes an instance location as a JSON Pointer; the whole document is "(root)",
// since an empty pointer would read as a missing one.
func pointer(tokens []string) string {
	if len(tokens) == 0 {
		return "(root)"
	}
	var b strings.Builder
	for _, tok := range tokens {
		b.WriteByte('/')
		b.WriteString(jsonpointer.Escape(tok))
	}
	return b.String()
}

// oneLine keeps a multi-line library error on the diagnostic's single line.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}
