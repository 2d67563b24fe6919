package runtime

import (
	"context"
	"sync"
)

// InvokeAll runs the calls of one model turn and returns their results in call order. Calls
// run concurrently (at most WithBatchConcurrency at once), except that a call of a
// //tool:sequential tool is a barrier: it starts after every call before it ended, and the
// calls after it start after it ended. Each call goes through Invoke, with all its policies.
func (r *Registry) InvokeAll(ctx context.Context, calls []Call) []Result {
	results := make([]Result, len(calls))
	r.mu.RLock()
	limit := r.cfg.batchConcurrency
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
	e, _, ok := r.lookupEntry(name)
	return ok && e.tool.Sequential
}
