package runtime

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"time"
)

// ErrorKind classifies a failed call. It decides whether the registry retries the call and,
// with [WithSafeErrors], what the model reads instead of a plain Go error's text.
type ErrorKind string

const (
	KindInvalidInput ErrorKind = "invalid_input" // the arguments are wrong; the model should fix them
	KindNotFound     ErrorKind = "not_found"     // what the call names does not exist
	KindPermission   ErrorKind = "permission"    // the call is not allowed
	KindDenied       ErrorKind = "denied"        // whoever approves calls said no
	KindLimit        ErrorKind = "limit"         // a loop guard or budget stopped the call
	KindCancelled    ErrorKind = "cancelled"     // the caller's context ended
	KindUnavailable  ErrorKind = "unavailable"   // a dependency is down or busy; may work later
	KindTimeout      ErrorKind = "timeout"       // an attempt ran past its timeout
	KindInternal     ErrorKind = "internal"      // anything else: a bug, a panic, an unclassified error
)

// Retryable reports whether a failure of this kind may succeed when run again unchanged:
// unavailable, timeout and internal failures are retried under a tool's retry policy; the
// others would fail the same way.
func (k ErrorKind) Retryable() bool {
	return k == KindUnavailable || k == KindTimeout || k == KindInternal
}

// safeMessage is what the model reads for a plain Go error of this kind under WithSafeErrors.
func (k ErrorKind) safeMessage() string {
	switch k {
	case KindInvalidInput:
		return "the input was rejected"
	case KindNotFound:
		return "not found"
	case KindPermission:
		return "permission denied"
	case KindUnavailable:
		return "temporarily unavailable; try again later"
	case KindTimeout:
		return "timed out"
	case KindCancelled:
		return "cancelled"
	default:
		return "internal error"
	}
}

// ModelError is an error written for the model: its Message reaches the model even with
// [WithSafeErrors], and its Kind classifies it (retries included). Err, when set, is the
// underlying error for the operator; it never reaches the model.
type ModelError struct {
	Kind    ErrorKind
	Message string
	Err     error
}

func (e *ModelError) Error() string { return e.Message }
func (e *ModelError) Unwrap() error { return e.Err }

// ModelErrorf returns a *ModelError of kind whose message, formatted like fmt.Sprintf, the
// model reads. A %w verb wraps an error for the operator (and for errors.Is) as fmt.Errorf does.
func ModelErrorf(kind ErrorKind, format string, args ...any) error {
	wrapped := fmt.Errorf(format, args...)
	return &ModelError{Kind: kind, Message: wrapped.Error(), Err: errors.Unwrap(wrapped)}
}

// WithKind classifies err as kind without making its text safe for the model: under
// WithSafeErrors the model reads only the kind's safe message. A nil err stays nil.
func WithKind(err error, kind ErrorKind) error {
	if err == nil {
		return nil
	}
	return &kindError{kind: kind, err: err}
}

type kindError struct {
	kind ErrorKind
	err  error
}

func (e *kindError) Error() string { return e.err.Error() }
func (e *kindError) Unwrap() error { return e.err }

// Permanent marks err as not worth retrying, whatever its kind: the registry returns it at
// once instead of applying the tool's retry policy. A nil err stays nil.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &permanentError{err: err}
}

type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// IsPermanent reports whether err, or an error it wraps, was marked with [Permanent].
func IsPermanent(err error) bool {
	var p *permanentError
	return errors.As(err, &p)
}

// AskRetry returns the error a handler returns to ask the model to call again, following
// guidance ("the date must be in the future; ask the user which year they mean"). The model
// reads the guidance. Each tool may do so a limited number of times per session (its
// //tool:modelretries budget, else the registry's [WithModelRetries]); past the budget the
// model is told to stop calling the tool. Asking is never retried by the registry itself.
func AskRetry(guidance string) error { return &RetryRequest{Guidance: guidance} }

// RetryRequest is the error of [AskRetry].
type RetryRequest struct{ Guidance string }

func (e *RetryRequest) Error() string { return e.Guidance }

// TimeoutError is the Err of a result whose attempt ran past its tool's timeout. errors.Is
// reports it as context.DeadlineExceeded.
type TimeoutError struct {
	Tool  string
	After time.Duration
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("tool %q timed out after %v", e.Tool, e.After)
}

func (e *TimeoutError) Is(target error) bool { return target == context.DeadlineExceeded }

// DeniedError is the Err of a result whose call was denied approval.
type DeniedError struct {
	Tool   string
	By     string // who denied it, when known
	Reason string
}

func (e *DeniedError) Error() string {
	if e.Reason == "" {
		return fmt.Sprintf("tool %q: call denied", e.Tool)
	}
	return fmt.Sprintf("tool %q: call denied: %s", e.Tool, e.Reason)
}

var (
	// ErrNoApprover is wrapped by the Err of a result refused because the tool needs approval
	// and the registry has neither an Approver nor an approval queue: approval fails closed.
	ErrNoApprover = errors.New("the tool needs approval and no approver is configured: give the registry one (runtime.WithApprover, runtime.WithApprovalQueue), or serve it over MCP to a client that declares the elicitation capability")
	// ErrUndecided, returned by an Approver (WithApprover), passes the decision on: to the
	// approval queue when the registry has one (WithApprovalQueue), else to the approver the
	// serving layer lends the call (MCP elicitation), else the call is refused as if there
	// were no approver. An approver that decides only some calls (workspace.AllowCommands)
	// returns it for the others.
	ErrUndecided = errors.New("the approver leaves this call to be decided elsewhere")
	// ErrApprovalAsked is returned (wrapped or not) by an approver that has handed the
	// question to the user and ends the call now, which comes back with the answer: MCP's
	// input-required rounds on protocol 2026-07-28. Observers see the approval "pending".
	ErrApprovalAsked = errors.New("the user was asked; the call comes back with the answer")
	// ErrCallLimit is wrapped by the Err of a result refused by a loop guard: a call limit,
	// a repeated call, or an exhausted AskRetry budget.
	ErrCallLimit = errors.New("call limit reached")
	// ErrTooManyAbandoned is wrapped by the Err of a result refused because too many earlier
	// calls of the tool are still running after their timeout.
	ErrTooManyAbandoned = errors.New("too many timed-out calls still running")
	// ErrToolBusy is wrapped by the Err of a result that found every slot of its tool taken
	// (Limits.MaxAbandoned, Limits.MaxAbandonedPerSession) until its timeout.
	ErrToolBusy = errors.New("too many calls of the tool running")
	// ErrNoSuchApproval is returned by Approve, ApproveWithArgs and Deny for an id that names
	// no pending approval request.
	ErrNoSuchApproval = errors.New("no such pending approval request")
)

// KindOf classifies err: the kind given by a *ModelError or [WithKind] wins; otherwise invalid
// arguments and AskRetry are invalid_input, timeouts are timeout, cancellation is cancelled,
// an unknown tool and fs.ErrNotExist are not_found, fs.ErrPermission and ErrNoApprover are
// permission, a denial is denied, loop guards are limit, and everything else (panics
// included) is internal. A nil err has no kind.
func KindOf(err error) ErrorKind {
	if err == nil {
		return ""
	}
	var me *ModelError
	if errors.As(err, &me) && me.Kind != "" {
		return me.Kind
	}
	var ke *kindError
	if errors.As(err, &ke) && ke.kind != "" {
		return ke.kind
	}
	var ae *ArgsError
	var rr *RetryRequest
	var de *DeniedError
	switch {
	case errors.As(err, &ae), errors.As(err, &rr):
		return KindInvalidInput
	case errors.As(err, &de):
		return KindDenied
	case errors.Is(err, ErrCallLimit):
		return KindLimit
	case errors.Is(err, ErrTooManyAbandoned), errors.Is(err, ErrToolBusy):
		return KindUnavailable
	case errors.Is(err, context.DeadlineExceeded):
		return KindTimeout
	case errors.Is(err, context.Canceled):
		return KindCancelled
	case errors.Is(err, ErrUnknownTool), errors.Is(err, fs.ErrNotExist):
		return KindNotFound
	case errors.Is(err, fs.ErrPermission), errors.Is(err, ErrNoApprover):
		return KindPermission
	}
	return KindInternal
}

// retryable reports whether the registry retries a failed attempt: an error result of a
// retryable kind not marked Permanent. A failed result without Err was built by the handler
// for the model on purpose, so it is final.
func retryable(res Result) bool {
	return res.IsError && res.Err != nil && !IsPermanent(res.Err) && KindOf(res.Err).Retryable()
}

// modelText finds, for WithSafeErrors, the text in err written for the model: that of the
// outermost ModelError, AskRetry or argument error in its chain. direct reports that err's own
// text is that text (err is such an error, or marks one with Permanent or WithKind, which add
// no words); otherwise a wrapper added words of its own, which the model must not read.
func modelText(err error) (text string, direct, ok bool) {
	direct = true
	for err != nil {
		switch e := err.(type) {
		case *ModelError:
			return e.Message, direct, true
		case *RetryRequest:
			return e.Guidance, direct, true
		case *ArgsError:
			return e.Error(), direct, true
		case *permanentError, *kindError:
			// Transparent: their text is the wrapped error's.
		default:
			direct = false
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			// errors.Join and multi-%w: the first branch written for the model.
			for _, e := range u.Unwrap() {
				if text, _, ok := modelText(e); ok {
					return text, false, true
				}
			}
			return "", false, false
		default:
			return "", false, false
		}
	}
	return "", false, false
}
