package runtime

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// execute runs the bound call under the tool's timeout and retry policy. A failed attempt is
// retried while the policy has retries left, its failure is retryable (see ErrorKind and
// Permanent) and ctx is alive; the wait between attempts ends early when ctx does.
func (r *Registry) execute(ctx context.Context, st *callState, cfg *registryConfig, e *toolEntry, bound BoundCall) Result {
	policy := cfg.retryOf(e.tool)
	timeout := cfg.timeoutOf(e.tool)
	for attempt := 1; ; attempt++ {
		st.attempt.Store(int32(attempt))
		began := time.Now()
		res := runAttempt(ctx, cfg, e, bound, timeout)
		res.Attempts = attempt
		if !res.IsError {
			return res
		}
		if cfg.observer != nil {
			ev := event(ctx, EventError)
			ev.Attempt, ev.Duration, ev.Err, ev.ErrKind = attempt, time.Since(began), res.Err, KindOf(res.Err)
			cfg.observer(ctx, ev)
		}
		if attempt > policy.Max || !retryable(res) || ctx.Err() != nil {
			return res
		}
		delay := cfg.retryDelay(policy, attempt)
		if cfg.observer != nil {
			ev := event(ctx, EventRetry)
			ev.Attempt, ev.Delay = attempt, delay
			cfg.observer(ctx, ev)
		}
		if cfg.wait(ctx, delay) != nil {
			return res
		}
	}
}

// runAttempt runs the handler once. Without a timeout it runs on the caller's goroutine.
// With one, it runs on its own goroutine so that a handler ignoring its ctx cannot hold the
// call past the deadline: the call returns a timeout result on time and the goroutine is
// abandoned, still running, until the handler returns. Abandoned goroutines are counted per
// tool; at the tool's limit (WithMaxAbandoned) further calls of the tool are refused as
// unavailable until some return, so a hung dependency cannot pile up goroutines without end.
func runAttempt(ctx context.Context, cfg *registryConfig, e *toolEntry, bound BoundCall, timeout time.Duration) Result {
	if timeout <= 0 {
		return runOnce(ctx, e.tool, bound)
	}
	if e.abandoned.Load() >= cfg.abandonLimit() {
		return Result{
			Text:    fmt.Sprintf("%s is unavailable: earlier calls of it are still running past their timeout. Try again later.", e.tool.Name),
			IsError: true,
			Err:     fmt.Errorf("tool %q: %w (%d)", e.tool.Name, ErrTooManyAbandoned, e.abandoned.Load()),
			Kind:    KindUnavailable,
		}
	}
	actx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	a := attemptPool.Get().(*attemptRun)
	a.entry = e
	go a.run(actx, bound)

	var res Result
	select {
	case res = <-a.done:
	case <-actx.Done():
		if a.state.CompareAndSwap(attemptRunning, attemptAbandoned) {
			e.abandoned.Add(1)
			return deadlineResult(ctx, e.tool.Name, timeout)
		}
		// The handler finished as the deadline fired; its result is on its way.
		res = <-a.done
	}
	a.release()
	if res.IsError && actx.Err() != nil {
		// The handler gave up because its ctx ended: report why, not its wording of it.
		return deadlineResult(ctx, e.tool.Name, timeout)
	}
	return res
}

// deadlineResult reports an attempt that ended with its ctx: the caller's cancellation when
// ctx is done, else the tool's timeout.
func deadlineResult(ctx context.Context, name string, timeout time.Duration) Result {
	if err := ctx.Err(); err != nil {
		return Result{
			Text:    fmt.Sprintf("%s was cancelled before it finished.", name),
			IsError: true,
			Err:     fmt.Errorf("tool %q: %w", name, context.Cause(ctx)),
			Kind:    KindCancelled,
		}
	}
	return Result{
		Text:    fmt.Sprintf("%s did not finish within its time limit of %v.", name, timeout),
		IsError: true,
		Err:     &TimeoutError{Tool: name, After: timeout},
		Kind:    KindTimeout,
	}
}

const (
	attemptRunning int32 = iota
	attemptFinished
	attemptAbandoned
)

// attemptRun is the meeting point of a waiting call and the goroutine running its handler.
// Whichever of them moves state away from running first decides: the handler goroutine
// (finished: it sends the result) or the waiter (abandoned: nobody will read the result, and
// the goroutine releases the counter and the attemptRun itself). They are pooled, so a call
// with a timeout allocates no channel.
type attemptRun struct {
	state atomic.Int32
	done  chan Result // capacity 1: the handler goroutine never blocks on it
	entry *toolEntry
}

var attemptPool = sync.Pool{New: func() any { return &attemptRun{done: make(chan Result, 1)} }}

func (a *attemptRun) run(ctx context.Context, bound BoundCall) {
	res := runOnce(ctx, a.entry.tool, bound)
	if a.state.CompareAndSwap(attemptRunning, attemptFinished) {
		a.done <- res
		return
	}
	a.entry.abandoned.Add(-1)
	a.release()
}

// release returns a to the pool; only the side that last touches a calls it.
func (a *attemptRun) release() {
	a.entry = nil
	a.state.Store(attemptRunning)
	attemptPool.Put(a)
}
