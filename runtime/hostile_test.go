package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/deploy"
	"github.com/toolgen-go/toolgen/runtime/variant"
)

// A model error wrapped in words of the operator's (a key, a host name) shows the model only
// its own text under WithSafeErrors.
func TestSafeErrorsShowOnlyTheModelErrorsOwnText(t *testing.T) {
	inner := runtime.ModelErrorf(runtime.KindNotFound, "no order with that id")
	for name, err := range map[string]error{
		"fmt.Errorf %w":  fmt.Errorf("api_key=sk-123 at db.internal: %w", inner),
		"errors.Join":    errors.Join(errors.New("api_key=sk-123"), inner),
		"permanent wrap": runtime.Permanent(fmt.Errorf("api_key=sk-123: %w", inner)),
		"retry request":  fmt.Errorf("api_key=sk-123: %w", runtime.AskRetry("give a date in the future")),
	} {
		t.Run(name, func(t *testing.T) {
			reg := runtime.NewRegistry(runtime.WithSafeErrors())
			require.NoError(t, reg.Add(runTool("lookup", func(context.Context) runtime.Result { return runtime.ErrorResult(err) })))
			res := reg.Invoke(t.Context(), runtime.Call{Name: "lookup"})
			require.True(t, res.IsError)
			assert.NotContains(t, res.Text, "sk-123")
			assert.NotContains(t, res.Text, "db.internal")
			assert.ErrorIs(t, res.Err, err, "the operator keeps the whole error")
		})
	}

	// A model error returned as it is keeps its text, and so does one marked Permanent.
	reg := runtime.NewRegistry(runtime.WithSafeErrors())
	require.NoError(t, reg.Add(runTool("direct", func(context.Context) runtime.Result { return runtime.ErrorResult(runtime.Permanent(inner)) })))
	assert.Equal(t, "no order with that id", reg.Invoke(t.Context(), runtime.Call{Name: "direct"}).Text)
}

// An observer that panics loses its event; the call, a batch and an adapter's Dispatch go on.
func TestPanickingObserverIsContained(t *testing.T) {
	for _, kind := range []runtime.EventKind{runtime.EventStart, runtime.EventError, runtime.EventRetry, runtime.EventEnd} {
		t.Run(kind.String(), func(t *testing.T) {
			reg := runtime.NewRegistry(runtime.WithObserver(func(_ context.Context, e runtime.Event) {
				if e.Kind == kind {
					panic("observer bug")
				}
			}))
			calls := 0
			tool := runTool("flaky", func(context.Context) runtime.Result {
				calls++
				if calls == 1 {
					return runtime.ErrorResult(errors.New("transient"))
				}
				return runtime.TextResult("ok")
			})
			tool.Retry = runtime.RetryPolicy{Max: 1}
			tool.NoTimeout = true
			require.NoError(t, reg.Add(tool))
			var res runtime.Result
			require.NotPanics(t, func() { res = reg.Invoke(t.Context(), runtime.Call{Name: "flaky"}) })
			assert.Equal(t, "ok", res.Text)
			calls = 0
			require.NotPanics(t, func() { reg.InvokeAll(t.Context(), []runtime.Call{{Name: "flaky"}}) })
			calls = 0
			require.NotPanics(t, func() { reg.Dispatch(t.Context(), []runtime.Call{{Name: "flaky"}}, nil) })
		})
	}
}

// The OpenAI restore path drops a null where strict mode made an optional property nullable;
// it must not hide a duplicate key that every other path refuses.
func TestRestoreKeepsDuplicateKeysVisible(t *testing.T) {
	reg := runtime.NewRegistry(runtime.WithApprover(runtime.ApproverFunc(func(context.Context, runtime.ApprovalRequest) (runtime.Decision, error) {
		return runtime.Decision{Approved: true}, nil
	})))
	require.NoError(t, reg.Add(deploy.Tools()...))
	openAI := func(tool runtime.Tool) (variant.Variant, bool) { return tool.Variant(variant.OpenAI) }
	for _, args := range []string{
		`{"target":"a","version":"1.2","region":null,"region":"us-east"}`,
		`{"target":"a","version":"1.2","region":"us-east","region":null}`,
		`{"target":"a","version":"1.2","region":null,"region":null}`,
		`{"target":"a","version":"1.2","\u0072egion":null,"region":"us-east"}`, // the general restorer
	} {
		outs := reg.Dispatch(t.Context(), []runtime.Call{{Name: "deploy", Args: []byte(args)}}, openAI)
		res := outs[0].Result
		assert.Equal(t, runtime.KindInvalidInput, res.Kind, "%s: %s", args, res.Text)
		assert.Contains(t, res.Text, "/region", args)
	}
	outs := reg.Dispatch(t.Context(), []runtime.Call{{Name: "deploy", Args: []byte(`{"target":"a","version":"1.2","region":null}`)}}, openAI)
	assert.Equal(t, "deployed 1.2 to a in eu-west; restarted []", outs[0].Result.Text, "a lone null still means absent")
}

// A call naming a 10 MB tool is answered at once with a bounded message (it took 2.2 s and
// echoed the name whole).
func TestHugeUnknownToolNameIsCut(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(weatherTool()))
	name := "get_weather" + strings.Repeat("é", 5<<20)
	res := reg.Invoke(t.Context(), runtime.Call{Name: name})
	assert.Equal(t, runtime.KindNotFound, res.Kind)
	assert.ErrorIs(t, res.Err, runtime.ErrUnknownTool)
	assert.Less(t, len(res.Text), 400, res.Text)
	assert.Less(t, len(res.Err.Error()), 400)
	assert.True(t, utf8.ValidString(res.Text), "cut at a character boundary")
	assert.Contains(t, res.Text, "tool names have at most 128 characters")
	assert.Contains(t, res.Text, "Available tools: get_weather")

	// Through the batch and adapter path too.
	outs := reg.Dispatch(t.Context(), []runtime.Call{{Name: name}}, nil)
	assert.Less(t, len(outs[0].Result.Text), 400)

	// A short typo still gets its hint.
	assert.Contains(t, reg.Invoke(t.Context(), runtime.Call{Name: "get_wether"}).Text, `did you mean "get_weather"?`)
}

// A Bind error other than an *ArgsError is echoed within a bound.
func TestLongBindErrorIsCut(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(bindFunc("picky", func(context.Context, []byte) (runtime.BoundCall, error) {
		return nil, errors.New(strings.Repeat("x", 1<<20))
	})))
	res := reg.Invoke(t.Context(), runtime.Call{Name: "picky"})
	assert.True(t, res.IsError)
	assert.Less(t, len(res.Text), 2200)
	assert.Contains(t, res.Text, "(1048576 bytes in all)")
}

// nameRepairer repairs every unknown name to the first registered one, and no arguments.
type nameRepairer struct{}

func (nameRepairer) RepairName(_ string, names []string) (string, bool) { return names[0], true }
func (nameRepairer) RepairArgs(*runtime.Tool, []byte) ([]byte, []runtime.Repair) {
	return nil, nil
}

// The events of repairs and effects are contained too: an observer panicking on one does not
// reach the caller, and the call's result stays whole.
func TestPanickingObserverOnRepairOrEffectIsContained(t *testing.T) {
	for _, kind := range []runtime.EventKind{runtime.EventRepair, runtime.EventEffect} {
		t.Run(kind.String(), func(t *testing.T) {
			reg := runtime.NewRegistry(runtime.WithRepair(nameRepairer{}), runtime.WithObserver(func(_ context.Context, e runtime.Event) {
				if e.Kind == kind {
					panic("observer bug")
				}
			}))
			require.NoError(t, reg.Add(runTool("update_todos", func(context.Context) runtime.Result {
				return runtime.Result{Text: "updated", Effects: []runtime.Effect{todoChange{[]string{"a"}}}}
			})))
			var res runtime.Result
			require.NotPanics(t, func() { res = reg.Invoke(t.Context(), runtime.Call{Name: "update_todo"}) })
			assert.Equal(t, "updated", res.Text)
			assert.Len(t, res.Effects, 1)
		})
	}
}

// lengthRecorder is a Repairer that records the longest name it was asked to repair.
type lengthRecorder struct{ longest atomic.Int64 }

func (l *lengthRecorder) RepairName(name string, _ []string) (string, bool) {
	if n := int64(len(name)); n > l.longest.Load() {
		l.longest.Store(n)
	}
	return "", false
}
func (*lengthRecorder) RepairArgs(*runtime.Tool, []byte) ([]byte, []runtime.Repair) { return nil, nil }

// A name longer than any tool's is never handed to the Repairer, in a batch or through
// Dispatch as in Invoke: a Repairer's cost may grow with the name.
func TestHugeToolNameSkipsTheRepairer(t *testing.T) {
	repairer := &lengthRecorder{}
	reg := runtime.NewRegistry(runtime.WithRepair(repairer))
	require.NoError(t, reg.Add(weatherTool()))
	name := "get_weather" + strings.Repeat("x", 1<<20)
	calls := []runtime.Call{{Name: name}, {Name: name}}
	assert.Equal(t, runtime.KindNotFound, reg.Invoke(t.Context(), calls[0]).Kind)
	assert.Equal(t, runtime.KindNotFound, reg.InvokeAll(t.Context(), calls)[0].Kind)
	assert.Equal(t, runtime.KindNotFound, reg.Dispatch(t.Context(), calls, nil)[0].Result.Kind)
	assert.LessOrEqual(t, repairer.longest.Load(), int64(runtime.MaxToolNameLength))
}

// A middleware's NoteRepairs reaches the observer and the result's metadata.
func TestNoteRepairsFromMiddlewareIsObserved(t *testing.T) {
	var observed atomic.Int32
	reg := runtime.NewRegistry(runtime.WithObserver(func(_ context.Context, e runtime.Event) {
		if e.Kind == runtime.EventRepair && len(e.Repairs) == 1 && e.Repairs[0].Kind == "trailing_comma" {
			observed.Add(1)
		}
	}))
	reg.Use(func(next runtime.Handler) runtime.Handler {
		return func(ctx context.Context, call runtime.Call) runtime.Result {
			runtime.NoteRepairs(ctx, runtime.Repair{Kind: "trailing_comma"})
			return next(ctx, call)
		}
	})
	require.NoError(t, reg.Add(constTool("say", "hi")))
	res := reg.Invoke(t.Context(), runtime.Call{Name: "say"})
	assert.Equal(t, "hi", res.Text)
	assert.Equal(t, []runtime.Repair{{Kind: "trailing_comma"}}, res.Metadata[runtime.MetadataRepairs])
	assert.Equal(t, int32(1), observed.Load())
}

// Every call of a generated tool holds the registry state of the call, so its size is paid on every call: each word
// added to it can move the call into the next allocation size class (an observer field
// the call's config already holds cost the weather example 32 bytes a call).
func TestCallFrameStaysSmall(t *testing.T) {
	assert.LessOrEqual(t, runtime.FrameSize, uintptr(216))
}
