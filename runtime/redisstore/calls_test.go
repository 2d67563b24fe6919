package redisstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/oncetest"
	"github.com/toolgen-go/toolgen/runtime/redisstore"
)

// Two registries sharing one Redis, as replicas do: a retried call runs once.
func TestRedisRunsKeyedCallsOnce(t *testing.T) {
	srv := startRedis(t)
	oncetest.Run(t, func(t *testing.T) runtime.IdempotencyStore {
		c := srv.client(t)
		require.NoError(t, c.FlushAll(context.Background()).Err())
		return redisstore.New(c, redisstore.Options{})
	})
}

// A session's records are bounded in number, and their keys expire with the newest record.
func TestCallRecordsAreBounded(t *testing.T) {
	srv := startRedis(t)
	c := srv.client(t)
	store := redisstore.New(c, redisstore.Options{MaxCallsPerSession: 2})
	ctx := context.Background()
	claim := func(key string) (runtime.CallRecord, error) {
		return store.ClaimCall(ctx, "alice", key, runtime.CallClaim{Fingerprint: "f", Owner: "o-" + key, Lease: time.Second, Keep: time.Minute})
	}
	for _, key := range []string{"a", "b"} {
		rec, err := claim(key)
		require.NoError(t, err)
		assert.Equal(t, runtime.CallRunning, rec.State)
	}
	_, err := claim("c")
	assert.ErrorContains(t, err, "holds 2 call records, the most it may")
	rec, err := claim("a")
	require.NoError(t, err, "a key it holds is still answered")
	assert.Equal(t, "o-a", rec.Owner)
	_, err = store.ClaimCall(ctx, "bob", "c", runtime.CallClaim{Fingerprint: "f", Owner: "o", Lease: time.Second, Keep: time.Minute})
	assert.NoError(t, err, "the bound is per session")

	keys, err := c.Keys(ctx, "toolgen:*:calls*").Result()
	require.NoError(t, err)
	require.Len(t, keys, 4)
	for _, k := range keys {
		ttl, err := c.PTTL(ctx, k).Result()
		require.NoError(t, err)
		assert.Greater(t, ttl, 50*time.Second, k)
		assert.LessOrEqual(t, ttl, time.Minute, k)
	}
}
