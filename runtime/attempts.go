package runtime

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// execute runs the bound call under the tool's timeout and retry policy. A failed attempt is
// retried while the policy has retries left, its failure is retryable (see ErrorKind and
// Permanent) and ctx is alive; the wait between attempts ends early when ctx does.
func (r *Registry) execute(ctx context.Context, st *callState, cfg *registryConfig, e *toolEntry, bound BoundCall, res *Result) {
	policies := e.policiesOf(cfg)
	policy, timeout := policies.retry, policies.timeout
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
			runAttempt(ctx, cfg, e, st.info.session, bound, timeout, res)
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

// runAttempt runs the handler once, with a timeout, into res (without one, execute runs it
// on the caller's goroutine). It runs on a worker goroutine so that a handler ignoring its ctx
// cannot hold the call past the deadline: the call returns a timeout result on time and the
// worker is abandoned, still running, until the handler returns. The attempts on workers, running or
// abandoned, are bounded per tool and per session (see attemptSlots), so a hung dependency
// cannot pile up goroutines without end, however many calls arrive at once.
//
// Nothing here allocates on the common path: the first attempt's deadline context lives in
// the call's frame, the attempt is pooled, and workers are reused. No timer is armed per
// attempt either: one watchdog timer, for the earliest deadline of all the attempts in flight,
// ends those past theirs (see expireLocked). The caller waits on one channel, as it would for
// any goroutine; the watchdog and the worker each try to end the attempt, and the first to do
// so signals it.
func runAttempt(ctx context.Context, cfg *registryConfig, e *toolEntry, session string, bound BoundCall, timeout time.Duration, res *Result) {
	a := attemptPool.Get().(*attemptRun)
	a.entry, a.bound = e, bound
	if refused := dispatch(ctx, cfg, a, session, timeout); refused != nil {
		a.recycle()
		*res = *refused
		return
	}
	actx := a.ctx

	// The state the attempt ended in comes with the signal: once the attempt was abandoned,
	// the caller reads nothing more of it (see leave).
	var state int32
	if done := ctx.Done(); done == nil {
		state = <-a.done
	} else {
		select {
		case state = <-a.done:
		case <-done:
			workers.mu.Lock()
			abandoned := a.abandonLocked(attemptCancelled)
			workers.mu.Unlock()
			if abandoned {
				state = attemptCancelled
			} else {
				state = <-a.done // the worker or the watchdog ended the attempt first
			}
		}
	}
	switch state {
	case attemptExpired:
		a.leave()
		actx.end(context.DeadlineExceeded)
		*res = deadlineResult(ctx, e.tool.Name, timeout)
		return
	case attemptCancelled:
		a.leave()
		actx.end(context.Cause(ctx))
		*res = deadlineResult(ctx, e.tool.Name, timeout)
		return
	}
	*res = a.res // the worker handed the attempt over: it is the caller's alone
	a.recycle()
	// The handler failed because its ctx ended: report why, not its wording of it. A handler
	// that committed is reported as it answered: its effect took place, or failed, after that.
	gaveUp := res.IsError && actx.Err() != nil && state != attemptCommitted
	// The attempt is over: like the cancel of context.WithTimeout, end its ctx so that work the
	// handler left behind stops.
	actx.end(context.Canceled)
	if gaveUp {
		*res = deadlineResult(ctx, e.tool.Name, timeout)
	}
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

// The states of an attempt: the first of the worker (finished), the watchdog (expired)
// and the caller's cancelled ctx (cancelled) to move it away from running decides how it ends.
// A handler that calls Commit moves it to committed, which neither the watchdog nor the caller
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
	workers.mu.Lock()
	a := c.run
	if a != nil && a.state == attemptRunning {
		a.state = attemptCommitted
	}
	committed := a == nil || a.state == attemptCommitted
	workers.mu.Unlock()
	if committed {
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

// attemptRun is the meeting point of a waiting call, the watchdog and the worker running its
// handler. It is pooled, with its channel, so a call with a timeout allocates neither. It is
// the caller's until dispatch, then the caller's and the worker's; the side that lets go of
// it last puts it back: the caller when the worker handed it the result, else whichever of
// the two is done with it second (see endLocked and leave). Its state and links change under
// workers.mu only, so an attempt costs no atomic instruction beyond the lock's.
type attemptRun struct {
	done     chan int32    // capacity 1: the state the attempt ended in, sent once by whoever ended it
	res      Result        // the handler's result, written by the worker before it signals done
	deadline time.Duration // by the monotonic clock
	entry    *toolEntry
	slot     *sessionSlots // its session's count of the tool's slots
	ctx      *attemptCtx
	bound    BoundCall

	// Under workers.mu: how it stands, and its place among the attempts the watchdog watches.
	state      int32
	prev, next *attemptRun
	watched    bool
	// An abandoned attempt: how many of its caller and its worker are done with it.
	left int8
}

var attemptPool = sync.Pool{New: func() any {
	return &attemptRun{done: make(chan int32, 1)}
}}

// abandonLocked ends a running attempt on the caller's side (expired or cancelled): the
// worker's result will be dropped, and the tool counts one more abandoned attempt until the
// handler returns. It reports whether the attempt was still running.
func (a *attemptRun) abandonLocked(why int32) bool {
	if a.state != attemptRunning {
		return false
	}
	a.state = why
	a.entry.slots.abandonLocked(a.slot)
	return true
}

// endLocked is the worker's side of the end of an attempt, once a.res holds the handler's
// result: the watchdog stops watching it, a Commit from a goroutine the handler left behind
// commits nothing, its slot frees. It returns the state to hand over to the caller with the
// result; or, when the caller abandoned the attempt, attemptRunning, and whether the caller
// is done with it, so the worker puts it back.
func (a *attemptRun) endLocked() (handOver int32, recycle bool) {
	unwatchLocked(a)
	a.ctx.run = nil
	switch a.state {
	case attemptRunning:
		a.state = attemptFinished
		handOver = attemptFinished
	case attemptCommitted: // final: neither the watchdog nor the caller ends it
		handOver = attemptCommitted
	default:
		a.left++
		recycle = a.left == 2
	}
	a.entry.slots.releaseLocked(a.slot, handOver == attemptRunning)
	return handOver, recycle
}

// handOver is the worker's last touch of a: it signals the caller, or puts the abandoned
// attempt back when the caller is done with it too.
func (a *attemptRun) handOver(state int32, recycle bool) {
	switch {
	case state != attemptRunning:
		a.done <- state
	case recycle:
		a.recycle()
	}
}

// leave is the caller's last touch of an abandoned attempt: it puts it back when the worker
// is done with it too. The caller waits for the watchdog's signal before it leaves, so the
// attempt's channel is empty when it is reused.
func (a *attemptRun) leave() {
	workers.mu.Lock()
	a.left++
	recycle := a.left == 2
	workers.mu.Unlock()
	if recycle {
		a.recycle()
	}
}

// recycle puts a back into the pool, holding nothing of its call.
func (a *attemptRun) recycle() {
	a.entry, a.slot, a.ctx, a.bound, a.res = nil, nil, nil, nil, Result{}
	a.left = 0
	attemptPool.Put(a)
}

// Workers run attempts that have a timeout. A go statement allocates, so a worker is kept
// after its attempt, parked on its own channel, and the next attempt goes to the most
// recently parked one; a reaper ends workers parked for between workers.idleFor and twice
// that. An abandoned attempt keeps its worker until the handler returns.
type worker struct {
	jobs   chan *attemptRun // nil ends the worker
	parked uint64           // the reaper's tick when it parked
}

// workers are the parked workers and the attempts in flight on the others, under one lock: a
// dispatch takes a worker and starts watching its attempt, a worker that finishes parks and
// stops watching it, each in one critical section.
var workers = struct {
	mu      sync.Mutex
	idle    []*worker // a stack: the most recently parked last
	reaper  *time.Timer
	tick    uint64        // how many times the reaper has run
	idleFor time.Duration // how long a worker may stay parked, at least (30s; tests shorten it)

	// The attempts in flight, and the one timer that ends those past their deadline: it is
	// armed for watchAt, at or before the earliest deadline among them (0: not armed).
	inflight *attemptRun // a doubly-linked list, the newest first
	watch    *time.Timer
	watchAt  time.Duration
}{idleFor: 30 * time.Second}

// dispatch takes a slot for a, watches its deadline and hands it to an idle worker (or a new
// one), under one lock. When the tool has no free slot it waits for one, up to timeout; when
// it gets none it returns the result that ends the attempt.
func dispatch(ctx context.Context, cfg *registryConfig, a *attemptRun, session string, timeout time.Duration) *Result {
	deadline := monotonic() + timeout
	var timer *time.Timer
	workers.mu.Lock()
	for {
		own, refused, wake := a.entry.slots.takeLocked(cfg, a.entry, session)
		if own != nil {
			a.slot = own
			break
		}
		busy := a.entry.slots.running + a.entry.slots.abandoned
		workers.mu.Unlock()
		if refused == nil {
			if timer == nil {
				timer = time.NewTimer(timeout)
			}
			refused = waitForSlot(ctx, wake, timer, a.entry.tool.Name, busy, timeout)
		}
		if refused != nil {
			if timer != nil {
				timer.Stop()
			}
			return refused
		}
		deadline = monotonic() + timeout // the wait does not count against the attempt
		workers.mu.Lock()
	}
	a.deadline = deadline
	a.ctx = newAttemptCtx(ctx, deadline)
	a.ctx.run = a
	a.state = attemptRunning
	watchLocked(a, timeout)
	var w *worker
	if n := len(workers.idle); n > 0 {
		w = workers.idle[n-1]
		workers.idle[n-1] = nil
		workers.idle = workers.idle[:n-1]
	}
	workers.mu.Unlock()
	if timer != nil {
		timer.Stop()
	}
	if w != nil {
		w.jobs <- a
		return nil
	}
	go (&worker{jobs: make(chan *attemptRun, 1)}).loop(a)
	return nil
}

// watchLocked adds a to the attempts in flight. The watchdog timer is re-armed only when a's
// deadline comes before the one it is armed for: calls of tools with the same timeout arrive
// in the order of their deadlines, so most calls leave the timer alone, and the cost of a
// timeout is a list insertion rather than a timer's.
func watchLocked(a *attemptRun, timeout time.Duration) {
	a.prev, a.next, a.watched = nil, workers.inflight, true
	if a.next != nil {
		a.next.prev = a
	}
	workers.inflight = a
	if workers.watchAt == 0 || a.deadline < workers.watchAt {
		workers.watchAt = a.deadline
		if workers.watch == nil {
			workers.watch = time.AfterFunc(timeout, watchDeadlines)
		} else {
			workers.watch.Reset(timeout)
		}
	}
}

// unwatchLocked removes a from the attempts in flight, if it is there.
func unwatchLocked(a *attemptRun) {
	if !a.watched {
		return
	}
	if a.prev != nil {
		a.prev.next = a.next
	} else {
		workers.inflight = a.next
	}
	if a.next != nil {
		a.next.prev = a.prev
	}
	a.prev, a.next, a.watched = nil, nil, false
}

// expireLocked is the watchdog's round: it ends the attempts in flight past their deadline
// at now, and returns the earliest deadline of the others (0 when none is left), which it
// records as the watchdog's next wake (workers.watchAt). It reads the attempts under workers.mu, and an attempt
// leaves the list (its worker parks) before it can return to the pool, so it never touches a
// reused attempt. Its cost is linear in the attempts in flight, which the tools' slots bound
// (Limits.MaxAbandoned), once per expiry.
func expireLocked(now time.Duration) (next time.Duration) {
	for a := workers.inflight; a != nil; {
		following := a.next
		if a.deadline <= now {
			unwatchLocked(a)
			if a.abandonLocked(attemptExpired) {
				a.done <- attemptExpired
			}
		} else if next == 0 || a.deadline < next {
			next = a.deadline
		}
		a = following
	}
	workers.watchAt = next
	return next
}

// watchDeadlines is the watchdog timer's function: a round of expireLocked, then the timer
// is re-armed for the earliest deadline left, but no sooner than watchEvery: a round reads
// every attempt in flight, so attempts expiring one after another (many calls of a hung
// tool, with their deadlines spread out) cost at most a thousand rounds a second, each
// attempt ending at most that much past its deadline.
func watchDeadlines() {
	now := monotonic()
	workers.mu.Lock()
	defer workers.mu.Unlock()
	if next := expireLocked(now); next != 0 {
		workers.watch.Reset(max(next-now, watchEvery))
	}
}

// watchEvery is the least time between two rounds of the watchdog.
const watchEvery = time.Millisecond

func (w *worker) loop(a *attemptRun) {
	var running *attemptRun
	defer func() {
		if running != nil {
			// The handler called runtime.Goexit: this goroutine ends with it, but the attempt
			// still ends, its slot is freed and its caller gets a result.
			running.res = goexitResult(running.entry.tool.Name)
			workers.mu.Lock()
			state, recycle := running.endLocked()
			workers.mu.Unlock()
			running.handOver(state, recycle)
		}
	}()
	for a != nil {
		running = a
		runOnce(a.ctx, &a.entry.tool, a.bound, &a.res)
		running = nil
		// Idle before the caller learns the result, so that its next attempt finds this
		// worker instead of starting another.
		a.handOver(w.park(a))
		a = <-w.jobs
	}
}

// park ends the attempt w ran (see endLocked) and puts w back among the idle workers. It
// returns what endLocked did.
func (w *worker) park(ran *attemptRun) (handOver int32, recycle bool) {
	workers.mu.Lock()
	handOver, recycle = ran.endLocked()
	w.parked = workers.tick
	workers.idle = append(workers.idle, w)
	if workers.reaper == nil {
		workers.reaper = time.AfterFunc(workers.idleFor, reapWorkers)
	}
	workers.mu.Unlock()
	return handOver, recycle
}

// reapWorkers runs every workers.idleFor while workers are parked, and ends those parked
// since before its previous run: each has been idle between idleFor and twice that. Ticks
// rather than clock readings keep a time read off every worker's way back to the idle stack.
func reapWorkers() {
	workers.mu.Lock()
	defer workers.mu.Unlock()
	workers.tick++
	n := 0
	for n < len(workers.idle) && workers.idle[n].parked+1 < workers.tick {
		workers.idle[n].jobs <- nil
		workers.idle[n] = nil
		n++
	}
	workers.idle = append(workers.idle[:0], workers.idle[n:]...)
	if len(workers.idle) == 0 {
		workers.reaper = nil
		return
	}
	workers.reaper.Reset(workers.idleFor)
}

// attemptCtx is the ctx of one attempt with a timeout: the call's ctx plus a deadline. It
// behaves as context.WithDeadline would, but allocates nothing until a handler asks for its
// Done channel (or for the cause of its end): then it builds the real context.WithDeadline
// and defers to it, so Done, Err and context.Cause keep their usual meaning.
type attemptCtx struct {
	parent   context.Context
	deadline time.Duration // by the monotonic clock (see monotonic)

	run *attemptRun // while its handler runs, for Commit (under workers.mu)

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
