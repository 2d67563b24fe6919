package runtime_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
)

// todoChange is an effect as a toolkit declares one.
type todoChange struct{ Items []string }

func (todoChange) EffectName() string { return "todo_change" }

type compactRequest struct{ Focus string }

func (compactRequest) EffectName() string { return "compact_request" }

func TestEffectsAreTypedAndObserved(t *testing.T) {
	var mu sync.Mutex
	var kinds []runtime.EventKind
	var observed []runtime.Effect
	reg := runtime.NewRegistry(runtime.WithObserver(func(_ context.Context, e runtime.Event) {
		mu.Lock()
		defer mu.Unlock()
		kinds = append(kinds, e.Kind)
		if e.Kind == runtime.EventEffect {
			observed = append(observed, e.Effect)
		}
	}))
	require.NoError(t, reg.Add(
		runTool("update_todos", func(context.Context) runtime.Result {
			return runtime.EffectResult(todoChange{[]string{"write tests"}}, compactRequest{"tests"})
		}),
		runTool("add_todo", func(context.Context) runtime.Result {
			return runtime.Result{Text: "added", Effects: []runtime.Effect{todoChange{[]string{"a"}}}}
		}),
		constTool("say", "hi"),
	))

	res := reg.Invoke(t.Context(), runtime.Call{Name: "update_todos"})
	require.True(t, res.EffectOnly())
	require.Len(t, res.Effects, 2)
	var names []string
	for _, e := range res.Effects {
		switch e := e.(type) {
		case todoChange:
			assert.Equal(t, []string{"write tests"}, e.Items)
		case compactRequest:
			assert.Equal(t, "tests", e.Focus)
		default:
			t.Errorf("unexpected effect %T", e)
		}
		names = append(names, e.EffectName())
	}
	assert.Equal(t, []string{"todo_change", "compact_request"}, names)
	assert.Equal(t, []runtime.EventKind{runtime.EventStart, runtime.EventEffect, runtime.EventEffect, runtime.EventEnd}, kinds)
	assert.Equal(t, res.Effects, observed)
	assert.Equal(t, "effect", runtime.EventEffect.String())

	// Text and effects: the model reads the text, so the result is not effect-only.
	res = reg.Invoke(t.Context(), runtime.Call{Name: "add_todo"})
	assert.False(t, res.EffectOnly())
	assert.Equal(t, "added", res.Text)
	assert.Len(t, res.Effects, 1)

	assert.False(t, reg.Invoke(t.Context(), runtime.Call{Name: "say"}).EffectOnly())
}
