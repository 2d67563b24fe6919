package runtime

import (
	"context"
	"sync"

	"github.com/toolgen-go/toolgen/runtime/variant"
)

// InvokeAll runs the calls of one model turn and returns their results in call order. Calls
// run concurrently (at most Limits.BatchConcurrency at once), except that a call of a
// //tool:sequential tool is a barrier: it starts after every call before it ended, and the
// calls after it start after it ended. Each call goes through Invoke, with all its policies.
func (r *Registry) InvokeAll(ctx context.Context, calls []Call) []Result {
	results := make([]Result, len(calls))
	r.mu.RLock()
	limit := r.config().batchConcurrency
	r.mu.RUnlock()
	for start := 0; start < len(calls); {
		if r.sequential(calls[start].Name) {
			results[start] = r.Invoke(ctx, calls[start])
			start++
			continue
		}
		end := start + 1
		for end < len(calls) && !r.sequential(calls[end].Name) {
			end++
		}
		r.invokeGroup(ctx, calls[start:end], results[start:end], limit)
		start = end
	}
	return results
}

// invokeGroup runs calls concurrently, writing result i to results[i].
func (r *Registry) invokeGroup(ctx context.Context, calls []Call, results []Result, limit int) {
	if len(calls) == 1 {
		results[0] = r.Invoke(ctx, calls[0])
		return
	}
	var sem chan struct{}
	if limit > 0 && limit < len(calls) {
		sem = make(chan struct{}, limit)
	}
	var wg sync.WaitGroup
	for i := range calls {
		if sem != nil {
			sem <- struct{}{}
		}
		wg.Go(func() {
			results[i] = r.Invoke(ctx, calls[i])
			if sem != nil {
				<-sem
			}
		})
	}
	wg.Wait()
}

func (r *Registry) sequential(name string) bool {
	t, ok := r.toolOrRepaired(name)
	return ok && t.Sequential
}

// toolOrRepaired returns the tool called name, or the one a misspelled name means under the
// Repairer: a call Invoke repairs is a call of that tool in a batch, and in its provider's
// schema variant.
func (r *Registry) toolOrRepaired(name string) (Tool, bool) {
	if len(name) > MaxToolNameLength {
		return Tool{}, false // as in Invoke: no tool has such a name, nor repairs to it
	}
	e, cfg, names, ok := r.lookupCall(name)
	if !ok {
		call := Call{Name: name}
		if e, _, ok = r.repairedName(cfg, &call, names); !ok {
			return Tool{}, false
		}
	}
	return e.tool, true
}

// Outcome is one call of a model turn after Dispatch: the call as the model wrote it, and its
// result.
type Outcome struct {
	Call   Call
	Result Result
}

// Dispatch runs the calls of one model turn with InvokeAll (concurrently, sequential tools
// alone) and returns their outcomes in call order. Before validation it undoes the
// conversion of the schema each call's tool was sent with: variantOf names that variant for a
// tool (ok false: none, the arguments are taken as they are), and its Restore turns its
// nulls and renamed properties back. Arguments that do not parse stay as they are, so the
// decoder tells the model what is wrong. The provider adapters (runtime/openai, anthropic,
// gemini) call it with the variant they declared each tool with.
func (r *Registry) Dispatch(ctx context.Context, calls []Call, variantOf func(Tool) (variant.Variant, bool)) []Outcome {
	restored := calls
	if variantOf != nil {
		restored = make([]Call, len(calls))
		for i, call := range calls {
			restored[i] = call
			tool, ok := r.toolOrRepaired(call.Name)
			if !ok {
				continue
			}
			if v, ok := variantOf(tool); ok {
				if args, err := v.Restore(call.Args); err == nil {
					restored[i].Args = args
				}
			}
		}
	}
	results := r.InvokeAll(ctx, restored)
	outs := make([]Outcome, len(calls))
	for i := range calls {
		outs[i] = Outcome{Call: calls[i], Result: results[i]}
	}
	return outs
}
