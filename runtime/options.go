package runtime

import (
	"context"
	"math/rand/v2"
	"slices"
	"time"
)

// Defaults of the registry-wide policies.
const (
	DefaultTimeout      = 30 * time.Second // per attempt, for tools without //tool:timeout
	DefaultMaxResult    = 16 << 10         // bytes of result text, for tools without //tool:maxresult
	DefaultModelRetries = 1                // AskRetry budget per tool and session, without //tool:modelretries
	DefaultMaxAbandoned = 64               // attempts of one tool on worker goroutines, running or abandoned after their timeout
	// DefaultMaxAbandonedPerSession is the share of those one session may hold.
	DefaultMaxAbandonedPerSession = 16

	// Approval queue (WithApprovalQueue): how long a request lasts, and how many live
	// requests (pending, or decided and not yet acted on) it holds per session and in all,
	// and how many bytes of their arguments.
	DefaultApprovalExpiry                = 30 * time.Minute
	DefaultMaxPendingApprovals           = 1024
	DefaultMaxPendingApprovalsPerSession = 16
	DefaultMaxPendingApprovalBytes       = 64 << 20
)

// registryConfig holds the settings Options change. It is copied into every Subset, so a
// per-agent toolkit behaves like the registry it came from.
type registryConfig struct {
	defaultTimeout   time.Duration // 0: DefaultTimeout; <0: none
	defaultRetry     RetryPolicy
	maxResult        int64 // 0: DefaultMaxResult; <0: no cap
	results          ResultStore
	approver         Approver
	approvalQueue    bool
	approvalStore    ApprovalStore
	approvalKey      []byte         // nil: a random key per registry
	approvalTTL      time.Duration  // 0: DefaultApprovalExpiry
	approvalLimits   ApprovalLimits // zero fields: the defaults
	clock            func() time.Time
	safeErrors       bool
	modelRetries     int // used when modelRetriesSet
	modelRetriesSet  bool
	guard            LoopGuard
	store            SessionStore
	idempotency      Idempotency
	observer         Observer
	argsInEvents     bool
	maxAbandoned     int // 0: DefaultMaxAbandoned
	maxAbandonedSess int // 0: DefaultMaxAbandonedPerSession
	batchConcurrency int // 0: every call of a group at once
	repairer         Repairer
	feedback         ArgsFeedback

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

// Limits bounds what one registry spends on the calls it serves. Every field's zero value
// keeps its default, so a Limits literal names only the bounds it changes:
//
//	runtime.NewRegistry(runtime.WithLimits(runtime.Limits{MaxResult: 64 << 10, MaxAbandoned: 16}))
//
// The per-tool directives (//tool:maxresult, //tool:maxargs) win over the registry-wide
// MaxResult and MaxArgsBytes. docs/limits.md lists every bound of the runtime.
type Limits struct {
	// MaxResult caps, in bytes of text, the results of tools without //tool:maxresult
	// (DefaultMaxResult, 16 KiB, when 0); a larger result goes to the ResultStore and the
	// model reads a preview. A negative value removes the cap.
	MaxResult int64
	// MaxArgsBytes is the largest argument document, in bytes, of tools without
	// //tool:maxargs (DefaultMaxArgsBytes, 1 MiB, when 0 or negative); a larger document is
	// refused before it is decoded.
	MaxArgsBytes int64
	// MaxArgsDepth is the deepest nesting of arrays and objects in an argument document
	// (DefaultMaxArgsDepth, 128, when 0 or negative). The JSON reader refuses nesting beyond
	// 10,000 levels whatever the setting.
	MaxArgsDepth int
	// MaxAbandoned bounds the attempts of one tool on worker goroutines, running for their
	// call or abandoned after their timeout (DefaultMaxAbandoned, 64, when 0 or negative). A
	// call finding every slot taken waits for one within its attempt's timeout, then fails as
	// unavailable ("busy"); when abandoned attempts alone fill the bound, calls are refused at
	// once until some return. It also bounds, per registry, the synchronous approvers still
	// running after the call that asked them ended.
	MaxAbandoned int
	// MaxAbandonedPerSession is one session's share of MaxAbandoned
	// (DefaultMaxAbandonedPerSession, 16, when 0 or negative; never more than MaxAbandoned),
	// so one session's hung calls leave the tool to the others. Calls without a session
	// share the session "".
	MaxAbandonedPerSession int
	// MaxPendingApprovals and MaxPendingApprovalsPerSession bound the live requests of the
	// approval queue (WithApprovalQueue), pending or decided and not yet acted on, in all and
	// per session (DefaultMaxPendingApprovals, 1024, and
	// DefaultMaxPendingApprovalsPerSession, 16, when 0 or negative). A call past a bound is
	// refused (Kind limit). Their arguments' bytes are bounded by
	// DefaultMaxPendingApprovalBytes; an ApprovalStore of your own takes ApprovalLimits.
	MaxPendingApprovals           int
	MaxPendingApprovalsPerSession int
	// BatchConcurrency bounds how many calls of a batch InvokeAll runs at once (0 or
	// negative: every call of a group at once).
	BatchConcurrency int
}

// WithLimits sets the registry's bounds (see Limits); fields left zero keep their defaults.
// A later WithLimits replaces an earlier one whole.
func WithLimits(l Limits) Option {
	return func(c *registryConfig) {
		c.maxResult = l.MaxResult
		c.maxArgsBytes = max(l.MaxArgsBytes, 0)
		c.maxArgsDepth = max(l.MaxArgsDepth, 0)
		c.maxAbandoned = max(l.MaxAbandoned, 0)
		c.maxAbandonedSess = max(l.MaxAbandonedPerSession, 0)
		c.approvalLimits.Total = max(l.MaxPendingApprovals, 0)
		c.approvalLimits.PerSession = max(l.MaxPendingApprovalsPerSession, 0)
		c.batchConcurrency = max(l.BatchConcurrency, 0)
	}
}

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

// WithResultStore sets where the full text of results over their size cap goes (a
// MemoryResultStore with the default bounds otherwise). Use a DirResultStore to keep them out
// of memory, or a shared store when replicas serve one conversation.
func WithResultStore(s ResultStore) Option {
	return func(c *registryConfig) { c.results = s }
}

// WithApprover sets the synchronous Approver that decides every call of a tool with
// //tool:confirm. It takes precedence over WithApprovalQueue. The call waits for the approver
// no longer than its ctx lives: an approver that ignores ctx is left running and its answer
// dropped (the call fails, Kind cancelled).
func WithApprover(a Approver) Option {
	return func(c *registryConfig) { c.approver = a }
}

// WithApprovalQueue makes calls of //tool:confirm tools wait for Approve or Deny: Invoke
// returns a result with PendingApproval set, and invoking the same call again after the
// decision runs it (once) or reports the denial. Requests expire (WithApprovalExpiry) and
// are bounded per session and in all (Limits.MaxPendingApprovals); they are kept in a
// MemoryApprovalStore unless WithApprovalStore says otherwise.
func WithApprovalQueue() Option {
	return func(c *registryConfig) { c.approvalQueue = true }
}

// WithApprovalStore makes the approval queue (WithApprovalQueue, which it turns on) keep its
// requests in s instead of in the registry's memory, for instance to share them between the
// processes that serve one conversation.
func WithApprovalStore(s ApprovalStore) Option {
	return func(c *registryConfig) { c.approvalStore, c.approvalQueue = s, true }
}

// WithApprovalKey sets the secret key approval request ids are derived with (a random key of
// the registry's own otherwise). Processes that share an ApprovalStore must share the key, so
// that each derives the same id for the same call; it must be secret and at least 32 random
// bytes, or request ids could be forged.
func WithApprovalKey(key []byte) Option {
	return func(c *registryConfig) { c.approvalKey = slices.Clone(key) }
}

// WithApprovalExpiry sets how long a queued approval request lasts (DefaultApprovalExpiry
// otherwise): undecided by then, or decided and not invoked again by then, the call is refused
// with a notice that its request expired. A decision renews the request for as long again.
func WithApprovalExpiry(d time.Duration) Option {
	return func(c *registryConfig) { c.approvalTTL = max(d, time.Second) }
}

// WithSafeErrors limits what the model reads of plain Go errors returned by handlers to their
// kind and a fixed safe message ("search_web failed (unavailable): temporarily unavailable;
// try again later."). Errors made for the model (ModelError, AskRetry, argument problems) and
// the registry's own messages still pass their text; such an error wrapped by a plain one
// (fmt.Errorf("api_key=…: %w", ModelErrorf(…))) shows only its own text, never the wrapper's.
// Result.Err keeps the original.
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

// abandonLimits returns the bounds on a tool's attempts on workers: in all, and per session.
func (c *registryConfig) abandonLimits() (perTool, perSession int) {
	perTool, perSession = DefaultMaxAbandoned, DefaultMaxAbandonedPerSession
	if c.maxAbandoned > 0 {
		perTool = c.maxAbandoned
	}
	if c.maxAbandonedSess > 0 {
		perSession = c.maxAbandonedSess
	}
	return perTool, min(perSession, perTool)
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

func (c *registryConfig) approvalTTLOf() time.Duration {
	if c.approvalTTL > 0 {
		return c.approvalTTL
	}
	return DefaultApprovalExpiry
}

func (c *registryConfig) approvalLimitsOf() ApprovalLimits {
	l := c.approvalLimits
	if l.PerSession <= 0 {
		l.PerSession = DefaultMaxPendingApprovalsPerSession
	}
	if l.Total <= 0 {
		l.Total = DefaultMaxPendingApprovals
	}
	if l.Bytes <= 0 {
		l.Bytes = DefaultMaxPendingApprovalBytes
	}
	return l
}

// now is the registry's clock (tests replace it).
func (c *registryConfig) now() time.Time {
	if c.clock != nil {
		return c.clock()
	}
	return time.Now()
}
