package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
)

type mailArgs struct {
	To   string `json:"to"`
	Body string `json:"body"`
}

// mailTool is a //tool:confirm tool that records what it sent; an empty "to" is invalid.
func mailTool(sent *[]mailArgs, mu *sync.Mutex) runtime.Tool {
	base := jsonTool("send_mail", func(_ context.Context, a mailArgs) runtime.Result {
		mu.Lock()
		defer mu.Unlock()
		*sent = append(*sent, a)
		return runtime.TextResult("sent to " + a.To)
	})
	bind := base.BindArgs
	base.Bind = func(ctx context.Context, raw []byte) (runtime.BoundCall, error) {
		bound, err := bind(ctx, raw)
		if err == nil && bound.Args().(*mailArgs).To == "" {
			return nil, &runtime.ArgsError{Problems: []runtime.Problem{{Path: "/to", Message: "must not be empty"}}}
		}
		return bound, err
	}
	base.Permission, base.ConfirmReason, base.Risk = runtime.PermissionConfirm, "sends mail for the user", runtime.RiskHigh
	return base
}

func TestApprovalFailsClosedWithoutApprover(t *testing.T) {
	var sent []mailArgs
	var mu sync.Mutex
	reg := newRegistry(t, mailTool(&sent, &mu))
	res := reg.Invoke(t.Context(), runtime.Call{Name: "send_mail", Args: []byte(`{"to":"a@b.c","body":"hi"}`)})
	if !res.IsError || res.Kind != runtime.KindPermission || !errors.Is(res.Err, runtime.ErrNoApprover) || len(sent) != 0 {
		t.Errorf("confirm tool without approver = %+v, sent %d", res, len(sent))
	}
}

func TestSyncApprover(t *testing.T) {
	var sent []mailArgs
	var mu sync.Mutex
	var asked []runtime.ApprovalRequest
	decide := func(dec runtime.Decision, err error) runtime.Approver {
		return runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
			asked = append(asked, req)
			return dec, err
		})
	}
	invoke := func(a runtime.Approver, args string) runtime.Result {
		reg := runtime.NewRegistry(runtime.WithApprover(a))
		must(t, reg.Add(mailTool(&sent, &mu)))
		return reg.Invoke(t.Context(), runtime.Call{ID: "c1", Session: "s", Name: "send_mail", Args: []byte(args)})
	}

	res := invoke(decide(runtime.Decision{Approved: true, By: "ada"}, nil), `{"to":"a@b.c","body":"hi"}`)
	if res.IsError || len(sent) != 1 || len(asked) != 1 {
		t.Fatalf("approved call = %+v, sent %d", res, len(sent))
	}
	req := asked[0]
	if req.Tool != "send_mail" || req.CallID != "c1" || req.Session != "s" || req.Reason != "sends mail for the user" ||
		req.Risk != runtime.RiskHigh || req.Args.(*mailArgs).To != "a@b.c" || string(req.RawArgs) != `{"body":"hi","to":"a@b.c"}` || req.ID == "" {
		t.Errorf("ApprovalRequest = %+v", req)
	}

	res = invoke(decide(runtime.Decision{Reason: "not to strangers"}, nil), `{"to":"x@y.z","body":"hi"}`)
	var de *runtime.DeniedError
	if !res.IsError || res.Kind != runtime.KindDenied || !errors.As(res.Err, &de) || len(sent) != 1 ||
		res.Text != "The user denied this call of send_mail, so it was not run: not to strangers. Do not call it again without asking the user." {
		t.Errorf("denied call = %+v", res)
	}
	// A policy that denies is named: the model must not think the user said no.
	res = invoke(decide(runtime.Decision{By: "notes policy", Reason: "only files under notes/ may be written"}, nil), `{"to":"x@y.z","body":"hi"}`)
	if res.Text != "This call of send_mail was denied by notes policy, so it was not run: only files under notes/ may be written. Do not call it again without asking the user." {
		t.Errorf("denied by a policy = %q", res.Text)
	}

	for _, broken := range []runtime.Approver{
		decide(runtime.Decision{Approved: true}, errors.New("ui crashed")),
		runtime.ApproverFunc(func(context.Context, runtime.ApprovalRequest) (runtime.Decision, error) { panic("bug") }),
	} {
		if res := invoke(broken, `{"to":"x@y.z","body":"hi"}`); res.Kind != runtime.KindDenied || len(sent) != 1 {
			t.Errorf("failing approver did not deny: %+v", res)
		}
	}

	// Nobody approves a malformed call.
	asked = nil
	if res := invoke(decide(runtime.Decision{Approved: true}, nil), `{"to":"","body":"hi"}`); res.Kind != runtime.KindInvalidInput || len(asked) != 0 {
		t.Errorf("malformed call reached the approver: %+v", res)
	}

	// Edited arguments are validated again, then used.
	res = invoke(decide(runtime.Decision{Approved: true, Args: []byte(`{"to":"boss@b.c","body":"hi"}`)}, nil), `{"to":"x@y.z","body":"hi"}`)
	if res.IsError || sent[len(sent)-1].To != "boss@b.c" {
		t.Errorf("edited approval = %+v, last sent %+v", res, sent[len(sent)-1])
	}
	n := len(sent)
	res = invoke(decide(runtime.Decision{Approved: true, Args: []byte(`{"to":"","body":"hi"}`)}, nil), `{"to":"x@y.z","body":"hi"}`)
	if res.Kind != runtime.KindInvalidInput || len(sent) != n || !strings.HasPrefix(res.Text, "The arguments as edited by the approver are invalid") {
		t.Errorf("invalid edit ran or was not reported: %+v", res)
	}
}

func TestApprovalQueue(t *testing.T) {
	var sent []mailArgs
	var mu sync.Mutex
	reg := runtime.NewRegistry(runtime.WithApprovalQueue())
	must(t, reg.Add(mailTool(&sent, &mu)))
	call := runtime.Call{ID: "c1", Session: "s", Name: "send_mail", Args: []byte(`{"to":"a@b.c","body":"hi"}`)}

	res := reg.Invoke(t.Context(), call)
	if res.IsError || res.PendingApproval == "" || len(sent) != 0 || !strings.Contains(res.Text, "waiting for the user's approval") {
		t.Fatalf("first call = %+v", res)
	}
	id := res.PendingApproval
	pending := reg.Pending()
	if len(pending) != 1 || pending[0].ID != id || pending[0].Args.(*mailArgs).To != "a@b.c" {
		t.Fatalf("Pending() = %+v", pending)
	}
	// Asking again before a decision neither runs nor queues twice.
	if again := reg.Invoke(t.Context(), call); again.PendingApproval != id || len(reg.Pending()) != 1 {
		t.Errorf("repeated pending call = %+v, %d pending", again, len(reg.Pending()))
	}

	// The id is bound to the arguments and the call id: other ones are other requests.
	other := call
	other.Args = []byte(`{"to":"evil@x.y","body":"hi"}`)
	otherID := reg.Invoke(t.Context(), other).PendingApproval
	call2 := call
	call2.ID = "c2"
	if otherID == id || reg.Invoke(t.Context(), call2).PendingApproval == id {
		t.Error("an approval id is shared by calls with other arguments or ids")
	}

	if err := reg.Approve("apr_forged", "ada"); !errors.Is(err, runtime.ErrNoSuchApproval) {
		t.Errorf("Approve(forged id) = %v", err)
	}
	must(t, reg.Approve(id, "ada"))
	if err := reg.Approve(id, "ada"); !errors.Is(err, runtime.ErrNoSuchApproval) {
		t.Errorf("second Approve = %v, want ErrNoSuchApproval", err)
	}

	// The approved call runs exactly once, however many times it is invoked at once.
	var wg sync.WaitGroup
	var ran atomic.Int32
	for range 8 {
		wg.Go(func() {
			if res := reg.Invoke(t.Context(), call); !res.IsError && res.Text == "sent to a@b.c" {
				ran.Add(1)
			}
		})
	}
	wg.Wait()
	if ran.Load() != 1 || len(sent) != 1 {
		t.Errorf("approved call ran %d times (sent %d), want once", ran.Load(), len(sent))
	}

	must(t, reg.Deny(otherID, "that address is not in the contacts"))
	res = reg.Invoke(t.Context(), other)
	if res.Kind != runtime.KindDenied || !strings.Contains(res.Text, "that address is not in the contacts") || len(sent) != 1 {
		t.Errorf("denied call = %+v", res)
	}
}

func TestApprovalQueueWithEditedArgs(t *testing.T) {
	var sent []mailArgs
	var mu sync.Mutex
	reg := runtime.NewRegistry(runtime.WithApprovalQueue())
	must(t, reg.Add(mailTool(&sent, &mu)))
	call := runtime.Call{ID: "c1", Name: "send_mail", Args: []byte(`{"to":"a@b.c","body":"hi"}`)}
	id := reg.Invoke(t.Context(), call).PendingApproval

	var argsErr *runtime.ArgsError
	if err := reg.ApproveWithArgs(id, "ada", []byte(`{"to":"","body":"hi"}`)); !errors.As(err, &argsErr) {
		t.Fatalf("ApproveWithArgs(invalid) = %v, want an *ArgsError", err)
	}
	if len(reg.Pending()) != 1 {
		t.Fatal("an invalid edit resolved the request")
	}
	must(t, reg.ApproveWithArgs(id, "ada", []byte(`{"to":"a@b.c","body":"hello, corrected"}`)))
	if res := reg.Invoke(t.Context(), call); res.IsError || len(sent) != 1 || sent[0].Body != "hello, corrected" {
		t.Errorf("edited approval = %+v, sent %+v", res, sent)
	}
}

func TestEndSessionForgetsApprovals(t *testing.T) {
	var sent []mailArgs
	var mu sync.Mutex
	reg := runtime.NewRegistry(runtime.WithApprovalQueue())
	must(t, reg.Add(mailTool(&sent, &mu)))
	reg.Invoke(t.Context(), runtime.Call{ID: "c1", Session: "a", Name: "send_mail", Args: []byte(`{"to":"a@b.c","body":"hi"}`)})
	reg.Invoke(t.Context(), runtime.Call{ID: "c1", Session: "b", Name: "send_mail", Args: []byte(`{"to":"a@b.c","body":"hi"}`)})
	must(t, reg.EndSession(t.Context(), "a"))
	if p := reg.Pending(); len(p) != 1 || p[0].Session != "b" {
		t.Errorf("Pending after EndSession(a) = %+v", p)
	}
}

// One session's approvers abandoned by cancelled calls fill only that session's share: the
// approvals of other sessions still run (before, 64 cancelled calls of one session made every
// approval of every session fail).
func TestAbandonedApproversAreCountedPerSession(t *testing.T) {
	var sent []mailArgs
	var mu sync.Mutex
	entered := make(chan struct{})
	release := make(chan struct{})
	defer close(release)
	approver := runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
		if req.Session == "greedy" {
			entered <- struct{}{}
			<-release // ignores ctx: abandoned when its call is cancelled
		}
		return runtime.Decision{Approved: true, By: "test"}, nil
	})
	reg := runtime.NewRegistry(runtime.WithApprover(approver))
	require.NoError(t, reg.Add(mailTool(&sent, &mu)))
	call := func(ctx context.Context, session string, i int) runtime.Result {
		return reg.Invoke(ctx, runtime.Call{ID: fmt.Sprint(i), Session: session, Name: "send_mail", Args: []byte(`{"to":"a@b.c","body":"hi"}`)})
	}

	asked := 0
	for i := range runtime.DefaultMaxAbandoned {
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan runtime.Result, 1)
		go func() { done <- call(ctx, "greedy", i) }()
		select {
		case <-entered:
			asked++
			cancel()
			res := <-done
			require.Equal(t, runtime.KindCancelled, res.Kind, res.Text)
		case res := <-done:
			require.ErrorIs(t, res.Err, runtime.ErrTooManyAbandoned, "the session's share is full")
			require.Equal(t, runtime.KindDenied, res.Kind)
		}
		cancel()
	}
	assert.Equal(t, runtime.DefaultMaxAbandonedPerSession, asked, "the session's approvers are asked up to its share")

	for i, session := range []string{"other", "another"} {
		res := call(t.Context(), session, 100+i)
		assert.False(t, res.IsError, "session %s: %s", session, res.Text)
	}
	assert.Len(t, sent, 2)
}
