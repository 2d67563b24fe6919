package runtime

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/toolgen-go/toolgen/internal/plural"
)

// attemptSlots bounds the attempts of one tool that occupy a worker goroutine: those running
// for a waiting call and those abandoned after their call gave up on them (a handler that
// ignores its ctx cannot be stopped). Counting the running ones too is what makes the bound
// hold under concurrency: 400 calls arriving together at a hung tool would otherwise all
// start before the first timeout, and all be left behind. The bound is per tool
// (WithMaxAbandoned) and, inside it, per session (WithMaxAbandonedPerSession), so one
// session's hung calls cannot take every slot of a tool other sessions use.
//
// A call that finds no free slot waits for one, within its attempt's timeout; a tool or a
// session whose abandoned attempts alone fill its bound is refused at once.
type attemptSlots struct {
	mu        sync.Mutex
	running   int
	abandoned int
	sessions  map[string]sessionSlots // sessions with an occupied slot
	wake      chan struct{}           // closed when a slot frees, for the calls waiting
}

type sessionSlots struct{ running, abandoned int }

// acquire takes a slot for an attempt of e in session, waiting up to timeout for one. When it
// cannot, it returns the result that ends the attempt.
func (s *attemptSlots) acquire(ctx context.Context, cfg *registryConfig, e *toolEntry, session string, timeout time.Duration) (Result, bool) {
	toolCap, sessionCap := cfg.abandonLimits()
	var timer *time.Timer
	for {
		s.mu.Lock()
		own := s.sessions[session]
		switch {
		case s.abandoned >= toolCap:
			n := s.abandoned
			s.mu.Unlock()
			return abandonedResult(e.tool.Name, "earlier calls of it are still running past their timeout", n), false
		case own.abandoned >= sessionCap:
			n := own.abandoned
			s.mu.Unlock()
			return abandonedResult(e.tool.Name, "this session's earlier calls of it are still running past their timeout", n), false
		case s.running+s.abandoned < toolCap && own.running+own.abandoned < sessionCap:
			s.running++
			own.running++
			if s.sessions == nil {
				s.sessions = make(map[string]sessionSlots)
			}
			s.sessions[session] = own
			s.mu.Unlock()
			if timer != nil {
				timer.Stop()
			}
			return Result{}, true
		}
		if s.wake == nil {
			s.wake = make(chan struct{})
		}
		wake := s.wake
		busy := s.running + s.abandoned
		s.mu.Unlock()

		if timer == nil {
			timer = time.NewTimer(timeout)
		}
		select {
		case <-wake:
		case <-timer.C:
			return Result{
				Text:    fmt.Sprintf("%s is busy: %s of it %s running. Try again later.", e.tool.Name, plural.Of(busy, "call"), map[bool]string{true: "is", false: "are"}[busy == 1]),
				IsError: true,
				Err:     fmt.Errorf("tool %q: %w (%d running or abandoned) for %v", e.tool.Name, ErrToolBusy, busy, timeout),
				Kind:    KindUnavailable,
			}, false
		case <-ctx.Done():
			timer.Stop()
			return deadlineResult(ctx, e.tool.Name, timeout), false
		}
	}
}

func abandonedResult(tool, why string, n int) Result {
	return Result{
		Text:    fmt.Sprintf("%s is unavailable: %s. Try again later.", tool, why),
		IsError: true,
		Err:     fmt.Errorf("tool %q: %w (%d)", tool, ErrTooManyAbandoned, n),
		Kind:    KindUnavailable,
	}
}

// abandon moves a running attempt of session to the abandoned ones; its slot stays taken.
func (s *attemptSlots) abandon(session string) {
	s.mu.Lock()
	own := s.sessions[session]
	s.running--
	s.abandoned++
	own.running--
	own.abandoned++
	s.sessions[session] = own
	s.mu.Unlock()
}

// release frees the slot of an attempt of session that ended, abandoned or not.
func (s *attemptSlots) release(session string, abandoned bool) {
	s.mu.Lock()
	own := s.sessions[session]
	if abandoned {
		s.abandoned--
		own.abandoned--
	} else {
		s.running--
		own.running--
	}
	if own == (sessionSlots{}) {
		delete(s.sessions, session)
	} else {
		s.sessions[session] = own
	}
	if s.wake != nil {
		close(s.wake)
		s.wake = nil
	}
	s.mu.Unlock()
}
