package runtime

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolgen-go/toolgen/internal/plural"
)

// ApprovalRequest is a validated call of a //tool:confirm tool, waiting for a decision.
type ApprovalRequest struct {
	// ID names the request. The registry derives it, with a key only it knows, from the
	// tool, call id, session and RawArgs: a host cannot forge one, and an approval given for
	// one call does not let any other call (other arguments, another call id) run.
	ID      string
	Tool    string
	CallID  string
	Session string
	Args    any // the decoded, validated arguments (a pointer to the args struct)
	// RawArgs is what the approver is shown and what the approval covers: the canonical form
	// of the JSON the model sent (keys sorted, escapes and numbers spelled one way, the
	// schema's defaults added for absent properties), never the decoded Go value marshaled
	// again, which can differ from what runs (a TextUnmarshaler without MarshalText marshals
	// as {}).
	RawArgs json.RawMessage
	Reason  string // the tool's //tool:confirm reason
	Risk    Risk
}

// Decision is an approver's answer.
type Decision struct {
	Approved bool
	// By is who decided, for the record and for the model: a denial reads "The user denied
	// this call" when By is empty or starts with "user", else "This call was denied by <By>".
	By     string
	Reason string // why a call was denied; the model reads it
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

// approvalID derives the request id of a call: an HMAC under the registry's secret key
// (WithApprovalKey, else random) of every field that identifies it, each length-prefixed so
// no two field lists collide.
func (r *Registry) approvalID(cfg *registryConfig, tool, callID, session string, canonical []byte) string {
	key := cfg.approvalKey
	if key == nil {
		r.keyOnce.Do(func() { rand.Read(r.key[:]) })
		key = r.key[:]
	}
	mac := hmac.New(sha256.New, key)
	for _, field := range [][]byte{[]byte(tool), []byte(callID), []byte(session), canonical} {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(field)))
		mac.Write(n[:])
		mac.Write(field)
	}
	return "apr_" + base64.RawURLEncoding.EncodeToString(mac.Sum(nil)[:18])
}

// approve decides a call of a //tool:confirm tool. It returns the call to run (the edited one
// when the approver changed the arguments) or the result that ends the call (nil when it
// runs).
func (r *Registry) approve(ctx context.Context, cfg *registryConfig, tool *Tool, call Call, bound BoundCall, canonical []byte) (BoundCall, *Result) {
	req := ApprovalRequest{
		ID:      r.approvalID(cfg, tool.Name, call.ID, call.Session, canonical),
		Tool:    tool.Name,
		CallID:  call.ID,
		Session: call.Session,
		Args:    bound.Args(),
		RawArgs: json.RawMessage(canonical),
		Reason:  tool.ConfirmReason,
		Risk:    tool.Risk,
	}
	if cfg.approver != nil {
		dec, err := r.askApprover(ctx, cfg, cfg.approver, req)
		if !errors.Is(err, ErrUndecided) {
			return r.decided(ctx, cfg, tool, call, bound, dec, err)
		}
		// passed on: to the queue, or to the hook approver
	}
	var approver Approver
	if !cfg.approvalQueue {
		approver = hookApprover(ctx) // the serving layer's way to ask the user (MCP elicitation)
	}
	switch {
	case approver != nil:
		dec, err := r.askApprover(ctx, cfg, approver, req)
		return r.decided(ctx, cfg, tool, call, bound, dec, err)
	case cfg.approvalQueue:
		return r.queueApproval(ctx, cfg, tool, call, bound, req)
	}
	r.observeApproval(ctx, cfg, call, "refused", "")
	return nil, &Result{
		Text:    fmt.Sprintf("%s needs the user's approval and there is no way to ask for it here, so it was not run.", tool.Name),
		IsError: true,
		Err:     fmt.Errorf("tool %q: %w", tool.Name, ErrNoApprover),
		Kind:    KindPermission,
	}
}

// decided turns an approver's answer into the call to run or the result that ends it.
func (r *Registry) decided(ctx context.Context, cfg *registryConfig, tool *Tool, call Call, bound BoundCall, dec Decision, err error) (BoundCall, *Result) {
	if err != nil {
		outcome := "failed"
		if errors.Is(err, ErrApprovalAsked) {
			outcome = "pending" // the user has the question; the call comes back with the answer
		}
		r.observeApproval(ctx, cfg, call, outcome, "")
		if ctx.Err() != nil {
			return nil, &Result{
				Text:    fmt.Sprintf("%s was not run: the call was cancelled or timed out while waiting for its approval.", tool.Name),
				IsError: true,
				Err:     fmt.Errorf("tool %q: approver: %w", tool.Name, err),
				Kind:    KindCancelled,
			}
		}
		return nil, &Result{
			Text:    fmt.Sprintf("%s was not run: its approval could not be obtained.", tool.Name),
			IsError: true,
			Err:     fmt.Errorf("tool %q: approver failed: %w", tool.Name, err),
			Kind:    KindDenied,
		}
	}
	return r.applyDecision(ctx, cfg, tool, call, bound, dec)
}

// askApprover calls the approver, turning a panic into an error so that it denies the call.
// An approver that ignores ctx does not hold the call past its deadline: when ctx can end, the
// approver runs on its own goroutine, and the call stops waiting when ctx ends; its late
// answer is dropped. Such abandoned approvers are bounded like abandoned handlers: past the
// registry's Limits.MaxAbandoned in all, or Limits.MaxAbandonedPerSession for the call's session,
// approval fails at once, so one session's abandoned approvers leave the others theirs.
func (r *Registry) askApprover(ctx context.Context, cfg *registryConfig, a Approver, req ApprovalRequest) (Decision, error) {
	if ctx.Done() == nil {
		return callApprover(ctx, a, req)
	}
	total, perSession := cfg.abandonLimits()
	if err := r.approversAbandoned.check(req.Session, total, perSession); err != nil {
		return Decision{}, err
	}
	type answer struct {
		dec Decision
		err error
	}
	const (
		asking int32 = iota
		answered
		gaveUp
	)
	var state atomic.Int32
	answers := make(chan answer, 1)
	go func() {
		dec, err := callApprover(ctx, a, req)
		if state.CompareAndSwap(asking, answered) {
			answers <- answer{dec, err}
		} else {
			r.approversAbandoned.add(req.Session, -1)
		}
	}()
	select {
	case ans := <-answers:
		return ans.dec, ans.err
	case <-ctx.Done():
		if state.CompareAndSwap(asking, gaveUp) {
			r.approversAbandoned.add(req.Session, 1)
			return Decision{}, fmt.Errorf("the approver did not answer before the call ended: %w", context.Cause(ctx))
		}
		ans := <-answers
		return ans.dec, ans.err
	}
}

// abandonedApprovers counts the approvers still running after the call that asked them
// ended, in all and per session. Its zero value is ready to use.
type abandonedApprovers struct {
	mu        sync.Mutex
	total     int
	bySession map[string]int
}

// check refuses a new approval when the abandoned approvers fill the registry's bound or the
// session's share of it.
func (a *abandonedApprovers) check(session string, total, perSession int) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if n := a.bySession[session]; n >= perSession {
		return fmt.Errorf("%w: %s of this session still %s not answered", ErrTooManyAbandoned, plural.Of(n, "earlier approver"), hasHave(n))
	}
	if a.total >= total {
		return fmt.Errorf("%w: %s still %s not answered", ErrTooManyAbandoned, plural.Of(a.total, "earlier approver"), hasHave(a.total))
	}
	return nil
}

func (a *abandonedApprovers) add(session string, n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.total += n
	if a.bySession == nil {
		a.bySession = map[string]int{}
	}
	if a.bySession[session] += n; a.bySession[session] <= 0 {
		delete(a.bySession, session)
	}
}

// callApprover calls the approver, turning a panic into an error.
func callApprover(ctx context.Context, a Approver, req ApprovalRequest) (dec Decision, err error) {
	defer func() {
		if v := recover(); v != nil {
			dec, err = Decision{}, fmt.Errorf("approver panicked: %v", v)
		}
	}()
	return a.Approve(ctx, req)
}

func (r *Registry) applyDecision(ctx context.Context, cfg *registryConfig, tool *Tool, call Call, bound BoundCall, dec Decision) (BoundCall, *Result) {
	if !dec.Approved {
		r.observeApproval(ctx, cfg, call, "denied", dec.By)
		return nil, failure(DeniedResult(tool.Name, dec))
	}
	r.observeApproval(ctx, cfg, call, "approved", dec.By)
	if dec.Args == nil {
		return bound, nil
	}
	edited, failed := bind(ctx, tool, nil, dec.Args)
	if failed != nil {
		failed.Text = "The arguments as edited by the approver are invalid, so the call was not run. " + failed.Text
		return nil, failed
	}
	return edited, nil
}

// DeniedResult is the result of a call of tool that dec denied, as the registry gives it: its
// text tells the model who denied the call (the user when dec.By is empty or starts with
// "user", else the approver named in By: a policy, a reviewer) and not to call again without
// asking. A layer that learns of a denial elsewhere (runtime/mcp/mount, from a mounted server)
// uses it so the model reads the same words under the name it called:
//
//	res := runtime.DeniedResult("gh_close_issue", runtime.Decision{By: "policy:read-only"})
//	// res.Text: "This call of gh_close_issue was denied by policy:read-only, so it was not run. ..."
func DeniedResult(tool string, dec Decision) Result {
	text := fmt.Sprintf("The user denied this call of %s, so it was not run", tool)
	if dec.By != "" && !strings.HasPrefix(dec.By, "user") {
		text = fmt.Sprintf("This call of %s was denied by %s, so it was not run", tool, dec.By)
	}
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

// queueApproval answers a call from the approval queue: a new call becomes a pending request
// (within the queue's limits); a decided one runs (once) or reports its denial; an expired one
// is refused.
func (r *Registry) queueApproval(ctx context.Context, cfg *registryConfig, tool *Tool, call Call, bound BoundCall, req ApprovalRequest) (BoundCall, *Result) {
	store, now := r.approvalStore(cfg), cfg.now()
	ttl := cfg.approvalTTLOf()
	rec, err := store.Add(ctx, ApprovalRecord{Request: req, Created: now, Expires: now.Add(ttl), Forget: now.Add(2 * ttl)}, cfg.approvalLimitsOf(), now)
	switch {
	case errors.Is(err, ErrApprovalLimit):
		r.observeApproval(ctx, cfg, call, "refused", "")
		return nil, failure(limitResult(fmt.Sprintf("%s was not run: too many calls are already waiting for the user's approval. Wait for the user to decide on them before asking again.", tool.Name),
			fmt.Errorf("tool %q: %w", tool.Name, err)))
	case err != nil:
		r.observeApproval(ctx, cfg, call, "failed", "")
		return nil, &Result{
			Text:    fmt.Sprintf("%s was not run: its approval could not be obtained.", tool.Name),
			IsError: true,
			Err:     fmt.Errorf("tool %q: approval store: %w", tool.Name, err),
			Kind:    KindUnavailable,
		}
	}
	if rec.State != ApprovalConsumed && !now.Before(rec.Expires) {
		r.observeApproval(ctx, cfg, call, "expired", "")
		return nil, &Result{
			Text: fmt.Sprintf("%s was not run: its approval request %s expired before it was decided and acted on (requests last %v). Ask the user again if it is still needed.",
				tool.Name, req.ID, ttl),
			IsError: true,
			Err:     fmt.Errorf("tool %q: %w: request %s", tool.Name, ErrApprovalExpired, req.ID),
			Kind:    KindDenied,
		}
	}
	switch rec.State {
	case ApprovalPending:
		r.observeApproval(ctx, cfg, call, "pending", "")
		return nil, &Result{
			Text:            fmt.Sprintf("%s is waiting for the user's approval (request %s); it has not run yet.", tool.Name, req.ID),
			PendingApproval: req.ID,
		}
	case ApprovalApproved, ApprovalDenied:
		// Claimed by a compare-and-set: a decision is acted on exactly once.
		claimed, ok, err := store.Transition(ctx, req.ID, rec.State, ApprovalConsumed, Decision{}, time.Time{}, time.Time{})
		if err == nil && ok {
			return r.applyDecision(ctx, cfg, tool, call, bound, claimed.Decision)
		}
	}
	return nil, failure(limitResult(fmt.Sprintf("This call of %s was already decided and answered; it was not run again.", tool.Name),
		fmt.Errorf("%w: approval request %s of %q already used", ErrCallLimit, req.ID, tool.Name)))
}

// approvalStore returns the configured approval store, or the registry's in-memory one.
func (r *Registry) approvalStore(cfg *registryConfig) ApprovalStore {
	if cfg.approvalStore != nil {
		return cfg.approvalStore
	}
	r.approvalsOnce.Do(func() { r.approvals = &MemoryApprovalStore{} })
	return r.approvals
}

func (r *Registry) currentConfig() *registryConfig {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.config()
}

// Pending returns the approval requests waiting for a decision and not expired, oldest first.
func (r *Registry) Pending() []ApprovalRequest {
	cfg := r.currentConfig()
	recs, err := r.approvalStore(cfg).Pending(context.Background(), cfg.now())
	if err != nil {
		return nil
	}
	out := make([]ApprovalRequest, len(recs))
	for i, rec := range recs {
		out[i] = rec.Request
		if out[i].Args == nil {
			// A store outside the process keeps no Go values: decode the arguments again.
			if tool, ok := r.Tool(rec.Request.Tool); ok && tool.bindable() {
				if bound, failed := bind(context.Background(), &tool, nil, rec.Request.RawArgs); failed == nil {
					out[i].Args = bound.Args()
				}
			}
		}
	}
	return out
}

// Approve approves the pending request id on behalf of by. The call runs, once, when it is
// invoked again (same tool, call id, session and arguments) before the request expires.
func (r *Registry) Approve(id, by string) error {
	return r.decide(id, Decision{Approved: true, By: by})
}

// ApproveWithArgs approves the pending request id with edited arguments, which must pass the
// tool's validation: when they do not, the error lists the problems (an *ArgsError) and the
// request stays pending.
func (r *Registry) ApproveWithArgs(id, by string, args json.RawMessage) error {
	cfg := r.currentConfig()
	rec, ok, err := r.approvalStore(cfg).Get(context.Background(), id)
	switch {
	case err != nil:
		return fmt.Errorf("runtime: approve %s: %w", id, err)
	case !ok:
		return fmt.Errorf("runtime: approve %s: %w", id, ErrNoSuchApproval)
	}
	tool, ok := r.Tool(rec.Request.Tool)
	if !ok {
		return fmt.Errorf("runtime: approve %s: tool %q: %w", id, rec.Request.Tool, ErrUnknownTool)
	}
	if _, failed := bind(context.Background(), &tool, nil, args); failed != nil {
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

// decide moves the pending request id to its decision, which renews its expiry: the call
// then has as long to be invoked again as the request had to be decided.
func (r *Registry) decide(id string, dec Decision) error {
	cfg := r.currentConfig()
	store, now, ttl := r.approvalStore(cfg), cfg.now(), cfg.approvalTTLOf()
	rec, ok, err := store.Get(context.Background(), id)
	switch {
	case err != nil:
		return fmt.Errorf("runtime: decide %s: %w", id, err)
	case !ok || rec.State != ApprovalPending:
		return fmt.Errorf("runtime: decide %s: %w", id, ErrNoSuchApproval)
	case !now.Before(rec.Expires):
		return fmt.Errorf("runtime: decide %s: %w", id, ErrApprovalExpired)
	}
	to := ApprovalDenied
	if dec.Approved {
		to = ApprovalApproved
	}
	_, ok, err = store.Transition(context.Background(), id, ApprovalPending, to, dec, now.Add(ttl), now.Add(2*ttl))
	switch {
	case err != nil:
		return fmt.Errorf("runtime: decide %s: %w", id, err)
	case !ok:
		return fmt.Errorf("runtime: decide %s: %w", id, ErrNoSuchApproval)
	}
	return nil
}

// hasHave is the verb for n approvers.
func hasHave[N int | int64](n N) string {
	if n == 1 {
		return "has"
	}
	return "have"
}
