package runtime

import (
	"context"
	"fmt"
	goruntime "runtime"
	"time"
	"unsafe"
)

// WithTestClock replaces the wait between retries and the jitter source, so tests see the
// delays the registry chose without waiting for them.
func WithTestClock(sleep func(ctx context.Context, d time.Duration) error, jitter func() float64) Option {
	return func(c *registryConfig) { c.sleep, c.jitter = sleep, jitter }
}

// SetWorkerIdle changes how long a worker may stay parked, and returns a function restoring
// it.
func SetWorkerIdle(d time.Duration) (restore func()) {
	workers.mu.Lock()
	defer workers.mu.Unlock()
	old := workers.idleFor
	workers.idleFor = d
	if workers.reaper != nil {
		workers.reaper.Reset(d)
	}
	return func() {
		workers.mu.Lock()
		workers.idleFor = old
		workers.mu.Unlock()
	}
}

// ParkedWorkers is the number of parked workers.
func ParkedWorkers() int {
	workers.mu.Lock()
	defer workers.mu.Unlock()
	return len(workers.idle)
}

// WithTestNow replaces the registry's clock (approval expiry).
func WithTestNow(now func() time.Time) Option {
	return func(c *registryConfig) { c.clock = now }
}

// SetResultClock replaces a MemoryResultStore's clock.
func SetResultClock(m *MemoryResultStore, now func() time.Time) { m.now = now }

// FrameSize is the size of the registry state every call of a generated tool holds.
const FrameSize = unsafe.Sizeof(callState{})

// ResultStoreInvariants checks that a MemoryResultStore's accounting agrees with what it
// holds: the total, each session's bytes and results, and the heap's order.
func ResultStoreInvariants(m *MemoryResultStore) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	var total int64
	bySession := map[string]int64{}
	for _, it := range m.items {
		total += int64(len(it.Data))
		bySession[it.Session] += int64(len(it.Data))
	}
	if total != m.total {
		return fmt.Errorf("total %d, items hold %d", m.total, total)
	}
	if len(m.holders) != len(m.largest) {
		return fmt.Errorf("%d holders, %d in the heap", len(m.holders), len(m.largest))
	}
	for session, h := range m.holders {
		if h.bytes != bySession[session] {
			return fmt.Errorf("session %q: %d bytes counted, %d held", session, h.bytes, bySession[session])
		}
		var n int64
		for it := range h.items.All() {
			if m.items[it.id] != nil {
				n += it.size
			}
		}
		if n != h.bytes {
			return fmt.Errorf("session %q: its items hold %d of its %d bytes", session, n, h.bytes)
		}
		if m.largest[h.index] != h {
			return fmt.Errorf("session %q: wrong heap index", session)
		}
	}
	for i := 1; i < len(m.largest); i++ {
		if m.largest.Less(i, (i-1)/2) {
			return fmt.Errorf("heap out of order at %d", i)
		}
	}
	return nil
}

// WaitForExpiry waits until the watchdog has found the attempt running with ctx past its
// deadline: it no longer watches it, though its handler still runs.
func WaitForExpiry(ctx context.Context) {
	a := ctx.Value(attemptKey{}).(*attemptCtx).run
	for {
		workers.mu.Lock()
		watched := a.watched
		workers.mu.Unlock()
		if !watched {
			return
		}
		goruntime.Gosched()
	}
}
