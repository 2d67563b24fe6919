package runtime_test

import (
	"context"
	"encoding/json"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
)

type noteArgs struct{ Text string }

// Validate refuses an empty note, as an args type's own check does.
func (a *noteArgs) Validate(ctx context.Context) error {
	if a.Text == "" {
		return runtime.FieldError("/text", "must not be empty")
	}
	return nil
}

func decodeNote(data []byte, a any) error {
	if err := json.Unmarshal(data, a.(*noteArgs)); err != nil {
		return &runtime.ArgsError{Problems: []runtime.Problem{{Message: err.Error()}}}
	}
	return nil
}

// noteBinding is a binding as generated code declares it.
func noteBinding(validate bool) *runtime.Binding {
	b := &runtime.Binding{
		New: func() *runtime.CallSlot {
			c := &struct {
				runtime.CallSlot
				a noteArgs
			}{}
			return c.Hold(&c.a)
		},
		Decode: decodeNote,
		Run: func(_ context.Context, a any) runtime.Result {
			return runtime.TextResult("saved " + a.(*noteArgs).Text)
		},
	}
	if validate {
		b.Validate = func(ctx context.Context, a any) error { return a.(*noteArgs).Validate(ctx) }
	}
	return b
}

func TestBindingBindsAndRuns(t *testing.T) {
	b := noteBinding(true)
	call, err := b.Bind(t.Context(), []byte(`{"Text":"milk"}`))
	require.NoError(t, err)
	assert.Equal(t, &noteArgs{Text: "milk"}, call.Args())
	assert.Equal(t, "saved milk", call.Run(t.Context()).Text)

	_, err = b.Bind(t.Context(), []byte(`{"Text":1}`))
	var ae *runtime.ArgsError
	require.ErrorAs(t, err, &ae, "the decoder's error")

	_, err = b.Bind(t.Context(), []byte(`{"Text":""}`))
	require.ErrorAs(t, err, &ae, "Validate's error is the model's to fix")
	assert.Equal(t, "/text", ae.Problems[0].Path)

	_, err = noteBinding(false).Bind(t.Context(), []byte(`{"Text":""}`))
	assert.NoError(t, err, "no Validate, no check")
}

// The registry binds the call NewCall allocates, with its frame inside, and runs it.
func TestBindingNewCallThroughTheRegistry(t *testing.T) {
	b := noteBinding(true)
	u := b.NewCall()
	require.NotNil(t, u.Frame())
	require.NoError(t, u.Bind(t.Context(), []byte(`{"Text":"eggs"}`)))
	assert.Equal(t, "saved eggs", u.Run(t.Context()).Text)

	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(runtime.Tool{Name: "save_note", Bind: b.Bind, NewCall: b.NewCall}))
	assert.Equal(t, "saved tea", reg.Invoke(t.Context(), runtime.Call{Name: "save_note", Args: []byte(`{"Text":"tea"}`)}).Text)
	res := reg.Invoke(t.Context(), runtime.Call{Name: "save_note", Args: []byte(`{"Text":""}`)})
	assert.Equal(t, runtime.KindInvalidInput, res.Kind, res.Text)
}

// Arguments of size zero (a struct without fields) still get a pointer of their own type.
func TestBindingNewCallWithEmptyArguments(t *testing.T) {
	type empty struct{}
	b := &runtime.Binding{
		New: func() *runtime.CallSlot {
			c := new(runtime.Slot[empty])
			return c.Hold(&c.Args)
		},
		Decode: func([]byte, any) error { return nil },
		Run: func(_ context.Context, a any) runtime.Result {
			_ = a.(*empty)
			return runtime.TextResult("ran")
		},
	}
	u := b.NewCall()
	require.NoError(t, u.Bind(t.Context(), []byte(`{}`)))
	assert.IsType(t, &empty{}, u.Args())
	assert.Equal(t, "ran", u.Run(t.Context()).Text)
}

// A tool without arguments has no arguments to hold, and its calls' Args is nil, as the
// registry's observers expect.
func TestBindingWithoutArguments(t *testing.T) {
	b := &runtime.Binding{
		New:    runtime.NewCallSlot,
		Decode: func([]byte, any) error { return nil },
		Run:    func(context.Context, any) runtime.Result { return runtime.TextResult("3 notes") },
	}
	call, err := b.Bind(t.Context(), []byte(`{}`))
	require.NoError(t, err)
	assert.Nil(t, call.Args())
	assert.Nil(t, b.NewCall().Args())
	assert.Equal(t, "3 notes", call.Run(t.Context()).Text)
}

// Each call gets arguments of its own, allocated with it.
func TestBindingCallsDoNotShareArguments(t *testing.T) {
	b := noteBinding(false)
	first, err := b.Bind(t.Context(), []byte(`{"Text":"a"}`))
	require.NoError(t, err)
	second, err := b.Bind(t.Context(), []byte(`{"Text":"b"}`))
	require.NoError(t, err)
	assert.Equal(t, "saved a", first.Run(t.Context()).Text)
	assert.Equal(t, "saved b", second.Run(t.Context()).Text)
	assert.Equal(t, 1.0, testing.AllocsPerRun(100, func() { _ = b.NewCall() }), "the call and its arguments in one allocation")

	// NewCall's type is built with reflect: the arguments are the Go type, apart per call, and
	// what they point to survives a collection.
	framed := make([]runtime.UnboundCall, 50)
	for i := range framed {
		framed[i] = b.NewCall()
		require.NoError(t, framed[i].Bind(t.Context(), []byte(`{"Text":"`+strings.Repeat("x", i+1)+`"}`)))
	}
	goruntime.GC()
	for i, c := range framed {
		require.IsType(t, &noteArgs{}, c.Args())
		assert.Equal(t, "saved "+strings.Repeat("x", i+1), c.Run(t.Context()).Text)
		assert.NotNil(t, c.Frame())
	}
	assert.Equal(t, 1.0, testing.AllocsPerRun(100, func() { _ = b.New() }), "without its frame too")
}

// framedBaseline is the per-tool type generated code once declared for Binding.NewCall.
type framedBaseline[A any] struct {
	runtime.FramedSlot
	Args A
}

// BenchmarkNewCall compares NewCall, whose call type reflect builds once, with the generic
// type per tool it replaced: go test ./runtime -run '^$' -bench NewCall.
func BenchmarkNewCall(b *testing.B) {
	binding := noteBinding(false)
	b.Run("reflect", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = binding.NewCall()
		}
	})
	b.Run("generic", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c := new(framedBaseline[noteArgs])
			_ = c.Hold(&c.Args)
		}
	})
}

// The bindings of methods are declared anew by every <Receiver>Tools(r) call: a new binding of
// arguments seen before finds its call type built, and its first NewCall costs the binding's
// New (which tells the type) and the call.
func TestBindingNewCallLayoutIsBuiltOncePerType(t *testing.T) {
	_ = noteBinding(false).NewCall()
	var b *runtime.Binding
	allocs := testing.AllocsPerRun(50, func() {
		b = noteBinding(false)
		_ = b.NewCall()
	})
	assert.LessOrEqual(t, allocs, 3.0, "the binding, New's call, NewCall's call")
}
