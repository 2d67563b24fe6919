// Package pausedapproval runs calls for the agent-framework adapters whose frameworks pause a
// run for a person (eino's interrupt and resume, Genkit's tool interrupts): a //tool:confirm
// call nobody decided yields the Request to pause on instead of a result, and the resumed
// run invokes the same call again with the person's decision.
package pausedapproval

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/toolgen-go/toolgen/runtime"
)

// Request is what the person is asked to approve.
type Request struct {
	Tool    string `json:"tool"`
	CallID  string `json:"callId,omitempty"`
	Session string `json:"session,omitempty"`
	// Args are the validated arguments in canonical form (runtime.ApprovalRequest.RawArgs):
	// what the approval covers.
	Args   json.RawMessage `json:"args"`
	Reason string          `json:"reason,omitempty"` // the tool's //tool:confirm reason
	Risk   string          `json:"risk,omitempty"`
	// RequestID is the registry's approval request when the registry queues approvals
	// (runtime.WithApprovalQueue); "" when the decision is given on resume.
	RequestID string `json:"requestId,omitempty"`
}

// Invoke runs call through reg. When it is a //tool:confirm call that the registry does not
// decide itself, it returns the Request to pause on (the result is then the registry's
// refusal, not for the model). A registry with an approval queue is asked through it.
func Invoke(ctx context.Context, reg *runtime.Registry, call runtime.Call) (runtime.Result, *Request) {
	var mu sync.Mutex
	var asked *runtime.ApprovalRequest
	ask := runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
		mu.Lock()
		asked = &req
		mu.Unlock()
		return runtime.Decision{}, runtime.ErrApprovalAsked
	})
	res := reg.Invoke(runtime.WithCallHooks(ctx, &runtime.CallHooks{Approver: ask}), call)
	mu.Lock()
	req := asked
	mu.Unlock()
	if req != nil && ctx.Err() == nil {
		return res, requestOf(*req)
	}
	if res.PendingApproval != "" {
		for _, p := range reg.Pending() {
			if p.ID == res.PendingApproval {
				r := requestOf(p)
				r.RequestID = p.ID
				return res, r
			}
		}
	}
	return res, nil
}

// Resume invokes call again with dec as its decision: recorded in the registry's queue when
// req.RequestID is set, else given by the call's approver hook. Approved, the call runs once
// (with dec.Args, validated again, when set); denied, the result says why.
func Resume(ctx context.Context, reg *runtime.Registry, call runtime.Call, req *Request, dec runtime.Decision) (runtime.Result, error) {
	if req.RequestID == "" {
		decided := runtime.ApproverFunc(func(context.Context, runtime.ApprovalRequest) (runtime.Decision, error) { return dec, nil })
		return reg.Invoke(runtime.WithCallHooks(ctx, &runtime.CallHooks{Approver: decided}), call), nil
	}
	var err error
	switch {
	case !dec.Approved:
		err = reg.DenyBy(req.RequestID, dec.By, dec.Reason)
	case dec.Args != nil:
		err = reg.ApproveWithArgs(req.RequestID, dec.By, dec.Args)
	default:
		err = reg.Approve(req.RequestID, dec.By)
	}
	if err != nil {
		return runtime.Result{}, fmt.Errorf("deciding the approval request of %s: %w", call.Name, err)
	}
	return reg.Invoke(ctx, call), nil
}

// DecisionOf reads the data a run was resumed with: a runtime.Decision, a pointer to one, or
// its JSON form decoded into an any (what a framework that stores resume data as JSON hands
// back). Anything else denies: approval fails closed.
func DecisionOf(data any) runtime.Decision {
	switch d := data.(type) {
	case runtime.Decision:
		return d
	case *runtime.Decision:
		if d != nil {
			return *d
		}
	case map[string]any:
		var dec runtime.Decision
		if b, err := json.Marshal(d); err == nil && json.Unmarshal(b, &dec) == nil {
			return dec
		}
	}
	return runtime.Decision{Reason: "the run was resumed without a decision"}
}

// ClientRefused is the result of a client tool's call (//tool:client) in a framework that
// runs every call itself: no one would answer it.
func ClientRefused(tool string) runtime.Result {
	return runtime.Result{Text: fmt.Sprintf("%s is executed by the client, which this agent does not have; it was not run.", tool), IsError: true, Kind: runtime.KindPermission}
}

func requestOf(req runtime.ApprovalRequest) *Request {
	return &Request{Tool: req.Tool, CallID: req.CallID, Session: req.Session, Args: req.RawArgs, Reason: req.Reason, Risk: string(req.Risk)}
}
