package runtime_test

import (
	"context"
	"encoding/json"
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

func decodeNote(data []byte, a *noteArgs) error {
	if err := json.Unmarshal(data, a); err != nil {
		return &runtime.ArgsError{Problems: []runtime.Problem{{Message: err.Error()}}}
	}
	return nil
}

func noteBinding(validate bool) *runtime.Binding[noteArgs] {
	b := &runtime.Binding[noteArgs]{Decode: decodeNote, Run: func(_ context.Context, a *noteArgs) runtime.Result {
		return runtime.TextResult("saved " + a.Text)
	}}
	if validate {
		b.Validate = (*noteArgs).Validate
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

// A tool without arguments binds struct{}, and its calls' Args is nil, as the registry's
// observers expect.
func TestBindingWithoutArguments(t *testing.T) {
	b := &runtime.Binding[struct{}]{
		Decode: func([]byte, *struct{}) error { return nil },
		Run:    func(context.Context, *struct{}) runtime.Result { return runtime.TextResult("3 notes") },
	}
	call, err := b.Bind(t.Context(), []byte(`{}`))
	require.NoError(t, err)
	assert.Nil(t, call.Args())
	assert.Nil(t, b.NewCall().Args())
	assert.Equal(t, "3 notes", call.Run(t.Context()).Text)
}
