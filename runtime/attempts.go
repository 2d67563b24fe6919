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
	policy := cfg.retryOf(&e.tool)
	timeout := cfg.timeoutOf(&e.tool)
	for attempt := 1; ; attempt++ {
		st.attempt.Store(int32(attempt))
		var began time.Time // only observers need the attempt's own duration
		if cfg.observer != nil {
			began = time.Now()
		}
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
// With one, it runs on a worker goroutine so that a handler ignoring its ctx cannot hold the
// call past the deadline: the call returns a timeout result on time and the worker is
// abandoned, still running, until the handler returns. Abandoned attempts are counted per
// tool; at the tool's limit (WithMaxAbandoned) further calls of the tool are refused as
// unavailable until some return, so a hung dependency cannot pile up goroutines without end.
//
// Nothing here allocates on the common path: the first attempt's deadline context lives in
// the call's state, the caller waits on a pooled timer, and workers are reused.
func runAttempt(ctx context.Context, cfg *registryConfig, e *toolEntry, bound BoundCall, timeout time.Duration) Result {
	if timeout <= 0 {
		return runOnce(ctx, &e.tool, bound)
	}
	if e.abandoned.Load() >= cfg.abandonLimit() {
		return Result{
			Text:    fmt.Sprintf("%s is unavailable: earlier calls of it are still running past their timeout. Try again later.", e.tool.Name),
			IsError: true,
			Err:     fmt.Errorf("tool %q: %w (%d)", e.tool.Name, ErrTooManyAbandoned, e.abandoned.Load()),
			Kind:    KindUnavailable,
		}
	}
	actx := newAttemptCtx(ctx, time.Now().Add(timeout))
	a := attemptPool.Get().(*attemptRun)
	a.entry, a.ctx, a.bound = e, actx, bound
	startWorker(a)

	timer := timerPool.Get().(*time.Timer)
	timer.Reset(time.Until(actx.deadline))
	defer func() {
		timer.Stop()
		timerPool.Put(timer)
	}()

	var res Result
	select {
	case res = <-a.done:
	case <-timer.C:
		if abandon(a, e) {
			actx.end(context.DeadlineExceeded)
			return deadlineResult(ctx, e.tool.Name, timeout)
		}
		res = <-a.done // the handler finished as the deadline fired
	case <-ctx.Done():
		if abandon(a, e) {
			actx.end(context.Cause(ctx))
			return deadlineResult(ctx, e.tool.Name, timeout)
		}
		res = <-a.done
	}
	// The attempt is over: like the cancel of context.WithTimeout, end its ctx so that work the
	// handler left behind stops.
	ended := actx.Err()
	actx.end(context.Canceled)
	a.release()
	if res.IsError && ended != nil {
		// The handler gave up because its ctx ended: report why, not its wording of it.
		return deadlineResult(ctx, e.tool.Name, timeout)
	}
	return res
}

// abandon tells the worker of a that nobody waits for its result any more, unless it already
// finished; it reports whether the attempt was abandoned.
func abandon(a *attemptRun, e *toolEntry) bool {
	if a.state.CompareAndSwap(attemptRunning, attemptAbandoned) {
		e.abandoned.Add(1)
		return true
	}
	return false
}

// timerPool holds stopped timers for callers waiting on an attempt; since Go 1.23 a stopped
// timer delivers no stale value, so a pooled timer can be reset safely.
var timerPool = sync.Pool{New: func() any {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return t
}}

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

// attemptRun is the meeting point of a waiting call and the worker running its handler.
// Whichever of them moves state away from running first decides: the worker (finished: it
// sends the result) or the waiter (abandoned: nobody will read the result, and the worker
// releases the counter and the attemptRun itself). They are pooled, so a call with a timeout
// allocates no channel.
type attemptRun struct {
	state atomic.Int32
	done  chan Result // capacity 1: the worker never blocks on it
	entry *toolEntry
	ctx   *attemptCtx
	bound BoundCall
}

var attemptPool = sync.Pool{New: func() any { return &attemptRun{done: make(chan Result, 1)} }}

func (a *attemptRun) run() {
	res := runOnce(a.ctx, &a.entry.tool, a.bound)
	if a.state.CompareAndSwap(attemptRunning, attemptFinished) {
		a.done <- res
		return
	}
	a.entry.abandoned.Add(-1)
	a.release()
}

// release returns a to the pool; only the side that last touches a calls it.
func (a *attemptRun) release() {
	a.entry, a.ctx, a.bound = nil, nil, nil
	a.state.Store(attemptRunning)
	attemptPool.Put(a)
}

// Workers run attempts that have a timeout. A go statement allocates, so workers are kept
// for a while after their attempt and take the next one from idleWorkers; a worker idle for
// workerIdle ends. An abandoned attempt keeps its worker until the handler returns.
var idleWorkers = make(chan *attemptRun)

const workerIdle = 30 * time.Second

func startWorker(a *attemptRun) {
	select {
	case idleWorkers <- a:
	default:
		go worker(a)
	}
}

func worker(a *attemptRun) {
	idle := time.NewTimer(workerIdle)
	defer idle.Stop()
	for {
		a.run()
		idle.Reset(workerIdle)
		select {
		case a = <-idleWorkers:
		case <-idle.C:
			return
		}
	}
}

// attemptCtx is the ctx of one attempt with a timeout: the call's ctx plus a deadline. It
// behaves as context.WithDeadline would, but allocates nothing until a handler asks for its
// Done channel (or for the cause of its end): then it builds the real context.WithDeadline
// and defers to it, so Done, Err and context.Cause keep their usual meaning.
type attemptCtx struct {
	parent   context.Context
	deadline time.Time

	mu     sync.Mutex
	ended  error              // why the attempt ended early, or nil
	real   context.Context    // built on first need
	cancel context.CancelFunc // of real
}

func newAttemptCtx(parent context.Context, deadline time.Time) *attemptCtx {
	if st, ok := parent.(*callState); ok && st.first.parent == nil {
		// The first attempt of a call uses the context kept in the call's state.
		c := &st.first
		c.parent, c.deadline = parent, deadline
		return c
	}
	return &attemptCtx{parent: parent, deadline: deadline}
}

func (c *attemptCtx) Deadline() (time.Time, bool) {
	if d, ok := c.parent.Deadline(); ok && d.Before(c.deadline) {
		return d, true
	}
	return c.deadline, true
}

func (c *attemptCtx) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.realLocked().Done()
}

func (c *attemptCtx) Err() error {
	c.mu.Lock()
	real, ended := c.real, c.ended
	c.mu.Unlock()
	switch {
	case real != nil:
		return real.Err()
	case ended != nil:
		if ended == context.DeadlineExceeded {
			return ended
		}
		return context.Canceled
	}
	if err := c.parent.Err(); err != nil {
		return err
	}
	if !time.Now().Before(c.deadline) {
		return context.DeadlineExceeded
	}
	return nil
}

func (c *attemptCtx) Value(key any) any {
	c.mu.Lock()
	real := c.real
	c.mu.Unlock()
	if real == nil && c.Err() != nil {
		// context.Cause looks for its cause through Value: once the attempt has ended, answer
		// from a real context that ended the same way.
		c.mu.Lock()
		real = c.realLocked()
		c.mu.Unlock()
	}
	if real != nil {
		return real.Value(key)
	}
	return c.parent.Value(key)
}

// realLocked builds the real context (once), ended already when the attempt has.
func (c *attemptCtx) realLocked() context.Context {
	if c.real == nil {
		cause := c.ended
		if cause == nil {
			cause = context.DeadlineExceeded
		}
		c.real, c.cancel = context.WithDeadlineCause(c.parent, c.deadline, cause)
		if c.ended != nil && c.ended != context.DeadlineExceeded {
			c.cancel() // a past deadline has already ended it, as DeadlineExceeded
		}
	}
	return c.real
}

// end ends the attempt's ctx, recording why (the first reason wins).
func (c *attemptCtx) end(why error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended != nil {
		return
	}
	c.ended = why
	// At the deadline the real context ends by its own timer, with DeadlineExceeded; cancel
	// would report Canceled instead.
	if c.cancel != nil && why != context.DeadlineExceeded {
		c.cancel()
	}
}
