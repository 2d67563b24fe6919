package runtime

import (
	"context"
	"errors"
	"testing"
	"time"
)

// The deadline context of an attempt must behave as context.WithDeadline does, whether or not
// the handler ever asked for its Done channel.
func TestAttemptCtxSemantics(t *testing.T) {
	type callKeyT struct{}
	parent := context.WithValue(context.Background(), callKeyT{}, "v")

	t.Run("live", func(t *testing.T) {
		c := newAttemptCtx(parent, monotonic()+time.Hour)
		if d, ok := c.Deadline(); !ok || time.Until(d) < 59*time.Minute {
			t.Errorf("Deadline = %v, %v", d, ok)
		}
		if c.Err() != nil || c.Value(callKeyT{}) != "v" {
			t.Errorf("Err %v, Value %v", c.Err(), c.Value(callKeyT{}))
		}
		done := c.Done()
		select {
		case <-done:
			t.Fatal("Done closed early")
		default:
		}
		c.end(context.Canceled) // the attempt finished: work left behind must stop
		<-done
		if !errors.Is(c.Err(), context.Canceled) {
			t.Errorf("after the attempt: Err %v", c.Err())
		}
	})

	t.Run("deadline without Done", func(t *testing.T) {
		c := newAttemptCtx(parent, monotonic()-time.Millisecond)
		if !errors.Is(c.Err(), context.DeadlineExceeded) {
			t.Errorf("past deadline: Err %v", c.Err())
		}
		c.end(context.DeadlineExceeded)
		<-c.Done() // built after the end, already closed
		if !errors.Is(c.Err(), context.DeadlineExceeded) || !errors.Is(context.Cause(c), context.DeadlineExceeded) {
			t.Errorf("Err %v, Cause %v", c.Err(), context.Cause(c))
		}
	})

	t.Run("deadline with Done", func(t *testing.T) {
		c := newAttemptCtx(parent, monotonic()+20*time.Millisecond)
		done := c.Done()
		<-done // closes by itself at the deadline
		c.end(context.DeadlineExceeded)
		if !errors.Is(c.Err(), context.DeadlineExceeded) {
			t.Errorf("Err %v", c.Err())
		}
	})

	t.Run("parent cancelled", func(t *testing.T) {
		p, cancel := context.WithCancelCause(parent)
		c := newAttemptCtx(p, monotonic()+time.Hour)
		done := c.Done()
		boom := errors.New("user left")
		cancel(boom)
		<-done
		if !errors.Is(c.Err(), context.Canceled) || !errors.Is(context.Cause(c), boom) {
			t.Errorf("Err %v, Cause %v", c.Err(), context.Cause(c))
		}
	})

	t.Run("parent deadline is earlier", func(t *testing.T) {
		p, cancel := context.WithDeadline(parent, time.Now().Add(time.Minute))
		defer cancel()
		c := newAttemptCtx(p, monotonic()+time.Hour)
		if d, _ := c.Deadline(); time.Until(d) > 2*time.Minute {
			t.Errorf("Deadline %v ignores the parent's", d)
		}
	})
}

// The first attempt of a call keeps its deadline context inside the call state; a retry gets
// a context of its own, so an abandoned attempt's ctx never changes under its handler.
func TestAttemptCtxFirstIsEmbedded(t *testing.T) {
	st := &callState{Context: context.Background()}
	first := newAttemptCtx(st, monotonic()+time.Hour)
	if first != &st.first {
		t.Fatal("first attempt allocated its context")
	}
	second := newAttemptCtx(st, monotonic()+time.Hour)
	if second == first {
		t.Fatal("a retry reused the first attempt's context")
	}
}
