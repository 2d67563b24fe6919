package tooltest

import (
	"context"
	"fmt"
	"os"
	goruntime "runtime"
	"sync"
	"testing"
)

// RunExample runs fn with a testing.TB for an Example function, which has none, so that a
// runnable example can use this package's helpers (a scripted model behind an agent, say):
// each failure fn reports is printed to standard output as "FAIL: message", where the
// example's // Output: comment catches it; FailNow (and Fatal, and a failed require) ends
// fn, as it ends a test; fn's cleanups run when it returns, last registered first. In a
// test, use the test's t instead.
func RunExample(fn func(t testing.TB)) {
	e := &exampleTB{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(e)
	}()
	<-done
	for i := len(e.cleanups) - 1; i >= 0; i-- {
		e.cleanups[i]()
	}
}

// exampleTB is the testing.TB of RunExample. The methods it does not define would panic
// (the embedded TB is nil): TempDir, Setenv, Chdir and the like, which examples do not need.
type exampleTB struct {
	testing.TB
	mu       sync.Mutex
	failed   bool
	cleanups []func()
}

func (e *exampleTB) Helper()                  {}
func (e *exampleTB) Name() string             { return "Example" }
func (e *exampleTB) Context() context.Context { return context.Background() }
func (e *exampleTB) Logf(string, ...any)      {}
func (e *exampleTB) Log(...any)               {}

func (e *exampleTB) Errorf(format string, args ...any) { e.report(fmt.Sprintf(format, args...)) }
func (e *exampleTB) Error(args ...any)                 { e.report(fmt.Sprint(args...)) }
func (e *exampleTB) Fatalf(format string, args ...any) { e.Errorf(format, args...); e.FailNow() }
func (e *exampleTB) Fatal(args ...any)                 { e.Error(args...); e.FailNow() }

func (e *exampleTB) report(message string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.failed = true
	fmt.Fprintln(os.Stdout, "FAIL:", message)
}

func (e *exampleTB) Fail() {
	e.mu.Lock()
	e.failed = true
	e.mu.Unlock()
}

func (e *exampleTB) FailNow() {
	e.Fail()
	goruntime.Goexit()
}

func (e *exampleTB) Failed() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.failed
}

func (e *exampleTB) Cleanup(f func()) {
	e.mu.Lock()
	e.cleanups = append(e.cleanups, f)
	e.mu.Unlock()
}
