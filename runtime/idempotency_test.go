package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	"github.com/toolgen-go/toolgen/runtime/internal/oncetest"
)

func TestMemoryStoreRunsKeyedCallsOnce(t *testing.T) {
	oncetest.Run(t, func(*testing.T) runtime.IdempotencyStore { return &runtime.MemoryStore{} })
}

// A handler gets a key to pass on, the same for every retry of its call and another in
// another session; none without a key.
func TestIdempotencyKeyFromIsStablePerCall(t *testing.T) {
	var seen []string
	echo := fixture.JSONTool("pay", func(ctx context.Context, _ map[string]any) runtime.Result {
		seen = append(seen, runtime.IdempotencyKeyFrom(ctx))
		return runtime.Result{Text: "paid", IsError: true, Kind: runtime.KindUnavailable} // frees the key: the retry runs
	})
	store := &runtime.MemoryStore{}
	regs := []*runtime.Registry{
		fixture.NewRegistry(echo), // for a call without a key
		runtime.NewRegistry(runtime.WithSessionStore(store)),
		runtime.NewRegistry(runtime.WithSessionStore(store)),
	}
	require.NoError(t, regs[1].Add(echo))
	require.NoError(t, regs[2].Add(echo))
	ctx := context.Background()
	regs[1].Invoke(ctx, runtime.Call{Name: "pay", Session: "alice", IdempotencyKey: "k"})
	regs[2].Invoke(ctx, runtime.Call{Name: "pay", Session: "alice", IdempotencyKey: "k"})
	regs[2].Invoke(ctx, runtime.Call{Name: "pay", Session: "bob", IdempotencyKey: "k"})
	regs[0].Invoke(ctx, runtime.Call{Name: "pay", Session: "alice"})
	require.Len(t, seen, 4)
	assert.Len(t, seen[0], 43)
	assert.Equal(t, seen[0], seen[1], "a retry, on another replica")
	assert.NotEqual(t, seen[0], seen[2], "another session")
	assert.NotContains(t, seen[0], "alice")
	assert.Empty(t, seen[3])
}

// failingStore is an IdempotencyStore that is down.
type failingStore struct{}

func (failingStore) ClaimCall(context.Context, string, string, runtime.CallClaim) (runtime.CallRecord, error) {
	return runtime.CallRecord{}, errors.New("redis: connection refused")
}

func (failingStore) RenewCall(context.Context, string, string, string, time.Duration) (bool, error) {
	return false, errors.New("redis: connection refused")
}

func (failingStore) FinishCall(context.Context, string, string, string, []byte, time.Duration) error {
	return errors.New("redis: connection refused")
}

// What a keyed call does when it cannot be recorded, or need not be.
func TestKeyedCallsTheRecordCannotHold(t *testing.T) {
	var runs atomic.Int64
	write := fixture.JSONTool("write", func(context.Context, map[string]any) runtime.Result {
		return runtime.TextResult(fmt.Sprint("write #", runs.Add(1)))
	})
	read := write
	read.Name, read.Hints.ReadOnly = "read", true
	ctx := context.Background()

	down := runtime.NewRegistry(runtime.WithIdempotency(runtime.Idempotency{Store: failingStore{}}))
	require.NoError(t, down.Add(write, read))
	res := down.Invoke(ctx, runtime.Call{Name: "write", Session: "alice", IdempotencyKey: "k"})
	assert.Equal(t, runtime.KindUnavailable, res.Kind, "a store that is down refuses the call, retryably: %s", res.Text)
	assert.NotContains(t, res.Text, "connection refused", "the store's own words stay the operator's")
	assert.ErrorIs(t, res.Err, runtime.ErrSessionStoreUnavailable)
	assert.Zero(t, runs.Load())

	res = down.Invoke(ctx, runtime.Call{Name: "read", Session: "alice", IdempotencyKey: "k"})
	assert.False(t, res.IsError, "a read-only tool ignores the key: %s", res.Text)
	assert.Equal(t, int64(1), runs.Load())

	reg := fixture.NewRegistry(write)
	res = reg.Invoke(ctx, runtime.Call{Name: "write", Session: "alice", IdempotencyKey: strings.Repeat("k", runtime.MaxIdempotencyKeyBytes+1)})
	assert.Equal(t, runtime.KindInvalidInput, res.Kind)
	assert.Contains(t, res.Text, "idempotency key is 256 bytes, more than 255")

	off := runtime.NewRegistry(runtime.WithIdempotency(runtime.Idempotency{Off: true}))
	require.NoError(t, off.Add(write))
	off.Invoke(ctx, runtime.Call{Name: "write", Session: "alice", IdempotencyKey: "k"})
	off.Invoke(ctx, runtime.Call{Name: "write", Session: "alice", IdempotencyKey: "k"})
	assert.Equal(t, int64(3), runs.Load(), "off: every call runs")
}
