package temporal_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	tlog "go.temporal.io/sdk/log"
	sdktemporal "go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	tooltemporal "github.com/toolgen-go/toolgen/runtime/temporal"
)

// jsonTool is a tool whose arguments are any JSON object, handled by run.
var jsonTool = fixture.JSONTool

// quiet drops the test environment's logs: failed attempts are what these tests are about.
var quiet = tlog.NewStructuredLogger(slog.New(slog.DiscardHandler))

// env is a Temporal test environment with tools' activities and the Turn workflow.
func env(t *testing.T, opts tooltemporal.Options, tools ...runtime.Tool) *testsuite.TestWorkflowEnvironment {
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(quiet)
	e := suite.NewTestWorkflowEnvironment()
	acts, err := tooltemporal.NewActivities(tools)
	require.NoError(t, err)
	acts.Register(e)
	tooltemporal.NewWorkflows(tools, opts).Register(e)
	return e
}

// turn runs the Turn workflow on calls and returns its results.
func turn(t *testing.T, e *testsuite.TestWorkflowEnvironment, calls ...tooltemporal.Call) []tooltemporal.Result {
	e.ExecuteWorkflow(tooltemporal.TurnWorkflow, calls)
	require.True(t, e.IsWorkflowCompleted())
	require.NoError(t, e.GetWorkflowError())
	var results []tooltemporal.Result
	require.NoError(t, e.GetWorkflowResult(&results))
	require.Len(t, results, len(calls))
	return results
}

func TestActivityOptionsMapDirectives(t *testing.T) {
	flows := tooltemporal.NewWorkflows(nil, tooltemporal.Options{TaskQueue: "tools", Heartbeat: 5 * time.Second})
	tool := runtime.Tool{Name: "fetch", Timeout: 10 * time.Second, Retry: runtime.RetryPolicy{Max: 3, Delay: time.Second, Backoff: 3, MaxDelay: 20 * time.Second}}
	ao := flows.ActivityOptions(tool)
	assert.Equal(t, "tools", ao.TaskQueue)
	assert.Equal(t, 11*time.Second, ao.StartToCloseTimeout, "the tool's timeout and a second of grace")
	assert.Equal(t, 5*time.Second, ao.HeartbeatTimeout)
	assert.Equal(t, int32(4), ao.RetryPolicy.MaximumAttempts, "three retries: four attempts")
	assert.Equal(t, time.Second, ao.RetryPolicy.InitialInterval)
	assert.Equal(t, 3.0, ao.RetryPolicy.BackoffCoefficient)
	assert.Equal(t, 20*time.Second, ao.RetryPolicy.MaximumInterval)
	assert.Subset(t, ao.RetryPolicy.NonRetryableErrorTypes, []string{"invalid_input", "denied", "limit", "permanent"})
	assert.NotContains(t, ao.RetryPolicy.NonRetryableErrorTypes, "unavailable")

	tool = runtime.Tool{Name: "crunch", NoTimeout: true}
	ao = flows.ActivityOptions(tool)
	assert.Equal(t, 24*time.Hour+time.Second, ao.StartToCloseTimeout, "//tool:timeout none is bounded for Temporal")
	assert.Equal(t, int32(1), ao.RetryPolicy.MaximumAttempts, "no //tool:retry: one attempt")
	assert.Equal(t, runtime.DefaultTimeout+time.Second, flows.ActivityOptions(runtime.Tool{Name: "plain"}).StartToCloseTimeout)
}

func TestRetriesRunOnTemporal(t *testing.T) {
	var j fixture.Journal
	attempts := 0
	flaky := jsonTool("flaky", func(ctx context.Context, _ map[string]any) runtime.Result {
		attempts++
		j.Add("run")
		if attempts < 3 {
			return runtime.ErrorResult(runtime.WithKind(errors.New("backend down"), runtime.KindUnavailable))
		}
		return runtime.TextResult("done")
	})
	flaky.Retry = runtime.RetryPolicy{Max: 3, Delay: time.Minute}
	e := env(t, tooltemporal.Options{}, flaky)

	res := turn(t, e, tooltemporal.Call{ID: "c1", Name: "flaky"})[0]
	assert.Equal(t, tooltemporal.Result{Text: "done", Attempts: 3}, res)
	assert.Equal(t, 3, j.Count("run"), "each attempt is one activity attempt: the registry does not retry inside it")
}

func TestNonRetryableFailures(t *testing.T) {
	var j fixture.Journal
	permanent := jsonTool("charge", func(context.Context, map[string]any) runtime.Result {
		j.Add("charge")
		return runtime.ErrorResult(runtime.Permanent(runtime.WithKind(errors.New("card declined"), runtime.KindUnavailable)))
	})
	permanent.Retry = runtime.RetryPolicy{Max: 5}
	validated := jsonTool("lookup", func(context.Context, map[string]any) runtime.Result {
		j.Add("lookup")
		return runtime.TextResult("found")
	})
	validated.Retry = runtime.RetryPolicy{Max: 5}

	client := runtime.Tool{Name: "ask_user", Client: true}
	e := env(t, tooltemporal.Options{}, permanent, validated, client)

	results := turn(t, e,
		tooltemporal.Call{ID: "c1", Name: "charge"},
		tooltemporal.Call{ID: "c2", Name: "lookup", Args: json.RawMessage(`[1]`)},
		tooltemporal.Call{ID: "c3", Name: "lokup"},
		tooltemporal.Call{ID: "c4", Name: "ask_user"})
	assert.True(t, results[0].IsError)
	assert.Equal(t, "card declined", results[0].Text)
	assert.Equal(t, 1, results[0].Attempts, "runtime.Permanent is not retried")
	assert.Equal(t, 1, j.Count("charge"))

	assert.Equal(t, runtime.KindInvalidInput, results[1].Kind)
	assert.Contains(t, results[1].Text, "Correct the arguments and call lookup again.")
	assert.Equal(t, 1, results[1].Attempts, "invalid arguments are not retried")
	assert.Zero(t, j.Count("lookup"))

	assert.Equal(t, runtime.KindNotFound, results[2].Kind)
	assert.Contains(t, results[2].Text, `did you mean "lookup"?`)

	assert.Equal(t, runtime.KindPermission, results[3].Kind, "a client tool is not run by a worker")
}

func TestTimeoutEndsTheAttemptWithAResultForTheModel(t *testing.T) {
	slow := jsonTool("slow", func(ctx context.Context, _ map[string]any) runtime.Result {
		<-ctx.Done()
		return runtime.ErrorResult(ctx.Err())
	})
	slow.Timeout = 50 * time.Millisecond
	res := turn(t, env(t, tooltemporal.Options{}, slow), tooltemporal.Call{ID: "c1", Name: "slow"})[0]
	assert.Equal(t, runtime.KindTimeout, res.Kind)
	assert.Equal(t, "slow did not finish within its time limit of 50ms.", res.Text)
}

// runtime.Progress in a handler is a heartbeat of its activity.
func TestProgressIsAHeartbeat(t *testing.T) {
	long := jsonTool("index", func(ctx context.Context, _ map[string]any) runtime.Result {
		for i := 1; i <= 3; i++ {
			runtime.Progress(ctx, float64(i), 3, "indexing")
		}
		return runtime.TextResult("indexed")
	})
	e := env(t, tooltemporal.Options{}, long)
	beats := progressBeats(t, e)
	assert.Equal(t, "indexed", turn(t, e, tooltemporal.Call{ID: "c1", Name: "index"})[0].Text)
	seen := beats()
	// Temporal throttles heartbeats: the first goes out at once, later ones at most every
	// 80% of the heartbeat timeout (this call ends before).
	require.NotEmpty(t, seen)
	assert.Equal(t, &tooltemporal.ProgressDetails{Done: 1, Total: 3, Message: "indexing"}, seen[0])
}

func deployTool(j *fixture.Journal) runtime.Tool {
	deploy := jsonTool("deploy", func(_ context.Context, args map[string]any) runtime.Result {
		j.Add("deploy %v", args["env"])
		return runtime.TextResult(fmt.Sprintf("deployed to %v", args["env"]))
	})
	deploy.Permission = runtime.PermissionConfirm
	deploy.ConfirmReason = "changes production"
	deploy.Risk = runtime.RiskHigh
	return deploy
}

// A confirm call waits in the workflow, listed by the pending query, until a decision
// arrives hours later; it then runs exactly once, with the approver's arguments.
func TestApprovalWaitsForASignal(t *testing.T) {
	var j fixture.Journal
	e := env(t, tooltemporal.Options{}, deployTool(&j))
	var pending []tooltemporal.PendingApproval
	e.RegisterDelayedCallback(func() {
		v, err := e.QueryWorkflow(tooltemporal.PendingQuery)
		require.NoError(t, err)
		require.NoError(t, v.Get(&pending))
		assert.Zero(t, j.Count("deploy staging"), "nothing runs before the decision")
		e.SignalWorkflow(tooltemporal.ApprovalSignal, tooltemporal.Approval{CallID: "c1", Approved: true, By: "alice", Args: json.RawMessage(`{"env":"staging"}`)})
	}, 3*time.Hour)

	res := turn(t, e, tooltemporal.Call{ID: "c1", Name: "deploy", Args: json.RawMessage(`{"env":"prod"}`), Session: "s"})[0]
	assert.Equal(t, []tooltemporal.PendingApproval{{CallID: "c1", Tool: "deploy", Session: "s", Args: json.RawMessage(`{"env":"prod"}`), Reason: "changes production", Risk: runtime.RiskHigh}}, pending)
	assert.Equal(t, "deployed to staging", res.Text)
	assert.Equal(t, 1, j.Count("deploy staging"))
	assert.Zero(t, j.Count("deploy prod"))
}

func TestDeniedAndUndecidedCallsDoNotRun(t *testing.T) {
	var j fixture.Journal
	t.Run("denied", func(t *testing.T) {
		e := env(t, tooltemporal.Options{}, deployTool(&j))
		e.RegisterDelayedCallback(func() {
			e.SignalWorkflow(tooltemporal.ApprovalSignal, tooltemporal.Approval{CallID: "c1", By: "bob", Reason: "freeze week"})
		}, time.Minute)
		res := turn(t, e, tooltemporal.Call{ID: "c1", Name: "deploy", Args: json.RawMessage(`{"env":"prod"}`)})[0]
		assert.Equal(t, runtime.KindDenied, res.Kind)
		assert.Contains(t, res.Text, "freeze week")
	})
	t.Run("nobody decided", func(t *testing.T) {
		e := env(t, tooltemporal.Options{ApprovalTimeout: 24 * time.Hour}, deployTool(&j))
		res := turn(t, e, tooltemporal.Call{ID: "c1", Name: "deploy", Args: json.RawMessage(`{"env":"prod"}`)})[0]
		assert.Equal(t, runtime.KindDenied, res.Kind)
		assert.Contains(t, res.Text, "nobody approved it in time")
	})
	t.Run("invalid arguments are refused before anyone is asked", func(t *testing.T) {
		e := env(t, tooltemporal.Options{}, deployTool(&j))
		res := turn(t, e, tooltemporal.Call{ID: "c1", Name: "deploy", Args: json.RawMessage(`"prod"`)})[0]
		assert.Equal(t, runtime.KindInvalidInput, res.Kind)
	})
	t.Run("an activity without the workflow's decision refuses", func(t *testing.T) {
		acts, err := tooltemporal.NewActivities([]runtime.Tool{deployTool(&j)})
		require.NoError(t, err)
		var suite testsuite.WorkflowTestSuite
		suite.SetLogger(quiet)
		ae := suite.NewTestActivityEnvironment()
		acts.Register(ae)
		_, err = ae.ExecuteActivity(tooltemporal.InvokeActivity, tooltemporal.Call{ID: "c9", Name: "deploy", Args: json.RawMessage(`{"env":"prod"}`)})
		assert.Error(t, err)
	})
	assert.Empty(t, j.Lines(), "no deploy ran")
}

// An attempt cut short by its worker stopping (a rolling restart) is a retryable failure, so
// that Temporal retries it on another worker, not a cancellation that ends the call.
func TestAnAttemptItsWorkerStopsIsRetryable(t *testing.T) {
	stopped, stop := context.WithCancelCause(context.Background())
	stop(worker.ErrWorkerShutdown)
	index := jsonTool("index", func(ctx context.Context, _ map[string]any) runtime.Result {
		<-ctx.Done()
		return runtime.ErrorResult(ctx.Err())
	})
	acts, err := tooltemporal.NewActivities([]runtime.Tool{index})
	require.NoError(t, err)
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(quiet)
	ae := suite.NewTestActivityEnvironment()
	ae.SetWorkerOptions(worker.Options{BackgroundActivityContext: stopped})
	acts.Register(ae)
	_, err = ae.ExecuteActivity(tooltemporal.InvokeActivity, tooltemporal.Call{ID: "c1", Name: "index"})
	var appErr *sdktemporal.ApplicationError
	require.ErrorAs(t, err, &appErr)
	assert.Equal(t, tooltemporal.ErrWorkerStopped, appErr.Type())
	assert.False(t, appErr.NonRetryable())
	var res tooltemporal.Result
	require.NoError(t, appErr.Details(&res))
	assert.Equal(t, tooltemporal.Result{Text: "index was interrupted: the worker running it shut down.", IsError: true, Kind: runtime.KindUnavailable, Attempts: 1}, res)
}

// InvokeAll's semantics: calls of a group run at once, a sequential call alone between them,
// results in call order.
func TestInvokeAllHasSequentialBarriers(t *testing.T) {
	var j fixture.Journal
	var running, peak int
	var mu sync.Mutex
	step := func(name string) runtime.Tool {
		return jsonTool(name, func(context.Context, map[string]any) runtime.Result {
			mu.Lock()
			running++
			peak = max(peak, running)
			mu.Unlock()
			j.Add("start %s", name)
			time.Sleep(20 * time.Millisecond) // lets a concurrent call start, if any may
			j.Add("end %s", name)
			mu.Lock()
			running--
			mu.Unlock()
			return runtime.TextResult(name + " ok")
		})
	}
	barrier := step("migrate")
	barrier.Sequential = true
	e := env(t, tooltemporal.Options{}, step("a"), step("b"), barrier, step("c"))

	results := turn(t, e,
		tooltemporal.Call{ID: "1", Name: "a"}, tooltemporal.Call{ID: "2", Name: "b"},
		tooltemporal.Call{ID: "3", Name: "migrate"}, tooltemporal.Call{ID: "4", Name: "c"})
	var texts []string
	for _, r := range results {
		texts = append(texts, r.Text)
	}
	assert.Equal(t, []string{"a ok", "b ok", "migrate ok", "c ok"}, texts)

	at := func(line string) int { return slices.Index(j.Lines(), line) }
	assert.Less(t, at("end a"), at("start migrate"))
	assert.Less(t, at("end b"), at("start migrate"))
	assert.Less(t, at("end migrate"), at("start c"))
	assert.Equal(t, 2, peak, "a and b ran at the same time")
}

// While a handler runs, the activity keeps beating, and each beat repeats the last progress
// (a heartbeat without details would clear it).
func TestHeartbeatsRepeatTheLastProgress(t *testing.T) {
	long := jsonTool("index", func(ctx context.Context, _ map[string]any) runtime.Result {
		runtime.Progress(ctx, 1, 2, "half")
		time.Sleep(2500 * time.Millisecond) // past Temporal's heartbeat throttle (80% of the timeout)
		return runtime.TextResult("indexed")
	})
	e := env(t, tooltemporal.Options{Heartbeat: 2 * time.Second}, long)
	recorded := progressBeats(t, e)
	assert.Equal(t, "indexed", turn(t, e, tooltemporal.Call{ID: "c1", Name: "index"})[0].Text)
	beats := recorded()
	require.GreaterOrEqual(t, len(beats), 2, "the activity beats on its own while the handler runs")
	for _, b := range beats {
		assert.Equal(t, &tooltemporal.ProgressDetails{Done: 1, Total: 2, Message: "half"}, b, "every beat repeats the last progress")
	}
}

// progressBeats records the heartbeats e sees; the function it returns lists their
// ProgressDetails, nil for a beat without details.
func progressBeats(t *testing.T, e *testsuite.TestWorkflowEnvironment) func() []*tooltemporal.ProgressDetails {
	var (
		mu    sync.Mutex
		beats []*tooltemporal.ProgressDetails
	)
	e.SetOnActivityHeartbeatListener(func(_ *activity.Info, details converter.EncodedValues) {
		var p *tooltemporal.ProgressDetails
		if details.HasValues() {
			p = new(tooltemporal.ProgressDetails)
			assert.NoError(t, details.Get(p))
		}
		mu.Lock()
		beats = append(beats, p)
		mu.Unlock()
	})
	return func() []*tooltemporal.ProgressDetails {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(beats)
	}
}
