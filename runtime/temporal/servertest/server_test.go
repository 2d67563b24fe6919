package servertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/server/temporaltest"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	tooltemporal "github.com/toolgen-go/toolgen/runtime/temporal"
)

const taskQueue = "tools"

// safetyNet bounds each test's waits on the server: only a hung test reaches it.
const safetyNet = 3 * time.Minute

// quiet drops the SDK's logs: failed attempts are what these tests are about.
var quiet = tlog.NewStructuredLogger(slog.New(slog.DiscardHandler))

// server starts a Temporal server on loopback for t, stopped when t ends, and returns it, a
// client of it, and a ctx bounding the test's waits on it.
func server(t *testing.T) (context.Context, *temporaltest.TestServer, client.Client) {
	ctx, cancel := context.WithTimeout(context.Background(), safetyNet)
	t.Cleanup(cancel)
	ts := temporaltest.NewServer(temporaltest.WithT(t), temporaltest.WithBaseClientOptions(client.Options{Logger: quiet}))
	return ctx, ts, ts.GetDefaultClient()
}

// testWorker is a worker as a process of the host would run it: its own client connection and
// its own Activities and Workflows, sharing no memory with another worker.
type testWorker struct {
	w     worker.Worker
	c     client.Client
	close sync.Once
}

// stop stops the worker as a rolling restart does: running calls are cancelled, and the
// process, still connected, reports them.
func (tw *testWorker) stop() { tw.w.Stop() }

// exit stops the worker and closes its connection, as a process that exits: nothing reports
// for it any more.
func (tw *testWorker) exit() {
	tw.w.Stop()
	tw.close.Do(tw.c.Close)
}

// startWorker starts a worker of tools on the task queue, exited when t ends.
func startWorker(t *testing.T, ts *temporaltest.TestServer, identity string, opts tooltemporal.Options, tools ...runtime.Tool) *testWorker {
	t.Helper()
	c, err := client.Dial(client.Options{
		HostPort:  ts.GetFrontendHostPort(),
		Namespace: ts.GetDefaultNamespace(),
		Identity:  identity,
		Logger:    quiet,
	})
	require.NoError(t, err)
	acts, err := tooltemporal.NewActivities(tools)
	require.NoError(t, err)
	w := worker.New(c, taskQueue, worker.Options{Identity: identity})
	acts.Register(w)
	tooltemporal.NewWorkflows(tools, opts).Register(w)
	require.NoError(t, w.Start())
	tw := &testWorker{w: w, c: c}
	t.Cleanup(tw.exit)
	return tw
}

func deployTool(r *fixture.Journal) runtime.Tool {
	deploy := fixture.JSONTool("deploy", func(_ context.Context, args map[string]any) runtime.Result {
		r.Add("deploy %v", args["env"])
		return runtime.TextResult(fmt.Sprintf("deployed to %v", args["env"]))
	})
	deploy.Permission = runtime.PermissionConfirm
	deploy.ConfirmReason = "changes production"
	return deploy
}

// pending asks the workflow which calls wait for a decision until some do. A query is
// answered by a worker, from the workflow's state (replayed from its history when the
// worker has not run it yet).
func pending(ctx context.Context, t *testing.T, c client.Client, workflowID string) []tooltemporal.PendingApproval {
	t.Helper()
	for {
		var list []tooltemporal.PendingApproval
		v, err := c.QueryWorkflow(ctx, workflowID, "", tooltemporal.PendingQuery)
		if err == nil {
			require.NoError(t, v.Get(&list))
			if len(list) > 0 {
				return list
			}
		}
		select {
		case <-ctx.Done():
			require.FailNow(t, "no call became pending", "last error: %v", err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// A confirm call waits for its approval while the worker that started the workflow stops
// and another one starts; the approval, given then, runs the call exactly once, on the new
// worker, and the workflow completes with its result.
func TestApprovalSurvivesAWorkerRestart(t *testing.T) {
	ctx, ts, c := server(t)
	var r fixture.Journal
	tool := deployTool(&r)

	first := startWorker(t, ts, "worker-1", tooltemporal.Options{}, tool)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "turn-restart", TaskQueue: taskQueue},
		tooltemporal.TurnWorkflow, []tooltemporal.Call{{ID: "c1", Name: "deploy", Args: json.RawMessage(`{"env":"prod"}`), Session: "s"}})
	require.NoError(t, err)
	want := []tooltemporal.PendingApproval{{CallID: "c1", Tool: "deploy", Session: "s", Args: json.RawMessage(`{"env":"prod"}`), Reason: "changes production"}}
	assert.Equal(t, want, pending(ctx, t, c, run.GetID()), "worker-1 lists the call")

	first.exit()
	assert.Zero(t, r.Count("deploy prod"), "nothing ran before the decision")

	startWorker(t, ts, "worker-2", tooltemporal.Options{}, tool)
	assert.Equal(t, want, pending(ctx, t, c, run.GetID()), "worker-2 rebuilt the wait from the history")
	require.NoError(t, c.SignalWorkflow(ctx, run.GetID(), "", tooltemporal.ApprovalSignal,
		tooltemporal.Approval{CallID: "c1", Approved: true, By: "alice"}))

	var results []tooltemporal.Result
	require.NoError(t, run.Get(ctx, &results))
	assert.Equal(t, []tooltemporal.Result{{Text: "deployed to prod", Attempts: 1}}, results)
	assert.Equal(t, 1, r.Count("deploy prod"), "the approved call ran exactly once")

	started := historyEvents(ctx, t, c, run.GetID(), enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED)
	require.Len(t, started, 1, "one activity, one attempt")
	assert.Equal(t, "worker-2", started[0].GetActivityTaskStartedEventAttributes().GetIdentity())
}

// historyEvents returns the events of one type in the history of a closed workflow.
func historyEvents(ctx context.Context, t *testing.T, c client.Client, workflowID string, kind enumspb.EventType) []*historypb.HistoryEvent {
	t.Helper()
	var events []*historypb.HistoryEvent
	it := c.GetWorkflowHistory(ctx, workflowID, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		e, err := it.Next()
		require.NoError(t, err)
		if e.GetEventType() == kind {
			events = append(events, e)
		}
	}
	return events
}

// The server applies the tools' directives: a retryable failure is retried under the tool's
// policy, invalid arguments and runtime.Permanent errors are not, a call past its
// //tool:timeout is a timeout the model reads, and the activities are scheduled with the
// mapped start-to-close timeout, heartbeat timeout and retry policy.
func TestDirectivesOnTheServer(t *testing.T) {
	ctx, ts, c := server(t)
	var r fixture.Journal

	var flakyMu sync.Mutex
	flakyRuns := 0
	flaky := fixture.JSONTool("flaky", func(context.Context, map[string]any) runtime.Result {
		r.Add("flaky")
		flakyMu.Lock()
		defer flakyMu.Unlock()
		if flakyRuns++; flakyRuns < 3 {
			return runtime.ErrorResult(runtime.WithKind(errors.New("backend down"), runtime.KindUnavailable))
		}
		return runtime.TextResult("done")
	})
	flaky.Retry = runtime.RetryPolicy{Max: 3, Delay: 10 * time.Millisecond, Backoff: 2, MaxDelay: time.Second}
	charge := fixture.JSONTool("charge", func(context.Context, map[string]any) runtime.Result {
		r.Add("charge")
		return runtime.ErrorResult(runtime.Permanent(runtime.WithKind(errors.New("card declined"), runtime.KindUnavailable)))
	})
	charge.Retry = runtime.RetryPolicy{Max: 5, Delay: 10 * time.Millisecond}
	lookup := fixture.JSONTool("lookup", func(context.Context, map[string]any) runtime.Result {
		r.Add("lookup")
		return runtime.TextResult("found")
	})
	lookup.Retry = runtime.RetryPolicy{Max: 5, Delay: 10 * time.Millisecond}
	slow := fixture.JSONTool("slow", func(ctx context.Context, _ map[string]any) runtime.Result {
		r.Add("slow")
		<-ctx.Done()
		return runtime.ErrorResult(ctx.Err())
	})
	slow.Timeout = 200 * time.Millisecond

	opts := tooltemporal.Options{Heartbeat: 20 * time.Second}
	startWorker(t, ts, "worker", opts, flaky, charge, lookup, slow)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "turn-directives", TaskQueue: taskQueue},
		tooltemporal.TurnWorkflow, []tooltemporal.Call{
			{ID: "c1", Name: "flaky"},
			{ID: "c2", Name: "charge"},
			{ID: "c3", Name: "lookup", Args: json.RawMessage(`[1]`)},
			{ID: "c4", Name: "slow"},
		})
	require.NoError(t, err)
	var results []tooltemporal.Result
	require.NoError(t, run.Get(ctx, &results))
	require.Len(t, results, 4)

	assert.Equal(t, tooltemporal.Result{Text: "done", Attempts: 3}, results[0], "retried by the server")
	assert.Equal(t, 3, r.Count("flaky"))

	assert.Equal(t, tooltemporal.Result{Text: "card declined", IsError: true, Kind: runtime.KindUnavailable, Attempts: 1}, results[1])
	assert.Equal(t, 1, r.Count("charge"), "runtime.Permanent is not retried")

	assert.Equal(t, runtime.KindInvalidInput, results[2].Kind)
	assert.Equal(t, 1, results[2].Attempts, "invalid arguments are not retried")
	assert.Zero(t, r.Count("lookup"))

	assert.Equal(t, runtime.KindTimeout, results[3].Kind)
	assert.Equal(t, "slow did not finish within its time limit of 200ms.", results[3].Text)
	assert.Equal(t, 1, r.Count("slow"))

	scheduled := map[string]*historypb.ActivityTaskScheduledEventAttributes{}
	for _, e := range historyEvents(ctx, t, c, run.GetID(), enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
		attrs := e.GetActivityTaskScheduledEventAttributes()
		var call tooltemporal.Call
		require.NoError(t, converter.GetDefaultDataConverter().FromPayloads(attrs.GetInput(), &call))
		scheduled[call.Name] = attrs
	}
	require.Len(t, scheduled, 4, "one activity a call, whatever its attempts")
	for name, attrs := range scheduled {
		// The server trims a heartbeat timeout to the start-to-close timeout.
		assert.Equal(t, min(20*time.Second, attrs.GetStartToCloseTimeout().AsDuration()), attrs.GetHeartbeatTimeout().AsDuration(), name)
		assert.Subset(t, attrs.GetRetryPolicy().GetNonRetryableErrorTypes(), []string{"invalid_input", "denied", "limit", "permanent"}, name)
	}
	assert.Equal(t, 1200*time.Millisecond, scheduled["slow"].GetStartToCloseTimeout().AsDuration(), "//tool:timeout and a second of grace")
	assert.Equal(t, runtime.DefaultTimeout+time.Second, scheduled["flaky"].GetStartToCloseTimeout().AsDuration())
	policy := scheduled["flaky"].GetRetryPolicy()
	assert.Equal(t, int32(4), policy.GetMaximumAttempts(), "three retries: four attempts")
	assert.Equal(t, 10*time.Millisecond, policy.GetInitialInterval().AsDuration())
	assert.Equal(t, 2.0, policy.GetBackoffCoefficient())
	assert.Equal(t, time.Second, policy.GetMaximumInterval().AsDuration())
	assert.Equal(t, int32(1), scheduled["slow"].GetRetryPolicy().GetMaximumAttempts(), "no //tool:retry: one attempt")
}

// A worker stopping while a call runs cancels the call's context. The attempt is retried
// under the tool's //tool:retry on a worker still running, whether the stopped worker's
// process exits before the handler returns (the server notices at the heartbeat timeout) or
// lives on and reports the interrupted attempt (a rolling restart): the call does not end as
// cancelled. (When the worker has stopped, the SDK sometimes reports the attempt as failed
// with the context's error instead of the activity's result; that too is retried.)
func TestACallOnAStoppingWorkerIsRetriedElsewhere(t *testing.T) {
	for _, exits := range []bool{true, false} {
		t.Run(map[bool]string{true: "the process exits", false: "the process lives on"}[exits], func(t *testing.T) {
			ctx, ts, c := server(t)
			var r fixture.Journal
			started, exited := make(chan struct{}), make(chan struct{})
			index := fixture.JSONTool("index", func(ctx context.Context, _ map[string]any) runtime.Result {
				r.Add("index")
				if r.Count("index") > 1 {
					return runtime.TextResult("indexed")
				}
				close(started)
				<-ctx.Done() // the worker stops
				if exits {
					<-exited
				}
				return runtime.ErrorResult(ctx.Err())
			})
			index.Retry = runtime.RetryPolicy{Max: 2, Delay: 10 * time.Millisecond}
			opts := tooltemporal.Options{Heartbeat: 2 * time.Second}

			first := startWorker(t, ts, "worker-1", opts, index)
			run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "turn-stop", TaskQueue: taskQueue},
				tooltemporal.TurnWorkflow, []tooltemporal.Call{{ID: "c1", Name: "index"}})
			require.NoError(t, err)
			wait(ctx, t, started)
			startWorker(t, ts, "worker-2", opts, index)
			if exits {
				first.exit()
				close(exited)
			} else {
				first.stop()
			}

			var results []tooltemporal.Result
			require.NoError(t, run.Get(ctx, &results))
			assert.Equal(t, []tooltemporal.Result{{Text: "indexed", Attempts: 2}}, results)
			assert.Equal(t, 2, r.Count("index"))
			last := historyEvents(ctx, t, c, run.GetID(), enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED)
			require.Len(t, last, 1, "the history keeps the last attempt")
			assert.Equal(t, "worker-2", last[0].GetActivityTaskStartedEventAttributes().GetIdentity())
		})
	}
}

// wait waits for ch to close, or fails when ctx ends first.
func wait(ctx context.Context, t *testing.T, ch <-chan struct{}) {
	t.Helper()
	select {
	case <-ch:
	case <-ctx.Done():
		require.FailNow(t, "gave up waiting", ctx.Err().Error())
	}
}
