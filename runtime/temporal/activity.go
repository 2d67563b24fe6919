package temporal

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
	sdktemporal "go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"

	"github.com/toolgen-go/toolgen/runtime"
)

// InvokeActivity is the name of the activity that runs one tool call.
const InvokeActivity = "toolgen.Invoke"

// Call is a tool call as a workflow hands it to the activity: runtime.Call without what
// cannot cross a process (UserData), plus the decision the workflow obtained for a
// //tool:confirm tool.
type Call struct {
	ID      string          `json:"id,omitempty"`
	Name    string          `json:"name"`
	Args    json.RawMessage `json:"args,omitempty"`
	Session string          `json:"session,omitempty"`
	// Approval is the decision on a //tool:confirm call, set by the workflow (Workflows.Invoke)
	// once a person decided; the activity's registry approves exactly that.
	Approval *Approval `json:"approval,omitempty"`
}

// Result is what the model reads of a call, and what the host needs of it; it is the data a
// workflow records, so it holds no Go error (Err is summarised in Kind and Text).
type Result struct {
	Text       string            `json:"text"`
	Structured json.RawMessage   `json:"structured,omitempty"`
	IsError    bool              `json:"isError,omitempty"`
	Kind       runtime.ErrorKind `json:"kind,omitempty"`
	Attempts   int               `json:"attempts,omitempty"` // Temporal's attempts of the activity
}

func resultOf(res runtime.Result) Result {
	return Result{Text: res.Text, Structured: res.Structured, IsError: res.IsError, Kind: res.Kind, Attempts: res.Attempts}
}

// Activities runs tool calls as Temporal activities. Its registry runs each activity as one
// attempt: Temporal retries under the tool's policy (see ActivityOptions), so a retry
// survives the worker that failed.
type Activities struct {
	reg       *runtime.Registry
	heartbeat time.Duration
}

// NewActivities returns the activities of tools, on a registry built with opts (a shared
// session store, observers, …). The tools' retry policies are left to Temporal, and
// //tool:confirm calls are approved by the workflow's decision (an approver in opts is
// replaced).
func NewActivities(tools []runtime.Tool, opts ...runtime.Option) (*Activities, error) {
	once := make([]runtime.Tool, len(tools))
	for i, t := range tools {
		t.Retry = runtime.RetryPolicy{}
		once[i] = t
	}
	opts = append(opts, runtime.WithDefaultRetry(runtime.RetryPolicy{}), runtime.WithApprover(workflowDecision{}))
	reg := runtime.NewRegistry(opts...)
	if err := reg.Add(once...); err != nil {
		return nil, err
	}
	return &Activities{reg: reg, heartbeat: DefaultHeartbeat}, nil
}

// Register registers the activities on w.
func (a *Activities) Register(w worker.ActivityRegistry) {
	w.RegisterActivityWithOptions(a.Invoke, activity.RegisterOptions{Name: InvokeActivity})
}

// Invoke runs call once through the registry. A failure is returned as a Temporal
// application error whose type is the runtime.ErrorKind ("permanent" for a runtime.Permanent
// error), non-retryable unless the runtime would retry it, carrying the Result as details;
// an attempt its worker's shutdown cancelled is a retryable "worker_stopped" failure.
// While the handler runs, the activity heartbeats, so that Temporal notices a dead worker
// within the heartbeat timeout, not the start-to-close timeout; runtime.Progress in the
// handler records a heartbeat with ProgressDetails.
func (a *Activities) Invoke(ctx context.Context, call Call) (Result, error) {
	beat := &heartbeat{}
	stop := a.keepBeating(ctx, beat)
	defer stop()
	ctx = context.WithValue(ctx, decisionKey{}, call.Approval)
	ctx = runtime.WithCallHooks(ctx, beat.hooks(ctx))
	res := a.reg.Invoke(ctx, runtime.Call{ID: call.ID, Name: call.Name, Args: call.Args, Session: call.Session})
	out := resultOf(res)
	out.Attempts = int(activity.GetInfo(ctx).Attempt)
	if !res.IsError {
		return out, nil
	}
	if errors.Is(context.Cause(ctx), worker.ErrWorkerShutdown) {
		// The worker is stopping (a rolling restart), not the workflow cancelling the call:
		// the attempt is retried under the tool's policy, on a worker still running.
		out.Text = fmt.Sprintf("%s was interrupted: the worker running it shut down.", call.Name)
		out.Kind = runtime.KindUnavailable
		return out, sdktemporal.NewApplicationErrorWithOptions(out.Text, ErrWorkerStopped, sdktemporal.ApplicationErrorOptions{Details: []any{out}})
	}
	errType := string(res.Kind)
	if runtime.IsPermanent(res.Err) {
		errType = ErrPermanent
	}
	return out, sdktemporal.NewApplicationErrorWithOptions(res.Text, errType, sdktemporal.ApplicationErrorOptions{
		NonRetryable: !retryable(res),
		Details:      []any{out},
	})
}

// Application error types of the activity's failures besides the runtime.ErrorKinds.
const (
	// ErrPermanent is a failure the handler marked runtime.Permanent: not retried.
	ErrPermanent = "permanent"
	// ErrWorkerStopped is an attempt cut short by its worker stopping: retried under the
	// tool's policy, on another worker.
	ErrWorkerStopped = "worker_stopped"
)

// retryable mirrors the registry's rule: a handler error of a retryable kind, not Permanent,
// and not a text the handler built without an error.
func retryable(res runtime.Result) bool {
	return res.Err != nil && res.Kind.Retryable() && !runtime.IsPermanent(res.Err)
}

// DefaultHeartbeat is the heartbeat timeout ActivityOptions sets; the activity beats at a
// third of it.
const DefaultHeartbeat = 30 * time.Second

// heartbeat is what an activity's heartbeats carry: the handler's last progress, repeated by
// the periodic beats (a heartbeat replaces the details of the one before).
type heartbeat struct {
	mu   sync.Mutex
	last []any
}

func (h *heartbeat) record(ctx context.Context, details ...any) {
	h.mu.Lock()
	if details != nil {
		h.last = details
	}
	last := h.last
	h.mu.Unlock()
	activity.RecordHeartbeat(ctx, last...)
}

// hooks turn runtime.Progress into heartbeats of the activity of ctx. Temporal throttles
// heartbeats: between two sent, only the last details are kept.
func (h *heartbeat) hooks(ctx context.Context) *runtime.CallHooks {
	return &runtime.CallHooks{Progress: func(_ context.Context, done, total float64, message string) {
		h.record(ctx, ProgressDetails{Done: done, Total: total, Message: message})
	}}
}

// keepBeating heartbeats until stop is called.
func (a *Activities) keepBeating(ctx context.Context, beat *heartbeat) (stop func()) {
	if !activity.IsActivity(ctx) {
		return func() {}
	}
	every := a.heartbeat / 3
	if hb := activity.GetInfo(ctx).HeartbeatTimeout; hb > 0 {
		every = hb / 3
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				beat.record(ctx)
			case <-done:
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	return func() { close(done) }
}

// ProgressDetails are the details of the heartbeat a handler's runtime.Progress records: a
// retry of the activity reads the last with activity.GetHeartbeatDetails, to resume.
type ProgressDetails struct {
	Done    float64 `json:"done"`
	Total   float64 `json:"total,omitempty"`
	Message string  `json:"message,omitempty"`
}

type decisionKey struct{}

// workflowDecision is the activity registry's approver: it approves what the workflow's
// decision in the activity's input says, and refuses a confirm call that has none (a
// workflow that did not ask, or a client calling the activity directly).
type workflowDecision struct{}

func (workflowDecision) Approve(ctx context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
	a, _ := ctx.Value(decisionKey{}).(*Approval)
	if a == nil || a.CallID != req.CallID {
		return runtime.Decision{}, errors.New("no approval from the workflow for this call")
	}
	return runtime.Decision{Approved: a.Approved, By: a.By, Reason: a.Reason, Args: a.Args}, nil
}
