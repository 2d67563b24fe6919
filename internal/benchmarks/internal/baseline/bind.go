package baseline

import (
	"context"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// Binder returns the baseline of a tool's Bind for arguments of type A decoded by decode, a
// decoder generated before the decoders were made compact: it allocates the call and binds
// the arguments through a toolimpl.Binding declared as generated code declares one, so Bind
// takes the path of today's Tool.BindArgs (the binding's New and Decode, called through
// function values) and differs from it only by its decoder.
func Binder[A any](decode func(data []byte, args *A) error) func(data []byte) (any, error) {
	binding := &toolimpl.Binding{
		Decode: func(data []byte, a any) error { return decode(data, a.(*A)) },
		New: func() *toolimpl.CallSlot {
			c := new(toolimpl.Slot[A])
			return c.Hold(&c.Args)
		},
	}
	tool := runtime.Tool{Name: "baseline"}
	toolimpl.SetBinding(&tool, binding)
	return func(data []byte) (any, error) {
		c, err := tool.BindArgs(context.Background(), data)
		if err != nil {
			return nil, err // not a nil *CallSlot in a non-nil any
		}
		return c, nil
	}
}
