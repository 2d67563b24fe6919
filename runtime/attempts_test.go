package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
)

// delays records the waits a registry asked for between retries, without waiting.
type delays struct {
	mu   sync.Mutex
	list []time.Duration
}

func (d *delays) sleep(ctx context.Context, delay time.Duration) error {
	d.mu.Lock()
	d.list = append(d.list, delay)
	d.mu.Unlock()
	return ctx.Err()
}

func (d *delays) got() []time.Duration {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]time.Duration(nil), d.list...)
}

// fullJitter makes every wait the full backoff delay.
func fullJitter() float64 { return 1 }

func TestTimeoutHandlerSeesDeadline(t *testing.T) {
	deadlineOf := func(tool runtime.Tool, opts ...runtime.Option) (time.Duration, bool) {
		var left time.Duration
		var has bool
		tool.Bind = runTool(tool.Name, func(ctx context.Context) runtime.Result {
			var d time.Time
			d, has = ctx.Deadline()
			left = time.Until(d)
			return runtime.TextResult("ok")
		}).Bind
		reg := runtime.NewRegistry(opts...)
		must(t, reg.Add(tool))
		reg.Invoke(t.Context(), runtime.Call{Name: tool.Name})
		return left, has
	}
	if left, has := deadlineOf(runtime.Tool{Name: "own", Timeout: time.Hour}); !has || left < 59*time.Minute || left > time.Hour {
		t.Errorf("//tool:timeout 1h: deadline in %v (set: %v)", left, has)
	}
	if left, has := deadlineOf(runtime.Tool{Name: "default"}); !has || left > runtime.DefaultTimeout || left < runtime.DefaultTimeout-time.Minute {
		t.Errorf("default timeout: deadline in %v (set: %v), want about %v", left, has, runtime.DefaultTimeout)
	}
	if left, has := deadlineOf(runtime.Tool{Name: "registry"}, runtime.WithDefaultTimeout(2*time.Hour)); !has || left < time.Hour {
		t.Errorf("WithDefaultTimeout(2h): deadline in %v (set: %v)", left, has)
	}
	if _, has := deadlineOf(runtime.Tool{Name: "none", NoTimeout: true}); has {
		t.Error("//tool:timeout none: the handler's ctx has a deadline")
	}
	if _, has := deadlineOf(runtime.Tool{Name: "off"}, runtime.WithDefaultTimeout(0)); has {
		t.Error("WithDefaultTimeout(0): the handler's ctx has a deadline")
	}
}

// hangingTool is a tool whose handler ignores its ctx and returns only when release is
// closed; runs counts its starts.
func hangingTool(name string, release <-chan struct{}, runs *atomic.Int32) runtime.Tool {
	tool := runTool(name, func(context.Context) runtime.Result {
		runs.Add(1)
		<-release
		return runtime.TextResult("late")
	})
	tool.Timeout = 20 * time.Millisecond
	return tool
}

func TestTimeoutAbandonsAHandlerThatIgnoresCtx(t *testing.T) {
	release := make(chan struct{})
	var runs atomic.Int32
	reg := runtime.NewRegistry(runtime.WithLimits(runtime.Limits{MaxAbandoned: 1}))
	must(t, reg.Add(hangingTool("hang", release, &runs)))

	res := reg.Invoke(t.Context(), runtime.Call{Name: "hang"})
	var te *runtime.TimeoutError
	if !res.IsError || res.Kind != runtime.KindTimeout || !errors.As(res.Err, &te) || !errors.Is(res.Err, context.DeadlineExceeded) {
		t.Fatalf("a hung handler = %+v, want a timeout result", res)
	}
	if res.Text != "hang did not finish within its time limit of 20ms." || res.Attempts != 1 {
		t.Errorf("Text = %q, Attempts = %d", res.Text, res.Attempts)
	}

	// The abandoned goroutine still runs: at the limit, the tool is refused without running.
	res = reg.Invoke(t.Context(), runtime.Call{Name: "hang"})
	if res.Kind != runtime.KindUnavailable || !errors.Is(res.Err, runtime.ErrTooManyAbandoned) || runs.Load() != 1 {
		t.Fatalf("call at the abandoned limit = %+v, runs = %d", res, runs.Load())
	}

	// Once the handler returns, the tool runs again.
	close(release)
	deadline := time.Now().Add(10 * time.Second)
	for {
		res = reg.Invoke(t.Context(), runtime.Call{Name: "hang"})
		if !errors.Is(res.Err, runtime.ErrTooManyAbandoned) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the abandoned count never went down after the handler returned")
		}
		time.Sleep(time.Millisecond)
	}
	if res.IsError || res.Text != "late" || runs.Load() != 2 {
		t.Errorf("after release: %+v, runs = %d", res, runs.Load())
	}
}

func TestCancelledCallIsNotATimeout(t *testing.T) {
	started := make(chan struct{})
	reg := newRegistry(t, runTool("wait", func(ctx context.Context) runtime.Result {
		close(started)
		<-ctx.Done()
		return runtime.ErrorResult(ctx.Err())
	}))
	ctx, cancel := context.WithCancel(t.Context())
	go func() { <-started; cancel() }()
	res := reg.Invoke(ctx, runtime.Call{Name: "wait"})
	if res.Kind != runtime.KindCancelled || !errors.Is(res.Err, context.Canceled) || res.Text != "wait was cancelled before it finished." {
		t.Errorf("cancelled call = %+v", res)
	}
}

// flaky fails with fail(n) on attempt n until attempt succeedAt.
func flaky(name string, succeedAt int, fail func(n int) runtime.Result) (runtime.Tool, *atomic.Int32) {
	var n atomic.Int32
	tool := runTool(name, func(context.Context) runtime.Result {
		if k := int(n.Add(1)); k < succeedAt {
			return fail(k)
		}
		return runtime.TextResult("ok")
	})
	return tool, &n
}

func TestRetryBacksOffAndRecordsAttempts(t *testing.T) {
	var d delays
	tool, runs := flaky("flaky", 4, func(n int) runtime.Result { return runtime.ErrorResult(fmt.Errorf("try %d failed", n)) })
	tool.Retry = runtime.RetryPolicy{Max: 5, Delay: 100 * time.Millisecond, Backoff: 2, MaxDelay: 300 * time.Millisecond}
	reg := runtime.NewRegistry(runtime.WithTestClock(d.sleep, fullJitter))
	must(t, reg.Add(tool))

	res := reg.Invoke(t.Context(), runtime.Call{Name: "flaky"})
	if res.IsError || res.Attempts != 4 || runs.Load() != 4 {
		t.Fatalf("result = %+v after %d runs, want success on attempt 4", res, runs.Load())
	}
	want := []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 300 * time.Millisecond}
	if got := d.got(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("delays = %v, want %v (doubling, capped at maxdelay)", got, want)
	}
}

func TestRetryJitterKeepsHalfTheDelay(t *testing.T) {
	var d delays
	tool, _ := flaky("flaky", 3, func(int) runtime.Result { return runtime.ErrorResult(errors.New("down")) })
	tool.Retry = runtime.RetryPolicy{Max: 2, Delay: 100 * time.Millisecond, Backoff: 3}
	reg := runtime.NewRegistry(runtime.WithTestClock(d.sleep, func() float64 { return 0 }))
	must(t, reg.Add(tool))
	reg.Invoke(t.Context(), runtime.Call{Name: "flaky"})
	want := []time.Duration{50 * time.Millisecond, 150 * time.Millisecond}
	if got := d.got(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("delays with zero jitter = %v, want %v", got, want)
	}
}

func TestRetryGivesUpAfterMax(t *testing.T) {
	tool, runs := flaky("down", 100, func(n int) runtime.Result {
		return runtime.ErrorResult(fmt.Errorf("attempt %d: connection refused", n))
	})
	tool.Retry = runtime.RetryPolicy{Max: 2}
	reg := newRegistry(t, tool)
	res := reg.Invoke(t.Context(), runtime.Call{Name: "down"})
	if !res.IsError || res.Attempts != 3 || runs.Load() != 3 || res.Text != "attempt 3: connection refused" {
		t.Errorf("result = %+v after %d runs, want the third failure", res, runs.Load())
	}
}

func TestRetryCoversPanicsAndTimeouts(t *testing.T) {
	panics, _ := flaky("panics", 2, func(int) runtime.Result { panic("boom") })
	panics.Retry = runtime.RetryPolicy{Max: 1}

	release := make(chan struct{})
	defer close(release)
	var n atomic.Int32
	slow := runTool("slow", func(context.Context) runtime.Result {
		if n.Add(1) == 1 {
			<-release // the first attempt hangs past its timeout
		}
		return runtime.TextResult("fast enough")
	})
	slow.Timeout, slow.Retry = 10*time.Millisecond, runtime.RetryPolicy{Max: 1}

	reg := newRegistry(t, panics, slow)
	for _, name := range []string{"panics", "slow"} {
		res := reg.Invoke(t.Context(), runtime.Call{Name: name})
		if res.IsError || res.Attempts != 2 {
			t.Errorf("%s: %+v, want success on the retry", name, res)
		}
	}
}

func TestRetryNeverRepeatsFinalFailures(t *testing.T) {
	cases := map[string]func(int) runtime.Result{
		"permanent": func(int) runtime.Result { return runtime.ErrorResult(runtime.Permanent(errors.New("card declined"))) },
		"not_found": func(int) runtime.Result {
			return runtime.ErrorResult(runtime.ModelErrorf(runtime.KindNotFound, "no order 42"))
		},
		"permission": func(int) runtime.Result {
			return runtime.ErrorResult(runtime.WithKind(errors.New("403"), runtime.KindPermission))
		},
		"model_text": func(int) runtime.Result { return runtime.Result{Text: "no such city", IsError: true} },
		"ask_retry":  func(int) runtime.Result { return runtime.ErrorResult(runtime.AskRetry("use a real city")) },
	}
	for name, fail := range cases {
		tool, runs := flaky(name, 100, fail)
		tool.Retry = runtime.RetryPolicy{Max: 3}
		reg := newRegistry(t, tool)
		res := reg.Invoke(t.Context(), runtime.Call{Name: name})
		if !res.IsError || res.Attempts != 1 || runs.Load() != 1 {
			t.Errorf("%s: retried: %+v after %d runs", name, res, runs.Load())
		}
	}

	// Invalid arguments never reach the handler, let alone a retry.
	tool := weatherTool()
	tool.Retry = runtime.RetryPolicy{Max: 3}
	res := newRegistry(t, tool).Invoke(t.Context(), runtime.Call{Name: "get_weather", Args: []byte(`{"town":"Oslo"}`)})
	if res.Kind != runtime.KindInvalidInput || res.Attempts != 0 {
		t.Errorf("invalid arguments: %+v", res)
	}
}

func TestCancellingCtxStopsTheRetryWait(t *testing.T) {
	tool, runs := flaky("down", 100, func(int) runtime.Result { return runtime.ErrorResult(errors.New("down")) })
	tool.Retry = runtime.RetryPolicy{Max: 5, Delay: time.Hour}
	reg := newRegistry(t, tool)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan runtime.Result)
	go func() { done <- reg.Invoke(ctx, runtime.Call{Name: "down"}) }()
	for runs.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel() // the registry now waits an hour before attempt 2; cancelling ends the wait
	res := <-done
	if !res.IsError || res.Attempts != 1 || runs.Load() != 1 {
		t.Errorf("after cancel: %+v, runs = %d", res, runs.Load())
	}
}

func TestDefaultRetry(t *testing.T) {
	tool, runs := flaky("down", 100, func(int) runtime.Result { return runtime.ErrorResult(errors.New("down")) })
	reg := runtime.NewRegistry(runtime.WithDefaultRetry(runtime.RetryPolicy{Max: 1}))
	must(t, reg.Add(tool))
	if res := reg.Invoke(t.Context(), runtime.Call{Name: "down"}); res.Attempts != 2 || runs.Load() != 2 {
		t.Errorf("WithDefaultRetry(max 1): %d attempts", res.Attempts)
	}
}

// Workers that ran attempts with a timeout park, are reused, and end once idle for long.
func TestParkedWorkersEnd(t *testing.T) {
	defer runtime.SetWorkerIdle(50 * time.Millisecond)()
	release := make(chan struct{})
	var runs atomic.Int32
	tool := runTool("busy", func(context.Context) runtime.Result {
		runs.Add(1)
		<-release
		return runtime.TextResult("ok")
	})
	tool.Timeout = time.Minute
	reg := runtime.NewRegistry()
	must(t, reg.Add(tool))
	var wg sync.WaitGroup
	for range 3 { // three calls at once need three workers
		wg.Go(func() { reg.Invoke(t.Context(), runtime.Call{Name: "busy"}) })
	}
	for runs.Load() < 3 {
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	if n := runtime.ParkedWorkers(); n < 3 {
		t.Fatalf("%d workers parked after three calls at once, want at least 3", n)
	}
	for start := time.Now(); runtime.ParkedWorkers() > 0; time.Sleep(5 * time.Millisecond) {
		if time.Since(start) > 10*time.Second {
			t.Fatalf("%d workers still parked 10s after their last attempt (idle limit 50ms)", runtime.ParkedWorkers())
		}
	}
}

// TestCommit: a handler that commits before its deadline is reported as it answers, though
// its timer fires or its caller gives up while it finishes; one that commits after is told
// the call has ended, and is reported as timed out. Without a commit, the same handler is
// abandoned at its deadline.
func TestCommit(t *testing.T) {
	invoke := func(ctx context.Context, handler func(ctx context.Context) runtime.Result) runtime.Result {
		tool := runTool("write", handler)
		tool.Timeout = 20 * time.Millisecond
		reg := runtime.NewRegistry()
		must(t, reg.Add(tool))
		return reg.Invoke(ctx, runtime.Call{Name: "write"})
	}

	res := invoke(t.Context(), func(ctx context.Context) runtime.Result {
		if err := runtime.Commit(ctx); err != nil {
			return runtime.ErrorResult(err)
		}
		runtime.WaitForExpiry(ctx) // the timer fires while the last step runs
		return runtime.TextResult("written")
	})
	if res.IsError || res.Text != "written" {
		t.Errorf("committed in time: %v %q, want the handler's answer", res.Kind, res.Text)
	}

	res = invoke(t.Context(), func(ctx context.Context) runtime.Result {
		runtime.WaitForExpiry(ctx)
		return runtime.TextResult("written")
	})
	if res.Kind != runtime.KindTimeout {
		t.Errorf("not committed: %v %q, want a timeout", res.Kind, res.Text)
	}

	lateCommit := make(chan error, 1) // the handler runs on after the call returns
	res = invoke(t.Context(), func(ctx context.Context) runtime.Result {
		runtime.WaitForExpiry(ctx)
		err := runtime.Commit(ctx)
		lateCommit <- err
		return runtime.ErrorResult(err)
	})
	if late := <-lateCommit; !errors.Is(late, context.DeadlineExceeded) || res.Kind != runtime.KindTimeout {
		t.Errorf("committed after the deadline: Commit %v, result %v %q", late, res.Kind, res.Text)
	}

	ctx, cancel := context.WithCancel(t.Context())
	res = invoke(ctx, func(hctx context.Context) runtime.Result {
		if err := runtime.Commit(hctx); err != nil {
			return runtime.ErrorResult(err)
		}
		cancel() // the caller gives up while the last step runs
		<-hctx.Done()
		return runtime.TextResult("written")
	})
	if res.IsError || res.Text != "written" {
		t.Errorf("caller cancelled after the commit: %v %q, want the handler's answer", res.Kind, res.Text)
	}

	// Without a timeout nothing abandons the handler: Commit is its ctx's error.
	if err := runtime.Commit(t.Context()); err != nil {
		t.Errorf("Commit outside an attempt: %v", err)
	}
	if err := runtime.Commit(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Commit outside an attempt, cancelled: %v", err)
	}
}

// TestWatchdogEndsEveryAttemptAtItsOwnDeadline: one watchdog timer watches every attempt in
// flight, armed for the earliest deadline. A short timeout arriving while a long one is in
// flight moves it earlier, and after the earliest expires it is re-armed for the next one, so
// each hung call ends at its own deadline, whatever order they came in.
func TestWatchdogEndsEveryAttemptAtItsOwnDeadline(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	var runs atomic.Int32
	tool := func(name string, timeout time.Duration) runtime.Tool {
		tool := hangingTool(name, release, &runs)
		tool.Timeout = timeout
		return tool
	}
	reg := runtime.NewRegistry()
	must(t, reg.Add(tool("hour", time.Hour)))
	must(t, reg.Add(tool("short", 30*time.Millisecond)))
	must(t, reg.Add(tool("longer", 80*time.Millisecond)))

	results := make(chan runtime.Result, 3)
	invoke := func(name string) {
		go func() { results <- reg.Invoke(t.Context(), runtime.Call{Name: name}) }()
	}
	// The hour's deadline arms the watchdog first; the two short ones each come before it.
	invoke("hour")
	for runs.Load() < 1 {
		time.Sleep(time.Millisecond)
	}
	invoke("longer")
	invoke("short")

	// A liveness bound, not a measure of speed: without the re-arming the calls wait an hour.
	const bound = time.Minute
	var got []string
	for range 2 {
		select {
		case res := <-results:
			require.Equal(t, runtime.KindTimeout, res.Kind, res.Text)
			got = append(got, res.Text)
		case <-time.After(bound):
			t.Fatalf("after %v, only these calls had timed out: %q", bound, got)
		}
	}
	assert.ElementsMatch(t, []string{
		"short did not finish within its time limit of 30ms.",
		"longer did not finish within its time limit of 80ms.",
	}, got)
	select {
	case res := <-results:
		t.Errorf("the call with an hour's timeout ended: %+v", res)
	default:
	}
}

// TestAttemptsRacingTheirDeadline: calls whose handlers finish around their deadline, many at
// once, each get either their own handler's answer or a timeout, never another call's: the
// pooled attempts, handed between callers, workers and the watchdog, are reused only once
// every side is done with them, cancelled calls among them.
func TestAttemptsRacingTheirDeadline(t *testing.T) {
	tool := bindFunc("echo", func(_ context.Context, args []byte) (runtime.BoundCall, error) {
		return runFunc(func(ctx context.Context) runtime.Result {
			n, _ := strconv.Atoi(string(args))
			// 0, 1 or 2 ms against a deadline of 0.5 ms, which the watchdog enforces within
			// 1 ms: some calls answer, some surely time out, some race it.
			time.Sleep(time.Duration(n%3) * time.Millisecond)
			return runtime.TextResult(string(args))
		}), nil
	})
	tool.Timeout = 500 * time.Microsecond
	// Room for every call at once, so that none is refused for the bounds on abandoned ones.
	reg := runtime.NewRegistry(runtime.WithLimits(runtime.Limits{MaxAbandoned: 1200, MaxAbandonedPerSession: 1200}))
	must(t, reg.Add(tool))

	var wg sync.WaitGroup
	var answered, timedOut, cancelled atomic.Int32
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 150 {
				n := g*1000 + i
				ctx, cancel := context.WithCancel(t.Context())
				if n%5 == 0 {
					time.AfterFunc(250*time.Microsecond, cancel)
				}
				res := reg.Invoke(ctx, runtime.Call{Name: "echo", Args: []byte(strconv.Itoa(n))})
				cancel()
				switch {
				case !res.IsError:
					answered.Add(1)
					if res.Text != strconv.Itoa(n) {
						t.Errorf("call %d got another call's answer %q", n, res.Text)
					}
				case res.Kind == runtime.KindTimeout:
					timedOut.Add(1)
				case res.Kind == runtime.KindCancelled:
					cancelled.Add(1)
				default:
					t.Errorf("call %d: %v %q", n, res.Kind, res.Text)
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("%d answered, %d timed out, %d cancelled", answered.Load(), timedOut.Load(), cancelled.Load())
	assert.Positive(t, answered.Load())
	assert.Positive(t, timedOut.Load())
}
