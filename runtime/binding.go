package runtime

import (
	"context"
	"maps"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Binding joins a tool's arguments to its handler: generated code declares one per tool and
// sets Tool.Bind and Tool.NewCall to its methods. It is one non-generic type for every tool,
// so a catalog compiles no call type (and no generic instantiation) per tool but Slot[A]; the
// functions it holds take the arguments as any, the pointer New put beside the call.
type Binding struct {
	// New allocates a call for Tool.Bind, with the arguments in the same allocation: for
	// arguments of type A, c := new(Slot[A]) returned as c.Hold(&c.Args). A tool without
	// arguments uses NewCallSlot.
	New func() *CallSlot
	// Table decodes and validates a JSON document of arguments in one pass, on invalid
	// arguments returning an *ArgsError listing every problem: a *decode.Struct, which
	// generated code declares per arguments type and which checks itself against the
	// arguments' Go type before it first decodes into it.
	Table ArgsTable
	// Decode, when Table is nil, decodes the arguments into args (what New put beside the
	// call): for bindings written by hand.
	Decode func(data []byte, args any) error
	// Validate, when set, is the arguments' own check (their Validate method), run once
	// Decode succeeded; its error is the model's to fix.
	Validate func(ctx context.Context, args any) error
	// Run calls the handler once with the decoded arguments and turns what it returns into a
	// Result.
	Run func(ctx context.Context, args any) Result

	// framed is the layout of the calls NewCall allocates, built on first use.
	framed atomic.Pointer[framedLayout]
}

// ArgsTable is a decoder that is data: the *decode.Struct of an arguments type.
type ArgsTable interface {
	// DecodeArgs decodes data into args, the pointer New put beside the call.
	DecodeArgs(data []byte, args any) error
}

// decode decodes data into args with Table or Decode.
func (b *Binding) decode(data []byte, args any) error {
	if b.Table != nil {
		return b.Table.DecodeArgs(data, args)
	}
	return b.Decode(data, args)
}

// Bind decodes and validates args into a new call: Tool.Bind.
func (b *Binding) Bind(ctx context.Context, args []byte) (BoundCall, error) {
	c := b.New()
	c.b = b
	if err := c.Bind(ctx, args); err != nil {
		return nil, err
	}
	return c, nil
}

// NewCall allocates a call for the registry to bind, its CallFrame inside, in one allocation
// with the arguments: Tool.NewCall.
func (b *Binding) NewCall() UnboundCall {
	l := b.framed.Load()
	if l == nil {
		l = framedLayoutOf(b.New().args)
		b.framed.Store(l) // calls racing here find the same layout
	}
	var c *FramedSlot
	if l.call == nil {
		c = &FramedSlot{}
	} else {
		p := reflect.New(l.call).UnsafePointer() // the slot is the struct's first field
		c = (*FramedSlot)(p)
		c.args = reflect.NewAt(l.args, unsafe.Add(p, l.offset)).Interface() // a pointer: no allocation
	}
	c.b = b
	return c
}

// framedLayout is the type of the calls NewCall allocates for arguments of type A,
// struct{ Slot FramedSlot; Args A }, built with reflect: a type per tool written in the
// generated code would cost each tool its descriptors, names and allocation function in the
// binary (about 0.8 KB), where reflect builds it once at run time.
type framedLayout struct {
	call   reflect.Type // nil for a tool without arguments
	args   reflect.Type // A
	offset uintptr      // of Args in call
}

// framedLayouts holds the layout of each arguments type once for the process: the bindings of
// methods are declared anew by every <Receiver>Tools(r) call, and would each build it again.
var framedLayouts sync.Map // reflect.Type of the arguments → *framedLayout

// noArgsLayout is the layout of the calls of tools without arguments.
var noArgsLayout = &framedLayout{}

// framedLayoutOf returns the layout for the arguments args points to, as New allocated them
// (nil: a tool without arguments).
func framedLayoutOf(args any) *framedLayout {
	if args == nil {
		return noArgsLayout
	}
	a := reflect.TypeOf(args).Elem()
	if l, ok := framedLayouts.Load(a); ok {
		return l.(*framedLayout)
	}
	call := reflect.StructOf([]reflect.StructField{
		{Name: "Slot", Type: reflect.TypeFor[FramedSlot]()},
		{Name: "Args", Type: a},
	})
	l, _ := framedLayouts.LoadOrStore(a, &framedLayout{call: call, args: a, offset: call.Field(1).Offset})
	return l.(*framedLayout)
}

// CallSlot is a call of a Binding's tool, a BoundCall: the arguments, held by pointer and
// allocated with the slot by Binding.New.
type CallSlot struct {
	b    *Binding
	args any
}

// Slot is a call of a tool whose arguments are A, as Binding.New allocates it.
type Slot[A any] struct {
	CallSlot
	Args A
}

// NewCallSlot allocates a call of a tool without arguments: Binding.New for such a tool.
func NewCallSlot() *CallSlot { return &CallSlot{} }

// FramedSlot is a CallSlot with the registry's CallFrame inside: an UnboundCall, allocated by
// Binding.NewCall.
type FramedSlot struct {
	CallSlot
	frame CallFrame
}

// Hold makes args (a pointer into the allocation that holds c) the call's arguments, and
// returns c: what Binding.New returns.
func (c *CallSlot) Hold(args any) *CallSlot {
	c.args = args
	return c
}

// Frame returns the registry's state of the call.
func (c *FramedSlot) Frame() *CallFrame { return &c.frame }

// Args returns the pointer to the decoded arguments, or nil for a tool without arguments.
func (c *CallSlot) Args() any { return c.args }

// Run calls the handler once.
func (c *CallSlot) Run(ctx context.Context) Result { return c.b.Run(ctx, c.args) }

// Bind decodes and validates the arguments into c.
func (c *CallSlot) Bind(ctx context.Context, data []byte) error {
	if err := c.b.decode(data, c.args); err != nil {
		return err
	}
	if c.b.Validate != nil {
		if err := c.b.Validate(ctx, c.args); err != nil {
			return &ArgsError{Problems: ValidationProblems(err)}
		}
	}
	return nil
}

// BindTools returns a copy of tools with each tool's Bind and NewCall set from bindings[i]
// (nil: left as is), its input and output schemas from schemas[i] (when not empty), and, when
// dialects is not empty, the provider variants every tool derives (Tool.Dialects): what a
// generated Tools function returns. Generated code declares the tools, their schemas and the
// bindings of plain functions as package-level data, which the linker lays out and which
// costs no code per tool. A schema is given in pieces, joined here: the linker keeps one copy
// of each distinct string, so a part several schemas share (a property many tools have) is
// stored once. The copy is deep, so a caller may change what it gets.
func BindTools(tools []Tool, bindings []*Binding, schemas [][2][]string, dialects []string) []Tool {
	out := make([]Tool, len(tools))
	for i, t := range tools {
		t.Tags = slices.Clone(t.Tags)
		t.Examples = slices.Clone(t.Examples)
		for j := range t.Examples {
			t.Examples[j].Args = slices.Clone(t.Examples[j].Args)
		}
		t.Triggers = slices.Clone(t.Triggers)
		t.Prerequisites = slices.Clone(t.Prerequisites)
		t.Workflow = slices.Clone(t.Workflow)
		t.Warnings = slices.Clone(t.Warnings)
		t.Related = slices.Clone(t.Related)
		t.Filters = slices.Clone(t.Filters)
		t.Metadata = maps.Clone(t.Metadata)
		t.InputSchema = slices.Clone(t.InputSchema)
		t.OutputSchema = slices.Clone(t.OutputSchema)
		t.Variants = maps.Clone(t.Variants)
		t.Dialects = slices.Clone(t.Dialects)
		if len(dialects) > 0 {
			t.Dialects = slices.Clone(dialects)
		}
		if i < len(schemas) {
			if in := schemas[i][0]; len(in) > 0 {
				t.InputSchema = joinPieces(in)
			}
			if out := schemas[i][1]; len(out) > 0 {
				t.OutputSchema = joinPieces(out)
			}
		}
		if i < len(bindings) && bindings[i] != nil {
			t.Bind, t.NewCall = bindings[i].Bind, bindings[i].NewCall
		}
		out[i] = t
	}
	return out
}

// joinPieces joins the pieces of a schema into one allocation.
func joinPieces(pieces []string) []byte {
	n := 0
	for _, p := range pieces {
		n += len(p)
	}
	out := make([]byte, 0, n)
	for _, p := range pieces {
		out = append(out, p...)
	}
	return out
}
