package runtime

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// The first attempt of a timed call uses the deadline context allocated with the call state;
// a retry gets a context of its own, so an abandoned attempt's ctx never changes under its
// handler. A call state made without a timeout has none to lend.
func TestAttemptCtxFirstIsEmbedded(t *testing.T) {
	st := newCallState(&Tool{}, true)
	st.Context = context.Background()
	first := newAttemptCtx(st, monotonic()+time.Hour)
	require.Same(t, st.first, first, "the first attempt allocated its context")
	second := newAttemptCtx(st, monotonic()+time.Hour)
	require.NotSame(t, first, second, "a retry reused the first attempt's context")

	untimed := newCallState(&Tool{}, false)
	untimed.Context = context.Background()
	assert.Nil(t, untimed.first)
	assert.NotNil(t, newAttemptCtx(untimed, monotonic()+time.Hour))
}
