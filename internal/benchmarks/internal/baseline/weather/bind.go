package weather

import (
	"context"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// binding is the tool's toolimpl.Binding as generated code declares it, with the decoder
// generated before the decoders were made compact: Bind takes the path of today's Tool.BindArgs
// (the binding's New and Decode, called through function values) and differs from it only
// by its decoder.
var binding = &toolimpl.Binding{
	Decode: func(data []byte, a any) error {
		return toolgenDecodeArgsWeatherArgs(data, a.(*WeatherArgs))
	},
	New: func() *toolimpl.CallSlot {
		c := new(toolimpl.Slot[WeatherArgs])
		return c.Hold(&c.Args)
	},
}

// tool is a tool with nothing but the binding.
var tool = func() runtime.Tool {
	t := runtime.Tool{Name: "baseline"}
	toolimpl.SetBinding(&t, binding)
	return t
}()

// Bind is the baseline of the tool's Bind: allocate the call, then decode and validate the
// arguments with the decoder generated before the decoders were made compact.
func Bind(data []byte) (any, error) {
	c, err := tool.BindArgs(context.Background(), data)
	if err != nil {
		return nil, err
	}
	return c, nil
}
