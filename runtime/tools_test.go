package runtime_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// jsonTool builds a tool the way generated code would, but decodes with encoding/json: unknown
// properties and a syntax error become an *ArgsError, like the generated decoders report them.
func jsonTool[T any](name string, handler func(ctx context.Context, args T) runtime.Result) runtime.Tool {
	return runtime.Tool{
		Name: name,
		Bind: func(ctx context.Context, raw []byte) (runtime.BoundCall, error) {
			var args T
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&args); err != nil {
				return nil, &runtime.ArgsError{Problems: []runtime.Problem{problemOf(err)}}
			}
			return boundCall[T]{args: &args, handler: handler}, nil
		},
	}
}

// problemOf turns an encoding/json error into a problem with a JSON Pointer path.
func problemOf(err error) runtime.Problem {
	msg := err.Error()
	if field, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return runtime.Problem{Path: "/" + strings.Trim(field, `"`), Message: "unknown property"}
	}
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return runtime.Problem{Path: "/" + typeErr.Field, Message: "must be " + typeErr.Type.String() + ", got " + typeErr.Value}
	}
	return runtime.Problem{Message: msg}
}

type boundCall[T any] struct {
	args    *T
	handler func(ctx context.Context, args T) runtime.Result
}

func (c boundCall[T]) Args() any                              { return c.args }
func (c boundCall[T]) Run(ctx context.Context) runtime.Result { return c.handler(ctx, *c.args) }

// noArgs is the args type of tools without arguments.
type noArgs struct{}

// constTool is a tool that always answers text.
func constTool(name, text string, tags ...string) runtime.Tool {
	t := jsonTool(name, func(context.Context, noArgs) runtime.Result { return runtime.TextResult(text) })
	t.Tags = tags
	return t
}

// bindFunc is a tool whose Bind is fn, for the cases generated code must never hit but the
// registry must survive.
func bindFunc(name string, fn func(ctx context.Context, raw []byte) (runtime.BoundCall, error)) runtime.Tool {
	return runtime.Tool{Name: name, Bind: fn}
}

// runFunc is a BoundCall whose Run is fn.
type runFunc func(ctx context.Context) runtime.Result

func (f runFunc) Args() any                              { return nil }
func (f runFunc) Run(ctx context.Context) runtime.Result { return f(ctx) }

// runTool is a tool that binds any arguments and whose handler is fn.
func runTool(name string, fn func(ctx context.Context) runtime.Result) runtime.Tool {
	return bindFunc(name, func(context.Context, []byte) (runtime.BoundCall, error) { return runFunc(fn), nil })
}

// framedTool is a tool built the way generated code builds one, with a binding: the registry
// binds the call it allocates with its state inside. fn gets the raw arguments the call was
// bound with; decodes counts the binds.
func framedTool(name string, decodes *atomic.Int32, fn func(ctx context.Context, args string) runtime.Result) runtime.Tool {
	type rawArgs struct{ raw string }
	t := runtime.Tool{Name: name}
	toolimpl.SetBinding(&t, &toolimpl.Binding{
		New: func() *toolimpl.CallSlot {
			c := new(toolimpl.Slot[rawArgs])
			return c.Hold(&c.Args)
		},
		Decode: func(data []byte, a any) error {
			decodes.Add(1)
			a.(*rawArgs).raw = string(data)
			return nil
		},
		Run: func(ctx context.Context, a any) runtime.Result { return fn(ctx, a.(*rawArgs).raw) },
	})
	return t
}
