package runtime

import (
	"context"
	"encoding/json"
	"reflect"
	goruntime "runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/internal/binding"
)

type framedNote struct{ Text string }

// framedBinding is a binding as generated code declares it (toolimpl names these types).
func framedBinding() *toolBinding {
	return &toolBinding{
		New: func() *callSlot {
			c := new(binding.Slot[framedNote, Result])
			return c.Hold(&c.Args)
		},
		Decode: func(data []byte, a any) error { return json.Unmarshal(data, a) },
		Run: func(_ context.Context, a any) Result {
			return TextResult("saved " + a.(*framedNote).Text)
		},
	}
}

// The registry's call of a generated tool holds its state and the arguments in one allocation,
// of a type reflect builds: the arguments are the Go type, apart per call, and what they point
// to survives a collection.
// A timed call carries its first attempt's deadline context in the same allocation; a call
// without a timeout does not carry it at all.
func TestFramedCallsHoldTheirArguments(t *testing.T) {
	for _, timed := range []bool{false, true} {
		b := framedBinding()
		assert.Equal(t, 1.0, testing.AllocsPerRun(100, func() { _ = newFramed(b, timed) }), "the call and its arguments in one allocation")
		framed := make([]*framedSlot, 50)
		for i := range framed {
			framed[i] = newFramed(b, timed)
			require.NoError(t, bindSlot(t.Context(), &framed[i].callSlot, []byte(`{"Text":"`+strings.Repeat("x", i+1)+`"}`)))
			if timed {
				require.NotNil(t, framed[i].st.first)
				framed[i].st.first.deadline = time.Duration(i) // written where the layout put it
			} else {
				require.Nil(t, framed[i].st.first)
			}
		}
		goruntime.GC()
		for i, c := range framed {
			require.IsType(t, &framedNote{}, c.Args())
			assert.Equal(t, "saved "+strings.Repeat("x", i+1), c.Run(t.Context()).Text)
			assert.Same(t, c, c.st.takeUnbound(), "the state finds the call it lives in")
			assert.Nil(t, c.st.takeUnbound(), "once")
			if timed {
				assert.Equal(t, time.Duration(i), c.st.first.deadline)
			}
		}
		assert.Equal(t, 1.0, testing.AllocsPerRun(100, func() { _ = b.New() }), "without the registry's state too")
	}
	assert.Nil(t, (&callState{}).takeUnbound(), "a state of its own lives in no call")
}

// A call without a timeout is smaller by the deadline context it never uses.
func TestUntimedFramesAreSmaller(t *testing.T) {
	b := framedBinding()
	untimed := framedLayoutOf(b.New().A, false).Call.Size()
	timed := framedLayoutOf(b.New().A, true).Call.Size()
	assert.Equal(t, unsafe.Sizeof(attemptCtx{}), timed-untimed)
}

// The bindings of methods are declared anew by every <Receiver>Tools(r) call: a new binding of
// arguments seen before finds its call type built, and its first framed call costs the
// binding's New (which tells the type) and the call.
func TestFramedLayoutIsBuiltOncePerType(t *testing.T) {
	_ = newFramed(framedBinding(), false)
	allocs := testing.AllocsPerRun(50, func() { _ = newFramed(framedBinding(), false) })
	assert.LessOrEqual(t, allocs, 3.0, "the binding, New's call, the framed call")
}

// framedBaseline is the per-tool type generated code once declared for the registry's call.
type framedBaseline[A any] struct {
	Slot framedSlot
	Args A
}

// BenchmarkNewCall compares the registry's call, whose type reflect builds once, with the
// generic type per tool it replaced: go test ./runtime -run '^$' -bench NewCall.
func BenchmarkNewCall(b *testing.B) {
	bd := framedBinding()
	b.Run("reflect", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = newFramed(bd, false)
		}
	})
	b.Run("generic", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c := new(framedBaseline[framedNote])
			c.Slot.A = &c.Args
		}
	})
}

// pointerLike makes the interface value reflect.NewAt(...).Interface() makes, for pointer
// types of every kind of pointee, and the value survives a collection.
// unsafeNew hands reflect.unsafe_New what reflect.New does, the runtime's descriptor of the
// type: the type word of an interface value holding one, for plain types and for those
// reflect.StructOf builds. Were a Go release to change what a reflect.Type holds, this fails
// instead of calls allocating objects of the wrong size.
func TestAbiTypeOfIsTheRuntimesType(t *testing.T) {
	built := framedLayoutOf(framedBinding().New().A, true).Call
	for _, v := range []any{0, "", framedSlot{}, attemptCtx{}, reflect.New(built).Elem().Interface()} {
		typeWord := (*[2]unsafe.Pointer)(unsafe.Pointer(&v))[0]
		assert.Equal(t, typeWord, abiTypeOf(reflect.TypeOf(v)), "%T", v)
		assert.Equal(t, reflect.TypeOf(v).Size(), *(*uintptr)(typeWord), "%T: abi.Type begins with the size", v)
	}
	p := unsafeNew(built)
	assert.Equal(t, make([]byte, built.Size()), unsafe.Slice((*byte)(p), built.Size()), "zeroed")
}

func TestPointerLike(t *testing.T) {
	type args struct {
		City string
		Days int
	}
	for _, v := range []any{new(args), new(int), new([]string), new(map[string]int), new(struct{})} {
		rt := reflect.TypeOf(v).Elem()
		mem := reflect.New(rt)
		like := reflect.Zero(reflect.PointerTo(rt)).Interface()
		got := pointerLike(like, mem.UnsafePointer())
		want := reflect.NewAt(rt, mem.UnsafePointer()).Interface()
		goruntime.GC()
		assert.Equal(t, want, got)
		assert.Equal(t, reflect.TypeOf(v), reflect.TypeOf(got))
		assert.True(t, got == want, "%T: the same pointer", v)
	}
	a := &args{City: "Tokyo"}
	got, ok := pointerLike((*args)(nil), unsafe.Pointer(a)).(*args)
	require.True(t, ok)
	assert.Same(t, a, got)
}
