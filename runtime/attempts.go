package runtime

import (
	"context"
	"fmt"
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"time"
)

// execute runs the bound call under the tool's timeout and retry policy. A failed attempt is
// retried while the policy has retries left, its failure is retryable (see ErrorKind and
// Permanent) and ctx is alive; the wait between attempts ends early when ctx does.
func (r *Registry) execute(ctx context.Context, st *callState, cfg *registryConfig, e *toolEntry, bound BoundCall, res *Result) {
	policy := cfg.retryOf(&e.tool)
	timeout := cfg.timeoutOf(&e.tool)
	for attempt := 1; ; attempt++ {
		if attempt > 1 {
			st.attempt.Store(int32(attempt - 1)) // the first is the state's zero value
		}
		var began time.Duration // only observers need the attempt's own duration
		if cfg.observer != nil {
			began = monotonic()
		}
		if timeout <= 0 {
			runOnce(ctx, &e.tool, bound, res)
		} else {
			*res = runAttempt(ctx, cfg, e, st.info.session, bound, timeout)
		}
		res.Attempts = attempt
		if !res.IsError {
			return
		}
		if cfg.observer != nil {
			ev := event(ctx, EventError)
			ev.Attempt, ev.Duration, ev.Err, ev.ErrKind = attempt, monotonic()-began, res.Err, KindOf(res.Err)
			cfg.notify(ctx, ev)
		}
		if attempt > policy.Max || !retryable(*res) || ctx.Err() != nil {
			return
		}
		delay := cfg.retryDelay(policy, attempt)
		if cfg.observer != nil {
			ev := event(ctx, EventRetry)
			ev.Attempt, ev.Delay = attempt, delay
			cfg.notify(ctx, ev)
		}
		if cfg.wait(ctx, delay) != nil {
			return
		}
	}
}

// runAttempt runs the handler once, with a timeout (without one, execute runs it on the
// caller's goroutine). It runs on a worker goroutine so that a handler ignoring its ctx
// cannot hold the call past the deadline: the call returns a timeout result on time and the
// worker is abandoned, still running, until the handler returns. The attempts on workers, running or
// abandoned, are bounded per tool and per session (see attemptSlots), so a hung dependency
// cannot pile up goroutines without end, however many calls arrive at once.
//
// Nothing here allocates on the common path: the first attempt's deadline context lives in
// the call's frame, the attempt and its deadline timer are pooled, and workers are reused.
// The caller waits on one channel; the timer and the worker each try to end the attempt, and
// the first to do so signals it.
func runAttempt(ctx context.Context, cfg *registryConfig, e *toolEntry, session string, bound BoundCall, timeout time.Duration) Result {
	if res, ok := e.slots.acquire(ctx, cfg, e, session, timeout); !ok {
		return res
	}
	deadline := monotonic() + timeout
	actx := newAttemptCtx(ctx, deadline)
	a := attemptPool.Get().(*attemptRun)
	a.entry, a.session, a.ctx, a.bound = e, session, actx, bound
	actx.run.Store(a)
	a.state.Store(attemptRunning)
	a.refs.Store(2) // the caller and the worker
	dispatch(a)

	// The worker dispatch woke runs next on this goroutine's processor: yielding once lets a
	// handler that does not block finish before the caller waits, and then no deadline timer
	// is armed (arming and stopping one is most of what a timeout costs). Otherwise the timer
	// is armed for what is left until the deadline, which was fixed before dispatch.
	goruntime.Gosched()
	armed := false
	select {
	case <-a.done:
	default:
		armed = true
		a.timer.Reset(deadline - monotonic()) // at or past the deadline: expires at once
		if done := ctx.Done(); done == nil {
			<-a.done
		} else {
			select {
			case <-a.done:
			case <-done:
				if !a.abandon(attemptCancelled) {
					<-a.done // the worker or the timer ended the attempt first
				}
			}
		}
	}
	if armed && !a.timer.Stop() {
		// The timer fired: wait until its function is done with a, which may be reused
		// as soon as both the caller and the worker let go of it.
		for !a.expired.Load() {
			goruntime.Gosched()
		}
	}
	state, res := a.state.Load(), a.res
	a.unref()

	switch state {
	case attemptExpired:
		actx.end(context.DeadlineExceeded)
		return deadlineResult(ctx, e.tool.Name, timeout)
	case attemptCancelled:
		actx.end(context.Cause(ctx))
		return deadlineResult(ctx, e.tool.Name, timeout)
	}
	// The handler failed because its ctx ended: report why, not its wording of it. A handler
	// that committed is reported as it answered: its effect took place, or failed, after that.
	gaveUp := res.IsError && actx.Err() != nil && state != attemptCommitted
	// The attempt is over: like the cancel of context.WithTimeout, end its ctx so that work the
	// handler left behind stops.
	actx.end(context.Canceled)
	if gaveUp {
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

// The states of an attempt: the first of the worker (finished), the deadline timer (expired)
// and the caller's cancelled ctx (cancelled) to move it away from running decides how it ends.
// A handler that calls Commit moves it to committed, which neither the timer nor the caller
// can end: the attempt ends when the worker finishes.
const (
	attemptRunning int32 = iota
	attemptFinished
	attemptExpired
	attemptCancelled
	attemptCommitted
)

// Commit tells the registry that the handler is about to make its call's effect final: rename
// a file into place, send a message. It returns an error, and the handler must then not go
// on, when the call has ended already: its attempt timed out or was cancelled, so its caller
// has been told, or will be, that it failed. Otherwise it returns nil, and from then on the
// attempt is no longer abandoned at its timeout or when its caller's ctx is cancelled: the
// call waits for the handler and reports what it returns. So after Commit a handler does
// only the last, short step. Outside an attempt with a timeout it returns ctx.Err(). Call it
// from the handler's goroutine, before the handler returns.
func Commit(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c, _ := ctx.Value(attemptKey{}).(*attemptCtx)
	if c == nil {
		return nil
	}
	a := c.run.Load()
	if a == nil || a.state.CompareAndSwap(attemptRunning, attemptCommitted) || a.state.Load() == attemptCommitted {
		return nil
	}
	// Expired or cancelled, perhaps a moment before ctx (derived from the attempt's) says so.
	if err := c.Err(); err != nil {
		return err
	}
	return context.DeadlineExceeded
}

// attemptKey finds the attempt's ctx under the handler's ctx (see Commit).
type attemptKey struct{}

// attemptRun is the meeting point of a waiting call, its deadline timer and the worker
// running its handler. It is pooled, with its channel and timer, so a call with a timeout
// allocates none of them; it returns to the pool when both the caller and the worker have let
// go of it (refs).
type attemptRun struct {
	state   atomic.Int32
	refs    atomic.Int32
	done    chan struct{} // capacity 1: whoever ends the attempt sends once, without blocking
	res     Result        // the handler's result, written before the worker signals done
	timer   *time.Timer   // runs expire at the deadline
	expired atomic.Bool   // expire ran to its end (only meaningful when the timer fired)
	entry   *toolEntry
	session string
	ctx     *attemptCtx
	bound   BoundCall
}

var attemptPool = sync.Pool{New: func() any {
	a := &attemptRun{done: make(chan struct{}, 1)}
	a.timer = time.AfterFunc(time.Hour, a.expire)
	a.timer.Stop()
	return a
}}

// expire ends the attempt at its deadline, unless it already ended.
func (a *attemptRun) expire() {
	if a.abandon(attemptExpired) {
		a.done <- struct{}{}
	}
	a.expired.Store(true)
}

// abandon ends a running attempt on the caller's side (expired or cancelled): the worker's
// result will be dropped, and the tool counts one more abandoned attempt until the handler
// returns. It reports whether the attempt was still running.
func (a *attemptRun) abandon(why int32) bool {
	if a.state.CompareAndSwap(attemptRunning, why) {
		a.entry.slots.abandon(a.session)
		return true
	}
	return false
}

// finish is the worker's side of the end of an attempt: it hands res to the caller, unless
// the attempt was abandoned.
func (a *attemptRun) finish(res Result) {
	a.ctx.run.Store(nil) // a Commit from a goroutine the handler left behind commits nothing
	// Committed is final: neither the timer nor the caller moves an attempt away from it.
	if a.state.CompareAndSwap(attemptRunning, attemptFinished) || a.state.Load() == attemptCommitted {
		a.res = res
		a.entry.slots.release(a.session, false)
		a.done <- struct{}{}
	} else {
		a.entry.slots.release(a.session, true)
	}
	a.unref()
}

// unref lets go of a; the last side to do so returns it to the pool.
func (a *attemptRun) unref() {
	if a.refs.Add(-1) != 0 {
		return
	}
	a.entry, a.session, a.ctx, a.bound, a.res = nil, "", nil, nil, Result{}
	a.expired.Store(false)
	attemptPool.Put(a)
}

// Workers run attempts that have a timeout. A go statement allocates, so a worker is kept
// after its attempt, parked on its own channel, and the next attempt goes to the most
// recently parked one; a reaper ends workers idle for longer than workers.idleFor. An abandoned
// attempt keeps its worker until the handler returns.
type worker struct {
	jobs chan *attemptRun // nil ends the worker
	idle time.Duration    // monotonic time it parked
}

// workers are the parked workers, and how long one may stay parked (30s; tests shorten it).
var workers = struct {
	mu      sync.Mutex
	idle    []*worker // a stack: the most recently parked last
	reaper  *time.Timer
	idleFor time.Duration
}{idleFor: 30 * time.Second}

// dispatch hands a to an idle worker, or to a new one.
func dispatch(a *attemptRun) {
	workers.mu.Lock()
	var w *worker
	if n := len(workers.idle); n > 0 {
		w = workers.idle[n-1]
		workers.idle[n-1] = nil
		workers.idle = workers.idle[:n-1]
	}
	workers.mu.Unlock()
	if w != nil {
		w.jobs <- a
		return
	}
	go (&worker{jobs: make(chan *attemptRun, 1)}).loop(a)
}

func (w *worker) loop(a *attemptRun) {
	var running *attemptRun
	defer func() {
		if running != nil {
			// The handler called runtime.Goexit: this goroutine ends with it, but the attempt
			// still ends, its slot is freed and its caller gets a result.
			running.finish(goexitResult(running.entry.tool.Name))
		}
	}()
	for a != nil {
		running = a
		var res Result
		runOnce(a.ctx, &a.entry.tool, a.bound, &res)
		running = nil
		// Idle before the caller learns the result, so that its next attempt finds this
		// worker instead of starting another.
		w.park()
		a.finish(res)
		a = <-w.jobs
	}
}

func (w *worker) park() {
	w.idle = monotonic()
	workers.mu.Lock()
	workers.idle = append(workers.idle, w)
	if workers.reaper == nil {
		workers.reaper = time.AfterFunc(workers.idleFor, reapWorkers)
	}
	workers.mu.Unlock()
}

// reapWorkers ends the workers idle for workers.idleFor, the oldest first, and comes back while
// some remain.
func reapWorkers() {
	now := monotonic()
	workers.mu.Lock()
	defer workers.mu.Unlock()
	n := 0
	for n < len(workers.idle) && now-workers.idle[n].idle >= workers.idleFor {
		workers.idle[n].jobs <- nil
		workers.idle[n] = nil
		n++
	}
	workers.idle = append(workers.idle[:0], workers.idle[n:]...)
	if len(workers.idle) == 0 {
		workers.reaper = nil
		return
	}
	workers.reaper.Reset(workers.idleFor - (now - workers.idle[0].idle))
}

// attemptCtx is the ctx of one attempt with a timeout: the call's ctx plus a deadline. It
// behaves as context.WithDeadline would, but allocates nothing until a handler asks for its
// Done channel (or for the cause of its end): then it builds the real context.WithDeadline
// and defers to it, so Done, Err and context.Cause keep their usual meaning.
type attemptCtx struct {
	parent   context.Context
	deadline time.Duration // by the monotonic clock (see monotonic)

	run atomic.Pointer[attemptRun] // while its handler runs, for Commit

	mu     sync.Mutex
	ended  error              // why the attempt ended early, or nil
	real   context.Context    // built on first need
	cancel context.CancelFunc // of real
}

func newAttemptCtx(parent context.Context, deadline time.Duration) *attemptCtx {
	if st, ok := parent.(*callState); ok && st.first != nil && st.first.parent == nil {
		// The first attempt of a call uses the context allocated with the call's state.
		c := st.first
		c.parent, c.deadline = parent, deadline
		return c
	}
	return &attemptCtx{parent: parent, deadline: deadline}
}

func (c *attemptCtx) Deadline() (time.Time, bool) {
	deadline := wallTime(c.deadline)
	if d, ok := c.parent.Deadline(); ok && d.Before(deadline) {
		return d, true
	}
	return deadline, true
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
	if monotonic() >= c.deadline {
		return context.DeadlineExceeded
	}
	return nil
}

func (c *attemptCtx) Value(key any) any {
	if _, ok := key.(attemptKey); ok {
		return c
	}
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
		c.real, c.cancel = context.WithDeadlineCause(c.parent, wallTime(c.deadline), cause)
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

func goexitResult(tool string) Result {
	return internalErrorResult(tool, fmt.Errorf("tool %q: the handler called runtime.Goexit", tool), 1)
}
