package runtime

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/toolgen-go/toolgen/runtime/internal/canonical"
)

// A call made with an idempotency key (Call.IdempotencyKey) runs at most once in its session
// for the registry's idempotency window: the first request with the key claims it in the
// registry's IdempotencyStore and runs; a retry (the same key, tool and arguments) returns the
// first result without running the tool, waits for it while the first still runs, or is told
// why it cannot have it. The store is the session store when that is one (MemoryStore,
// runtime/redisstore's Store), so replicas sharing a store share the records, and a retry
// that reaches another replica after the first one died finds what the first one kept.
// docs/scaling-out.md ("Retries run once") says what counts as the same call and what a tool
// that is not idempotent gets.

// Defaults of Idempotency.
const (
	// DefaultIdempotencyWindow is how long a finished call's result is kept for its retries.
	DefaultIdempotencyWindow = 10 * time.Minute
	// DefaultIdempotencyWait is how long a retry waits for the first request of its key to
	// finish before it is told to try again.
	DefaultIdempotencyWait = 10 * time.Second
	// DefaultIdempotencyLease is how long a claim outlives the last sign of the process
	// running its call (renewed every third of it while the call runs): a call on a replica
	// that died is known to have stopped that long after.
	DefaultIdempotencyLease = 5 * time.Second
	// DefaultMaxIdempotentResultBytes bounds the encoded result a record keeps; a larger one
	// is kept as "finished, too large to keep", so that its retries still do not run it.
	DefaultMaxIdempotentResultBytes = 1 << 20
	// MaxIdempotencyKeyBytes is the longest idempotency key a call may carry (a UUID is 36).
	MaxIdempotencyKeyBytes = 255
)

// Idempotency configures how the registry runs calls that carry an idempotency key
// (WithIdempotency). A zero field takes its default.
type Idempotency struct {
	// Store keeps the records. Nil: the session store when it is an IdempotencyStore
	// (MemoryStore, runtime/redisstore's Store), else the registry's in-memory store, which
	// replicas do not share.
	Store IdempotencyStore
	// Window is how long a finished call's result is kept for its retries
	// (DefaultIdempotencyWindow, 10 minutes).
	Window time.Duration
	// Wait is how long a retry waits for a first request still running
	// (DefaultIdempotencyWait, 10 seconds) before it gets a retryable error.
	Wait time.Duration
	// Lease is how long a claim lasts without renewal (DefaultIdempotencyLease, 5 seconds).
	Lease time.Duration
	// MaxResultBytes bounds a kept result, encoded (DefaultMaxIdempotentResultBytes, 1 MiB).
	MaxResultBytes int
	// Off runs every call as if it had no key.
	Off bool
}

// WithIdempotency configures the records of calls made with an idempotency key (see
// Idempotency); without it, the defaults apply.
func WithIdempotency(o Idempotency) Option {
	return func(c *registryConfig) { c.idempotency = o }
}

// IdempotencyStore keeps, per session and idempotency key, the record of one call: who runs
// it, or what it returned. Implementations must be safe for concurrent use, and, to serve
// replicas, shared by them (runtime/redisstore). They bound what they keep and document how.
type IdempotencyStore interface {
	// ClaimCall claims key in session for claim.Owner when no record holds it (or only an
	// expired one), or when claim.TakeStale and the record is a stale one of the same
	// fingerprint; it returns the record that holds the key afterwards: the caller's own
	// (State CallRunning, Owner claim.Owner) when it claimed it.
	ClaimCall(ctx context.Context, session, key string, claim CallClaim) (CallRecord, error)
	// RenewCall extends the lease of owner's running record to lease from now; a lease <= 0
	// ends it at once, which leaves the record stale. It reports whether owner still holds it.
	RenewCall(ctx context.Context, session, key, owner string, lease time.Duration) (bool, error)
	// FinishCall ends owner's record: with result non-nil it becomes CallDone, kept for keep
	// from now; with result nil it is deleted, as if never claimed (nothing ran). It does
	// nothing when owner no longer holds the record.
	FinishCall(ctx context.Context, session, key, owner string, result []byte, keep time.Duration) error
}

// CallClaim is what ClaimCall records for the attempt that claims a key.
type CallClaim struct {
	Fingerprint string        // the tool's name and canonical arguments, hashed
	Owner       string        // a random id of the claiming request
	Lease       time.Duration // how long the claim lasts unless renewed
	Keep        time.Duration // how long the record lasts at least
	TakeStale   bool          // the tool is idempotent: a stale record may be taken over
}

// CallState is the state of a call's record.
type CallState string

const (
	CallRunning CallState = "running" // claimed, its lease alive
	CallDone    CallState = "done"    // finished: Result holds what it returned
	// CallStale is a claim whose lease ran out: the process running the call stopped (it
	// died, or the call was cancelled) without saying how it ended.
	CallStale CallState = "stale"
)

// CallRecord is a call's record as an IdempotencyStore returns it.
type CallRecord struct {
	State       CallState
	Fingerprint string
	Owner       string
	Result      []byte // CallDone: the result, as the registry encoded it
}

// Errors of calls that were not run because of their idempotency key; each is wrapped by
// the Err of the result that says so.
var (
	// ErrIdempotencyKeyReused: the key names another call (another tool or other
	// arguments) in the session. Not retryable: a new call needs a new key.
	ErrIdempotencyKeyReused = errors.New("the idempotency key was used for a different call")
	// ErrCallInProgress: the first request of the key still ran after the wait. Retryable.
	ErrCallInProgress = errors.New("a call with the same idempotency key is still running")
	// ErrCallOutcomeUnknown: the first request of the key stopped before it finished
	// (its process died, or it was cancelled) and its tool is not idempotent, so it is not
	// run again. Not retryable under the same key.
	ErrCallOutcomeUnknown = errors.New("an earlier call with the same idempotency key stopped before it finished")
)

// idempotencyOf returns the store and settings of keyed calls, or a nil store when they are
// off.
func (r *Registry) idempotencyOf(cfg *registryConfig) (IdempotencyStore, Idempotency) {
	o := cfg.idempotency
	if o.Off {
		return nil, o
	}
	if o.Window <= 0 {
		o.Window = DefaultIdempotencyWindow
	}
	if o.Wait <= 0 {
		o.Wait = DefaultIdempotencyWait
	}
	if o.Lease <= 0 {
		o.Lease = DefaultIdempotencyLease
	}
	if o.MaxResultBytes <= 0 {
		o.MaxResultBytes = DefaultMaxIdempotentResultBytes
	}
	if o.Store != nil {
		return o.Store, o
	}
	if s, ok := cfg.store.(IdempotencyStore); ok {
		return s, o
	}
	s, _ := r.memoryStore().(IdempotencyStore)
	return s, o
}

// invokeOnce runs call, which carries an idempotency key, through run at most once for the
// key: see the comment at the top of this file. The tool is resolved (e); read-only tools,
// which change nothing, run as if the call had no key.
func (r *Registry) invokeOnce(ctx context.Context, cfg *registryConfig, e *toolEntry, call Call, run func(context.Context) Result) Result {
	store, o := r.idempotencyOf(cfg)
	if store == nil || e.tool.Hints.ReadOnly {
		return run(ctx)
	}
	start := monotonic()
	name, key := e.tool.Name, call.IdempotencyKey
	if len(key) > MaxIdempotencyKeyBytes {
		return onceResult(start, KindInvalidInput, fmt.Errorf("idempotency key of %d bytes", len(key)),
			"%s was not run: its idempotency key is %d bytes, more than %d. The client must send a shorter key (a UUID).", name, len(key), MaxIdempotencyKeyBytes)
	}
	claim := CallClaim{Fingerprint: e.fingerprint(call), Owner: rand.Text(), Lease: o.Lease, Keep: o.Window, TakeStale: e.tool.Hints.Idempotent}
	deadline := start + o.Wait
	for pause := 5 * time.Millisecond; ; pause = min(2*pause, 200*time.Millisecond) {
		rec, err := store.ClaimCall(ctx, call.Session, key, claim)
		switch {
		case err != nil:
			// Running without the record could run the call twice: refused, retryably.
			return onceResult(start, KindUnavailable, storeFailure(ctx, err),
				"%s was not run: the record of calls with idempotency keys is unavailable right now. Try the call again in a moment.", name)
		case rec.Fingerprint != claim.Fingerprint:
			return onceResult(start, KindInvalidInput, Permanent(ErrIdempotencyKeyReused),
				"%s was not run: its idempotency key was already used in this session for a different call (another tool, or other arguments). A retry must repeat its call exactly; a new call needs a new key.", name)
		case rec.State == CallDone:
			return replayed(start, rec.Result)
		case rec.State == CallStale:
			return onceResult(start, KindInternal, Permanent(ErrCallOutcomeUnknown),
				"%s was not run again: an earlier request with the same idempotency key started this call, and it stopped before it finished (its server went away, or it was cancelled), so whether it took effect is unknown. Check whether it did before you call %s again; a new attempt needs a new idempotency key.", name, name)
		case rec.State == CallRunning && rec.Owner == claim.Owner:
			return r.runClaimed(ctx, store, o, call, claim, run)
		}
		// Another request runs the call: wait for its end, within the bound.
		left := deadline - monotonic()
		if left <= 0 {
			return onceResult(start, KindUnavailable, ErrCallInProgress,
				"%s is already running: an earlier request with the same idempotency key has not finished yet, and it was not run again. Try again in a moment to get its result.", name)
		}
		t := time.NewTimer(min(pause, left))
		select {
		case <-ctx.Done():
			t.Stop()
			return onceResult(start, KindCancelled, ctx.Err(), "%s did not run: the call was cancelled while it waited for an earlier request with the same idempotency key.", name)
		case <-t.C:
		}
	}
}

// runClaimed runs a call whose key claim holds, renewing its lease meanwhile, and records how
// it ended: its result, or nothing when it never ran (refused, invalid, awaiting approval) or
// failed as unavailable (by that kind's contract, it took no effect), or a stale claim when
// the call was cancelled midway.
func (r *Registry) runClaimed(ctx context.Context, store IdempotencyStore, o Idempotency, call Call, claim CallClaim, run func(context.Context) Result) Result {
	// The lease is renewed every third of it from a timer, not a goroutine: most calls end
	// before the first renewal. A renewal holds mu, so that none runs once the call ended (it
	// would make a stale record running again).
	var (
		mu      sync.Mutex
		ended   bool
		renewal *time.Timer
	)
	every := max(o.Lease/3, time.Millisecond)
	mu.Lock() // renewal is set before its first run reads it
	renewal = time.AfterFunc(every, func() {
		mu.Lock()
		defer mu.Unlock()
		if ended {
			return
		}
		// A failed renewal is not fatal: the call goes on, and at worst its claim goes stale
		// and a retry is told the outcome is unknown.
		sctx, cancel := storeContext(ctx, o)
		_, _ = store.RenewCall(sctx, call.Session, call.IdempotencyKey, claim.Owner, o.Lease)
		cancel()
		renewal.Reset(every)
	})
	mu.Unlock()
	res := run(context.WithValue(ctx, onwardKey{}, onwardKeyOf(call)))
	mu.Lock()
	ended = true
	renewal.Stop()
	mu.Unlock()
	bg, cancel := storeContext(ctx, o)
	defer cancel()
	switch {
	case res.Attempts == 0 || res.Kind == KindUnavailable:
		_ = store.FinishCall(bg, call.Session, call.IdempotencyKey, claim.Owner, nil, o.Window)
	case res.Kind == KindCancelled && ctx.Err() != nil:
		_, _ = store.RenewCall(bg, call.Session, call.IdempotencyKey, claim.Owner, 0)
	default:
		_ = store.FinishCall(bg, call.Session, call.IdempotencyKey, claim.Owner, encodeRecorded(res, o.MaxResultBytes), o.Window)
	}
	return res
}

// storeContext bounds a store operation made for a call whatever became of the call's own
// ctx (it may have been cancelled: the record must still be written): by the lease, past
// which the operation is moot anyway.
func storeContext(ctx context.Context, o Idempotency) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), o.Lease)
}

// IdempotencyKeyFrom returns, in the handler of a call made with an idempotency key
// (Call.IdempotencyKey), a key to pass on to what the handler changes: a payment API's
// Idempotency-Key, a unique column of the row it inserts. It is the same for every retry of
// the call, on every replica, and differs from session to session; it is a hash (43
// characters of base64url), so neither the session nor the client's key reaches the API. A
// handler that passes it on makes its effect happen once even when the registry runs the
// call again: after its replica died, a tool declared //tool:hints idempotent is. Outside
// such a call it returns "".
func IdempotencyKeyFrom(ctx context.Context) string {
	key, _ := ctx.Value(onwardKey{}).(string)
	return key
}

type onwardKey struct{}

// onwardKeyOf is IdempotencyKeyFrom's key of call.
func onwardKeyOf(call Call) string {
	h := sha256.New()
	h.Write([]byte("toolgen idempotency key\x00"))
	h.Write([]byte(call.Session))
	h.Write([]byte{0})
	h.Write([]byte(call.IdempotencyKey))
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}

// fingerprint identifies a call by its tool and canonical arguments (defaults applied, keys
// sorted: two calls meaning the same thing have one), hashed to a fixed size.
func (e *toolEntry) fingerprint(call Call) string {
	args, err := e.canonicalArgs(call.Args)
	if err != nil {
		args = canonical.Normalize(call.Args) // the call will be refused; any stable form will do
	}
	h := sha256.New()
	h.Write([]byte(e.tool.Name))
	h.Write([]byte{0})
	h.Write(args)
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil)[:24])
}

// onceResult is the error result of a keyed call that was not run.
func onceResult(start time.Duration, kind ErrorKind, err error, format string, args ...any) Result {
	text := fmt.Sprintf(format, args...)
	if err == nil {
		err = errors.New(text)
	}
	return Result{Text: text, IsError: true, Kind: kind, Err: err, Duration: monotonic() - start}
}

// recorded is a Result as a record keeps it: what reaches the model and the host's adapters.
// Effects and Metadata, Go values for the host, are not kept; Err is kept as its text.
type recorded struct {
	Text       string           `json:"text,omitempty"`
	Structured json.RawMessage  `json:"structured,omitempty"`
	IsError    bool             `json:"isError,omitempty"`
	Kind       ErrorKind        `json:"kind,omitempty"`
	Err        string           `json:"err,omitempty"`
	Attempts   int              `json:"attempts,omitempty"`
	Parts      []Part           `json:"parts,omitempty"`
	Offloaded  *recordedOffload `json:"offloaded,omitempty"`
	// TooLarge: the result was larger than the bound and is not kept.
	TooLarge bool `json:"tooLarge,omitempty"`
}

type recordedOffload struct {
	Size, Shown int
	ID, Note    string
}

// maxRecordedErrBytes bounds the error text a record keeps for the operator.
const maxRecordedErrBytes = 1 << 10

func encodeRecorded(res Result, maxBytes int) []byte {
	rec := recorded{Text: res.Text, Structured: res.Structured, IsError: res.IsError, Kind: res.Kind, Attempts: res.Attempts, Parts: res.Parts}
	if res.Err != nil {
		rec.Err = echoed(res.Err.Error(), maxRecordedErrBytes)
	}
	if off := res.Offloaded; off != nil {
		rec.Offloaded = &recordedOffload{Size: off.Size, Shown: off.Shown, ID: off.ID, Note: off.Note}
	}
	data, err := json.Marshal(rec)
	if err != nil || len(data) > maxBytes {
		data, _ = json.Marshal(recorded{TooLarge: true, IsError: res.IsError, Kind: res.Kind, Attempts: res.Attempts})
	}
	return data
}

// errReplayed is wrapped by the Err of a replayed failure.
var errReplayed = errors.New("the recorded result of an earlier call with the same idempotency key")

// replayed is the result a record kept, returned again: Replayed set, Attempts 0 (nothing ran
// now).
func replayed(start time.Duration, data []byte) Result {
	var rec recorded
	if err := json.Unmarshal(data, &rec); err != nil {
		return onceResult(start, KindInternal, fmt.Errorf("idempotency record: %w", err),
			"This call ran earlier (an earlier request with the same idempotency key), but its recorded result cannot be read; it was not run again.")
	}
	if rec.TooLarge {
		kind := rec.Kind
		if kind == "" {
			kind = KindInternal
		}
		res := onceResult(start, kind, fmt.Errorf("%w: too large to keep", errReplayed),
			"This call ran and finished earlier (an earlier request with the same idempotency key), but its result was too large to keep for retries; it was not run again.")
		res.Replayed = true
		return res
	}
	res := Result{Text: rec.Text, Structured: rec.Structured, IsError: rec.IsError, Kind: rec.Kind, Parts: rec.Parts, Replayed: true, Duration: monotonic() - start}
	if rec.IsError {
		res.Err = fmt.Errorf("%w: %s", errReplayed, rec.Err)
	}
	if off := rec.Offloaded; off != nil {
		res.Offloaded = &Offloaded{Size: off.Size, Shown: off.Shown, ID: off.ID, Note: off.Note}
	}
	return res
}
