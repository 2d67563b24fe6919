package otel_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	toolotel "github.com/toolgen-go/toolgen/runtime/otel"
)

// tool returns a tool named name whose handler is run; its arguments are any JSON object.
func tool(name string, run func(ctx context.Context) runtime.Result) runtime.Tool {
	return fixture.JSONTool(name, func(ctx context.Context, _ map[string]any) runtime.Result { return run(ctx) })
}

func ok(text string) func(context.Context) runtime.Result {
	return func(context.Context) runtime.Result { return runtime.TextResult(text) }
}

// telemetry is an SDK pipeline that keeps what it records in memory.
type telemetry struct {
	spans   *tracetest.InMemoryExporter
	tracers *sdktrace.TracerProvider
	metrics *sdkmetric.ManualReader
	meters  *sdkmetric.MeterProvider
}

func newTelemetry(t *testing.T) *telemetry {
	spans := tracetest.NewInMemoryExporter()
	reader := sdkmetric.NewManualReader()
	tel := &telemetry{
		spans:   spans,
		tracers: sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans)),
		metrics: reader,
		meters:  sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)),
	}
	t.Cleanup(func() {
		_ = tel.tracers.Shutdown(context.Background())
		_ = tel.meters.Shutdown(context.Background())
	})
	return tel
}

// registry returns a registry instrumented into tel, holding tools.
func (tel *telemetry) registry(t *testing.T, opts []toolotel.Option, regOpts []runtime.Option, tools ...runtime.Tool) *runtime.Registry {
	in, err := toolotel.New(append([]toolotel.Option{toolotel.WithTracerProvider(tel.tracers), toolotel.WithMeterProvider(tel.meters)}, opts...)...)
	require.NoError(t, err)
	reg := runtime.NewRegistry(append(in.RegistryOptions(nil), regOpts...)...)
	require.NoError(t, reg.Add(tools...))
	return reg
}

// toolSpans returns the ended spans named "execute_tool …".
func (tel *telemetry) toolSpans() []tracetest.SpanStub {
	var out []tracetest.SpanStub
	for _, s := range tel.spans.GetSpans() {
		if len(s.Name) >= len("execute_tool") && s.Name[:len("execute_tool")] == "execute_tool" {
			out = append(out, s)
		}
	}
	return out
}

func attrs(kvs []attribute.KeyValue) map[string]any {
	m := make(map[string]any, len(kvs))
	for _, kv := range kvs {
		m[string(kv.Key)] = kv.Value.AsInterface()
	}
	return m
}

func TestSpanPerCallContinuesTheCallersTrace(t *testing.T) {
	tel := newTelemetry(t)
	reg := tel.registry(t, nil, nil, tool("get_weather", ok("sunny")))

	ctx, parent := tel.tracers.Tracer("agent").Start(context.Background(), "invoke_agent")
	res := reg.Invoke(ctx, runtime.Call{ID: "call_1", Name: "get_weather", Args: []byte(`{"city":"Tokyo"}`), Session: "conv-7"})
	parent.End()
	require.False(t, res.IsError, res.Text)

	spans := tel.toolSpans()
	require.Len(t, spans, 1)
	span := spans[0]
	assert.Equal(t, "execute_tool get_weather", span.Name)
	assert.Equal(t, trace.SpanKindInternal, span.SpanKind)
	assert.Equal(t, parent.SpanContext().TraceID(), span.SpanContext.TraceID(), "the tool span is in the caller's trace")
	assert.Equal(t, parent.SpanContext().SpanID(), span.Parent.SpanID(), "the tool span is a child of the caller's span")
	assert.Equal(t, codes.Unset, span.Status.Code)
	assert.Equal(t, map[string]any{
		"gen_ai.operation.name":  "execute_tool",
		"gen_ai.tool.name":       "get_weather",
		"gen_ai.tool.type":       "function",
		"gen_ai.tool.call.id":    "call_1",
		"gen_ai.conversation.id": "conv-7",
		"toolgen.attempts":       int64(1),
	}, attrs(span.Attributes), "no argument or result values unless asked")
}

// What the host knows of the model run (Call.Run: run, agent, model, turn, tokens) is on the
// call's span.
func TestRunInfoIsOnTheSpan(t *testing.T) {
	tel := newTelemetry(t)
	reg := tel.registry(t, nil, nil, tool("get_weather", ok("sunny")))
	run := &runtime.RunInfo{RunID: "run-42", AgentID: "planner", Model: "gpt-5", Turn: 3, InputTokens: 300, OutputTokens: 12}
	reg.Invoke(context.Background(), runtime.Call{ID: "c", Name: "get_weather", Args: []byte(`{"city":"Tokyo"}`), Run: run})
	reg.Invoke(context.Background(), runtime.Call{ID: "d", Name: "get_weather", Args: []byte(`{"city":"Tokyo"}`), Run: &runtime.RunInfo{Turn: 1}})

	spans := tel.toolSpans()
	require.Len(t, spans, 2)
	got := attrs(spans[0].Attributes)
	for key, want := range map[string]any{
		"toolgen.run.id": "run-42", "gen_ai.agent.id": "planner", "gen_ai.response.model": "gpt-5",
		"toolgen.run.turn": int64(3), "toolgen.run.input_tokens": int64(300), "toolgen.run.output_tokens": int64(12),
	} {
		assert.Equal(t, want, got[key], key)
	}
	got = attrs(spans[1].Attributes)
	assert.Equal(t, int64(1), got["toolgen.run.turn"])
	for _, unset := range []string{"toolgen.run.id", "gen_ai.agent.id", "gen_ai.response.model", "toolgen.run.input_tokens"} {
		assert.NotContains(t, got, unset, "a field the host did not set is not an attribute")
	}
}

func TestArgumentsAndResultsOnlyWhenAsked(t *testing.T) {
	tel := newTelemetry(t)
	reg := tel.registry(t, []toolotel.Option{toolotel.WithArguments(), toolotel.WithResults()}, nil, tool("get_weather", ok("sunny")))
	reg.Invoke(context.Background(), runtime.Call{ID: "c", Name: "get_weather", Args: []byte(`{"city":"Tokyo"}`)})

	spans := tel.toolSpans()
	require.Len(t, spans, 1)
	got := attrs(spans[0].Attributes)
	assert.Equal(t, `{"city":"Tokyo"}`, got["gen_ai.tool.call.arguments"])
	assert.Equal(t, "sunny", got["gen_ai.tool.call.result"])
}

func TestFailedAttemptsRetriesAndTimeoutsAreEvents(t *testing.T) {
	tel := newTelemetry(t)
	attempt := 0
	flaky := tool("flaky", func(ctx context.Context) runtime.Result {
		attempt++
		if attempt == 1 {
			return runtime.ErrorResult(runtime.WithKind(errors.New("backend down"), runtime.KindUnavailable))
		}
		<-ctx.Done() // the second attempt times out
		return runtime.ErrorResult(ctx.Err())
	})
	flaky.Timeout = 20 * time.Millisecond
	flaky.Retry = runtime.RetryPolicy{Max: 1}
	reg := tel.registry(t, nil, nil, flaky)

	res := reg.Invoke(context.Background(), runtime.Call{ID: "c", Name: "flaky"})
	require.True(t, res.IsError)

	spans := tel.toolSpans()
	require.Len(t, spans, 1)
	span := spans[0]
	assert.Equal(t, codes.Error, span.Status.Code)
	got := attrs(span.Attributes)
	assert.Equal(t, "timeout", got["error.type"])
	assert.Equal(t, int64(2), got["toolgen.attempts"])

	var names []string
	for _, e := range span.Events {
		names = append(names, e.Name)
	}
	assert.Equal(t, []string{"toolgen.attempt.failed", "toolgen.retry", "toolgen.attempt.timeout"}, names)
	assert.Equal(t, "unavailable", attrs(span.Events[0].Attributes)["error.type"])
	assert.Equal(t, int64(1), attrs(span.Events[0].Attributes)["toolgen.attempt"])
	assert.Equal(t, int64(2), attrs(span.Events[2].Attributes)["toolgen.attempt"])
}

func TestApprovalsAreEvents(t *testing.T) {
	deploy := tool("deploy", ok("deployed"))
	deploy.Permission = runtime.PermissionConfirm

	t.Run("approver", func(t *testing.T) {
		tel := newTelemetry(t)
		approver := runtime.ApproverFunc(func(context.Context, runtime.ApprovalRequest) (runtime.Decision, error) {
			return runtime.Decision{Approved: true, By: "alice"}, nil
		})
		reg := tel.registry(t, nil, []runtime.Option{runtime.WithApprover(approver)}, deploy)
		require.False(t, reg.Invoke(context.Background(), runtime.Call{ID: "c", Name: "deploy"}).IsError)

		span := tel.toolSpans()[0]
		require.Len(t, span.Events, 1)
		assert.Equal(t, "toolgen.approval", span.Events[0].Name)
		assert.Equal(t, map[string]any{"toolgen.approval": "approved", "toolgen.approval.by": "alice"}, attrs(span.Events[0].Attributes))
	})
	t.Run("queue", func(t *testing.T) {
		tel := newTelemetry(t)
		reg := tel.registry(t, nil, []runtime.Option{runtime.WithApprovalQueue()}, deploy)
		res := reg.Invoke(context.Background(), runtime.Call{ID: "c", Name: "deploy"})
		require.NotEmpty(t, res.PendingApproval)

		span := tel.toolSpans()[0]
		assert.Equal(t, res.PendingApproval, attrs(span.Attributes)["toolgen.approval.id"])
		require.Len(t, span.Events, 1)
		assert.Equal(t, "pending", attrs(span.Events[0].Attributes)["toolgen.approval"])
	})
}

func TestObserverCallsTheNextObserver(t *testing.T) {
	in, err := toolotel.New()
	require.NoError(t, err)
	var kinds []runtime.EventKind
	reg := runtime.NewRegistry(in.RegistryOptions(func(_ context.Context, e runtime.Event) { kinds = append(kinds, e.Kind) })...)
	require.NoError(t, reg.Add(tool("t", ok("x"))))
	reg.Invoke(context.Background(), runtime.Call{Name: "t"})
	assert.Equal(t, []runtime.EventKind{runtime.EventStart, runtime.EventEnd}, kinds)
}

func TestDurationMetric(t *testing.T) {
	tel := newTelemetry(t)
	fails := tool("fails", func(context.Context) runtime.Result {
		return runtime.ErrorResult(runtime.ModelErrorf(runtime.KindNotFound, "no such city"))
	})
	reg := tel.registry(t, nil, nil, tool("get_weather", ok("sunny")), fails)
	ctx := context.Background()
	reg.Invoke(ctx, runtime.Call{ID: "a", Name: "get_weather"})
	reg.Invoke(ctx, runtime.Call{ID: "b", Name: "get_weather"})
	reg.Invoke(ctx, runtime.Call{ID: "c", Name: "fails"})

	var rm metricdata.ResourceMetrics
	require.NoError(t, tel.metrics.Collect(ctx, &rm))
	require.Len(t, rm.ScopeMetrics, 1)
	assert.Equal(t, toolotel.ScopeName, rm.ScopeMetrics[0].Scope.Name)
	require.Len(t, rm.ScopeMetrics[0].Metrics, 1)
	m := rm.ScopeMetrics[0].Metrics[0]
	assert.Equal(t, "gen_ai.execute_tool.duration", m.Name)
	assert.Equal(t, "s", m.Unit)
	hist, isHist := m.Data.(metricdata.Histogram[float64])
	require.True(t, isHist, "%T", m.Data)

	counts := map[string]uint64{}
	for _, dp := range hist.DataPoints {
		a := attrs(dp.Attributes.ToSlice())
		assert.Equal(t, "execute_tool", a["gen_ai.operation.name"])
		assert.NotContains(t, a, "gen_ai.tool.call.id", "a call id per data point would make the metric unbounded")
		key := a["gen_ai.tool.name"].(string)
		if et, ok := a["error.type"]; ok {
			key += "/" + et.(string)
		}
		counts[key] += dp.Count
	}
	assert.Equal(t, map[string]uint64{"get_weather": 2, "fails/not_found": 1}, counts)
}

func TestTraceContextFromMCPMeta(t *testing.T) {
	tel := newTelemetry(t)
	reg := tel.registry(t, nil, nil, tool("get_weather", ok("sunny")))

	// The client's side: its span, written into the request's _meta.
	clientCtx, clientSpan := tel.tracers.Tracer("client").Start(context.Background(), "tools/call get_weather")
	meta := toolotel.InjectMeta(clientCtx, map[string]any{"progressToken": 1.0})
	clientSpan.End()
	require.Contains(t, meta, "traceparent")
	assert.Equal(t, 1.0, meta["progressToken"], "InjectMeta keeps what _meta held")

	// The server's side: a fresh ctx, as a request handler gets it, and the _meta as decoded JSON.
	wire, err := json.Marshal(meta)
	require.NoError(t, err)
	var received map[string]any
	require.NoError(t, json.Unmarshal(wire, &received))
	reg.Invoke(toolotel.ContextFromMeta(context.Background(), received), runtime.Call{ID: "1", Name: "get_weather"})

	spans := tel.toolSpans()
	require.Len(t, spans, 1)
	assert.Equal(t, clientSpan.SpanContext().TraceID(), spans[0].SpanContext.TraceID())
	assert.Equal(t, clientSpan.SpanContext().SpanID(), spans[0].Parent.SpanID())
	assert.True(t, spans[0].Parent.IsRemote())
}

func TestContextFromMetaIgnoresWhatIsNotTraceContext(t *testing.T) {
	ctx := context.Background()
	for name, meta := range map[string]map[string]any{
		"nil":       nil,
		"malformed": {"traceparent": "00-not-a-trace-01"},
		"not text":  {"traceparent": 42.0, "tracestate": []any{"x"}},
		"zero ids":  {"traceparent": "00-00000000000000000000000000000000-0000000000000000-01"},
	} {
		got := toolotel.ContextFromMeta(ctx, meta)
		assert.False(t, trace.SpanContextFromContext(got).IsValid(), name)
	}
}
