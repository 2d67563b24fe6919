package redisstore_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/redisstore"
)

// count adds one to a counter in its session's state.
var count = jsonTool("count", func(ctx context.Context, _ map[string]any) runtime.Result {
	info, _ := runtime.CallInfoFrom(ctx)
	err := info.State.Update(ctx, "n", func(old any, _ bool) (any, error) {
		n, _ := old.(float64)
		return n + 1, nil
	})
	if err != nil {
		return runtime.ErrorResult(err)
	}
	return runtime.TextResult("counted")
})

// benchKeys numbers the idempotency keys of every benchmark run.
var benchKeys atomic.Int64

// BenchmarkInvoke is Registry.Invoke of a tool that updates its session's state, under a
// loop guard (so every call is counted), with the session store in memory and in Redis (a
// redis-server on loopback), in the same run; calls run from GOMAXPROCS×4 goroutines, each
// its own session, as a server's would. Redis costs four round trips a call: the guard's
// script, then WATCH, HGET and the MULTI/EXEC of the state's update. The keyed runs give each
// call an idempotency key of its own: two more round trips (the claim's script, the finish's).
func BenchmarkInvoke(b *testing.B) {
	srv := startRedis(b)
	redisStore := redisstore.New(srv.client(b), redisstore.Options{MaxCallsPerSession: 1 << 30})
	stores := []struct {
		name  string
		store runtime.SessionStore
		keyed bool
	}{
		{"memory", &runtime.MemoryStore{}, false},
		{"redis", redisStore, false},
		{"memory keyed", &runtime.MemoryStore{}, true},
		{"redis keyed", redisStore, true},
	}
	for _, s := range stores {
		b.Run(s.name, func(b *testing.B) {
			reg := runtime.NewRegistry(runtime.WithSessionStore(s.store),
				runtime.WithLoopGuard(runtime.LoopGuard{MaxCalls: 1 << 40, MaxCallsPerTool: 1 << 40}))
			if err := reg.Add(count); err != nil {
				b.Fatal(err)
			}
			b.SetParallelism(4)
			b.ReportAllocs()
			var sessions atomic.Int64
			b.RunParallel(func(pb *testing.PB) {
				call := runtime.Call{Name: "count", Session: fmt.Sprint(sessions.Add(1))}
				ctx := context.Background()
				for pb.Next() {
					if s.keyed {
						call.IdempotencyKey = fmt.Sprint(benchKeys.Add(1)) // never one an earlier run used
					}
					if res := reg.Invoke(ctx, call); res.IsError {
						b.Fatal(res.Text)
					}
				}
			})
		})
	}
}
