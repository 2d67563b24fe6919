package runtime

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"
)

// EventKind says what an Event reports.
type EventKind int

const (
	EventStart    EventKind = iota + 1 // a call was resolved to a tool and starts
	EventError                         // an attempt failed (Err, ErrorKind, Attempt, Duration)
	EventRetry                         // a failed attempt will be retried after Delay
	EventApproval                      // an approval step ended: Approval says how
	EventEnd                           // the call ended (Duration, Attempts, IsError)
	EventRepair                        // the call was repaired before validation (Repairs)
	EventEffect                        // the result carries Effect (one event per effect, before EventEnd)
)

func (k EventKind) String() string {
	switch k {
	case EventStart:
		return "start"
	case EventError:
		return "error"
	case EventRetry:
		return "retry"
	case EventApproval:
		return "approval"
	case EventEnd:
		return "end"
	case EventRepair:
		return "repair"
	case EventEffect:
		return "effect"
	}
	return "unknown"
}

// Event is what an Observer receives. Argument values are absent unless the registry was
// built WithArgsInEvents.
type Event struct {
	Kind    EventKind
	Tool    string
	CallID  string
	Session string
	// Attempt is the attempt an error or retry is about; on EventEnd, the attempts made.
	Attempt  int
	Duration time.Duration // EventError: the attempt; EventEnd: the whole call
	Delay    time.Duration // EventRetry: the wait before the next attempt
	IsError  bool          // EventEnd: whether the result is an error
	ErrKind  ErrorKind     // EventError, EventEnd: the kind of the failure
	Err      error         // EventError, EventEnd: the Go error
	// Approval is, on EventApproval, one of "pending" (queued, or asked of the user in a call
	// that comes back with the answer: ErrApprovalAsked), "approved", "denied", "refused" (no
	// approver configured, or the approval queue is full), "expired" (the queued request
	// expired) or "failed" (the approver returned an error or did not answer in time, or the
	// approval store failed).
	Approval   string
	ApprovedBy string
	Args       json.RawMessage // the raw arguments, only WithArgsInEvents
	Repairs    []Repair        // EventRepair: what was changed (values shortened)
	Effect     Effect          // EventEffect: the effect
	// Run is the call's Call.Run (its run id, agent, model, turn, tokens), nil when the host
	// set none; read it, do not change it.
	Run *RunInfo
}

// Observer receives the registry's events, synchronously on the goroutine of the call: it
// must be quick and safe for concurrent use. A panic in it is recovered and the event lost;
// the call goes on.
type Observer func(ctx context.Context, e Event)

// SlogObserver returns an Observer that logs events to l: starts, approvals and ends at
// Info (Debug for starts), failed attempts and retries at Warn, failed calls at Error.
func SlogObserver(l *slog.Logger) Observer {
	return func(ctx context.Context, e Event) {
		level := slog.LevelInfo
		attrs := []slog.Attr{slog.String("tool", e.Tool), slog.String("call_id", e.CallID)}
		if e.Session != "" {
			attrs = append(attrs, slog.String("session", e.Session))
		}
		switch e.Kind {
		case EventStart:
			level = slog.LevelDebug
		case EventError:
			level = slog.LevelWarn
			attrs = append(attrs, slog.Int("attempt", e.Attempt), slog.Duration("duration", e.Duration),
				slog.String("kind", string(e.ErrKind)), slog.Any("err", e.Err))
		case EventRetry:
			level = slog.LevelWarn
			attrs = append(attrs, slog.Int("attempt", e.Attempt), slog.Duration("delay", e.Delay))
		case EventEffect:
			if e.Effect != nil {
				attrs = append(attrs, slog.String("effect", e.Effect.EffectName()))
			}
		case EventApproval:
			attrs = append(attrs, slog.String("approval", e.Approval))
			if e.ApprovedBy != "" {
				attrs = append(attrs, slog.String("by", e.ApprovedBy))
			}
		case EventRepair:
			level = slog.LevelWarn
			attrs = append(attrs, slog.Any("repairs", e.Repairs))
		case EventEnd:
			attrs = append(attrs, slog.Int("attempts", e.Attempt), slog.Duration("duration", e.Duration))
			if e.IsError {
				level = slog.LevelError
				attrs = append(attrs, slog.String("kind", string(e.ErrKind)), slog.Any("err", e.Err))
			}
		}
		if e.Args != nil {
			attrs = append(attrs, slog.String("args", string(e.Args)))
		}
		l.LogAttrs(ctx, level, "tool "+e.Kind.String(), attrs...)
	}
}

// event starts an Event of the call in ctx.
func event(ctx context.Context, kind EventKind) Event {
	e := Event{Kind: kind}
	if st, ok := ctx.Value(callKey{}).(*callState); ok {
		e.Tool, e.CallID, e.Session, e.Run = st.info.tool, st.info.callID, st.info.session, st.info.run
	}
	return e
}

func (r *Registry) observeApproval(ctx context.Context, cfg *registryConfig, call Call, outcome, by string) {
	if cfg.observer == nil {
		return
	}
	e := event(ctx, EventApproval)
	e.Approval, e.ApprovedBy = outcome, by
	if cfg.argsInEvents {
		e.Args = json.RawMessage(call.Args)
	}
	cfg.notify(ctx, e)
}

// notify hands e to the observer. An observer that panics loses the event and nothing else:
// the panic never reaches the caller of Invoke, InvokeAll or an adapter's Dispatch.
func (c *registryConfig) notify(ctx context.Context, e Event) {
	c.observer.notify(ctx, e)
}

func (o Observer) notify(ctx context.Context, e Event) {
	defer func() { _ = recover() }()
	o(ctx, e)
}
