// Package testcost helps the hostile tests of the toolkits: it measures what a piece of code
// allocates, and ends a context at a chosen step, so tests bound costs by counting rather
// than by timing.
package testcost

import (
	"context"
	goruntime "runtime"
)

// Allocated returns the bytes the process allocated while fn ran.
func Allocated(fn func()) uint64 {
	var before, after goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&before)
	fn()
	goruntime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// EndingContext is a context whose Err is nil for its first N calls and context.Canceled
// after: code that looks at its ctx at known steps sees it end at the step a test chooses.
// Its Done channel is the parent's.
type EndingContext struct {
	context.Context
	N int
}

// Err counts the call, and reports Canceled once N calls have passed.
func (c *EndingContext) Err() error {
	if c.N > 0 {
		c.N--
		return nil
	}
	return context.Canceled
}
