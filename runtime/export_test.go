package runtime

import (
	"context"
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

// CanonicalArgs is the canonical form of doc under the defaults of schema.
func CanonicalArgs(doc, schema []byte) (string, error) {
	out, err := canonicalJSON(doc, defaultsOf(schema))
	return string(out), err
}

// WithTestNow replaces the registry's clock (approval expiry).
func WithTestNow(now func() time.Time) Option {
	return func(c *registryConfig) { c.clock = now }
}

// SetResultClock replaces a MemoryResultStore's clock.
func SetResultClock(m *MemoryResultStore, now func() time.Time) { m.now = now }

// FrameSize is the size of the CallFrame generated calls embed.
const FrameSize = unsafe.Sizeof(CallFrame{})

// SetMaxDerivedSchemas changes how many schemas keep their derived variants, empties the
// cache, and returns a function restoring both.
func SetMaxDerivedSchemas(n int) (restore func()) {
	c := &derivedSchemas
	c.Lock()
	old, oldMap := maxDerivedSchemas, c.m
	maxDerivedSchemas, c.m = n, map[string]*derivedVariants{}
	c.Unlock()
	return func() {
		c.Lock()
		maxDerivedSchemas, c.m = old, oldMap
		c.Unlock()
	}
}

// DerivedSchemas is the number of schemas whose variants are kept.
func DerivedSchemas() int {
	derivedSchemas.RLock()
	defer derivedSchemas.RUnlock()
	return len(derivedSchemas.m)
}

// WaitForExpiry waits until the deadline timer of the attempt running with ctx has fired.
func WaitForExpiry(ctx context.Context) {
	a := ctx.Value(attemptKey{}).(*attemptCtx).run.Load()
	for !a.expired.Load() {
		goruntime.Gosched()
	}
}
