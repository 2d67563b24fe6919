package redisstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/redisstore"
)

// A session lives SessionTTL after its last use, a read as much as a write, and then ends:
// it reads as a new session, not as one whose state was lost.
func TestASessionEndsAfterItsIdleTime(t *testing.T) {
	srv := startRedis(t)
	ctx := context.Background()
	store := redisstore.New(srv.client(t), redisstore.Options{SessionTTL: 500 * time.Millisecond})
	require.NoError(t, store.Set(ctx, "alice", "plan", "tea"))
	for range 5 { // a second of reads, each well within the idle time
		time.Sleep(200 * time.Millisecond)
		v, ok, err := store.Get(ctx, "alice", "plan")
		require.NoError(t, err)
		require.True(t, ok, "a session in use does not end")
		assert.Equal(t, "tea", v)
	}
	time.Sleep(800 * time.Millisecond)
	_, ok, err := store.Get(ctx, "alice", "plan")
	require.NoError(t, err, "an idle session ended: that is no loss")
	assert.False(t, ok)
}

// Without Options.SessionTTL a session ends after an hour idle, not a day.
func TestTheDefaultIdleTimeIsAnHour(t *testing.T) {
	assert.Equal(t, time.Hour, redisstore.DefaultSessionTTL)
	srv := startRedis(t)
	c := srv.client(t)
	ctx := context.Background()
	require.NoError(t, redisstore.New(c, redisstore.Options{}).Set(ctx, "alice", "plan", "tea"))
	keys, err := c.Keys(ctx, "toolgen:*:state").Result()
	require.NoError(t, err)
	require.Len(t, keys, 1)
	ttl, err := c.PTTL(ctx, keys[0]).Result()
	require.NoError(t, err)
	assert.Greater(t, ttl, 59*time.Minute)
	assert.LessOrEqual(t, ttl, time.Hour)
}
