package runtime_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
)

type progressReport struct {
	Done, Total float64
	Message     string
}

func TestProgressReachesTheHookAndIsANoOpElsewhere(t *testing.T) {
	tool := jsonTool("count", func(ctx context.Context, _ struct{}) runtime.Result {
		for i := range 3 {
			runtime.Progress(ctx, float64(i+1), 3, "step")
		}
		return runtime.TextResult("done")
	})
	reg := newRegistry(t, tool)

	// Without hooks nothing happens and nothing breaks.
	res := reg.Invoke(t.Context(), runtime.Call{Name: "count", Args: []byte(`{}`)})
	require.False(t, res.IsError, res.Text)
	runtime.Progress(t.Context(), 1, 1, "outside a call")

	var got []progressReport
	ctx := runtime.WithCallHooks(t.Context(), &runtime.CallHooks{Progress: func(_ context.Context, done, total float64, msg string) {
		got = append(got, progressReport{done, total, msg})
	}})
	res = reg.Invoke(ctx, runtime.Call{Name: "count", Args: []byte(`{}`)})
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, []progressReport{{1, 3, "step"}, {2, 3, "step"}, {3, 3, "step"}}, got)
}

func TestHookApproverDecidesOnlyWhenTheRegistryDoesNot(t *testing.T) {
	var sent []mailArgs
	var mu sync.Mutex
	var asked []runtime.ApprovalRequest
	hooks := &runtime.CallHooks{Approver: runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
		asked = append(asked, req)
		return runtime.Decision{Approved: req.RawArgs != nil && string(req.RawArgs) == `{"body":"hi","to":"a@b.c"}`, Reason: "not that one"}, nil
	})}
	ctx := runtime.WithCallHooks(t.Context(), hooks)

	reg := newRegistry(t, mailTool(&sent, &mu))
	require.False(t, reg.DecidesApprovals())
	res := reg.Invoke(ctx, runtime.Call{Name: "send_mail", Args: []byte(`{"to":"a@b.c","body":"hi"}`)})
	require.False(t, res.IsError, res.Text)
	res = reg.Invoke(ctx, runtime.Call{Name: "send_mail", Args: []byte(`{"to":"x@b.c","body":"hi"}`)})
	assert.Equal(t, runtime.KindDenied, res.Kind)
	assert.Contains(t, res.Text, "not that one")
	assert.Len(t, sent, 1, "one approved call ran once, the denied one did not")
	assert.Len(t, asked, 2)
	assert.Equal(t, "sends mail for the user", asked[0].Reason)

	// A registry with its own approver keeps it: the hook is not asked.
	own := runtime.NewRegistry(runtime.WithApprover(runtime.ApproverFunc(func(context.Context, runtime.ApprovalRequest) (runtime.Decision, error) {
		return runtime.Decision{Reason: "the registry's approver says no"}, nil
	})))
	require.NoError(t, own.Add(mailTool(&sent, &mu)))
	require.True(t, own.DecidesApprovals())
	res = own.Invoke(ctx, runtime.Call{Name: "send_mail", Args: []byte(`{"to":"a@b.c","body":"hi"}`)})
	assert.Contains(t, res.Text, "the registry's approver says no")
	assert.Len(t, asked, 2)
	queued := runtime.NewRegistry(runtime.WithApprovalQueue())
	require.NoError(t, queued.Add(mailTool(&sent, &mu)))
	res = queued.Invoke(ctx, runtime.Call{Name: "send_mail", Args: []byte(`{"to":"a@b.c","body":"hi"}`)})
	assert.NotEmpty(t, res.PendingApproval, "the queue still holds the call")
	assert.Len(t, asked, 2)
}

func TestOnChangeAndRemove(t *testing.T) {
	reg := runtime.NewRegistry()
	changes := 0
	cancel := reg.OnChange(func() {
		changes++
		_ = reg.Names() // the registry's lock is not held
	})
	require.NoError(t, reg.Add(jsonTool("a", func(context.Context, struct{}) runtime.Result { return runtime.TextResult("") })))
	assert.Equal(t, 1, changes)
	require.Error(t, reg.Add(runtime.Tool{Name: "a"}))
	assert.Equal(t, 1, changes, "a refused Add changes nothing")
	assert.Equal(t, 0, reg.Remove("nope"))
	assert.Equal(t, 1, changes)
	assert.Equal(t, 1, reg.Remove("a", "nope"))
	assert.Equal(t, 2, changes)
	assert.Empty(t, reg.Names())
	res := reg.Invoke(t.Context(), runtime.Call{Name: "a"})
	assert.True(t, res.IsError, "a removed tool is unknown")
	cancel()
	require.NoError(t, reg.Add(jsonTool("b", func(context.Context, struct{}) runtime.Result { return runtime.TextResult("") })))
	assert.Equal(t, 2, changes, "cancelled")
}

// TestUndecidedPassesTheDecisionOn: an approver that decides only some calls returns
// ErrUndecided for the others, which then go to the queue, else to the call's hook approver,
// else are refused.
func TestUndecidedPassesTheDecisionOn(t *testing.T) {
	var sent []mailArgs
	var mu sync.Mutex
	partial := runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
		if strings.Contains(string(req.RawArgs), "trusted@b.c") {
			return runtime.Decision{Approved: true, By: "allowlist"}, nil
		}
		return runtime.Decision{}, runtime.ErrUndecided
	})
	trusted := []byte(`{"to":"trusted@b.c","body":"hi"}`)
	other := []byte(`{"to":"x@b.c","body":"hi"}`)

	// No queue, no hook: refused as if there were no approver.
	reg := runtime.NewRegistry(runtime.WithApprover(partial))
	require.NoError(t, reg.Add(mailTool(&sent, &mu)))
	require.False(t, reg.Invoke(t.Context(), runtime.Call{Name: "send_mail", Args: trusted}).IsError)
	res := reg.Invoke(t.Context(), runtime.Call{Name: "send_mail", Args: other})
	assert.Equal(t, runtime.KindPermission, res.Kind)
	assert.ErrorIs(t, res.Err, runtime.ErrNoApprover)

	// A hook approver (MCP elicitation) gets the undecided call.
	var asked int
	ctx := runtime.WithCallHooks(t.Context(), &runtime.CallHooks{Approver: runtime.ApproverFunc(func(context.Context, runtime.ApprovalRequest) (runtime.Decision, error) {
		asked++
		return runtime.Decision{Approved: true, By: "user"}, nil
	})})
	require.False(t, reg.Invoke(ctx, runtime.Call{Name: "send_mail", Args: other}).IsError)
	require.False(t, reg.Invoke(ctx, runtime.Call{Name: "send_mail", Args: trusted}).IsError)
	assert.Equal(t, 1, asked, "only the undecided call reaches the hook")

	// With a queue, the undecided call waits there.
	queued := runtime.NewRegistry(runtime.WithApprover(partial), runtime.WithApprovalQueue())
	require.NoError(t, queued.Add(mailTool(&sent, &mu)))
	res = queued.Invoke(ctx, runtime.Call{Name: "send_mail", Args: other})
	assert.NotEmpty(t, res.PendingApproval)
	assert.Equal(t, 1, asked, "the queue, not the hook")
	assert.Len(t, sent, 3)
}

// Calls read the registry's tools and options without its lock, from a table the first call
// after a change makes: every change (Add, Remove, Use) is seen by the next call, also while
// other calls run.
func TestCallsSeeEveryChangeOfTheRegistry(t *testing.T) {
	reply := func(text string) runtime.Tool {
		return jsonTool(text, func(context.Context, struct{}) runtime.Result { return runtime.TextResult(text) })
	}
	reg := newRegistry(t, reply("a"))
	call := func(name string) runtime.Result {
		return reg.Invoke(t.Context(), runtime.Call{Name: name, Args: []byte(`{}`)})
	}
	require.Equal(t, "a", call("a").Text)
	require.True(t, call("b").IsError)

	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Go(func() { // calls racing with the changes below
		for {
			select {
			case <-stop:
				return
			default:
				call("a")
			}
		}
	})
	require.NoError(t, reg.Add(reply("b")))
	assert.Equal(t, "b", call("b").Text)
	reg.Use(func(next runtime.Handler) runtime.Handler {
		return func(ctx context.Context, c runtime.Call) runtime.Result {
			res := next(ctx, c)
			res.Text += " (seen)"
			return res
		}
	})
	assert.Equal(t, "b (seen)", call("b").Text)
	assert.Equal(t, 1, reg.Remove("b"))
	assert.True(t, call("b").IsError)
	assert.Equal(t, "a (seen)", call("a").Text)
	close(stop)
	wg.Wait()
}

func TestPreparedRunsAfterApprovalAndBeforeTheHandler(t *testing.T) {
	var sent []mailArgs
	var mu sync.Mutex
	var order []string
	hooks := &runtime.CallHooks{
		Approver: runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
			order = append(order, "approve")
			return runtime.Decision{Approved: strings.Contains(string(req.RawArgs), "a@b.c")}, nil
		}),
		Prepared: func(context.Context) error {
			mu.Lock()
			order = append(order, "prepared", "sent:"+strconv.Itoa(len(sent)))
			mu.Unlock()
			return nil
		},
	}
	reg := newRegistry(t, mailTool(&sent, &mu))
	res := reg.Invoke(runtime.WithCallHooks(t.Context(), hooks), runtime.Call{Name: "send_mail", Args: []byte(`{"to":"a@b.c","body":"hi"}`)})
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, []string{"approve", "prepared", "sent:0"}, order)
	assert.Len(t, sent, 1)

	// A denied call, or one whose arguments are refused, never reaches it.
	order = nil
	res = reg.Invoke(runtime.WithCallHooks(t.Context(), hooks), runtime.Call{Name: "send_mail", Args: []byte(`{"to":"x@b.c","body":"hi"}`)})
	assert.Equal(t, runtime.KindDenied, res.Kind)
	res = reg.Invoke(runtime.WithCallHooks(t.Context(), hooks), runtime.Call{Name: "send_mail", Args: []byte(`{"to":1}`)})
	assert.Equal(t, runtime.KindInvalidInput, res.Kind)
	assert.Equal(t, []string{"approve"}, order)

	// Its error ends the call unrun, worded for the model.
	hooks.Prepared = func(context.Context) error { return errors.New("too many tasks; wait for one to finish") }
	res = reg.Invoke(runtime.WithCallHooks(t.Context(), hooks), runtime.Call{Name: "send_mail", Args: []byte(`{"to":"a@b.c","body":"again"}`)})
	assert.True(t, res.IsError)
	assert.Equal(t, runtime.KindUnavailable, res.Kind)
	assert.Equal(t, "too many tasks; wait for one to finish", res.Text)
	assert.Len(t, sent, 1, "the refused call did not run")
}
