package otel

import (
	"context"
	"sync"
	"time"

	globalotel "go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolgen-go/toolgen/runtime"
)

// ScopeName is the instrumentation scope of the spans and metrics this package records.
const ScopeName = "github.com/toolgen-go/toolgen/runtime/otel"

// The names this package records, from the OpenTelemetry GenAI semantic conventions for tool
// execution (development status), and toolgen's own for what they do not cover.
const (
	AttrOperationName  = "gen_ai.operation.name" // always "execute_tool"
	AttrToolName       = "gen_ai.tool.name"
	AttrToolCallID     = "gen_ai.tool.call.id"
	AttrToolType       = "gen_ai.tool.type"       // always "function": the application runs the tool
	AttrConversationID = "gen_ai.conversation.id" // runtime.Call.Session, when set
	AttrErrorType      = "error.type"             // the runtime.ErrorKind of a failed call
	AttrToolArguments  = "gen_ai.tool.call.arguments"
	AttrToolResult     = "gen_ai.tool.call.result"
	AttrAgentID        = "gen_ai.agent.id"       // runtime.RunInfo.AgentID, when set
	AttrResponseModel  = "gen_ai.response.model" // runtime.RunInfo.Model: the model that made the call

	// The rest of the call's runtime.RunInfo, when set. The token counts are those of the
	// model response that made the call, which its other calls share: they are not
	// gen_ai.usage.*, which a sum over tool spans would count once per call.
	AttrRunID        = "toolgen.run.id"
	AttrTurn         = "toolgen.run.turn"
	AttrInputTokens  = "toolgen.run.input_tokens"
	AttrOutputTokens = "toolgen.run.output_tokens"

	AttrAttempts        = "toolgen.attempts"         // span: attempts that ran the handler
	AttrAttempt         = "toolgen.attempt"          // events: the attempt they are about
	AttrAttemptDuration = "toolgen.attempt.duration" // seconds
	AttrRetryDelay      = "toolgen.retry.delay"      // seconds
	AttrApproval        = "toolgen.approval"         // pending, approved, denied, refused, failed
	AttrApprovedBy      = "toolgen.approval.by"
	AttrPendingApproval = "toolgen.approval.id" // span: the request a call waits for

	EventAttemptFailed  = "toolgen.attempt.failed"
	EventAttemptTimeout = "toolgen.attempt.timeout"
	EventRetry          = "toolgen.retry"
	EventApproval       = "toolgen.approval"

	// MetricDuration is the GenAI conventions' histogram of tool execution time, in seconds.
	MetricDuration = "gen_ai.execute_tool.duration"
)

// durationBuckets are the bucket boundaries the GenAI conventions advise for their duration
// histograms, in seconds.
var durationBuckets = []float64{0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92}

// Option configures an Instrumentation.
type Option func(*config)

type config struct {
	tracers     trace.TracerProvider
	meters      metric.MeterProvider
	withArgs    bool
	withResults bool
}

// WithTracerProvider sets where spans go (the global provider otherwise).
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *config) { c.tracers = tp }
}

// WithMeterProvider sets where the duration metric goes (the global provider otherwise).
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(c *config) { c.meters = mp }
}

// WithArguments records each call's raw arguments on its span (gen_ai.tool.call.arguments).
// Off by default: arguments come from a model and may hold personal data or secrets.
func WithArguments() Option {
	return func(c *config) { c.withArgs = true }
}

// WithResults records the text the model reads of each result on its span
// (gen_ai.tool.call.result). Off by default, for the same reason as WithArguments.
func WithResults() Option {
	return func(c *config) { c.withResults = true }
}

// Instrumentation records tool calls as OpenTelemetry spans and metrics. Build it once per
// program with New and install it on registries with RegistryOptions (or Middleware and
// Observer). It is safe for concurrent use.
type Instrumentation struct {
	tracer   trace.Tracer
	duration metric.Float64Histogram
	// serverOperation and clientOperation are the MCP conventions' histograms (mcp.go).
	serverOperation, clientOperation metric.Float64Histogram
	cfg                              config
	tools                            sync.Map // tool name → *toolTelemetry
}

// New returns an Instrumentation. It fails only when the meter provider refuses one of its
// histograms.
func New(opts ...Option) (*Instrumentation, error) {
	var cfg config
	for _, opt := range opts {
		opt(&cfg)
	}
	if cfg.tracers == nil {
		cfg.tracers = globalotel.GetTracerProvider()
	}
	if cfg.meters == nil {
		cfg.meters = globalotel.GetMeterProvider()
	}
	duration, err := cfg.meters.Meter(ScopeName).Float64Histogram(MetricDuration,
		metric.WithUnit("s"),
		metric.WithDescription("Duration of tool executions."),
		metric.WithExplicitBucketBoundaries(durationBuckets...))
	if err != nil {
		return nil, err
	}
	in := &Instrumentation{tracer: cfg.tracers.Tracer(ScopeName), duration: duration, cfg: cfg}
	meter := cfg.meters.Meter(ScopeName)
	if in.serverOperation, err = meter.Float64Histogram(MetricServerOperation, metric.WithUnit("s"),
		metric.WithDescription("MCP request or notification duration as observed on the receiver from the time it was received until the result or ack is sent."),
		metric.WithExplicitBucketBoundaries(operationBuckets...)); err != nil {
		return nil, err
	}
	if in.clientOperation, err = meter.Float64Histogram(MetricClientOperation, metric.WithUnit("s"),
		metric.WithDescription("The duration of the MCP request or notification as observed on the sender from the time it was sent until the response or ack is received."),
		metric.WithExplicitBucketBoundaries(operationBuckets...)); err != nil {
		return nil, err
	}
	return in, nil
}

// RegistryOptions installs the instrumentation on a registry: the Middleware, and the
// Observer in front of next (which may be nil; give it the registry's other observer, such
// as runtime.SlogObserver, since a registry has one). Pass them to runtime.NewRegistry before
// other middleware, so that the span covers them too.
func (in *Instrumentation) RegistryOptions(next runtime.Observer) []runtime.Option {
	return []runtime.Option{runtime.WithMiddleware(in.Middleware()), runtime.WithObserver(in.Observer(next))}
}

// runAttributes are the span attributes of what the host knows of the call's model run.
func runAttributes(r runtime.RunInfo) []attribute.KeyValue {
	var out []attribute.KeyValue
	for _, s := range []struct{ key, value string }{{AttrRunID, r.RunID}, {AttrAgentID, r.AgentID}, {AttrResponseModel, r.Model}} {
		if s.value != "" {
			out = append(out, attribute.String(s.key, s.value))
		}
	}
	if r.Turn != 0 {
		out = append(out, attribute.Int(AttrTurn, r.Turn))
	}
	if r.InputTokens != 0 || r.OutputTokens != 0 {
		out = append(out, attribute.Int64(AttrInputTokens, r.InputTokens), attribute.Int64(AttrOutputTokens, r.OutputTokens))
	}
	return out
}

// Middleware starts a span "execute_tool {tool}" for each call, a child of the span in the
// caller's ctx (see ContextFromMeta for calls arriving over MCP), and records the call's
// duration, with the call's RunInfo (run, agent, model, turn, tokens) as attributes when the
// host or an adapter set it. A failed call sets the span's status to Error and error.type to the result's
// runtime.ErrorKind. Install it as the outermost middleware.
func (in *Instrumentation) Middleware() runtime.Middleware {
	return func(next runtime.Handler) runtime.Handler {
		return func(ctx context.Context, call runtime.Call) runtime.Result {
			start := time.Now()
			tt := in.toolTelemetry(call.Name)
			ctx, span := in.tracer.Start(ctx, tt.spanName, tt.startOptions...)
			recording := span.IsRecording()
			if recording {
				if call.ID != "" {
					span.SetAttributes(attribute.String(AttrToolCallID, call.ID))
				}
				if call.Session != "" {
					span.SetAttributes(attribute.String(AttrConversationID, call.Session))
				}
				if in.cfg.withArgs {
					span.SetAttributes(attribute.String(AttrToolArguments, string(call.Args)))
				}
				if call.Run != nil {
					span.SetAttributes(runAttributes(*call.Run)...)
				}
			}

			res := next(ctx, call)

			measured := tt.succeeded
			if res.IsError {
				kind := errorType(res)
				measured = tt.failed(kind)
				if recording {
					span.SetStatus(codes.Error, statusOf(res))
					span.SetAttributes(attribute.String(AttrErrorType, kind))
				}
			}
			if recording {
				if res.Attempts > 0 {
					span.SetAttributes(attribute.Int(AttrAttempts, res.Attempts))
				}
				if res.PendingApproval != "" {
					span.SetAttributes(attribute.String(AttrPendingApproval, res.PendingApproval))
				}
				if in.cfg.withResults {
					span.SetAttributes(attribute.String(AttrToolResult, res.Text))
				}
			}
			span.End()
			in.duration.Record(ctx, time.Since(start).Seconds(), measured)
			return res
		}
	}
}

// toolTelemetry is what the spans and measurements of one tool share, built on its first
// call so that a call allocates no attribute set of its own.
type toolTelemetry struct {
	spanName     string
	startOptions []trace.SpanStartOption
	base         []attribute.KeyValue // the metric's attributes of a successful call
	succeeded    metric.RecordOption
	failures     sync.Map // error.type → metric.RecordOption
}

func (in *Instrumentation) toolTelemetry(tool string) *toolTelemetry {
	if tt, ok := in.tools.Load(tool); ok {
		return tt.(*toolTelemetry)
	}
	name := "execute_tool " + tool
	if tool == "" {
		name = "execute_tool"
	}
	base := []attribute.KeyValue{
		attribute.String(AttrOperationName, "execute_tool"),
		attribute.String(AttrToolName, tool),
		attribute.String(AttrToolType, "function"),
	}
	tt := &toolTelemetry{
		spanName:     name,
		startOptions: []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(base...)},
		base:         base,
		succeeded:    metric.WithAttributeSet(attribute.NewSet(base...)),
	}
	// Unknown tool names never get here (the registry answers them before middleware), so
	// the cache holds at most one entry per registered tool.
	actual, _ := in.tools.LoadOrStore(tool, tt)
	return actual.(*toolTelemetry)
}

// failed returns the measurement option of a call that failed with kind.
func (tt *toolTelemetry) failed(kind string) metric.RecordOption {
	if opt, ok := tt.failures.Load(kind); ok {
		return opt.(metric.RecordOption)
	}
	attrs := append(tt.base[:len(tt.base):len(tt.base)], attribute.String(AttrErrorType, kind))
	opt, _ := tt.failures.LoadOrStore(kind, metric.WithAttributeSet(attribute.NewSet(attrs...)))
	return opt.(metric.RecordOption)
}

// errorType is the ErrorKind of a failed result as Invoke will report it: the middleware
// sees the result before Invoke fills in a missing kind.
func errorType(res runtime.Result) string {
	kind := res.Kind
	if kind == "" {
		kind = runtime.KindOf(res.Err)
	}
	if kind == "" {
		kind = runtime.KindInternal
	}
	return string(kind)
}

// statusOf is the span status description of a failed result: the operator's error, as
// runtime.SlogObserver logs it, else the kind.
func statusOf(res runtime.Result) string {
	if res.Err != nil {
		return res.Err.Error()
	}
	return errorType(res)
}

// Observer returns a runtime.Observer that adds the registry's events to the call's span:
// a failed attempt (toolgen.attempt.timeout for a timeout, else toolgen.attempt.failed), a
// retry and an approval step, then calls next (when not nil). Start and end events are the
// span's own start and end.
func (in *Instrumentation) Observer(next runtime.Observer) runtime.Observer {
	return func(ctx context.Context, e runtime.Event) {
		in.observe(ctx, e)
		if next != nil {
			next(ctx, e)
		}
	}
}

func (in *Instrumentation) observe(ctx context.Context, e runtime.Event) {
	span := trace.SpanFromContext(ctx)
	if !span.IsRecording() {
		return
	}
	switch e.Kind {
	case runtime.EventError:
		name := EventAttemptFailed
		if e.ErrKind == runtime.KindTimeout {
			name = EventAttemptTimeout
		}
		span.AddEvent(name, trace.WithAttributes(
			attribute.Int(AttrAttempt, e.Attempt),
			attribute.String(AttrErrorType, string(e.ErrKind)),
			attribute.Float64(AttrAttemptDuration, e.Duration.Seconds())))
	case runtime.EventRetry:
		span.AddEvent(EventRetry, trace.WithAttributes(
			attribute.Int(AttrAttempt, e.Attempt),
			attribute.Float64(AttrRetryDelay, e.Delay.Seconds())))
	case runtime.EventApproval:
		attrs := []attribute.KeyValue{attribute.String(AttrApproval, e.Approval)}
		if e.ApprovedBy != "" {
			attrs = append(attrs, attribute.String(AttrApprovedBy, e.ApprovedBy))
		}
		span.AddEvent(EventApproval, trace.WithAttributes(attrs...))
	}
}
