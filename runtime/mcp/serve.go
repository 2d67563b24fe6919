package mcp

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

// Option configures how AddTools and Handler serve a registry, and the server NewServer,
// ServeStdio and HTTPHandler build.
type Option func(*config)

type config struct {
	userData     func(ctx context.Context, req *mcp.CallToolRequest) any
	traceCtx     func(ctx context.Context, meta map[string]any) context.Context
	observer     RequestObserver
	sessionKey   SessionKey
	grant        func(ctx context.Context, req mcp.Request) runtime.Grant // WithScopes
	linger       time.Duration
	shared       bool
	stateKey     []byte
	taskStore    TaskStore
	taskExecutor TaskExecutor
	taskLimits   TaskLimits
	// requestIDKeys: a call without an idempotency key is keyed by its request id.
	requestIDKeys bool
	server        server // NewServer, ServeStdio, HTTPHandler
}

func configure(opts []Option) config {
	cfg := config{sessionKey: SessionPerConnection(), grant: TokenScopes}
	for _, opt := range opts {
		if opt != nil {
			opt(&cfg)
		}
	}
	return cfg
}

// WithSessionKey sets how a call's registry session is chosen (SessionPerConnection
// otherwise).
func WithSessionKey(k SessionKey) Option {
	return func(c *config) {
		if k.key != nil {
			c.sessionKey = k
		}
	}
}

// WithUserData sets what handlers see as runtime.CallInfo.UserData for each call: fn gets the
// request (its Extra has the HTTP header and the verified token), so handlers written for the
// runtime alone, without importing this package, can see the user.
func WithUserData(fn func(ctx context.Context, req *mcp.CallToolRequest) any) Option {
	return func(c *config) { c.userData = fn }
}

// WithTraceContext continues the client's trace in each call: extract gets the request's
// params._meta, where MCP clients put their trace context (traceparent, tracestate), and
// returns the ctx the call runs under. runtime/otel's ContextFromMeta is one.
func WithTraceContext(extract func(ctx context.Context, meta map[string]any) context.Context) Option {
	return func(c *config) { c.traceCtx = extract }
}

// WithSessionLinger keeps a registry session for d after the last MCP connection that used it
// closed, before Registry.EndSession forgets it (at once otherwise). Useful with keys that
// outlive a connection (SessionFromPrincipal, SessionFromHeader), above all over stateless
// HTTP, where every request is a connection of its own. A client sending a new key on each
// request leaves a lingering session for each, so one server keeps at most
// SessionLimits.MaxLingering (DefaultMaxLingering, 1024) of them: past it, the one that has
// lingered longest ends at once.
func WithSessionLinger(d time.Duration) Option {
	return func(c *config) { c.linger = d }
}

// WithSharedSessions says that the registry's session store is shared with other replicas
// (runtime/redisstore): a replica then never ends a registry session when its own
// connections to it close, since others may still serve it; the store expires idle sessions,
// or the host calls Registry.EndSession when a conversation ends (SessionPerRequest sessions
// too are left to expire).
func WithSharedSessions() Option {
	return func(c *config) { c.shared = true }
}

// WithStateKey sets the key that signs the state of multi-round-trip calls (an approval or an
// Elicit on protocol 2026-07-28): servers behind one load balancer share it, so that the
// answer may reach another instance than the question. Random per AddTools otherwise. A
// state is accepted once per instance.
func WithStateKey(key []byte) Option {
	return func(c *config) { c.stateKey = slices.Clone(key) }
}

// served is one registry served on one mcp.Server.
type served struct {
	reg      *runtime.Registry
	userData func(ctx context.Context, req *mcp.CallToolRequest) any
	traceCtx func(ctx context.Context, meta map[string]any) context.Context
	observer RequestObserver // WithRequestObserver; nil: none
	// transport is what RequestInfo.Transport says of a request without HTTP headers:
	// "stdio" under ServeStdio, "" otherwise (in memory, the host's own).
	transport string
	// prompts are the prompts NewServer serves (WithPrompts), whose names RequestInfo gives.
	prompts    *promptSet
	sessionKey SessionKey
	sessions   *sessions
	states     *roundStates
	// requestIDKeys: WithRequestIDKeys.
	requestIDKeys bool
	// linkResults: the server serves stored results (AddTools), so a cut result links to its
	// whole (Handler alone cannot).
	linkResults bool

	mu    sync.Mutex      // guards names and routed
	names map[string]bool // the tools the server lists
	// routed holds the listed tools whose input schema marks a property x-mcp-header
	// (tool:"header=NAME"): on 2026-07-28 over HTTP the SDK checks the call's Mcp-Param
	// headers against its arguments, so such calls are the SDK's (fastcall.go).
	routed map[string]bool
	// tasked holds the listed tools that run as MCP tasks (//tool:task), by how; written under
	// mu, copied on write, so that every call reads it without a lock.
	tasked atomic.Pointer[map[string]runtime.TaskMode]
	// tasks runs and keeps the server's MCP tasks (taskserve.go).
	tasks *taskRunner
	// outputs caches, by tool name, whether its outputSchema is an object (outputShape).
	outputs sync.Map
	// fastCalls counts the calls served beside the SDK (fastcall.go, stdio.go); tests read it.
	fastCalls atomic.Int64
	// resumable: HTTPHandler keeps stateful streams resumable (WithEventStore), which the
	// SDK's event streams are and a JSON answer is not, so stateful calls stay the SDK's.
	resumable bool
	// crossOrigin is the SDK handler's cross-origin protection (WithHTTPOptions), which the
	// calls served beside it pass too.
	crossOrigin *http.CrossOriginProtection
	// versions are the protocol versions the server negotiates, when its options narrow them.
	versions []string
	// serverInfo is the JSON of the server's name and version (NewServer), which a
	// 2026-07-28 result served beside the SDK carries in its _meta.
	serverInfo []byte
	// scopes: what each caller is shown, by its grant (scopes.go).
	scopes scopeState
}

func newServed(reg *runtime.Registry, opts []Option) *served {
	cfg := configure(opts)
	return &served{
		reg:           reg,
		userData:      cfg.userData,
		traceCtx:      cfg.traceCtx,
		observer:      cfg.observer,
		sessionKey:    cfg.sessionKey,
		sessions:      newSessions(reg, cfg.linger, cfg.shared, cfg.server.sessionLimits.resolved()),
		states:        newRoundStates(cfg.stateKey),
		names:         map[string]bool{},
		routed:        map[string]bool{},
		scopes:        scopeState{grant: cfg.grant},
		tasks:         newTaskRunner(cfg.taskStore, cfg.taskLimits, cfg.taskExecutor),
		requestIDKeys: cfg.requestIDKeys,
	}
}

// AddTools serves tools on server, each call dispatched through reg.Invoke, and returns at
// once. With tools nil it serves every tool of reg and follows the registry: tools added to
// it or removed from it later are added to or removed from the server, which tells clients
// (notifications/tools/list_changed). With a list (typically a subset), it serves those, and
// removes one from the server when it is removed from the registry. Client tools are skipped:
// the server cannot run them. A tool added again replaces the earlier one, as with
// mcp.Server.AddTool.
func AddTools(server *mcp.Server, reg *runtime.Registry, tools []runtime.Tool, opts ...Option) {
	addTools(server, reg, tools, opts)
}

func addTools(server *mcp.Server, reg *runtime.Registry, tools []runtime.Tool, opts []Option) *served {
	s := newServed(reg, opts)
	s.linkResults = true
	server.AddResourceTemplate(resultTemplate, s.readResult)
	var only map[string]bool
	if tools != nil {
		only = map[string]bool{}
		for _, t := range tools {
			only[t.Name] = true
		}
		s.add(server, tools)
	} else {
		s.add(server, reg.Tools())
	}
	reg.OnChange(func() { s.sync(server, only) })
	reg.OnGrantsChanged(s.grantsChanged)
	server.AddReceivingMiddleware(s.scopeTools, s.advertiseTasks)
	server.AddSendingMiddleware(s.keepSender)
	if s.observer != nil {
		// Added last, so outermost: it sees the answer scopeTools words.
		server.AddReceivingMiddleware(s.observeRequests)
	}
	return s
}

// listed returns the names of the tools the server lists, sorted.
func (s *served) listed() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	names := make([]string, 0, len(s.names))
	for name := range s.names {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// add serves tools on server.
func (s *served) add(server *mcp.Server, tools []runtime.Tool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	handler := s.handle
	for i, def := range Tools(tools) {
		if tools[i].Client {
			continue
		}
		server.AddTool(def, handler)
		s.names[def.Name] = true
		s.setScopes(def.Name, tools[i].Scopes)
		s.setTaskMode(def.Name, tools[i].Task)
		if paramHeaders(tools[i].InputSchema) {
			s.routed[def.Name] = true
		} else {
			delete(s.routed, def.Name)
		}
	}
}

// sync brings the server's tools in line with the registry (those named in only, when set).
func (s *served) sync(server *mcp.Server, only map[string]bool) {
	current := s.reg.Tools()
	held := map[string]bool{}
	var added []runtime.Tool
	s.mu.Lock()
	for _, t := range current {
		if t.Client || only != nil && !only[t.Name] {
			continue
		}
		held[t.Name] = true
		if !s.names[t.Name] {
			added = append(added, t)
		}
	}
	var removed []string
	for name := range s.names {
		if !held[name] {
			removed = append(removed, name)
			delete(s.names, name)
			delete(s.routed, name)
			s.setScopes(name, nil)
			s.setTaskMode(name, runtime.TaskNone)
		}
	}
	s.mu.Unlock()
	if len(removed) > 0 {
		server.RemoveTools(removed...)
	}
	if len(added) > 0 {
		s.add(server, added)
	}
}

// Handler returns the MCP tool handler that runs a tools/call through reg.Invoke (see
// AddTools for what it does), for a server that adds tools itself.
func Handler(reg *runtime.Registry, opts ...Option) mcp.ToolHandler {
	return newServed(reg, opts).handle
}

// handle serves one tools/call the go-sdk received.
func (s *served) handle(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if s.traceCtx != nil && req.Params != nil && ctx.Value(tracedKey{}) == nil {
		ctx = s.traceCtx(ctx, req.Params.Meta)
	}
	res, _, err := s.serveCall(ctx, req, requestID(ctx), peerOf(req.Session))
	return res, err
}

// serveCall serves one tools/call, whose JSON-RPC id is id, received by the go-sdk or by the
// HTTP handler's own path (fastcall.go), with ctx already continuing the client's trace, from
// client p. An error is a protocol error (a round state that is not this call's): nothing ran.
// A call of a //tool:task tool from a client that can run it as a task (p.tasks) returns the
// task it became instead of a result, once it passed its checks (taskserve.go).
func (s *served) serveCall(ctx context.Context, req *mcp.CallToolRequest, id string, p peer) (*mcp.CallToolResult, *Task, error) {
	call := CallFromParams(req.Params, id)
	mode := s.taskMode(call.Name)
	if mode == runtime.TaskRequired && !p.tasks {
		return nil, nil, errTasksRequired(call.Name)
	}
	conn, done := s.sessions.connection(req.Session)
	defer done()
	key, err := s.sessionKey.key(ctx, req, conn.key)
	if err != nil {
		return Result(runtime.ErrorResult(err)), nil, nil
	}
	release, ok := s.sessions.hold(conn, key, !s.sessionKey.perRequest)
	if !ok {
		// Refused rather than evicting a key the connection holds: that would end another
		// conversation's state behind its back. The key is not repeated: the client sent it.
		return toolError("This call was not run: this connection already uses %d sessions besides its own, the server's limit. Reuse one of them, or open a new connection for a new one.", s.sessions.maxKeys), nil, nil
	}
	defer release()
	call.Session = key
	call.IdempotencyKey = s.idempotencyKey(req, id)
	if s.userData != nil {
		call.UserData = s.userData(ctx, req)
	}

	cc := &callContext{req: req, served: s, session: key, peer: p}
	ctx = context.WithValue(ctx, callContextKey{}, cc)
	// The registry refuses a tool outside the caller's grant too, and tool_search and
	// get_tool_info, which run as tools, show only what it allows.
	ctx = runtime.WithGrant(ctx, s.callGrant(ctx, req))
	hooks := &runtime.CallHooks{}
	if token := progressToken(req); token != nil {
		ss := req.Session
		hooks.Progress = func(ctx context.Context, done, total float64, message string) {
			_ = ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: done, Total: total, Message: message})
		}
	}
	switch {
	case p.multiRound():
		if res, err := s.openRound(cc, call); res != nil || err != nil {
			return res, nil, err
		}
		if p.elicit {
			hooks.Approver = cc.round.approver(s.reg)
		}
	case p.elicit && req.Session != nil:
		hooks.Approver = elicitApprover(s.reg, req.Session)
	}
	if mode != runtime.TaskNone && p.tasks {
		return s.runTask(ctx, cc, call, hooks, conn)
	}
	res := s.reg.Invoke(runtime.WithCallHooks(ctx, hooks), call)
	out, err := s.finish(ctx, cc, call, res)
	return out, nil, err
}

// finish turns what Invoke returned for a call into its answer: the questions it asks (an
// input-required result), the protocol error a missing client capability is on 2026-07-28,
// or its result.
func (s *served) finish(ctx context.Context, cc *callContext, call runtime.Call, res runtime.Result) (*mcp.CallToolResult, error) {
	if cc.round != nil {
		if q := cc.round.question(); len(q) > 0 {
			return s.ask(cc, call, q), nil
		}
		if err := missingCapability(res.Err); err != nil {
			return nil, err
		}
	}
	return s.result(ctx, cc, call, res), nil
}

func progressToken(req *mcp.CallToolRequest) any {
	if req.Session == nil || req.Params == nil {
		return nil
	}
	return req.Params.GetProgressToken()
}

func toolError(format string, args ...any) *mcp.CallToolResult {
	return Result(runtime.Result{Text: fmt.Sprintf(format, args...), IsError: true})
}
