package redisstore_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/redisstore"
)

func TestSessionStateRoundTrip(t *testing.T) {
	srv := startRedis(t)
	store := redisstore.New(srv.client(t), redisstore.Options{})
	ctx := context.Background()

	_, ok, err := store.Get(ctx, "s1", "cart")
	require.NoError(t, err)
	assert.False(t, ok)

	require.NoError(t, store.Set(ctx, "s1", "cart", map[string]any{"items": []string{"tea"}, "total": 3}))
	v, ok, err := store.Get(ctx, "s1", "cart")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, map[string]any{"items": []any{"tea"}, "total": 3.0}, v, "values come back as encoding/json decodes them")

	_, ok, err = store.Get(ctx, "s2", "cart")
	require.NoError(t, err)
	assert.False(t, ok, "another session's state is not visible")

	require.NoError(t, store.Update(ctx, "s1", "visits", func(old any, ok bool) (any, error) {
		assert.False(t, ok)
		return 1, nil
	}))
	refuse := errors.New("refused")
	err = store.Update(ctx, "s1", "visits", func(old any, ok bool) (any, error) { return 99, refuse })
	assert.ErrorIs(t, err, refuse, "fn's error comes back unchanged")
	v, _, _ = store.Get(ctx, "s1", "visits")
	assert.Equal(t, 1.0, v, "a refused update changes nothing")

	require.NoError(t, store.Delete(ctx, "s1", "visits"))
	_, ok, _ = store.Get(ctx, "s1", "visits")
	assert.False(t, ok)

	require.NoError(t, store.Clear(ctx, "s1"))
	_, ok, _ = store.Get(ctx, "s1", "cart")
	assert.False(t, ok)
}

func TestSessionsExpire(t *testing.T) {
	srv := startRedis(t)
	c := srv.client(t)
	store := redisstore.New(c, redisstore.Options{Prefix: "app:", SessionTTL: time.Hour})
	ctx := context.Background()
	require.NoError(t, store.Set(ctx, "s", "k", "v"))

	keys, err := c.Keys(ctx, "*").Result()
	require.NoError(t, err)
	require.Len(t, keys, 1)
	assert.Regexp(t, `^app:\{[A-Za-z0-9_-]+\}:state$`, keys[0], "one key per session, under the prefix, without the raw session id")
	ttl, err := c.PTTL(ctx, keys[0]).Result()
	require.NoError(t, err)
	assert.Greater(t, ttl, 59*time.Minute)
	assert.LessOrEqual(t, ttl, time.Hour)
}

// Concurrent Updates from several clients (replicas) lose no write.
func TestUpdateIsAtomicAcrossClients(t *testing.T) {
	srv := startRedis(t)
	ctx := context.Background()
	const replicas, each = 4, 25
	var wg sync.WaitGroup
	for range replicas {
		store := redisstore.New(srv.client(t), redisstore.Options{})
		for range each {
			wg.Go(func() {
				assert.NoError(t, store.Update(ctx, "s", "n", func(old any, ok bool) (any, error) {
					n, _ := old.(float64)
					return n + 1, nil
				}))
			})
		}
	}
	wg.Wait()
	v, _, err := redisstore.New(srv.client(t), redisstore.Options{}).Get(ctx, "s", "n")
	require.NoError(t, err)
	assert.Equal(t, float64(replicas*each), v)
}

func TestAcquireCountsUnderLimits(t *testing.T) {
	srv := startRedis(t)
	store := redisstore.New(srv.client(t), redisstore.Options{})
	ctx := context.Background()
	counters := []runtime.Counter{{Key: "all", Limit: 3}, {Key: "search", Limit: 2}}

	for i := range 2 {
		refused, err := store.Acquire(ctx, "s", counters)
		require.NoError(t, err)
		assert.Equal(t, -1, refused, "call %d", i+1)
	}
	refused, err := store.Acquire(ctx, "s", counters)
	require.NoError(t, err)
	assert.Equal(t, 1, refused, "the per-tool counter is at its limit")

	// The refusal counted nothing: the total has room for exactly one more call.
	refused, _ = store.Acquire(ctx, "s", []runtime.Counter{{Key: "all", Limit: 3}, {Key: "other", Limit: 0}})
	assert.Equal(t, -1, refused)
	refused, _ = store.Acquire(ctx, "s", []runtime.Counter{{Key: "all", Limit: 3}})
	assert.Equal(t, 0, refused)

	refused, _ = store.Acquire(ctx, "s2", counters)
	assert.Equal(t, -1, refused, "sessions count apart")

	require.NoError(t, store.Clear(ctx, "s"))
	refused, _ = store.Acquire(ctx, "s", counters)
	assert.Equal(t, -1, refused, "Clear forgets the counters")
}

// Many replicas racing for the last calls of a session get exactly the limit.
func TestAcquireIsAtomicAcrossClients(t *testing.T) {
	srv := startRedis(t)
	ctx := context.Background()
	const limit = 10
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		admitted int
	)
	for range 4 {
		store := redisstore.New(srv.client(t), redisstore.Options{})
		for range 10 {
			wg.Go(func() {
				refused, err := store.Acquire(ctx, "s", []runtime.Counter{{Key: "all", Limit: limit}})
				assert.NoError(t, err)
				if refused < 0 {
					mu.Lock()
					admitted++
					mu.Unlock()
				}
			})
		}
	}
	wg.Wait()
	assert.Equal(t, limit, admitted)
}

func TestStoreDownFailsClosed(t *testing.T) {
	srv := startRedis(t)
	c := srv.client(t)
	store := redisstore.New(c, redisstore.Options{})
	require.NoError(t, c.Close())
	_, err := store.Acquire(context.Background(), "s", []runtime.Counter{{Key: "all", Limit: 1}})
	assert.Error(t, err)
}

func TestResultsArePagedAndScopedToTheirSession(t *testing.T) {
	srv := startRedis(t)
	c := srv.client(t)
	store := redisstore.New(c, redisstore.Options{ResultMaxAge: time.Hour, ResultMaxBytes: 1 << 10})
	ctx := context.Background()

	id, err := store.Put(ctx, runtime.StoredResult{Session: "s", Tool: "report", CallID: "c1", ContentType: runtime.ContentTypeJSON, Data: []byte(`{"rows":[1,2,3]}`)})
	require.NoError(t, err)
	assert.Regexp(t, `^res_[0-9a-f]{24}$`, id)

	pg, err := store.Read(ctx, "s", id, 2, 4)
	require.NoError(t, err)
	assert.Equal(t, `rows`, string(pg.Data))
	assert.Equal(t, int64(16), pg.Size)
	assert.Equal(t, runtime.ContentTypeJSON, pg.ContentType)
	assert.Equal(t, "report", pg.Tool)
	assert.WithinDuration(t, time.Now().Add(time.Hour), pg.Expires, time.Minute)

	pg, err = store.Read(ctx, "s", id, 10, 100)
	require.NoError(t, err)
	assert.Equal(t, `,2,3]}`, string(pg.Data), "a page at the end is shorter")
	pg, err = store.Read(ctx, "s", id, 16, 10)
	require.NoError(t, err)
	assert.Empty(t, pg.Data, "past the end: only the facts")
	pg, err = store.Read(ctx, "s", id, 0, 0)
	require.NoError(t, err)
	assert.Empty(t, pg.Data)
	assert.Equal(t, int64(16), pg.Size)

	for name, read := range map[string][2]string{
		"another session": {"other", id},
		"unknown id":      {"s", "res_000000000000000000000000"},
		"not an id":       {"s", "*"},
		"a key's suffix":  {"s", id + ":meta"},
	} {
		_, err := store.Read(ctx, read[0], read[1], 0, 10)
		assert.ErrorIs(t, err, runtime.ErrResultNotFound, name)
	}

	_, err = store.Put(ctx, runtime.StoredResult{Session: "s", Data: make([]byte, 2<<10)})
	assert.Error(t, err, "a result over ResultMaxBytes is refused")

	keys, err := c.Keys(ctx, "*").Result()
	require.NoError(t, err)
	require.Len(t, keys, 2, "the result's bytes and its facts")
	for _, k := range keys {
		assert.NotContains(t, k, `"s"`)
		ttl, err := c.PTTL(ctx, k).Result()
		require.NoError(t, err)
		assert.Greater(t, ttl, 59*time.Minute, "%s expires with the result", k)
	}
}
