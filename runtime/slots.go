package runtime

import (
	"context"
	"fmt"
	"time"

	"github.com/toolgen-go/toolgen/internal/plural"
)

// attemptSlots bounds the attempts of one tool that occupy a worker goroutine: those running
// for a waiting call and those abandoned after their call gave up on them (a handler that
// ignores its ctx cannot be stopped). Counting the running ones too is what makes the bound
// hold under concurrency: 400 calls arriving together at a hung tool would otherwise all
// start before the first timeout, and all be left behind. The bound is per tool
// (Limits.MaxAbandoned) and, inside it, per session (Limits.MaxAbandonedPerSession), so one
// session's hung calls cannot take every slot of a tool other sessions use.
//
// A call that finds no free slot waits for one, within its attempt's timeout; a tool or a
// session whose abandoned attempts alone fill its bound is refused at once.
//
// The slots are guarded by workers.mu, the lock a dispatch and a worker's return take
// anyway: taking a slot, watching the attempt's deadline and waking a worker is one critical
// section, and so is freeing it, ending the attempt and parking the worker.
type attemptSlots struct {
	running   int
	abandoned int
	// sessions counts the slots of each session that held one lately. An attempt keeps its
	// session's entry, so that only a dispatch looks it up; entries back at zero stay for the
	// session's next call, and are swept (onto free, for reuse) when the map outgrows
	// sessionsKept, so it holds at most that many sessions more than hold slots.
	sessions map[string]*sessionSlots
	free     []*sessionSlots
	// last is the entry of the session that took a slot last: a session calling its tools
	// in turn finds its entry without hashing its key.
	last    *sessionSlots
	lastKey string
	wake    chan struct{} // closed when a slot frees, for the calls waiting
}

type sessionSlots struct{ running, abandoned int }

// sessionsKept is how many sessions without a slot the map of a tool's slots may keep.
const sessionsKept = 64

// takeLocked takes a slot for an attempt of e in session and returns its session's entry.
// Otherwise it returns the result refusing the attempt, or, when slots may free in time, the
// channel closed when one does.
func (s *attemptSlots) takeLocked(cfg *registryConfig, e *toolEntry, session string) (own *sessionSlots, refused *Result, wake <-chan struct{}) {
	toolCap, sessionCap := cfg.abandonLimits()
	own = s.last
	if own == nil || s.lastKey != session {
		if own = s.sessions[session]; own == nil {
			own = s.newSessionLocked(session)
		}
		s.last, s.lastKey = own, session
	}
	switch {
	case s.abandoned >= toolCap:
		return nil, failure(abandonedResult(e.tool.Name, "earlier calls of it are still running past their timeout", s.abandoned)), nil
	case own.abandoned >= sessionCap:
		return nil, failure(abandonedResult(e.tool.Name, "this session's earlier calls of it are still running past their timeout", own.abandoned)), nil
	case s.running+s.abandoned < toolCap && own.running+own.abandoned < sessionCap:
		s.running++
		own.running++
		return own, nil, nil
	}
	if s.wake == nil {
		s.wake = make(chan struct{})
	}
	return nil, nil, s.wake
}

// busyResult refuses an attempt that found no free slot within its timeout.
func busyResult(name string, busy int, timeout time.Duration) Result {
	return Result{
		Text:    fmt.Sprintf("%s is busy: %s of it %s running. Try again later.", name, plural.Of(busy, "call"), map[bool]string{true: "is", false: "are"}[busy == 1]),
		IsError: true,
		Err:     fmt.Errorf("tool %q: %w (%d running or abandoned) for %v", name, ErrToolBusy, busy, timeout),
		Kind:    KindUnavailable,
	}
}

// waitForSlot waits until wake is closed (a slot freed: try again), timer fires or ctx ends;
// in the last two cases it returns the result ending the attempt.
func waitForSlot(ctx context.Context, wake <-chan struct{}, timer *time.Timer, name string, busy int, timeout time.Duration) *Result {
	select {
	case <-wake:
		return nil
	case <-timer.C:
		return failure(busyResult(name, busy, timeout))
	case <-ctx.Done():
		return failure(deadlineResult(ctx, name, timeout))
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

// abandonLocked moves a running attempt of a session (own) to the abandoned ones; its slot
// stays taken.
func (s *attemptSlots) abandonLocked(own *sessionSlots) {
	s.running--
	s.abandoned++
	own.running--
	own.abandoned++
}

// releaseLocked frees the slot of an attempt of a session (own) that ended, abandoned or
// not.
func (s *attemptSlots) releaseLocked(own *sessionSlots, abandoned bool) {
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
}
