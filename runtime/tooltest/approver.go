package tooltest

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

// Answer is one scripted answer of an Approver: the tool whose call it expects to be asked
// about, and the decision to give.
type Answer struct {
	Tool     string
	Decision runtime.Decision
}

// Approve answers a request about a call of tool with an approval.
func Approve(tool string) Answer {
	return Answer{Tool: tool, Decision: runtime.Decision{Approved: true, By: "user"}}
}

// ApproveWithArgs answers a request about a call of tool with an approval that replaces the
// call's arguments with args (JSON), as a user who edits the call before approving it does.
func ApproveWithArgs(tool, args string) Answer {
	return Answer{Tool: tool, Decision: runtime.Decision{Approved: true, By: "user", Args: json.RawMessage(args)}}
}

// Deny answers a request about a call of tool with a denial for reason, which the model reads.
func Deny(tool, reason string) Answer {
	return Answer{Tool: tool, Decision: runtime.Decision{By: "user", Reason: reason}}
}

// Approver is a runtime.Approver that answers from a script, in order, and records every
// request it was asked. It fails the test (t.Errorf) when asked about another tool than the
// next answer names, or asked once more than the script answers (then it denies: approval
// fails closed), and, when the test ends, for every answer left unused.
//
//	approver := tooltest.NewApprover(t, tooltest.Approve("delete_file"), tooltest.Deny("delete_file", "not that one"))
//	reg := runtime.NewRegistry(runtime.WithApprover(approver))
type Approver struct {
	t      testing.TB
	mu     sync.Mutex
	script []Answer
	asked  []runtime.ApprovalRequest
}

// NewApprover returns an Approver answering with answers, in order, for the test t.
func NewApprover(t testing.TB, answers ...Answer) *Approver {
	a := &Approver{t: t, script: answers}
	t.Cleanup(a.checkConsumed)
	return a
}

// Approve answers req with the next scripted answer (runtime.Approver).
func (a *Approver) Approve(_ context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := len(a.asked)
	a.asked = append(a.asked, req)
	if n >= len(a.script) {
		a.t.Errorf("tooltest: approver asked about %s %s (request %d), but its script has %d answers", req.Tool, req.RawArgs, n+1, len(a.script))
		return runtime.Decision{}, fmt.Errorf("tooltest: no scripted answer for request %d", n+1)
	}
	answer := a.script[n]
	if answer.Tool != req.Tool {
		a.t.Errorf("tooltest: approver asked about %s %s (request %d), but its script answers %s", req.Tool, req.RawArgs, n+1, answer.Tool)
		return runtime.Decision{}, fmt.Errorf("tooltest: request %d is about %s, the script answers %s", n+1, req.Tool, answer.Tool)
	}
	return answer.Decision, nil
}

// Requests returns the requests the approver was asked, in order: a test checks what the
// user would have been shown (RawArgs, Reason, Risk).
func (a *Approver) Requests() []runtime.ApprovalRequest {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]runtime.ApprovalRequest(nil), a.asked...)
}

func (a *Approver) checkConsumed() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for i := len(a.asked); i < len(a.script); i++ {
		a.t.Errorf("tooltest: approver answer %d (%s for %s) was never asked for", i+1, decisionWord(a.script[i].Decision), a.script[i].Tool)
	}
}

func decisionWord(d runtime.Decision) string {
	if d.Approved {
		return "approve"
	}
	return "deny"
}
