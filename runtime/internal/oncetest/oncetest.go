// Package oncetest checks an IdempotencyStore the way replicas use it: two registries sharing
// the store, calls retried on the other one, at once, after one died. runtime's tests run it
// on MemoryStore, runtime/redisstore's on a real redis-server.
package oncetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
)

// Short bounds, so that leases run out and records expire within a test.
const (
	lease  = 150 * time.Millisecond
	wait   = 2 * time.Second
	window = time.Minute
)

// Run runs every check on stores newStore returns: one per test, shared by its replicas.
func Run(t *testing.T, newStore func(t *testing.T) runtime.IdempotencyStore) {
	for _, c := range []struct {
		name  string
		check func(t *testing.T, store runtime.IdempotencyStore)
	}{
		{"RetryOnAnotherReplicaReturnsTheFirstResult", retryOnAnotherReplica},
		{"ConcurrentRetriesRunOnce", concurrentRetries},
		{"SameKeyOtherArgumentsIsRefused", otherArguments},
		{"AnotherSessionCannotUseTheKey", anotherSession},
		{"RecordsExpireAfterTheWindow", windowExpiry},
		{"ARetryWaitsABoundedTime", boundedWait},
		{"ACallOnADeadReplica", deadReplica},
		{"ACallThatNeverRanLeavesNoRecord", neverRan},
	} {
		t.Run(c.name, func(t *testing.T) { c.check(t, newStore(t)) })
	}
}

// replicas is a pair of registries sharing store, each through a severable view of it (a
// replica that died reaches nothing), serving tools whose runs they count.
type replicas struct {
	regs  [2]*runtime.Registry
	links [2]*severable
	runs  atomic.Int64
}

func newReplicas(t *testing.T, store runtime.IdempotencyStore, o runtime.Idempotency, tools ...runtime.Tool) *replicas {
	r := &replicas{}
	if o.Lease == 0 {
		o.Lease = lease
	}
	if o.Wait == 0 {
		o.Wait = wait
	}
	if o.Window == 0 {
		o.Window = window
	}
	for i := range r.regs {
		r.links[i] = &severable{store: store}
		o.Store = r.links[i]
		r.regs[i] = runtime.NewRegistry(runtime.WithIdempotency(o))
		require.NoError(t, r.regs[i].Add(fixture.CountRuns(&r.runs, tools...)...))
	}
	return r
}

// severable is a replica's link to the shared store; sever cuts it, as the replica's death
// does.
type severable struct {
	store runtime.IdempotencyStore
	cut   atomic.Bool
}

var errSevered = errors.New("the replica is dead")

func (s *severable) ClaimCall(ctx context.Context, session, key string, claim runtime.CallClaim) (runtime.CallRecord, error) {
	if s.cut.Load() {
		return runtime.CallRecord{}, errSevered
	}
	return s.store.ClaimCall(ctx, session, key, claim)
}

func (s *severable) RenewCall(ctx context.Context, session, key, owner string, lease time.Duration) (bool, error) {
	if s.cut.Load() {
		return false, errSevered
	}
	return s.store.RenewCall(ctx, session, key, owner, lease)
}

func (s *severable) FinishCall(ctx context.Context, session, key, owner string, result []byte, keep time.Duration) error {
	if s.cut.Load() {
		return errSevered
	}
	return s.store.FinishCall(ctx, session, key, owner, result, keep)
}

// charge is a tool that is not idempotent: each run charges once more.
func charge(total *atomic.Int64, delay time.Duration) runtime.Tool {
	return fixture.JSONTool("charge", func(ctx context.Context, args map[string]any) runtime.Result {
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return runtime.ErrorResult(ctx.Err())
		}
		return runtime.TextResult(fmt.Sprintf("charged %v, charge #%d", args["amount"], total.Add(1)))
	})
}

func call(session, key string, amount int) runtime.Call {
	return runtime.Call{ID: "call_1", Name: "charge", Args: fmt.Appendf(nil, `{"amount":%d}`, amount), Session: session, IdempotencyKey: key}
}

var ctx = context.Background()

// The first replica ran the call and died before its answer reached the client: the retry,
// on the other replica, gets the first result and runs nothing.
func retryOnAnotherReplica(t *testing.T, store runtime.IdempotencyStore) {
	var total atomic.Int64
	r := newReplicas(t, store, runtime.Idempotency{}, charge(&total, 0))
	first := r.regs[0].Invoke(ctx, call("alice", "k1", 5))
	require.False(t, first.IsError, first.Text)
	r.links[0].cut.Store(true)

	retry := r.regs[1].Invoke(ctx, call("alice", "k1", 5))
	require.False(t, retry.IsError, retry.Text)
	assert.Equal(t, first.Text, retry.Text)
	assert.True(t, retry.Replayed)
	assert.False(t, first.Replayed)
	assert.Equal(t, int64(1), r.runs.Load(), "the retry ran nothing")

	// Arguments that mean the same (keys in another order, a default spelled out) are the
	// same call.
	again := r.regs[1].Invoke(ctx, runtime.Call{Name: "charge", Args: []byte(` { "amount" : 5 }`), Session: "alice", IdempotencyKey: "k1"})
	assert.Equal(t, first.Text, again.Text)
	// Without a key, a call runs every time.
	r.regs[1].Invoke(ctx, call("alice", "", 5))
	assert.Equal(t, int64(2), r.runs.Load())
}

// Retries sent while the first still runs, to both replicas, wait for it and get its result.
func concurrentRetries(t *testing.T, store runtime.IdempotencyStore) {
	var total atomic.Int64
	r := newReplicas(t, store, runtime.Idempotency{}, charge(&total, 300*time.Millisecond))
	results := make([]runtime.Result, 8)
	var wg sync.WaitGroup
	for i := range results {
		wg.Go(func() { results[i] = r.regs[i%2].Invoke(ctx, call("alice", "k1", 7)) })
	}
	wg.Wait()
	assert.Equal(t, int64(1), r.runs.Load())
	replays := 0
	for _, res := range results {
		require.False(t, res.IsError, res.Text)
		assert.Equal(t, "charged 7, charge #1", res.Text)
		if res.Replayed {
			replays++
		}
	}
	assert.Equal(t, len(results)-1, replays)
}

// A key used again for another call is refused, so that a client's bug does not return one
// call's result for another.
func otherArguments(t *testing.T, store runtime.IdempotencyStore) {
	var total atomic.Int64
	r := newReplicas(t, store, runtime.Idempotency{}, charge(&total, 0))
	require.False(t, r.regs[0].Invoke(ctx, call("alice", "k1", 5)).IsError)
	res := r.regs[1].Invoke(ctx, call("alice", "k1", 500))
	assert.True(t, res.IsError)
	assert.ErrorIs(t, res.Err, runtime.ErrIdempotencyKeyReused)
	assert.Equal(t, runtime.KindInvalidInput, res.Kind)
	assert.Contains(t, res.Text, "already used in this session for a different call")
	assert.Equal(t, int64(1), r.runs.Load())
}

// Keys are scoped by session: another session's call with the same key and arguments runs on
// its own and never sees alice's result.
func anotherSession(t *testing.T, store runtime.IdempotencyStore) {
	var total atomic.Int64
	r := newReplicas(t, store, runtime.Idempotency{}, charge(&total, 0))
	alice := r.regs[0].Invoke(ctx, call("alice", "k1", 5))
	mallory := r.regs[1].Invoke(ctx, call("mallory", "k1", 5))
	require.False(t, mallory.IsError, mallory.Text)
	assert.False(t, mallory.Replayed)
	assert.NotEqual(t, alice.Text, mallory.Text)
	assert.True(t, r.regs[1].Invoke(ctx, call("alice", "k1", 5)).Replayed, "alice's own retry finds her record")
	assert.Equal(t, int64(2), r.runs.Load())
}

// A result is kept for the window, and then forgotten: a call with the key runs again.
func windowExpiry(t *testing.T, store runtime.IdempotencyStore) {
	var total atomic.Int64
	r := newReplicas(t, store, runtime.Idempotency{Window: 400 * time.Millisecond}, charge(&total, 0))
	first := r.regs[0].Invoke(ctx, call("alice", "k1", 5))
	assert.True(t, r.regs[1].Invoke(ctx, call("alice", "k1", 5)).Replayed, "within the window")
	time.Sleep(600 * time.Millisecond)
	later := r.regs[1].Invoke(ctx, call("alice", "k1", 5))
	assert.False(t, later.Replayed)
	assert.NotEqual(t, first.Text, later.Text)
	assert.Equal(t, int64(2), r.runs.Load())
}

// A retry waits for a first call slower than the wait, then gets a retryable error; once the
// first is done, the retry gets its result.
func boundedWait(t *testing.T, store runtime.IdempotencyStore) {
	var total atomic.Int64
	r := newReplicas(t, store, runtime.Idempotency{Wait: 200 * time.Millisecond}, charge(&total, time.Second))
	done := make(chan runtime.Result)
	go func() { done <- r.regs[0].Invoke(ctx, call("alice", "k1", 5)) }()
	time.Sleep(50 * time.Millisecond)
	start := time.Now()
	busy := r.regs[1].Invoke(ctx, call("alice", "k1", 5))
	assert.Less(t, time.Since(start), 800*time.Millisecond)
	assert.True(t, busy.IsError)
	assert.Equal(t, runtime.KindUnavailable, busy.Kind)
	assert.True(t, busy.Kind.Retryable())
	assert.ErrorIs(t, busy.Err, runtime.ErrCallInProgress)
	first := <-done
	retry := r.regs[1].Invoke(ctx, call("alice", "k1", 5))
	assert.Equal(t, first.Text, retry.Text)
	assert.Equal(t, int64(1), r.runs.Load())
}

// A replica dies while it runs the call: its claim's lease runs out. A tool that is not
// idempotent is not run again (whether it took effect is unknown); an idempotent one
// (//tool:hints idempotent) is, on the replica the retry reached.
func deadReplica(t *testing.T, store runtime.IdempotencyStore) {
	var total atomic.Int64
	release := make(chan struct{})
	slow := fixture.JSONTool("charge", func(context.Context, map[string]any) runtime.Result {
		<-release
		return runtime.TextResult(fmt.Sprintf("charge #%d", total.Add(1)))
	})
	for _, idempotent := range []bool{false, true} {
		tool := slow
		tool.Hints.Idempotent = idempotent
		r := newReplicas(t, store, runtime.Idempotency{}, tool)
		key := fmt.Sprint("k-", idempotent)
		started := make(chan struct{})
		go func() {
			close(started)
			r.regs[0].Invoke(ctx, call("alice", key, 5))
		}()
		<-started
		time.Sleep(50 * time.Millisecond)
		r.links[0].cut.Store(true) // dead: it renews nothing and records nothing

		if !idempotent {
			res := r.regs[1].Invoke(ctx, call("alice", key, 5))
			assert.True(t, res.IsError)
			assert.ErrorIs(t, res.Err, runtime.ErrCallOutcomeUnknown)
			assert.Contains(t, res.Text, "whether it took effect is unknown")
			assert.Equal(t, int64(1), r.runs.Load(), "not run again")
			continue
		}
		done := make(chan runtime.Result)
		go func() { done <- r.regs[1].Invoke(ctx, call("alice", key, 5)) }()
		time.Sleep(2 * lease)
		release <- struct{}{} // one of the two returns: the dead one's or the retry's
		close(release)
		res := <-done
		require.False(t, res.IsError, res.Text)
		assert.Equal(t, int64(2), r.runs.Load(), "taken over and run again")
	}
}

// A call refused before it ran (its arguments invalid) leaves its key free.
func neverRan(t *testing.T, store runtime.IdempotencyStore) {
	var total atomic.Int64
	r := newReplicas(t, store, runtime.Idempotency{}, charge(&total, 0))
	bad := r.regs[0].Invoke(ctx, runtime.Call{Name: "charge", Args: []byte(`[1]`), Session: "alice", IdempotencyKey: "k1"})
	require.True(t, bad.IsError)
	good := r.regs[1].Invoke(ctx, call("alice", "k1", 5))
	require.False(t, good.IsError, good.Text)
	assert.True(t, r.regs[0].Invoke(ctx, call("alice", "k1", 5)).Replayed, "the call that ran holds the key")
	assert.Equal(t, int64(1), r.runs.Load())
}
