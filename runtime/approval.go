package runtime

import (
	"cmp"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
)

// ApprovalRequest is a validated call of a //tool:confirm tool, waiting for a decision.
type ApprovalRequest struct {
	// ID names the request. The registry derives it, with a key only it knows, from the
	// tool, call id, session and canonical arguments: a host cannot forge one, and an approval
	// given for one call does not let any other call (other arguments, another call id) run.
	ID      string
	Tool    string
	CallID  string
	Session string
	Args    any             // the decoded, validated arguments (a pointer to the args struct)
	RawArgs json.RawMessage // Args as canonical JSON: what the approver is shown
	Reason  string          // the tool's //tool:confirm reason
	Risk    Risk
}

// Decision is an approver's answer.
type Decision struct {
	Approved bool
	By       string // who decided, for the record
	Reason   string // why a call was denied; the model reads it
	// Args, when set on an approval, replaces the call's arguments. They are validated by the
	// tool's decoder before the tool runs; invalid ones fail the call.
	Args json.RawMessage
}

// Approver decides synchronously whether a call of a //tool:confirm tool may run. It is
// called after the arguments are validated and before the tool runs, at most once per call
// (retries reuse the decision). An error or a panic counts as a denial: approval fails closed.
type Approver interface {
	Approve(ctx context.Context, req ApprovalRequest) (Decision, error)
}

// ApproverFunc adapts a function to the Approver interface.
type ApproverFunc func(ctx context.Context, req ApprovalRequest) (Decision, error)

func (f ApproverFunc) Approve(ctx context.Context, req ApprovalRequest) (Decision, error) {
	return f(ctx, req)
}

type approvalState int

const (
	approvalPending approvalState = iota
	approvalApproved
	approvalDenied
	approvalSpent // decided and answered: an approved call ran, a denied one was reported
)

// queuedApproval is one request of the approval queue.
type queuedApproval struct {
	seq      uint64
	req      ApprovalRequest
	state    approvalState
	decision Decision
}

// approvalID derives the request id of a call: an HMAC under the registry's secret key of
// every field that identifies it, each length-prefixed so no two field lists collide.
func (r *Registry) approvalID(tool, callID, session string, canonical []byte) string {
	r.keyOnce.Do(func() { rand.Read(r.key[:]) })
	mac := hmac.New(sha256.New, r.key[:])
	for _, field := range [][]byte{[]byte(tool), []byte(callID), []byte(session), canonical} {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(field)))
		mac.Write(n[:])
		mac.Write(field)
	}
	return "apr_" + base64.RawURLEncoding.EncodeToString(mac.Sum(nil)[:18])
}

// approve decides a call of a //tool:confirm tool. It returns the call to run (the edited one
// when the approver changed the arguments) or the result that ends the call.
func (r *Registry) approve(ctx context.Context, cfg *registryConfig, tool *Tool, call Call, bound BoundCall, canonical []byte) (BoundCall, Result, bool) {
	req := ApprovalRequest{
		ID:      r.approvalID(tool.Name, call.ID, call.Session, canonical),
		Tool:    tool.Name,
		CallID:  call.ID,
		Session: call.Session,
		Args:    bound.Args(),
		RawArgs: json.RawMessage(canonical),
		Reason:  tool.ConfirmReason,
		Risk:    tool.Risk,
	}
	approver := cfg.approver
	if approver == nil && !cfg.approvalQueue {
		approver = hookApprover(ctx) // the serving layer's way to ask the user (MCP elicitation)
	}
	switch {
	case approver != nil:
		dec, err := askApprover(ctx, approver, req)
		if err != nil {
			r.observeApproval(ctx, cfg, call, "failed", "")
			return nil, Result{
				Text:    fmt.Sprintf("%s was not run: its approval could not be obtained.", tool.Name),
				IsError: true,
				Err:     fmt.Errorf("tool %q: approver failed: %w", tool.Name, err),
				Kind:    KindDenied,
			}, false
		}
		return r.applyDecision(ctx, cfg, tool, call, bound, dec)
	case cfg.approvalQueue:
		return r.queueApproval(ctx, cfg, tool, call, bound, req)
	}
	r.observeApproval(ctx, cfg, call, "refused", "")
	return nil, Result{
		Text:    fmt.Sprintf("%s needs the user's approval and there is no way to ask for it here, so it was not run.", tool.Name),
		IsError: true,
		Err:     fmt.Errorf("tool %q: %w", tool.Name, ErrNoApprover),
		Kind:    KindPermission,
	}, false
}

// askApprover calls the approver, turning a panic into an error so that it denies the call.
func askApprover(ctx context.Context, a Approver, req ApprovalRequest) (dec Decision, err error) {
	defer func() {
		if v := recover(); v != nil {
			dec, err = Decision{}, fmt.Errorf("approver panicked: %v", v)
		}
	}()
	return a.Approve(ctx, req)
}

func (r *Registry) applyDecision(ctx context.Context, cfg *registryConfig, tool *Tool, call Call, bound BoundCall, dec Decision) (BoundCall, Result, bool) {
	if !dec.Approved {
		r.observeApproval(ctx, cfg, call, "denied", dec.By)
		return nil, deniedResult(tool.Name, dec), false
	}
	r.observeApproval(ctx, cfg, call, "approved", dec.By)
	if dec.Args == nil {
		return bound, Result{}, true
	}
	edited, failed, ok := bind(ctx, tool, nil, dec.Args)
	if !ok {
		failed.Text = "The arguments as edited by the approver are invalid, so the call was not run. " + failed.Text
		return nil, failed, false
	}
	return edited, Result{}, true
}

func deniedResult(tool string, dec Decision) Result {
	text := fmt.Sprintf("The user denied this call of %s, so it was not run", tool)
	if dec.Reason != "" {
		text += ": " + dec.Reason
	}
	return Result{
		Text:    text + ". Do not call it again without asking the user.",
		IsError: true,
		Err:     &DeniedError{Tool: tool, By: dec.By, Reason: dec.Reason},
		Kind:    KindDenied,
	}
}

// queueApproval answers a call from the approval queue: a new call becomes a pending request;
// a decided one runs (once) or reports its denial.
func (r *Registry) queueApproval(ctx context.Context, cfg *registryConfig, tool *Tool, call Call, bound BoundCall, req ApprovalRequest) (BoundCall, Result, bool) {
	r.apMu.Lock()
	if r.approvals == nil {
		r.approvals = make(map[string]*queuedApproval)
	}
	q := r.approvals[req.ID]
	if q == nil {
		r.approvalSeq++
		q = &queuedApproval{seq: r.approvalSeq, req: req}
		r.approvals[req.ID] = q
	}
	state, dec := q.state, q.decision
	if state == approvalApproved || state == approvalDenied {
		q.state = approvalSpent // claimed under the lock: a decision is acted on exactly once
	}
	r.apMu.Unlock()

	switch state {
	case approvalPending:
		r.observeApproval(ctx, cfg, call, "pending", "")
		return nil, Result{
			Text:            fmt.Sprintf("%s is waiting for the user's approval (request %s); it has not run yet.", tool.Name, req.ID),
			PendingApproval: req.ID,
		}, false
	case approvalSpent:
		return nil, limitResult(fmt.Sprintf("This call of %s was already decided and answered; it was not run again.", tool.Name),
			fmt.Errorf("%w: approval request %s of %q already used", ErrCallLimit, req.ID, tool.Name)), false
	}
	return r.applyDecision(ctx, cfg, tool, call, bound, dec)
}

// Pending returns the approval requests waiting for a decision, oldest first.
func (r *Registry) Pending() []ApprovalRequest {
	r.apMu.Lock()
	defer r.apMu.Unlock()
	var qs []*queuedApproval
	for _, q := range r.approvals {
		if q.state == approvalPending {
			qs = append(qs, q)
		}
	}
	slices.SortFunc(qs, func(a, b *queuedApproval) int { return cmp.Compare(a.seq, b.seq) })
	out := make([]ApprovalRequest, len(qs))
	for i, q := range qs {
		out[i] = q.req
	}
	return out
}

// Approve approves the pending request id on behalf of by. The call runs, once, when it is
// invoked again (same tool, call id, session and arguments).
func (r *Registry) Approve(id, by string) error {
	return r.decide(id, Decision{Approved: true, By: by})
}

// ApproveWithArgs approves the pending request id with edited arguments, which must pass the
// tool's validation: when they do not, the error lists the problems (an *ArgsError) and the
// request stays pending.
func (r *Registry) ApproveWithArgs(id, by string, args json.RawMessage) error {
	r.apMu.Lock()
	q := r.approvals[id]
	var name string
	if q != nil {
		name = q.req.Tool
	}
	r.apMu.Unlock()
	if q == nil {
		return fmt.Errorf("runtime: approve %s: %w", id, ErrNoSuchApproval)
	}
	tool, ok := r.Tool(name)
	if !ok {
		return fmt.Errorf("runtime: approve %s: tool %q: %w", id, name, ErrUnknownTool)
	}
	if _, failed, ok := bind(context.Background(), &tool, nil, args); !ok {
		return failed.Err
	}
	return r.decide(id, Decision{Approved: true, By: by, Args: slices.Clone(args)})
}

// Deny denies the pending request id; the model reads reason when the call is invoked again.
func (r *Registry) Deny(id, reason string) error {
	return r.DenyBy(id, "", reason)
}

// DenyBy is Deny recording who denied.
func (r *Registry) DenyBy(id, by, reason string) error {
	return r.decide(id, Decision{By: by, Reason: reason})
}

func (r *Registry) decide(id string, dec Decision) error {
	r.apMu.Lock()
	defer r.apMu.Unlock()
	q := r.approvals[id]
	if q == nil || q.state != approvalPending {
		return fmt.Errorf("runtime: decide %s: %w", id, ErrNoSuchApproval)
	}
	q.decision = dec
	if dec.Approved {
		q.state = approvalApproved
	} else {
		q.state = approvalDenied
	}
	return nil
}
