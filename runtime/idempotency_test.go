package runtime_test

import (
	"context"
	"testing"

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
