package schematool

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/variant"
)

// Handler runs one call of a schema-defined tool. args is the canonical form of the
// arguments the schema accepted, the form approvals are bound to: an object, keys sorted, the
// schema's defaults added for absent properties; json.Unmarshal it into a struct or a map.
type Handler func(ctx context.Context, args json.RawMessage) (runtime.Result, error)

var namePattern = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_-]{0,127}$`)

// New returns a tool named name, described to the model by description, whose arguments are
// validated by schema (compiled by Compile: the subset toolgen emits, anything else an error)
// and handed, canonical and with their defaults, to handler. The tool is a runtime.Tool like
// a generated one: set its policies (Timeout, Retry, Permission, Hints, Tags, …) on the value
// returned before Registry.Add.
func New(name, description string, schema json.RawMessage, handler Handler) (runtime.Tool, error) {
	if !namePattern.MatchString(name) {
		return runtime.Tool{}, fmt.Errorf("tool %q: invalid name: must match %s", name, namePattern)
	}
	if handler == nil {
		return runtime.Tool{}, fmt.Errorf("tool %q: no handler", name)
	}
	s, err := Compile(schema)
	if err != nil {
		return runtime.Tool{}, fmt.Errorf("tool %q: input schema: %w", name, err)
	}
	return s.Tool(name, description, handler), nil
}

// Tool returns a tool whose arguments s validates, as New does, for a schema compiled once
// and shared.
func (s *Schema) Tool(name, description string, handler Handler) runtime.Tool {
	return runtime.Tool{
		Name:        name,
		Origin:      "schematool",
		Description: description,
		Permission:  runtime.PermissionAuto,
		InputSchema: s.JSON(),
		Dialects:    []string{variant.OpenAI, variant.Anthropic, variant.AnthropicStrict, variant.GeminiParameters, variant.GeminiJSONSchema},
		Bind: func(ctx context.Context, args []byte) (runtime.BoundCall, error) {
			canonical, err := s.Validate(args)
			if err != nil {
				return nil, err
			}
			return &call{args: canonical, handler: handler}, nil
		},
	}
}

// call is a bound call of a schema-defined tool.
type call struct {
	args    json.RawMessage
	handler Handler
}

// Args returns the canonical arguments (a json.RawMessage).
func (c *call) Args() any { return c.args }

func (c *call) Run(ctx context.Context) runtime.Result {
	r, err := c.handler(ctx, c.args)
	if err != nil {
		return runtime.ErrorResult(err)
	}
	return r
}
