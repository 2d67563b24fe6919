package temporal

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	sdktemporal "go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/toolgen-go/toolgen/runtime"
)

// Names of the workflow's signal and query, for hosts that decide approvals.
const (
	// ApprovalSignal carries an Approval to a workflow waiting for one.
	ApprovalSignal = "toolgen.approval"
	// PendingQuery returns the []PendingApproval a workflow waits for.
	PendingQuery = "toolgen.pending"
	// TurnWorkflow is the name of Workflows.Turn when registered with Register.
	TurnWorkflow = "toolgen.Turn"
)

// Approval is a decision on a //tool:confirm call, sent to the workflow with the
// ApprovalSignal (client.SignalWorkflow).
type Approval struct {
	CallID   string `json:"callId"`
	Approved bool   `json:"approved"`
	By       string `json:"by,omitempty"`
	Reason   string `json:"reason,omitempty"` // why it was denied; the model reads it
	// Args, on an approval, replaces the call's arguments; the tool validates them again.
	Args json.RawMessage `json:"args,omitempty"`
}

// PendingApproval is a call waiting for a decision, as the PendingQuery lists it.
type PendingApproval struct {
	CallID  string          `json:"callId"`
	Tool    string          `json:"tool"`
	Session string          `json:"session,omitempty"`
	Args    json.RawMessage `json:"args"` // validated
	Reason  string          `json:"reason,omitempty"`
	Risk    runtime.Risk    `json:"risk,omitempty"`
}

// Options configures Workflows.
type Options struct {
	// TaskQueue is where the activities run (the workflow's own queue when empty).
	TaskQueue string
	// Heartbeat is the activities' heartbeat timeout (DefaultHeartbeat when zero).
	Heartbeat time.Duration
	// NoTimeoutLimit bounds a //tool:timeout none call (24h when zero): Temporal needs a bound
	// to notice a worker that died.
	NoTimeoutLimit time.Duration
	// ApprovalTimeout denies a confirm call nobody decided within it (never when zero).
	ApprovalTimeout time.Duration
	// Concurrency bounds how many calls of a batch run at once (all of a group when zero).
	Concurrency int
}

// Workflows runs tool calls from workflow code: each call is an activity with the tool's
// directives mapped to Temporal's options, and a //tool:confirm call first waits for an
// Approval signal, durably: the wait survives workers restarting, for as long as it takes.
type Workflows struct {
	tools map[string]runtime.Tool
	names []string
	opts  Options
	desks sync.Map // workflow run id → *approvals
}

// NewWorkflows returns the workflow helpers of tools (the same tools the workers'
// Activities run).
func NewWorkflows(tools []runtime.Tool, opts Options) *Workflows {
	w := &Workflows{tools: make(map[string]runtime.Tool, len(tools)), opts: opts}
	for _, t := range tools {
		w.tools[t.Name] = t
		w.names = append(w.names, t.Name)
	}
	sort.Strings(w.names)
	return w
}

// Register registers Turn under TurnWorkflow and Task under TaskWorkflow on w.
func (w *Workflows) Register(r interface {
	RegisterWorkflowWithOptions(any, workflow.RegisterOptions)
}) {
	r.RegisterWorkflowWithOptions(w.Turn, workflow.RegisterOptions{Name: TurnWorkflow})
	r.RegisterWorkflowWithOptions(w.Task, workflow.RegisterOptions{Name: TaskWorkflow})
}

// Turn is a workflow that runs one model turn's calls (InvokeAll) and returns their results
// in call order.
func (w *Workflows) Turn(ctx workflow.Context, calls []Call) ([]Result, error) {
	return w.InvokeAll(ctx, calls), nil
}

// nonRetryable are the application error types Temporal must not retry: the failures the
// registry does not retry, and runtime.Permanent ones.
var nonRetryable = []string{
	string(runtime.KindInvalidInput), string(runtime.KindNotFound), string(runtime.KindPermission),
	string(runtime.KindDenied), string(runtime.KindLimit), string(runtime.KindCancelled), ErrPermanent,
}

// timeoutGrace is what Temporal's start-to-close timeout adds to the tool's: the runtime's
// own deadline ends the attempt first, with a result the model can read; Temporal's is the
// backstop for a worker that died.
const timeoutGrace = time.Second

// ActivityOptions maps a tool's directives to Temporal: //tool:timeout to the start-to-close
// timeout (plus a second of grace), //tool:retry to the retry policy (attempts, delay,
// backoff, maximum delay; invalid arguments, denials, limits and runtime.Permanent errors are
// non-retryable), and a heartbeat timeout, so that a dead worker is noticed early.
func (w *Workflows) ActivityOptions(t runtime.Tool) workflow.ActivityOptions {
	timeout := t.Timeout
	switch {
	case t.NoTimeout:
		timeout = w.opts.NoTimeoutLimit
		if timeout <= 0 {
			timeout = 24 * time.Hour
		}
	case timeout <= 0:
		timeout = runtime.DefaultTimeout
	}
	heartbeat := w.opts.Heartbeat
	if heartbeat <= 0 {
		heartbeat = DefaultHeartbeat
	}
	return workflow.ActivityOptions{
		TaskQueue:           w.opts.TaskQueue,
		StartToCloseTimeout: timeout + timeoutGrace,
		HeartbeatTimeout:    heartbeat,
		RetryPolicy:         RetryPolicy(t.Retry),
	}
}

// RetryPolicy maps a //tool:retry policy to Temporal's. Temporal adds no jitter, and waits
// at least a millisecond between attempts.
func RetryPolicy(p runtime.RetryPolicy) *sdktemporal.RetryPolicy {
	backoff := p.Backoff
	switch {
	case backoff == 0:
		backoff = 2
	case backoff < 1:
		backoff = 1
	}
	return &sdktemporal.RetryPolicy{
		InitialInterval:        max(p.Delay, time.Millisecond),
		BackoffCoefficient:     backoff,
		MaximumInterval:        p.MaxDelay,
		MaximumAttempts:        int32(max(p.Max, 0) + 1),
		NonRetryableErrorTypes: slices.Clone(nonRetryable),
	}
}

// Invoke runs one call from workflow code: the tool's arguments are validated, a
// //tool:confirm call waits for its Approval, then the call runs as an activity. Like
// Registry.Invoke, every failure is a Result the model can read.
func (w *Workflows) Invoke(ctx workflow.Context, call Call) Result {
	call.Approval = nil // only a person's decision, through the signal, approves
	return w.invoke(ctx, call)
}

// invoke is Invoke, a //tool:confirm call approved already when call.Approval approves it.
func (w *Workflows) invoke(ctx workflow.Context, call Call) Result {
	t, ok := w.tools[call.Name]
	if !ok {
		return resultOf(runtime.UnknownToolResult(call.Name, w.names))
	}
	if t.Client {
		return Result{Text: fmt.Sprintf("%s cannot be run here: it is executed by the client.", t.Name), IsError: true, Kind: runtime.KindPermission}
	}
	if t.Permission == runtime.PermissionConfirm && (call.Approval == nil || !call.Approval.Approved) {
		// Binding decodes and validates, and runs nothing: deterministic, so it may run in
		// workflow code. A person is only asked about a valid call.
		if _, err := t.BindArgs(context.Background(), normalize(call.Args)); err != nil && !errors.Is(err, runtime.ErrNotBindable) {
			return invalidArgs(t.Name, err)
		}
		decision, ok := w.awaitApproval(ctx, t, call)
		if !ok {
			return Result{
				Text:    fmt.Sprintf("%s was not run: nobody approved it in time.", t.Name),
				IsError: true,
				Kind:    runtime.KindDenied,
			}
		}
		if !decision.Approved {
			text := fmt.Sprintf("The user denied this call of %s, so it was not run", t.Name)
			if decision.Reason != "" {
				text += ": " + decision.Reason
			}
			return Result{Text: text + ". Do not call it again without asking the user.", IsError: true, Kind: runtime.KindDenied}
		}
		call.Approval = &decision
	}
	var out Result
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, w.ActivityOptions(t)), InvokeActivity, call).Get(ctx, &out)
	if err != nil {
		return failedActivity(t, err)
	}
	return out
}

// failedActivity turns an activity's final failure into the Result the model reads.
func failedActivity(t runtime.Tool, err error) Result {
	var appErr *sdktemporal.ApplicationError
	if errors.As(err, &appErr) {
		var out Result
		if appErr.HasDetails() && appErr.Details(&out) == nil {
			return out
		}
	}
	var timeoutErr *sdktemporal.TimeoutError
	if errors.As(err, &timeoutErr) {
		text := fmt.Sprintf("%s did not finish within its time limit.", t.Name)
		if timeoutErr.TimeoutType() == enumspb.TIMEOUT_TYPE_HEARTBEAT {
			text = fmt.Sprintf("%s stopped responding before it finished.", t.Name)
		}
		return Result{Text: text, IsError: true, Kind: runtime.KindTimeout}
	}
	var canceled *sdktemporal.CanceledError
	if errors.As(err, &canceled) {
		return Result{Text: fmt.Sprintf("%s was cancelled before it finished.", t.Name), IsError: true, Kind: runtime.KindCancelled}
	}
	return Result{Text: fmt.Sprintf("%s failed with an internal error.", t.Name), IsError: true, Kind: runtime.KindInternal}
}

// invalidArgs is what the model reads of arguments the tool's decoder refused.
func invalidArgs(tool string, err error) Result {
	var argsErr *runtime.ArgsError
	text := fmt.Sprintf("invalid arguments for %s: %v", tool, err)
	if errors.As(err, &argsErr) {
		named := *argsErr
		named.Tool = tool
		text = named.Error()
	}
	return Result{Text: text + fmt.Sprintf("\nCorrect the arguments and call %s again.", tool), IsError: true, Kind: runtime.KindInvalidInput}
}

func normalize(args json.RawMessage) []byte {
	if len(args) == 0 || string(args) == "null" {
		return []byte("{}")
	}
	return args
}

// approvals is a workflow's approval desk: the calls waiting, and the decisions that came
// in (possibly before the call asked: a signal is never lost).
type approvals struct {
	pending   []PendingApproval
	decisions map[string]Approval
}

// desk returns the approval desk of the workflow run of ctx, set up on its first use: the
// query handler that lists pending calls, and a coroutine receiving decisions. It is kept by
// run, so that every Invoke of a workflow shares it; the coroutine forgets it when the run
// ends or leaves the worker's cache (Temporal unwinds coroutines then).
func (w *Workflows) desk(ctx workflow.Context) *approvals {
	run := workflow.GetInfo(ctx).WorkflowExecution.RunID
	if d, ok := w.desks.Load(run); ok {
		return d.(*approvals)
	}
	d := &approvals{decisions: map[string]Approval{}}
	w.desks.Store(run, d)
	_ = workflow.SetQueryHandler(ctx, PendingQuery, func() ([]PendingApproval, error) { return d.pending, nil })
	signals := workflow.GetSignalChannel(ctx, ApprovalSignal)
	workflow.Go(ctx, func(ctx workflow.Context) {
		defer w.desks.Delete(run)
		for {
			var a Approval
			if !signals.Receive(ctx, &a) {
				return
			}
			d.decisions[a.CallID] = a
		}
	})
	return d
}

// awaitApproval lists call as pending and waits for its decision (or ApprovalTimeout).
func (w *Workflows) awaitApproval(ctx workflow.Context, t runtime.Tool, call Call) (Approval, bool) {
	d := w.desk(ctx)
	d.pending = append(d.pending, PendingApproval{
		CallID: call.ID, Tool: t.Name, Session: call.Session, Args: json.RawMessage(normalize(call.Args)),
		Reason: t.ConfirmReason, Risk: t.Risk,
	})
	defer func() {
		d.pending = slices.DeleteFunc(d.pending, func(p PendingApproval) bool { return p.CallID == call.ID })
	}()
	decided := func() bool { _, ok := d.decisions[call.ID]; return ok }
	if w.opts.ApprovalTimeout > 0 {
		if ok, err := workflow.AwaitWithTimeout(ctx, w.opts.ApprovalTimeout, decided); !ok || err != nil {
			return Approval{}, false
		}
	} else if workflow.Await(ctx, decided) != nil {
		return Approval{}, false
	}
	a := d.decisions[call.ID]
	delete(d.decisions, call.ID) // a decision is spent once
	return a, true
}

// InvokeAll runs one model turn's calls with Registry.InvokeAll's semantics, from workflow
// code: calls run concurrently (at most Options.Concurrency at once), a //tool:sequential
// call is a barrier that runs alone after the calls before it and before the calls after it,
// and the results come back in call order.
func (w *Workflows) InvokeAll(ctx workflow.Context, calls []Call) []Result {
	results := make([]Result, len(calls))
	for start := 0; start < len(calls); {
		end := start + 1
		if !w.sequential(calls[start]) {
			for end < len(calls) && !w.sequential(calls[end]) {
				end++
			}
		}
		w.runGroup(ctx, calls[start:end], results[start:end])
		start = end
	}
	return results
}

func (w *Workflows) sequential(c Call) bool {
	t, ok := w.tools[c.Name]
	return ok && t.Sequential
}

// runGroup runs calls at once, bounded by Options.Concurrency.
func (w *Workflows) runGroup(ctx workflow.Context, calls []Call, results []Result) {
	if len(calls) == 1 {
		results[0] = w.Invoke(ctx, calls[0])
		return
	}
	limit := w.opts.Concurrency
	if limit <= 0 {
		limit = len(calls)
	}
	running := 0
	wg := workflow.NewWaitGroup(ctx)
	for i, c := range calls {
		_ = workflow.Await(ctx, func() bool { return running < limit })
		running++
		wg.Add(1)
		workflow.Go(ctx, func(ctx workflow.Context) {
			defer wg.Done()
			results[i] = w.Invoke(ctx, c)
			running--
		})
	}
	wg.Wait(ctx)
}
