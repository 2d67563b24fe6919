package runtime_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
)

// tracer records the order in which middleware sees calls and results.
type tracer struct {
	mu  sync.Mutex
	log []string
}

func (tr *tracer) add(s string) {
	tr.mu.Lock()
	tr.log = append(tr.log, s)
	tr.mu.Unlock()
}

func (tr *tracer) mw(name string) runtime.Middleware {
	return func(next runtime.Handler) runtime.Handler {
		return func(ctx context.Context, call runtime.Call) runtime.Result {
			tr.add(name + ">")
			res := next(ctx, call)
			tr.add("<" + name)
			return res
		}
	}
}

func TestMiddlewareOrder(t *testing.T) {
	var tr tracer
	reg := runtime.NewRegistry(runtime.WithMiddleware(tr.mw("opt")))
	reg.RegisterFilter("f1", tr.mw("f1"))
	reg.RegisterFilter("f2", tr.mw("f2"))
	reg.Use(tr.mw("use1"), tr.mw("use2"))
	tool := runTool("echo", func(context.Context) runtime.Result { tr.add("handler"); return runtime.TextResult("ok") })
	tool.Filters = []string{"f2", "f1"}
	must(t, reg.Add(tool, runTool("plain", func(context.Context) runtime.Result { tr.add("plain"); return runtime.TextResult("ok") })))

	reg.Invoke(t.Context(), runtime.Call{Name: "echo"})
	want := "opt> use1> use2> f2> f1> handler <f1 <f2 <use2 <use1 <opt"
	if got := strings.Join(tr.log, " "); got != want {
		t.Errorf("order = %s\nwant    %s", got, want)
	}
	tr.log = nil
	reg.Invoke(t.Context(), runtime.Call{Name: "plain"})
	if got := strings.Join(tr.log, " "); got != "opt> use1> use2> plain <use2 <use1 <opt" {
		t.Errorf("a tool without filters: %s", got)
	}
}

func TestMiddlewareRewritesShortCircuitsAndRedacts(t *testing.T) {
	rewrite := func(next runtime.Handler) runtime.Handler {
		return func(ctx context.Context, call runtime.Call) runtime.Result {
			// Models often send the city under the old name; map it before validation.
			call.Args = bytes.ReplaceAll(call.Args, []byte(`"town"`), []byte(`"city"`))
			return next(ctx, call)
		}
	}
	block := func(next runtime.Handler) runtime.Handler {
		return func(ctx context.Context, call runtime.Call) runtime.Result {
			if bytes.Contains(call.Args, []byte("Mordor")) {
				return runtime.ErrorResult(runtime.ModelErrorf(runtime.KindPermission, "no weather for Mordor"))
			}
			return next(ctx, call)
		}
	}
	redact := func(next runtime.Handler) runtime.Handler {
		return func(ctx context.Context, call runtime.Call) runtime.Result {
			res := next(ctx, call)
			res.Text = strings.ReplaceAll(res.Text, "clear", "[redacted]")
			return res
		}
	}
	reg := runtime.NewRegistry(runtime.WithMiddleware(rewrite, block, redact))
	must(t, reg.Add(weatherTool()))

	res := reg.Invoke(t.Context(), runtime.Call{Name: "get_weather", Args: []byte(`{"town":"Oslo"}`)})
	if res.IsError || res.Text != `{"city":"Oslo","days":0,"sky":"[redacted]"}` {
		t.Errorf("rewritten and redacted = %+v", res)
	}
	res = reg.Invoke(t.Context(), runtime.Call{Name: "get_weather", Args: []byte(`{"city":"Mordor"}`)})
	if res.Text != "no weather for Mordor" || res.Kind != runtime.KindPermission || res.Attempts != 0 {
		t.Errorf("short-circuited = %+v", res)
	}
}

func TestUnknownFilterRefusedAtAdd(t *testing.T) {
	reg := runtime.NewRegistry(runtime.WithFilter("redact_pii", func(next runtime.Handler) runtime.Handler { return next }))
	tool := constTool("lookup", "x")
	tool.Filters = []string{"redact_pi"}
	err := reg.Add(tool)
	if err == nil || !strings.Contains(err.Error(), `unknown filter "redact_pi" (did you mean "redact_pii"?)`) {
		t.Errorf("Add = %v", err)
	}
	if _, ok := reg.Tool("lookup"); ok {
		t.Error("the tool was added anyway")
	}
}

func TestPanickingMiddlewareIsRecovered(t *testing.T) {
	reg := runtime.NewRegistry(runtime.WithMiddleware(func(runtime.Handler) runtime.Handler {
		return func(context.Context, runtime.Call) runtime.Result { panic("secret") }
	}))
	must(t, reg.Add(constTool("x", "ok")))
	res := reg.Invoke(t.Context(), runtime.Call{Name: "x"})
	var pe *runtime.PanicError
	if !res.IsError || !errors.As(res.Err, &pe) || strings.Contains(res.Text, "secret") || res.Kind != runtime.KindInternal {
		t.Errorf("panicking middleware = %+v", res)
	}
}

func TestErrorTextAndSafeErrors(t *testing.T) {
	secret := errors.New("dial tcp 10.0.0.7:5432: connection refused")
	tools := []runtime.Tool{
		runTool("plain", func(context.Context) runtime.Result { return runtime.ErrorResult(secret) }),
		runTool("missing", func(context.Context) runtime.Result {
			return runtime.ErrorResult(fmt.Errorf("open /srv/data/q3.csv: %w", os.ErrNotExist))
		}),
		runTool("for_model", func(context.Context) runtime.Result {
			return runtime.ErrorResult(runtime.ModelErrorf(runtime.KindNotFound, "no order %d; list orders first: %w", 42, secret))
		}),
		runTool("crash", func(context.Context) runtime.Result { panic(secret) }),
	}
	def := newRegistry(t, tools...)
	safe := runtime.NewRegistry(runtime.WithSafeErrors())
	must(t, safe.Add(tools...))

	cases := []struct{ tool, byDefault, safe string }{
		{"plain", secret.Error(), "plain failed (internal): internal error."},
		{"missing", "open /srv/data/q3.csv: file does not exist", "missing failed (not_found): not found."},
		{"for_model", "no order 42; list orders first: " + secret.Error(), "no order 42; list orders first: " + secret.Error()},
		{"crash", "crash failed with an internal error.", "crash failed (internal): internal error."},
	}
	for _, c := range cases {
		for _, reg := range []struct {
			name string
			r    *runtime.Registry
			want string
		}{{"default", def, c.byDefault}, {"safe", safe, c.safe}} {
			res := reg.r.Invoke(t.Context(), runtime.Call{Name: c.tool})
			if res.Text != reg.want {
				t.Errorf("%s registry, %s: Text = %q, want %q", reg.name, c.tool, res.Text, reg.want)
			}
			if res.Err == nil || !res.IsError {
				t.Errorf("%s registry, %s: Err lost: %+v", reg.name, c.tool, res)
			}
		}
	}
	if res := safe.Invoke(t.Context(), runtime.Call{Name: "for_model"}); !errors.Is(res.Err, secret) || res.Kind != runtime.KindNotFound {
		t.Errorf("ModelError: Err = %v, Kind = %q", res.Err, res.Kind)
	}
}

func TestAskRetryBudget(t *testing.T) {
	runs := 0
	tool := runTool("book", func(context.Context) runtime.Result {
		runs++
		return runtime.ErrorResult(runtime.AskRetry("the date must be in the future"))
	})
	tool.ModelRetries = 2
	tool.Retry = runtime.RetryPolicy{Max: 5} // execution retries never apply to AskRetry
	reg := newRegistry(t, tool)

	for i := range 2 {
		res := reg.Invoke(t.Context(), runtime.Call{Name: "book", Session: "s1"})
		if res.Text != "the date must be in the future\nCorrect the call and call book again." || res.Kind != runtime.KindInvalidInput || res.Attempts != 1 {
			t.Errorf("ask %d = %+v", i+1, res)
		}
	}
	res := reg.Invoke(t.Context(), runtime.Call{Name: "book", Session: "s1"})
	if res.Kind != runtime.KindLimit || !errors.Is(res.Err, runtime.ErrCallLimit) || !strings.Contains(res.Text, "Do not call book again") {
		t.Errorf("ask past the budget = %+v", res)
	}
	if runs != 3 {
		t.Errorf("handler ran %d times, want 3 (one per call)", runs)
	}
	// Another session has its own budget.
	if res := reg.Invoke(t.Context(), runtime.Call{Name: "book", Session: "s2"}); res.Kind != runtime.KindInvalidInput {
		t.Errorf("other session = %+v", res)
	}
}

// The loop guards behave the same with the registry's own counters and with a store that
// keeps them (runtime.SharedCounters).
func TestLoopGuards(t *testing.T) {
	for name, store := range map[string]runtime.SessionStore{"registry counters": nil, "shared counters": &guardStore{}} {
		t.Run(name, func(t *testing.T) { testLoopGuards(t, store) })
	}
}

// A limit of one call is said in the singular.
func TestLoopGuardLimitOfOne(t *testing.T) {
	once := constTool("search", "results")
	once.MaxCalls = 1
	reg := runtime.NewRegistry()
	must(t, reg.Add(once))
	call := runtime.Call{Name: "search", Session: "s", Args: []byte(`{}`)}
	reg.Invoke(t.Context(), call)
	res := reg.Invoke(t.Context(), call)
	if res.Kind != runtime.KindLimit || !strings.Contains(res.Text, "search was already called 1 time in this session, its limit") {
		t.Errorf("second search = %+v", res)
	}
}

func testLoopGuards(t *testing.T, store runtime.SessionStore) {
	limited := constTool("search", "results")
	limited.MaxCalls = 2
	reg := runtime.NewRegistry(runtime.WithLoopGuard(runtime.LoopGuard{MaxCalls: 4, RefuseRepeats: true}), runtime.WithSessionStore(store))
	must(t, reg.Add(limited, weatherTool()))

	call := func(session, name, args string) runtime.Result {
		return reg.Invoke(t.Context(), runtime.Call{Name: name, Session: session, Args: []byte(args)})
	}
	if res := call("a", "search", ""); res.IsError {
		t.Fatalf("first search = %+v", res)
	}
	// The same call again is answered without running; the canonical arguments are compared,
	// so key order and spacing do not hide a repeat.
	if res := call("a", "search", "{}"); res.Kind != runtime.KindLimit || !strings.Contains(res.Text, "already called with exactly these arguments") {
		t.Errorf("repeated search = %+v", res)
	}
	call("a", "get_weather", `{"city":"Oslo","days":1}`)
	if res := call("a", "get_weather", `{ "days":1, "city":"Oslo" }`); res.Kind != runtime.KindLimit {
		t.Errorf("reordered repeat = %+v", res)
	}
	// 4 calls so far: the session total is reached.
	if res := call("a", "get_weather", `{"city":"Rome"}`); res.Kind != runtime.KindLimit || !strings.Contains(res.Text, "limit of 4 tool calls") {
		t.Errorf("call past the session total = %+v", res)
	}

	// Per-tool limit (//tool:maxcalls 2), in a fresh session; failed calls count too.
	call("b", "search", "")
	call("b", "search", "{}") // a refused repeat still counts as a call
	if res := call("b", "search", ""); !strings.Contains(res.Text, "already called 2 times") {
		t.Errorf("third search = %+v", res)
	}

	must(t, reg.EndSession(t.Context(), "b"))
	if res := call("b", "search", ""); res.IsError {
		t.Errorf("after EndSession = %+v", res)
	}
}

// guardStore is a MemoryStore that keeps the loop guards' counters, as a store shared by
// replicas does.
type guardStore struct {
	runtime.MemoryStore
	mu     sync.Mutex
	counts map[string]int
	fail   error
}

func (s *guardStore) Acquire(_ context.Context, session string, counters []runtime.Counter) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return 0, s.fail
	}
	if s.counts == nil {
		s.counts = map[string]int{}
	}
	for i, c := range counters {
		if c.Limit > 0 && s.counts[session+"/"+c.Key] >= c.Limit {
			return i, nil
		}
	}
	for _, c := range counters {
		s.counts[session+"/"+c.Key]++
	}
	return -1, nil
}

func (s *guardStore) Clear(ctx context.Context, session string) error {
	s.mu.Lock()
	for k := range s.counts {
		if strings.HasPrefix(k, session+"/") {
			delete(s.counts, k)
		}
	}
	s.mu.Unlock()
	return s.MemoryStore.Clear(ctx, session)
}

// Registries sharing a SharedCounters store share the limits and AskRetry budgets of a
// session (replicas behind a load balancer), and a store that fails refuses limited calls.
func TestSharedCountersAcrossRegistries(t *testing.T) {
	store := &guardStore{}
	limited := constTool("search", "results")
	limited.MaxCalls = 2
	asks := runTool("book", func(context.Context) runtime.Result {
		return runtime.ErrorResult(runtime.AskRetry("pick a later date"))
	})
	replicas := make([]*runtime.Registry, 3)
	for i := range replicas {
		replicas[i] = runtime.NewRegistry(runtime.WithSessionStore(store))
		must(t, replicas[i].Add(limited, asks))
	}
	call := func(i int, name string) runtime.Result {
		return replicas[i].Invoke(t.Context(), runtime.Call{Name: name, Session: "s"})
	}
	require.False(t, call(0, "search").IsError)
	require.False(t, call(1, "search").IsError)
	assert.Equal(t, runtime.KindLimit, call(2, "search").Kind, "third search, on a third replica")
	assert.Equal(t, runtime.KindInvalidInput, call(0, "book").Kind, "first AskRetry")
	assert.Equal(t, runtime.KindLimit, call(1, "book").Kind, "second AskRetry on another replica, past the budget of 1")

	store.fail = errors.New("connection refused")
	res := replicas[0].Invoke(t.Context(), runtime.Call{Name: "search", Session: "other"})
	assert.Equal(t, runtime.KindUnavailable, res.Kind, "limits fail closed")
	assert.NotContains(t, res.Text, "connection refused", "the store's error is for the operator")
}

func TestCallInfoAndSessionState(t *testing.T) {
	type user struct{ Name string }
	var infos []runtime.CallInfo
	tool, _ := flaky("count", 2, func(int) runtime.Result { return runtime.ErrorResult(errors.New("once")) })
	tool.Retry = runtime.RetryPolicy{Max: 1}
	inner := tool.BindArgs
	tool.Bind = func(ctx context.Context, raw []byte) (runtime.BoundCall, error) {
		bound, err := inner(ctx, raw)
		return runFunc(func(ctx context.Context) runtime.Result {
			info, _ := runtime.CallInfoFrom(ctx)
			infos = append(infos, info)
			err := info.State.Update(ctx, "calls", func(old any, ok bool) (any, error) {
				n, _ := old.(int)
				return n + 1, nil
			})
			if err != nil {
				return runtime.ErrorResult(err)
			}
			return bound.Run(ctx)
		}), err
	}
	reg := newRegistry(t, tool)
	res := reg.Invoke(t.Context(), runtime.Call{ID: "c9", Name: "count", Session: "s1", UserData: user{"ada"}})
	if res.IsError || len(infos) != 2 {
		t.Fatalf("Invoke = %+v with %d attempts seen", res, len(infos))
	}
	first, second := infos[0], infos[1]
	if first.Tool != "count" || first.CallID != "c9" || first.Session != "s1" || first.UserData.(user).Name != "ada" || first.Attempt != 1 || second.Attempt != 2 {
		t.Errorf("CallInfo = %+v then %+v", first, second)
	}
	v, ok, err := second.State.Get(t.Context(), "calls")
	if !ok || err != nil || v != 2 {
		t.Errorf("session state = %v, %v, %v; want 2", v, ok, err)
	}
	reg.Invoke(t.Context(), runtime.Call{Name: "count", Session: "s2"})
	if v, _, _ := infos[2].State.Get(t.Context(), "calls"); v != 1 {
		t.Errorf("session s2 sees %v, want its own count 1", v)
	}
	must(t, reg.EndSession(t.Context(), "s1"))
	if _, ok, _ := first.State.Get(t.Context(), "calls"); ok {
		t.Error("EndSession kept the session's state")
	}
	if _, ok := runtime.CallInfoFrom(t.Context()); ok {
		t.Error("CallInfoFrom outside a call reports a call")
	}
}

func TestClientTool(t *testing.T) {
	ran := false
	tool := jsonTool("pick_color", func(context.Context, weatherArgs) runtime.Result { ran = true; return runtime.Result{} })
	tool.Client = true
	reg := newRegistry(t, tool)
	res := reg.Invoke(t.Context(), runtime.Call{ID: "c7", Name: "pick_color", Args: []byte(`{"city":"Oslo","days":2}`)})
	if res.IsError || res.ClientCall == nil || res.ClientCall.CallID != "c7" || ran {
		t.Fatalf("client call = %+v (handler ran: %v)", res, ran)
	}
	if args, ok := res.ClientCall.Args.(*weatherArgs); !ok || args.City != "Oslo" || args.Days != 2 {
		t.Errorf("ClientCall.Args = %#v, want the typed arguments", res.ClientCall.Args)
	}
	if res := reg.Invoke(t.Context(), runtime.Call{Name: "pick_color", Args: []byte(`{"colour":1}`)}); res.Kind != runtime.KindInvalidInput || res.ClientCall != nil {
		t.Errorf("invalid client call = %+v", res)
	}
}

func TestObserver(t *testing.T) {
	var mu sync.Mutex
	var events []runtime.Event
	observe := func(_ context.Context, e runtime.Event) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	}
	tool, _ := flaky("flaky", 2, func(int) runtime.Result { return runtime.ErrorResult(errors.New("down")) })
	tool.Retry = runtime.RetryPolicy{Max: 1}
	var d delays
	reg := runtime.NewRegistry(runtime.WithObserver(observe), runtime.WithTestClock(d.sleep, fullJitter))
	must(t, reg.Add(tool))
	reg.Invoke(t.Context(), runtime.Call{ID: "c1", Session: "s", Name: "flaky", Args: []byte(`{"password":"hunter2"}`)})

	var kinds []string
	for _, e := range events {
		kinds = append(kinds, e.Kind.String())
		if e.Tool != "flaky" || e.CallID != "c1" || e.Session != "s" || e.Args != nil {
			t.Errorf("event %+v", e)
		}
	}
	if got := strings.Join(kinds, " "); got != "start error retry end" {
		t.Errorf("events = %s", got)
	}
	end := events[len(events)-1]
	if end.Attempt != 2 || end.IsError || end.Duration <= 0 {
		t.Errorf("end event = %+v", end)
	}

	var buf bytes.Buffer
	logged := runtime.NewRegistry(runtime.WithObserver(runtime.SlogObserver(slog.New(slog.NewJSONHandler(&buf, nil)))), runtime.WithArgsInEvents())
	must(t, logged.Add(runTool("x", func(context.Context) runtime.Result { return runtime.TextResult("ok") })))
	logged.Invoke(t.Context(), runtime.Call{Name: "x", Args: []byte(`{"q":"visible"}`)})
	var line map[string]any
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil || line["msg"] != "tool end" || line["tool"] != "x" || line["args"] != `{"q":"visible"}` {
		t.Errorf("slog line = %s (%v)", buf.String(), err)
	}
}
