package runtime

import (
	"context"
	"math/rand/v2"
	"time"
)

// Defaults of the registry-wide policies.
const (
	DefaultTimeout      = 30 * time.Second // per attempt, for tools without //tool:timeout
	DefaultMaxResult    = 16 << 10         // bytes of result text, for tools without //tool:maxresult
	DefaultModelRetries = 1                // AskRetry budget per tool and session, without //tool:modelretries
	DefaultMaxAbandoned = 16               // timed-out calls of one tool left running before the tool is refused
)

// registryConfig holds the settings Options change. It is copied into every Subset, so a
// per-agent toolkit behaves like the registry it came from.
type registryConfig struct {
	defaultTimeout   time.Duration // 0: DefaultTimeout; <0: none
	defaultRetry     RetryPolicy
	maxResult        int64 // 0: DefaultMaxResult; <0: no cap
	offloader        Offloader
	approver         Approver
	approvalQueue    bool
	safeErrors       bool
	modelRetries     int // used when modelRetriesSet
	modelRetriesSet  bool
	guard            LoopGuard
	store            SessionStore
	observer         Observer
	argsInEvents     bool
	maxAbandoned     int // 0: DefaultMaxAbandoned
	batchConcurrency int // 0: every call of a group at once

	middleware []Middleware
	filters    map[string]Middleware

	maxArgsBytes int64 // 0: DefaultMaxArgsBytes
	maxArgsDepth int   // 0: DefaultMaxArgsDepth

	// sleep waits between retry attempts and jitter draws in [0,1); tests replace both.
	sleep  func(ctx context.Context, d time.Duration) error
	jitter func() float64
}

// Option configures a Registry in NewRegistry. Registry-wide policies (default timeouts,
// retries, approval, middleware) are Options.
type Option func(*registryConfig)

// WithDefaultTimeout sets the timeout of one attempt for tools without //tool:timeout
// (DefaultTimeout otherwise). d <= 0 disables the default: such tools then run unbounded.
func WithDefaultTimeout(d time.Duration) Option {
	return func(c *registryConfig) {
		if d <= 0 {
			d = -1
		}
		c.defaultTimeout = d
	}
}

// WithDefaultRetry sets the retry policy of tools without //tool:retry (none otherwise).
func WithDefaultRetry(p RetryPolicy) Option {
	return func(c *registryConfig) { c.defaultRetry = p }
}

// WithMaxResult sets the size cap, in bytes of text, of results of tools without
// //tool:maxresult (DefaultMaxResult otherwise). n <= 0 removes the default cap.
func WithMaxResult(n int64) Option {
	return func(c *registryConfig) {
		if n <= 0 {
			n = -1
		}
		c.maxResult = n
	}
}

// WithOffloader sets where results over their size cap go (a FileOffloader under the
// system's temporary directory otherwise).
func WithOffloader(o Offloader) Option {
	return func(c *registryConfig) { c.offloader = o }
}

// WithApprover sets the synchronous Approver that decides every call of a tool with
// //tool:confirm. It takes precedence over WithApprovalQueue.
func WithApprover(a Approver) Option {
	return func(c *registryConfig) { c.approver = a }
}

// WithApprovalQueue makes calls of //tool:confirm tools wait for Approve or Deny: Invoke
// returns a result with PendingApproval set, and invoking the same call again after the
// decision runs it (once) or reports the denial.
func WithApprovalQueue() Option {
	return func(c *registryConfig) { c.approvalQueue = true }
}

// WithSafeErrors limits what the model reads of plain Go errors returned by handlers to their
// kind and a fixed safe message ("search_web failed (unavailable): temporarily unavailable;
// try again later."). Errors made for the model (ModelError, AskRetry, argument problems) and
// the registry's own messages still pass their text. Result.Err keeps the original.
func WithSafeErrors() Option {
	return func(c *registryConfig) { c.safeErrors = true }
}

// WithModelRetries sets the AskRetry budget, per tool and session, of tools without
// //tool:modelretries (DefaultModelRetries otherwise).
func WithModelRetries(n int) Option {
	return func(c *registryConfig) { c.modelRetries, c.modelRetriesSet = max(n, 0), true }
}

// LoopGuard bounds what one session may do, so a model stuck in a loop stops burning calls.
// Zero fields impose no limit.
type LoopGuard struct {
	MaxCalls        int  // calls of all tools in a session
	MaxCallsPerTool int  // calls of one tool in a session, for tools without //tool:maxcalls
	RefuseRepeats   bool // answer a call identical (tool and canonical arguments) to one that already succeeded in the session with a notice instead of running it
}

// WithLoopGuard sets the registry's loop guard. //tool:maxcalls applies with or without it.
func WithLoopGuard(g LoopGuard) Option {
	return func(c *registryConfig) { c.guard = g }
}

// WithSessionStore sets the store behind session state (an in-memory store otherwise).
func WithSessionStore(s SessionStore) Option {
	return func(c *registryConfig) { c.store = s }
}

// WithObserver sets the hook that receives the registry's events (see Event).
func WithObserver(o Observer) Option {
	return func(c *registryConfig) { c.observer = o }
}

// WithArgsInEvents puts the raw arguments of calls into events (Event.Args). Off by default:
// arguments may hold personal data or secrets that do not belong in logs.
func WithArgsInEvents() Option {
	return func(c *registryConfig) { c.argsInEvents = true }
}

// WithMaxAbandoned sets how many timed-out calls of one tool may still be running before
// further calls of that tool are refused as unavailable (DefaultMaxAbandoned otherwise).
func WithMaxAbandoned(n int) Option {
	return func(c *registryConfig) { c.maxAbandoned = max(n, 1) }
}

// WithBatchConcurrency bounds how many calls of a batch InvokeAll runs at once (all of a
// group otherwise).
func WithBatchConcurrency(n int) Option {
	return func(c *registryConfig) { c.batchConcurrency = max(n, 0) }
}

// WithMiddleware is Use as an Option.
func WithMiddleware(mw ...Middleware) Option {
	return func(c *registryConfig) { c.middleware = append(c.middleware, mw...) }
}

// WithFilter is RegisterFilter as an Option.
func WithFilter(name string, mw Middleware) Option {
	return func(c *registryConfig) {
		if c.filters == nil {
			c.filters = make(map[string]Middleware)
		}
		c.filters[name] = mw
	}
}

func (c *registryConfig) timeoutOf(t *Tool) time.Duration {
	switch {
	case t.NoTimeout:
		return 0
	case t.Timeout > 0:
		return t.Timeout
	case c.defaultTimeout < 0:
		return 0
	case c.defaultTimeout > 0:
		return c.defaultTimeout
	}
	return DefaultTimeout
}

func (c *registryConfig) retryOf(t *Tool) RetryPolicy {
	if t.Retry != (RetryPolicy{}) {
		return t.Retry
	}
	return c.defaultRetry
}

func (c *registryConfig) maxResultOf(t *Tool) int64 {
	switch {
	case t.MaxResult > 0:
		return t.MaxResult
	case c.maxResult < 0:
		return 0
	case c.maxResult > 0:
		return c.maxResult
	}
	return DefaultMaxResult
}

func (c *registryConfig) modelRetriesOf(t *Tool) int {
	switch {
	case t.ModelRetries > 0:
		return t.ModelRetries
	case c.modelRetriesSet:
		return c.modelRetries
	}
	return DefaultModelRetries
}

func (c *registryConfig) callLimitOf(t *Tool) int {
	if t.MaxCalls > 0 {
		return t.MaxCalls
	}
	return c.guard.MaxCallsPerTool
}

func (c *registryConfig) abandonLimit() int64 {
	if c.maxAbandoned > 0 {
		return int64(c.maxAbandoned)
	}
	return DefaultMaxAbandoned
}

// maxRetryDelay bounds a backoff without MaxDelay, so that growth never overflows a Duration.
const maxRetryDelay = 24 * time.Hour

// retryDelay is the wait before retry n (1-based): Delay·Backoff^(n-1), capped at MaxDelay,
// with "equal jitter": half of it fixed, half random, so concurrent callers spread out while
// the backoff still grows.
func (c *registryConfig) retryDelay(p RetryPolicy, n int) time.Duration {
	if p.Delay <= 0 {
		return 0
	}
	backoff := p.Backoff
	switch {
	case backoff == 0:
		backoff = 2
	case backoff < 1:
		backoff = 1
	}
	d := float64(p.Delay)
	for i := 1; i < n; i++ {
		d *= backoff
		if p.MaxDelay > 0 && d >= float64(p.MaxDelay) || d > float64(maxRetryDelay) {
			break
		}
	}
	if p.MaxDelay > 0 && d > float64(p.MaxDelay) {
		d = float64(p.MaxDelay)
	}
	d = min(d, float64(maxRetryDelay))
	jitter := rand.Float64
	if c.jitter != nil {
		jitter = c.jitter
	}
	return time.Duration(d/2 + jitter()*d/2)
}

func (c *registryConfig) wait(ctx context.Context, d time.Duration) error {
	if c.sleep != nil {
		return c.sleep(ctx, d)
	}
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
