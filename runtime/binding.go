package runtime

import (
	"context"
	"reflect"
	"sync"
	"unsafe"

	"github.com/toolgen-go/toolgen/runtime/internal/binding"
)

// This file is the registry's side of the bindings generated code declares (runtime/toolimpl
// names the types): binding a call's arguments, and the call allocated with the registry's
// state inside.

// toolBinding is a generated tool's binding.
type toolBinding = binding.Binding[Result]

// callSlot is a bound call of a generated tool; it is a BoundCall.
type callSlot = binding.CallSlot[Result]

var _ BoundCall = (*callSlot)(nil)

func init() {
	binding.Hooks.SetBinding = func(t *Tool, b *toolBinding) { t.binding = b }
	binding.Hooks.BindingOf = func(t Tool) *toolBinding { return t.binding }
}

// BindArgs decodes and validates args as the registry does before it runs a call, and returns
// the bound call without running it: on invalid arguments, an *ArgsError listing every
// problem. Hosts use it to check a call before scheduling it elsewhere (a Temporal workflow
// checks its activities' arguments with it). args is the document as it is: Registry.Invoke
// first turns empty arguments and null into {}, BindArgs does not. A tool neither generated
// nor given a Bind function (a client tool) has nothing to bind with: BindArgs returns
// ErrNotBindable.
func (t Tool) BindArgs(ctx context.Context, args []byte) (BoundCall, error) {
	return t.bindArgs(ctx, args)
}

// bindArgs is BindArgs without copying the Tool, for the registry's per-call path.
func (t *Tool) bindArgs(ctx context.Context, args []byte) (BoundCall, error) {
	switch {
	case t.Bind != nil:
		return t.Bind(ctx, args)
	case t.binding != nil:
		c := t.binding.New()
		c.B = t.binding
		if err := bindSlot(ctx, c, args); err != nil {
			return nil, err
		}
		return c, nil
	}
	return nil, ErrNotBindable
}

// bindable reports whether the registry can bind t's calls: it is generated or has a Bind.
func (t *Tool) bindable() bool { return t.Bind != nil || t.binding != nil }

// bindSlot decodes and validates data into c.
func bindSlot(ctx context.Context, c *callSlot, data []byte) error {
	b := c.B
	if err := b.DecodeInto(data, c.A); err != nil {
		return err
	}
	if b.Validate != nil {
		if err := b.Validate(ctx, c.A); err != nil {
			return &ArgsError{Problems: ValidationProblems(err)}
		}
	}
	return nil
}

// framedSlot is a call of a generated tool with the registry's state inside, so that a call
// through the registry allocates once: the arguments follow it in the same allocation, in a
// struct{ Slot framedSlot; Args A } built with reflect (binding.Layout).
type framedSlot struct {
	callSlot
	st callState
}

// newFramed allocates a call of b for the registry, its state inside, and the first
// attempt's deadline context too when the call is timed.
func newFramed(b *toolBinding, timed bool) *framedSlot {
	which := 0
	if timed {
		which = 1
	}
	l := b.Framed[which].Load()
	if l == nil {
		l = framedLayoutOf(b.New().A, timed)
		b.Framed[which].Store(l) // calls racing here find the same layout
	}
	p := unsafeNew(l.Call) // the slot is the struct's first field
	c := (*framedSlot)(p)
	if l.Args != nil {
		c.A = pointerLike(l.ArgsPtr, unsafe.Add(p, l.Offset))
	}
	if l.First != 0 {
		c.st.first = (*attemptCtx)(unsafe.Add(p, l.First))
	}
	c.st.framed = true
	c.B = b
	return c
}

// unsafeNew allocates a zero value of t, as reflect.New does without making a reflect.Value:
// reflect.New looks the pointer type of t up in a process-wide map on every call, which for
// the types reflect.StructOf builds cost as much as the allocation. reflect.unsafe_New is the
// allocation behind reflect.New; the Go project keeps it reachable by linkname for the JSON
// and reflection packages that use it this way (go.dev/issue/67401).
func unsafeNew(t reflect.Type) unsafe.Pointer {
	return reflectUnsafeNew(abiTypeOf(t))
}

// abiTypeOf returns the runtime's type descriptor (*abi.Type) of t: a reflect.Type is an
// interface holding a *rtype, a struct whose first field is the abi.Type.
// TestAbiTypeOfIsTheRuntimesType holds it to the type word of an interface value.
func abiTypeOf(t reflect.Type) unsafe.Pointer {
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&t))[1]
}

//go:linkname reflectUnsafeNew reflect.unsafe_New
//go:noescape
func reflectUnsafeNew(abiType unsafe.Pointer) unsafe.Pointer

// pointerLike returns an interface value of like's type (a pointer type) holding p: what
// reflect.NewAt(type, p).Interface() returns, without reflect's checks and lookups on every
// call. An interface holding a pointer is its type word and the pointer (the runtime's
// eface); TestPointerLike holds it to reflect's.
func pointerLike(like any, p unsafe.Pointer) any {
	e := *(*[2]unsafe.Pointer)(unsafe.Pointer(&like))
	e[1] = p
	return *(*any)(unsafe.Pointer(&e))
}

// framedLayouts holds the layouts of each arguments type once for the process: the
// bindings of methods are declared anew by every r.Tools() call, and would each build
// them again.
var framedLayouts sync.Map // layoutKey → *binding.Layout

type layoutKey struct {
	args  reflect.Type // nil: a tool without arguments
	timed bool
}

// framedLayoutOf returns the layout for the arguments args points to, as New allocated them
// (nil: a tool without arguments), with room for the first attempt's deadline context when
// timed: struct{ Slot framedSlot; Args A; First attemptCtx }, without the fields it does not
// need.
func framedLayoutOf(args any, timed bool) *binding.Layout {
	key := layoutKey{timed: timed}
	if args != nil {
		key.args = reflect.TypeOf(args).Elem()
	}
	if l, ok := framedLayouts.Load(key); ok {
		return l.(*binding.Layout)
	}
	fields := []reflect.StructField{{Name: "Slot", Type: reflect.TypeFor[framedSlot]()}}
	if key.args != nil {
		fields = append(fields, reflect.StructField{Name: "Args", Type: key.args})
	}
	if timed {
		fields = append(fields, reflect.StructField{Name: "First", Type: reflect.TypeFor[attemptCtx]()})
	}
	call := reflect.StructOf(fields)
	l := &binding.Layout{Call: call, Args: key.args}
	if key.args != nil {
		l.Offset, l.ArgsPtr = call.Field(1).Offset, reflect.Zero(reflect.PointerTo(key.args)).Interface()
	}
	if timed {
		l.First = call.Field(len(fields) - 1).Offset
	}
	stored, _ := framedLayouts.LoadOrStore(key, l)
	return stored.(*binding.Layout)
}
