package tooltest_test

import (
	"context"
	"fmt"
	goruntime "runtime"
	"sync"
	"testing"
)

// recorder is a testing.TB that records failures instead of failing: the tests of tooltest
// check that its helpers fail a test when they should, and the examples show what they
// report. Methods it does not override are the embedded TB's (nil in the examples).
type recorder struct {
	testing.TB
	name string

	mu       sync.Mutex
	failures []string
	cleanups []func()
	failed   bool
}

// record runs fn with a recorder named name, in a goroutine of its own as a test runs (so
// FailNow ends fn alone), then its cleanups, last registered first, and returns the
// failures reported.
func record(tb testing.TB, name string, fn func(t testing.TB)) []string {
	r := &recorder{TB: tb, name: name}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(r)
	}()
	<-done
	for i := len(r.cleanups) - 1; i >= 0; i-- {
		r.cleanups[i]()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.failures...)
}

func (r *recorder) add(msg string) {
	r.mu.Lock()
	r.failures = append(r.failures, msg)
	r.failed = true
	r.mu.Unlock()
}

func (r *recorder) Helper()                           {}
func (r *recorder) Name() string                      { return r.name }
func (r *recorder) Context() context.Context          { return context.Background() }
func (r *recorder) Errorf(format string, args ...any) { r.add(fmt.Sprintf(format, args...)) }
func (r *recorder) Error(args ...any)                 { r.add(fmt.Sprint(args...)) }
func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...); r.FailNow() }
func (r *recorder) Fatal(args ...any)                 { r.Error(args...); r.FailNow() }
func (r *recorder) Logf(string, ...any)               {}
func (r *recorder) Log(...any)                        {}
func (r *recorder) FailNow() {
	r.Fail()
	goruntime.Goexit()
}

func (r *recorder) Fail() {
	r.mu.Lock()
	r.failed = true
	r.mu.Unlock()
}

func (r *recorder) Failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failed
}

func (r *recorder) Cleanup(f func()) {
	r.mu.Lock()
	r.cleanups = append(r.cleanups, f)
	r.mu.Unlock()
}
