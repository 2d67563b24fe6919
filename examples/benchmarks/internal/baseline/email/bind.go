package email

import (
	"context"

	"github.com/toolgen-go/toolgen/runtime"
)

// binding is the tool's runtime.Binding as generated code declares it, with the decoder
// generated before the decoders were made compact: Bind takes the path of today's Tool.Bind
// (the binding's New and Decode, called through function values) and differs from it only
// by its decoder.
var binding = &runtime.Binding{
	Decode: func(data []byte, a any) error {
		return toolgenDecodeArgsSendEmailArgs(data, a.(*SendEmailArgs))
	},
	New: func() *runtime.CallSlot {
		c := new(runtime.Slot[SendEmailArgs])
		return c.Hold(&c.Args)
	},
}

// Bind is the baseline of the tool's Bind: allocate the call, then decode and validate the
// arguments with the decoder generated before the decoders were made compact.
func Bind(data []byte) (any, error) {
	c, err := binding.Bind(context.Background(), data)
	if err != nil {
		return nil, err
	}
	return c, nil
}
