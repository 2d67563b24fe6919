// Package binding holds the types that join a generated tool's arguments to its handler. It
// is shared by package runtime, which binds and runs calls, and package runtime/toolimpl,
// which generated code imports and which names these types with R = runtime.Result. The
// result type is a parameter only because runtime imports this package and not the other way
// round; nothing here depends on what R is.
package binding

import (
	"context"
	"reflect"
	"sync/atomic"
)

// Binding joins a tool's arguments to its handler: generated code declares one per tool. It
// is one non-generic type (for a given R) for every tool, so a catalog compiles no call type
// per tool but Slot[A, R]; the functions it holds take the arguments as any, the pointer New
// put beside the call.
type Binding[R any] struct {
	// New allocates a call, with the arguments in the same allocation: for arguments of type
	// A, c := new(Slot[A, R]) returned as c.Hold(&c.Args). A tool without arguments uses
	// NewCallSlot.
	New func() *CallSlot[R]
	// Table decodes and validates a JSON document of arguments in one pass, on invalid
	// arguments returning an *runtime.ArgsError listing every problem: a *decode.Struct.
	Table ArgsTable
	// Decode, when Table is nil, decodes the arguments into args (what New put beside the
	// call): for bindings written by hand.
	Decode func(data []byte, args any) error
	// Validate, when set, is the arguments' own check (their Validate method), run once
	// Decode succeeded; its error is the model's to fix.
	Validate func(ctx context.Context, args any) error
	// Run calls the handler once with the decoded arguments and turns what it returns into a
	// result.
	Run func(ctx context.Context, args any) R

	// Framed are the layouts of the calls the registry allocates with its frame inside, built
	// by package runtime on first use: [0] for calls without a timeout, [1] for calls with
	// one, which carry their first attempt's deadline context too.
	Framed [2]atomic.Pointer[Layout]
}

// ArgsTable is a decoder that is data: the *decode.Struct of an arguments type.
type ArgsTable interface {
	// DecodeArgs decodes data into args, the pointer New put beside the call.
	DecodeArgs(data []byte, args any) error
}

// DecodeInto decodes data into args with Table or Decode.
func (b *Binding[R]) DecodeInto(data []byte, args any) error {
	if b.Table != nil {
		return b.Table.DecodeArgs(data, args)
	}
	return b.Decode(data, args)
}

// CallSlot is one call of a Binding's tool: the binding and the arguments, held by pointer
// and allocated with the slot by Binding.New.
type CallSlot[R any] struct {
	B *Binding[R]
	A any
}

// Slot is a call of a tool whose arguments are A, as Binding.New allocates it.
type Slot[A, R any] struct {
	CallSlot[R]
	Args A
}

// NewCallSlot allocates a call of a tool without arguments: Binding.New for such a tool.
func NewCallSlot[R any]() *CallSlot[R] { return &CallSlot[R]{} }

// Hold makes args (a pointer into the allocation that holds c) the call's arguments, and
// returns c: what Binding.New returns.
func (c *CallSlot[R]) Hold(args any) *CallSlot[R] {
	c.A = args
	return c
}

// Args returns the pointer to the decoded arguments, or nil for a tool without arguments.
func (c *CallSlot[R]) Args() any { return c.A }

// Run calls the handler once.
func (c *CallSlot[R]) Run(ctx context.Context) R { return c.B.Run(ctx, c.A) }

// Layout is the type of the calls the registry allocates for arguments of type A,
// struct{ Slot F; Args A } where F is the registry's framed slot (a CallSlot first), built
// with reflect: a type per tool written in the generated code would cost each tool its
// descriptors, names and allocation function in the binary (about 0.8 KB), where reflect
// builds it once at run time.
type Layout struct {
	Call   reflect.Type // nil for a tool without arguments
	Args   reflect.Type // A
	Offset uintptr      // of Args in Call
	// ArgsPtr is a *A (nil): its type word makes a call's arguments an interface value
	// without reflect.Value.Interface, a tenth of a call's registry cost.
	ArgsPtr any
	// First is the offset in Call of the first attempt's deadline context, for calls with a
	// timeout; 0: none.
	First uintptr
}

// Hooks are functions of package runtime that runtime/toolimpl calls, set by runtime's init
// (which runs before toolimpl's, as toolimpl imports runtime). Their types name runtime's,
// which this package cannot, so they are held as any and asserted once by toolimpl.
var Hooks struct {
	// SetBinding is func(*runtime.Tool, *Binding[runtime.Result]): makes b the tool's binding.
	SetBinding any
	// BindingOf is func(runtime.Tool) *Binding[runtime.Result]: the tool's binding, or nil.
	BindingOf any
}
