package runtime

import "context"

// Effect is something a handler asks the host to do besides answering the model: replace the
// session's todo list, compact the conversation, route to a sub-agent, show a chart. Effects
// are typed values, so a host switches on them:
//
//	for _, e := range res.Effects {
//		switch e := e.(type) {
//		case todos.Change:
//			ui.ShowTodos(e.Todos)
//		case compact.Request:
//			history = compactHistory(history, e.Focus)
//		}
//	}
//
// EffectName is a stable name for logs and observers ("todo_change", "compact_request").
// Effects never reach the model. A result with effects and no text is effect-only
// ([Result.EffectOnly]): provider adapters then send the model nothing for it (an empty
// tool output where the provider needs one).
type Effect interface {
	EffectName() string
}

// observeEffects reports each effect of res to the observer (EventEffect), after the call
// ended and before its EventEnd.
func observeEffects(ctx context.Context, cfg *registryConfig, res *Result) {
	if cfg.observer == nil {
		return
	}
	for _, eff := range res.Effects {
		ev := event(ctx, EventEffect)
		ev.Effect = eff
		cfg.notify(ctx, ev)
	}
}
