package runtime_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
)

// testClock is a clock tests move by hand.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func queueRegistry(t *testing.T, clock *testClock, opts ...runtime.Option) (*runtime.Registry, *[]mailArgs) {
	var sent []mailArgs
	var mu sync.Mutex
	reg := runtime.NewRegistry(append([]runtime.Option{runtime.WithApprovalQueue(), runtime.WithTestNow(clock.Now)}, opts...)...)
	require.NoError(t, reg.Add(mailTool(&sent, &mu)))
	return reg, &sent
}

func mailCall(id, session string) runtime.Call {
	return runtime.Call{ID: id, Session: session, Name: "send_mail", Args: []byte(`{"to":"a@b.c","body":"hi"}`)}
}

// A pending request expires: the call is refused with a clear notice, and the request can no
// longer be decided. A decided request not acted on in time expires too.
func TestApprovalRequestsExpire(t *testing.T) {
	clock := &testClock{now: time.Unix(1_700_000_000, 0)}
	reg, sent := queueRegistry(t, clock, runtime.WithApprovalExpiry(10*time.Minute))

	id := reg.Invoke(t.Context(), mailCall("c1", "s")).PendingApproval
	require.NotEmpty(t, id)
	clock.Advance(10 * time.Minute)
	assert.Empty(t, reg.Pending(), "an expired request is no longer listed")
	assert.ErrorIs(t, reg.Approve(id, "ada"), runtime.ErrApprovalExpired)
	res := reg.Invoke(t.Context(), mailCall("c1", "s"))
	assert.True(t, res.IsError)
	assert.ErrorIs(t, res.Err, runtime.ErrApprovalExpired)
	assert.Equal(t, runtime.KindDenied, res.Kind)
	assert.Contains(t, res.Text, "send_mail was not run: its approval request "+id+" expired")
	assert.Empty(t, *sent)

	// Decided in time, but invoked again too late.
	id = reg.Invoke(t.Context(), mailCall("c2", "s")).PendingApproval
	clock.Advance(9 * time.Minute)
	require.NoError(t, reg.Approve(id, "ada"))
	clock.Advance(9 * time.Minute) // the decision renewed the request
	require.False(t, reg.Invoke(t.Context(), mailCall("c2", "s")).IsError)
	assert.Len(t, *sent, 1)

	id = reg.Invoke(t.Context(), mailCall("c3", "s")).PendingApproval
	require.NoError(t, reg.Approve(id, "ada"))
	clock.Advance(11 * time.Minute)
	res = reg.Invoke(t.Context(), mailCall("c3", "s"))
	assert.ErrorIs(t, res.Err, runtime.ErrApprovalExpired)
	assert.Len(t, *sent, 1)
}

// The queue holds a bounded number of live requests per session and in all: 5,000 requests
// held 1 GB.
func TestApprovalQueueIsBounded(t *testing.T) {
	clock := &testClock{now: time.Unix(1_700_000_000, 0)}
	reg, _ := queueRegistry(t, clock, runtime.WithLimits(runtime.Limits{MaxPendingApprovalsPerSession: 2, MaxPendingApprovals: 3}))

	for i, want := range []bool{true, true, false} {
		res := reg.Invoke(t.Context(), mailCall(fmt.Sprint("a", i), "a"))
		assert.Equal(t, want, res.PendingApproval != "", "session a, call %d: %s", i, res.Text)
	}
	res := reg.Invoke(t.Context(), mailCall("a9", "a"))
	assert.Equal(t, runtime.KindLimit, res.Kind)
	assert.ErrorIs(t, res.Err, runtime.ErrApprovalLimit)
	assert.Contains(t, res.Text, "too many calls are already waiting for the user's approval")
	assert.NotEmpty(t, reg.Invoke(t.Context(), mailCall("b0", "b")).PendingApproval)
	assert.ErrorIs(t, reg.Invoke(t.Context(), mailCall("c0", "c")).Err, runtime.ErrApprovalLimit, "the total bound")
	assert.Len(t, reg.Pending(), 3)

	// A decision acted on frees its place; so does expiry.
	first := reg.Pending()[0]
	require.NoError(t, reg.Deny(first.ID, "no"))
	reg.Invoke(t.Context(), runtime.Call{ID: first.CallID, Session: first.Session, Name: "send_mail", Args: first.RawArgs})
	assert.NotEmpty(t, reg.Invoke(t.Context(), mailCall("c1", "c")).PendingApproval)
	clock.Advance(runtime.DefaultApprovalExpiry)
	assert.NotEmpty(t, reg.Invoke(t.Context(), mailCall("a3", "a")).PendingApproval)

	// With the defaults, 5,000 requests from as many sessions leave at most
	// DefaultMaxPendingApprovals pending.
	reg, _ = queueRegistry(t, clock)
	for i := range 5000 {
		reg.Invoke(t.Context(), mailCall("c", fmt.Sprint("s", i)))
	}
	assert.Len(t, reg.Pending(), runtime.DefaultMaxPendingApprovals)
}

// The memory store bounds the bytes of arguments it holds, and drops the arguments of requests
// acted on.
func TestMemoryApprovalStoreBoundsBytes(t *testing.T) {
	store := &runtime.MemoryApprovalStore{}
	now := time.Unix(1_700_000_000, 0)
	rec := func(id string, size int) runtime.ApprovalRecord {
		return runtime.ApprovalRecord{
			Request: runtime.ApprovalRequest{ID: id, RawArgs: make([]byte, size)},
			Expires: now.Add(time.Hour), Forget: now.Add(2 * time.Hour),
		}
	}
	limits := runtime.ApprovalLimits{Bytes: 1000}
	_, err := store.Add(t.Context(), rec("a", 600), limits, now)
	require.NoError(t, err)
	_, err = store.Add(t.Context(), rec("b", 600), limits, now)
	require.ErrorIs(t, err, runtime.ErrApprovalLimit)

	_, ok, err := store.Transition(t.Context(), "a", runtime.ApprovalPending, runtime.ApprovalApproved, runtime.Decision{Approved: true}, now.Add(time.Hour), now.Add(2*time.Hour))
	require.True(t, ok)
	require.NoError(t, err)
	_, ok, _ = store.Transition(t.Context(), "a", runtime.ApprovalPending, runtime.ApprovalDenied, runtime.Decision{}, now, now)
	assert.False(t, ok, "a compare-and-set: a decided request cannot be decided again")
	claimed, ok, _ := store.Transition(t.Context(), "a", runtime.ApprovalApproved, runtime.ApprovalConsumed, runtime.Decision{}, time.Time{}, time.Time{})
	require.True(t, ok)
	assert.True(t, claimed.Decision.Approved)
	_, ok, _ = store.Transition(t.Context(), "a", runtime.ApprovalApproved, runtime.ApprovalConsumed, runtime.Decision{}, time.Time{}, time.Time{})
	assert.False(t, ok, "consumed once")
	kept, _, _ := store.Get(t.Context(), "a")
	assert.Nil(t, kept.Request.RawArgs, "a consumed request holds no arguments")
	_, err = store.Add(t.Context(), rec("b", 600), limits, now)
	assert.NoError(t, err)
}

// An approver that ignores its ctx does not hold the call past the caller's deadline.
func TestSlowApproverDoesNotOutliveTheCallersDeadline(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	var sent []mailArgs
	var mu sync.Mutex
	reg := runtime.NewRegistry(runtime.WithApprover(runtime.ApproverFunc(func(context.Context, runtime.ApprovalRequest) (runtime.Decision, error) {
		<-release
		return runtime.Decision{Approved: true}, nil
	})))
	require.NoError(t, reg.Add(mailTool(&sent, &mu)))

	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	done := make(chan runtime.Result, 1)
	go func() { done <- reg.Invoke(ctx, mailCall("c1", "s")) }()
	select {
	case res := <-done:
		assert.Equal(t, runtime.KindCancelled, res.Kind, res.Text)
		assert.Contains(t, res.Text, "while waiting for its approval")
	case <-time.After(time.Minute):
		t.Fatal("Invoke still waits for the approver a minute past the caller's deadline")
	}
	mu.Lock()
	defer mu.Unlock()
	assert.Empty(t, sent)
}

// Two registries sharing a store and a key (two processes serving one conversation) derive the
// same request id, and a decision taken through one is acted on once, through the other.
func TestSharedApprovalStore(t *testing.T) {
	store := &runtime.MemoryApprovalStore{}
	key := []byte("0123456789abcdef0123456789abcdef")
	clock := &testClock{now: time.Unix(1_700_000_000, 0)}
	a, sentA := queueRegistry(t, clock, runtime.WithApprovalStore(store), runtime.WithApprovalKey(key))
	b, sentB := queueRegistry(t, clock, runtime.WithApprovalStore(store), runtime.WithApprovalKey(key))

	id := a.Invoke(t.Context(), mailCall("c1", "s")).PendingApproval
	require.NotEmpty(t, id)
	assert.Equal(t, id, b.Invoke(t.Context(), mailCall("c1", "s")).PendingApproval)
	require.NoError(t, b.Approve(id, "ada"))
	assert.False(t, a.Invoke(t.Context(), mailCall("c1", "s")).IsError)
	assert.Equal(t, runtime.KindLimit, b.Invoke(t.Context(), mailCall("c1", "s")).Kind, "ran once across both")
	assert.Len(t, *sentA, 1)
	assert.Empty(t, *sentB)

	// Without the shared key, the other registry's ids are its own.
	c, _ := queueRegistry(t, clock, runtime.WithApprovalStore(store))
	assert.NotEqual(t, id, c.Invoke(t.Context(), mailCall("c1", "s")).PendingApproval)
}
