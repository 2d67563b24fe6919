package runtime

import "context"

// Binding joins a tool's argument decoder to its handler: generated code declares one per tool
// and sets Tool.Bind and Tool.NewCall to its methods, so that one generic type serves every
// tool instead of a call type of its own. A is the arguments' type; struct{} for a tool that
// takes none (its calls' Args is nil).
type Binding[A any] struct {
	// Decode decodes and validates a JSON document of arguments into args, in one pass; on
	// invalid arguments it returns an *ArgsError listing every problem.
	Decode func(data []byte, args *A) error
	// Validate, when set, is the arguments' own check (a method expression such as
	// (*Args).Validate), run once Decode succeeded; its error is the model's to fix.
	Validate func(args *A, ctx context.Context) error
	// Run calls the handler once with the decoded arguments and turns what it returns into a
	// Result.
	Run func(ctx context.Context, args *A) Result
}

// Bind decodes and validates args into a new call: Tool.Bind.
func (b *Binding[A]) Bind(ctx context.Context, args []byte) (BoundCall, error) {
	c := &boundCall[A]{b: b}
	if err := c.Bind(ctx, args); err != nil {
		return nil, err
	}
	return c, nil
}

// NewCall allocates a call with room for the registry's CallFrame: Tool.NewCall.
func (b *Binding[A]) NewCall() UnboundCall {
	return &framedCall[A]{boundCall: boundCall[A]{b: b}}
}

// boundCall is a call of a Binding's tool with its arguments.
type boundCall[A any] struct {
	b    *Binding[A]
	args A
}

func (c *boundCall[A]) Args() any {
	if _, none := any(&c.args).(*struct{}); none {
		return nil
	}
	return &c.args
}

func (c *boundCall[A]) Run(ctx context.Context) Result { return c.b.Run(ctx, &c.args) }

// Bind decodes and validates the arguments into c.
func (c *boundCall[A]) Bind(ctx context.Context, data []byte) error {
	if err := c.b.Decode(data, &c.args); err != nil {
		return err
	}
	if c.b.Validate != nil {
		if err := c.b.Validate(&c.args, ctx); err != nil {
			return &ArgsError{Problems: ValidationProblems(err)}
		}
	}
	return nil
}

// framedCall is a call the registry allocates through Tool.NewCall, with its frame inside.
type framedCall[A any] struct {
	boundCall[A]
	frame CallFrame
}

func (c *framedCall[A]) Frame() *CallFrame { return &c.frame }
