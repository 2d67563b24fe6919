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
	// sessions counts the slots of each session that held one lately. An attempt keeps its
	// session's entry, so that only acquire looks it up; entries back at zero stay for the
	// session's next call, and are swept (onto free, for reuse) when the map outgrows
	// sessionsKept, so it holds at most that many sessions more than hold slots.
	sessions map[string]*sessionSlots
	free     []*sessionSlots
	// last is the entry of the session that acquired a slot last: a session calling its
	// tools in turn finds its entry without hashing its key.
	last    *sessionSlots
	lastKey string
	wake     chan struct{} // closed when a slot frees, for the calls waiting
}

type sessionSlots struct{ running, abandoned int }

// sessionsKept is how many sessions without a slot the map of a tool's slots may keep.
const sessionsKept = 64

// acquire takes a slot for an attempt of e in session, waiting up to timeout for one, and
// returns the session's entry, which the attempt passes to abandon and release. When it
// cannot, it returns the result that ends the attempt.
func (s *attemptSlots) acquire(ctx context.Context, cfg *registryConfig, e *toolEntry, session string, timeout time.Duration) (*sessionSlots, Result, bool) {
	toolCap, sessionCap := cfg.abandonLimits()
	var timer *time.Timer
	for {
		s.mu.Lock()
		own := s.last
		if own == nil || s.lastKey != session {
			if own = s.sessions[session]; own == nil {
				own = s.newSessionLocked(session)
			}
			s.last, s.lastKey = own, session
		}
		switch {
		case s.abandoned >= toolCap:
			n := s.abandoned
			s.mu.Unlock()
			return nil, abandonedResult(e.tool.Name, "earlier calls of it are still running past their timeout", n), false
		case own.abandoned >= sessionCap:
			n := own.abandoned
			s.mu.Unlock()
			return nil, abandonedResult(e.tool.Name, "this session's earlier calls of it are still running past their timeout", n), false
		case s.running+s.abandoned < toolCap && own.running+own.abandoned < sessionCap:
			s.running++
			own.running++
			s.mu.Unlock()
			if timer != nil {
				timer.Stop()
			}
			return own, Result{}, true
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
			return nil, Result{
				Text:    fmt.Sprintf("%s is busy: %s of it %s running. Try again later.", e.tool.Name, plural.Of(busy, "call"), map[bool]string{true: "is", false: "are"}[busy == 1]),
				IsError: true,
				Err:     fmt.Errorf("tool %q: %w (%d running or abandoned) for %v", e.tool.Name, ErrToolBusy, busy, timeout),
				Kind:    KindUnavailable,
			}, false
		case <-ctx.Done():
			timer.Stop()
			return nil, deadlineResult(ctx, e.tool.Name, timeout), false
		}
	}
}

// newSessionLocked adds session's entry, sweeping the entries of sessions without a slot
// first when there are too many.
func (s *attemptSlots) newSessionLocked(session string) *sessionSlots {
	if s.sessions == nil {
		s.sessions = make(map[string]*sessionSlots)
	}
	if len(s.sessions) >= sessionsKept+s.running+s.abandoned {
		for key, own := range s.sessions {
			if *own == (sessionSlots{}) {
				delete(s.sessions, key)
				s.free = append(s.free, own)
				if own == s.last {
					s.last, s.lastKey = nil, ""
				}
			}
		}
	}
	var own *sessionSlots
	if n := len(s.free); n > 0 {
		own, s.free = s.free[n-1], s.free[:n-1]
	} else {
		own = new(sessionSlots)
	}
	s.sessions[session] = own
	return own
}

func abandonedResult(tool, why string, n int) Result {
	return Result{
		Text:    fmt.Sprintf("%s is unavailable: %s. Try again later.", tool, why),
		IsError: true,
		Err:     fmt.Errorf("tool %q: %w (%d)", tool, ErrTooManyAbandoned, n),
		Kind:    KindUnavailable,
	}
}

// abandon moves a running attempt of session (own) to the abandoned ones; its slot stays
// taken.
func (s *attemptSlots) abandon(own *sessionSlots) {
	s.mu.Lock()
	s.running--
	s.abandoned++
	own.running--
	own.abandoned++
	s.mu.Unlock()
}

// release frees the slot of an attempt of session (own) that ended, abandoned or not.
func (s *attemptSlots) release(own *sessionSlots, abandoned bool) {
	s.mu.Lock()
	if abandoned {
		s.abandoned--
		own.abandoned--
	} else {
		s.running--
		own.running--
	}
	if s.wake != nil {
		close(s.wake)
		s.wake = nil
	}
	s.mu.Unlock()
}
