package runtime_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
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
func noteBinding(validate bool) *toolimpl.Binding {
	b := &toolimpl.Binding{
		New: func() *toolimpl.CallSlot {
			c := &struct {
				toolimpl.CallSlot
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

// bound returns a tool named name whose binding is b, as generated code makes one.
func bound(name string, b *toolimpl.Binding) runtime.Tool {
	t := runtime.Tool{Name: name}
	toolimpl.SetBinding(&t, b)
	return t
}

func TestBindingBindsAndRuns(t *testing.T) {
	tool := bound("save_note", noteBinding(true))
	call, err := tool.BindArgs(t.Context(), []byte(`{"Text":"milk"}`))
	require.NoError(t, err)
	assert.Equal(t, &noteArgs{Text: "milk"}, call.Args())
	assert.Equal(t, "saved milk", call.Run(t.Context()).Text)

	_, err = tool.BindArgs(t.Context(), []byte(`{"Text":1}`))
	var ae *runtime.ArgsError
	require.ErrorAs(t, err, &ae, "the decoder's error")

	_, err = tool.BindArgs(t.Context(), []byte(`{"Text":""}`))
	require.ErrorAs(t, err, &ae, "Validate's error is the model's to fix")
	assert.Equal(t, "/text", ae.Problems[0].Path)

	_, err = bound("save_note", noteBinding(false)).BindArgs(t.Context(), []byte(`{"Text":""}`))
	assert.NoError(t, err, "no Validate, no check")
}

// A tool with neither a binding nor Bind has nothing to bind with, and says so.
func TestBindArgsWithoutBinding(t *testing.T) {
	_, err := runtime.Tool{Name: "client", Client: true}.BindArgs(t.Context(), []byte(`{}`))
	assert.ErrorIs(t, err, runtime.ErrNotBindable)
}

// The registry binds and runs a generated tool's calls with its binding, Validate included.
func TestBindingThroughTheRegistry(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(bound("save_note", noteBinding(true))))
	assert.Equal(t, "saved tea", reg.Invoke(t.Context(), runtime.Call{Name: "save_note", Args: []byte(`{"Text":"tea"}`)}).Text)
	res := reg.Invoke(t.Context(), runtime.Call{Name: "save_note", Args: []byte(`{"Text":""}`)})
	assert.Equal(t, runtime.KindInvalidInput, res.Kind, res.Text)
}

// A Bind set on a generated tool replaces its binding: wrappers (tests capturing arguments,
// a host adding a check) see every call.
func TestBindReplacesTheBinding(t *testing.T) {
	tool := bound("save_note", noteBinding(false))
	inner := tool.BindArgs
	var seen []string
	tool.Bind = func(ctx context.Context, args []byte) (runtime.BoundCall, error) {
		seen = append(seen, string(args))
		return inner(ctx, args)
	}
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(tool))
	assert.Equal(t, "saved tea", reg.Invoke(t.Context(), runtime.Call{Name: "save_note", Args: []byte(`{"Text":"tea"}`)}).Text)
	assert.Equal(t, []string{`{"Text":"tea"}`}, seen)
}

// Arguments of size zero (a struct without fields) still get a pointer of their own type,
// through the registry's call too.
func TestBindingWithEmptyArguments(t *testing.T) {
	type empty struct{}
	b := &toolimpl.Binding{
		New: func() *toolimpl.CallSlot {
			c := new(toolimpl.Slot[empty])
			return c.Hold(&c.Args)
		},
		Decode: func([]byte, any) error { return nil },
		Run: func(_ context.Context, a any) runtime.Result {
			_ = a.(*empty)
			return runtime.TextResult("ran")
		},
	}
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(bound("empty", b)))
	assert.Equal(t, "ran", reg.Invoke(t.Context(), runtime.Call{Name: "empty", Args: []byte(`{}`)}).Text)
	call, err := bound("empty", b).BindArgs(t.Context(), []byte(`{}`))
	require.NoError(t, err)
	assert.IsType(t, &empty{}, call.Args())
}

// A tool without arguments has no arguments to hold, and its calls' Args is nil, as the
// registry's observers expect.
func TestBindingWithoutArguments(t *testing.T) {
	tool := bound("count_notes", &toolimpl.Binding{
		New:    toolimpl.NewCallSlot,
		Decode: func([]byte, any) error { return nil },
		Run:    func(context.Context, any) runtime.Result { return runtime.TextResult("3 notes") },
	})
	call, err := tool.BindArgs(t.Context(), []byte(`{}`))
	require.NoError(t, err)
	assert.Nil(t, call.Args())
	assert.Equal(t, "3 notes", call.Run(t.Context()).Text)
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(tool))
	assert.Equal(t, "3 notes", reg.Invoke(t.Context(), runtime.Call{Name: "count_notes"}).Text)
}

// Each call gets arguments of its own, allocated with it.
func TestBindingCallsDoNotShareArguments(t *testing.T) {
	tool := bound("save_note", noteBinding(false))
	first, err := tool.BindArgs(t.Context(), []byte(`{"Text":"a"}`))
	require.NoError(t, err)
	second, err := tool.BindArgs(t.Context(), []byte(`{"Text":"b"}`))
	require.NoError(t, err)
	assert.Equal(t, "saved a", first.Run(t.Context()).Text)
	assert.Equal(t, "saved b", second.Run(t.Context()).Text)
}
