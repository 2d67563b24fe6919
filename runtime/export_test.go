package runtime

import (
	"context"
	"time"
)

// WithTestClock replaces the wait between retries and the jitter source, so tests see the
// delays the registry chose without waiting for them.
func WithTestClock(sleep func(ctx context.Context, d time.Duration) error, jitter func() float64) Option {
	return func(c *registryConfig) { c.sleep, c.jitter = sleep, jitter }
}
