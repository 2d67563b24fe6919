package redisstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/redisstore"
)

// requireLost checks that err reports lost state to the model and to the host.
func requireLost(t *testing.T, err error, what string) {
	t.Helper()
	require.ErrorIs(t, err, runtime.ErrSessionStateLost, what)
	var model *runtime.ModelError
	require.True(t, errors.As(err, &model), what)
	assert.Equal(t, runtime.KindNotFound, model.Kind, "%s: not retried by the registry on its own", what)
	assert.Contains(t, model.Message, "was lost", what)
	assert.False(t, model.Kind.Retryable(), what)
}

// Redis that lost a session's state (a restart without persistence, FLUSHALL, an eviction) is
// told apart from a new session: each operation that finds a session it saw gone reports it,
// once, and the session then goes on as an empty one.
func TestLostStateIsReportedOnce(t *testing.T) {
	ctx := context.Background()
	losses := map[string]func(t *testing.T, srv *redisServer){
		"restart without persistence": func(t *testing.T, srv *redisServer) { srv.restart(t) },
		"flush": func(t *testing.T, srv *redisServer) {
			require.NoError(t, srv.client(t).FlushAll(ctx).Err())
		},
		"eviction of the session's key": func(t *testing.T, srv *redisServer) {
			c := srv.client(t)
			keys, err := c.Keys(ctx, "*:state").Result()
			require.NoError(t, err)
			for _, k := range keys {
				if c.HGet(ctx, k, "v:cart").Val() == `"tea"` { // alice's, not bob's
					require.NoError(t, c.Del(ctx, k).Err())
					return
				}
			}
			t.Fatal("alice's state is not in Redis")
		},
	}
	ops := map[string]func(s *redisstore.Store) error{
		"get": func(s *redisstore.Store) error { _, _, err := s.Get(ctx, "alice", "cart"); return err },
		"set": func(s *redisstore.Store) error { return s.Set(ctx, "alice", "cart", "new") },
		"update": func(s *redisstore.Store) error {
			return s.Update(ctx, "alice", "cart", func(any, bool) (any, error) {
				t.Error("fn ran on lost state")
				return nil, nil
			})
		},
		"acquire": func(s *redisstore.Store) error {
			_, err := s.Acquire(ctx, "alice", []runtime.Counter{{Key: "calls", Limit: 10}})
			return err
		},
	}
	for lossName, lose := range losses {
		for opName, op := range ops {
			t.Run(lossName+"/"+opName, func(t *testing.T) {
				srv := startRedis(t)
				replica, other := redisstore.New(srv.client(t), redisstore.Options{}), redisstore.New(srv.client(t), redisstore.Options{})
				require.NoError(t, replica.Set(ctx, "alice", "cart", "tea"))
				_, ok, err := other.Get(ctx, "alice", "cart")
				require.NoError(t, err)
				require.True(t, ok)
				require.NoError(t, replica.Set(ctx, "bob", "cart", "coffee"), "bob is seen only by replica")

				lose(t, srv)
				requireLost(t, op(replica), opName)

				_, ok, err = replica.Get(ctx, "alice", "cart")
				require.NoError(t, err, "reported once: the session goes on, empty")
				assert.False(t, ok)
				_, _, err = other.Get(ctx, "alice", "cart")
				assert.NoError(t, err, "another replica that saw the old session finds it started again, not lost twice")
				fresh := redisstore.New(srv.client(t), redisstore.Options{})
				_, _, err = fresh.Get(ctx, "carol", "cart")
				assert.NoError(t, err, "a new session is not a lost one")
			})
		}
	}
}

// A session that ended (Clear, from any replica) or outlived its TTL is not lost.
func TestEndedOrExpiredStateIsNotLost(t *testing.T) {
	ctx := context.Background()
	srv := startRedis(t)
	replica, other := redisstore.New(srv.client(t), redisstore.Options{}), redisstore.New(srv.client(t), redisstore.Options{})
	require.NoError(t, replica.Set(ctx, "alice", "cart", "tea"))
	_, _, err := other.Get(ctx, "alice", "cart")
	require.NoError(t, err)
	require.NoError(t, replica.Clear(ctx, "alice"))
	_, ok, err := other.Get(ctx, "alice", "cart")
	require.NoError(t, err, "cleared on another replica: ended, not lost")
	assert.False(t, ok)
	require.NoError(t, replica.Delete(ctx, "alice", "cart"))

	short := redisstore.New(srv.client(t), redisstore.Options{SessionTTL: 1100 * time.Millisecond})
	require.NoError(t, short.Set(ctx, "dora", "cart", "tea"))
	require.NoError(t, short.Delete(ctx, "dora", "cart"))
	_, _, err = short.Get(ctx, "dora", "cart")
	require.NoError(t, err, "a session whose last value was deleted still lives")
	time.Sleep(1200 * time.Millisecond)
	_, ok, err = short.Get(ctx, "dora", "cart")
	require.NoError(t, err, "expired by its TTL: not lost")
	assert.False(t, ok)
}

// State written before sessions had a generation (an older toolgen) is read as it is.
func TestStateWithoutGenerationIsRead(t *testing.T) {
	ctx := context.Background()
	srv := startRedis(t)
	store := redisstore.New(srv.client(t), redisstore.Options{Prefix: "old:"})
	require.NoError(t, store.Set(ctx, "s", "k", "v"))
	c := srv.client(t)
	keys, err := c.Keys(ctx, "old:*").Result()
	require.NoError(t, err)
	require.Len(t, keys, 1)
	require.NoError(t, c.HDel(ctx, keys[0], "g").Err())

	fresh := redisstore.New(c, redisstore.Options{Prefix: "old:"})
	v, ok, err := fresh.Get(ctx, "s", "k")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, "v", v)
}

// Over MCP, three stateless replicas each with a Store of its own: when Redis restarts empty,
// the model's next call says the session's state was lost, with the loop guard on or off, and
// the conversation then goes on as a new one. Before, recall answered null as if nothing had
// been stored.
func TestReplicasSayWhenRedisLostTheSession(t *testing.T) {
	for _, guarded := range []bool{false, true} {
		t.Run(map[bool]string{false: "no loop guard", true: "loop guard"}[guarded], func(t *testing.T) {
			srv := startRedis(t)
			var opts []runtime.Option
			if guarded {
				opts = append(opts, runtime.WithLoopGuard(runtime.LoopGuard{MaxCalls: 100}))
			}
			replicas := make([]*replica, 3)
			for i := range replicas {
				replicas[i] = newReplica(t, redisstore.New(srv.client(t), redisstore.Options{}), opts, remember, recall)
			}
			lb, _ := balance(t, replicas)
			alice := connect(t, lb.URL, "alice")
			for i := range 3 { // every replica sees the session
				text, isErr := callText(t, alice, "remember", map[string]any{"note": i})
				require.False(t, isErr, text)
			}

			srv.restart(t)
			text, isErr := callText(t, alice, "recall", nil)
			assert.True(t, isErr)
			assert.Contains(t, text, "earlier state")
			assert.Contains(t, text, "was lost")
			text, isErr = callText(t, alice, "recall", map[string]any{"again": true})
			assert.False(t, isErr, text)
			assert.Equal(t, "null", text, "then it goes on, empty, on whichever replica")
			text, _ = callText(t, alice, "remember", map[string]any{"note": "again"})
			assert.Equal(t, "1 notes", text)
		})
	}
}
