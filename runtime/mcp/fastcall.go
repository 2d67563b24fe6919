package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unique"

	"github.com/go-faster/jx"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

// A tools/call over HTTP is served here, beside the go-sdk, when the SDK would serve it
// without sending the client anything but its answer: one JSON-RPC request without a
// progress token, naming a tool this server lists, and
//   - stateless, on a protocol up to 2025-11-25: always (a stateless server cannot send the
//     client a request on these protocols);
//   - stateless, on 2026-07-28: when its _meta names the protocol its Mcp-Protocol-Version
//     header does and declares the client's capabilities, sets no log level, and its
//     Mcp-Method and Mcp-Name headers say what its body does, and its tool mirrors no argument
//     into an Mcp-Param header (x-mcp-header in its schema; what the SDK checks, which it
//     answers with its own errors, a missing header too); a question for the client (approval, Elicit) is an
//     input-required result, and its answer comes with the next call, as on the SDK's path;
//   - stateful (up to 2025-11-25; the SDK refuses 2026-07-28 there): on a session the gate
//     holds, opened by the same user, whose client declared neither elicitation nor sampling
//     and set no log level (what a call could send it then goes on the session's own stream,
//     not on this request's), when streams are not kept resumable (WithEventStore).
//
// The SDK would decode it five times, each with a 32 KB buffer (and, stateless, connect a
// session for it); here it is decoded once, run through the same handler
// (served.serveCall) and answered with JSON. Everything else (initialize, server/discover,
// tools/list, resources, progress, calls the SDK would refuse) goes to the SDK as before.
// docs/benchmarks.md has the measurements that decided it.

// callParams is what the fast path reads of tools/call params (wire.go).
type callParams struct {
	Name           string
	Arguments      json.RawMessage
	Meta           json.RawMessage
	InputResponses mcp.InputResponseMap
	RequestState   string
}

// callMeta is what decides, in params._meta, whether a call is served beside the SDK.
type callMeta struct {
	progressToken, logLevel bool
	protocol                string
	protocolSet             bool // a protocolVersion member, of any type
	capabilities            bool // a clientCapabilities object
	elicit                  bool // its elicitation member, not null
}

// callMetaOf reads a call's decoded _meta.
func callMetaOf(meta map[string]any) callMeta {
	var m callMeta
	_, m.progressToken = meta["progressToken"]
	_, m.logLevel = meta["io.modelcontextprotocol/logLevel"]
	var version any
	version, m.protocolSet = meta["io.modelcontextprotocol/protocolVersion"]
	m.protocol, _ = version.(string)
	if caps, ok := meta["io.modelcontextprotocol/clientCapabilities"].(map[string]any); ok {
		m.capabilities = true
		m.elicit = caps["elicitation"] != nil
	}
	return m
}

// statelessProtocol is the revision whose requests carry what a session held (SEP-2575).
const statelessProtocol = "2026-07-28"

// fastVersions are the protocol versions (the Mcp-Protocol-Version header) served here: the
// SDK supports them, and on them a stateless server cannot reach the client but by its
// answer. No header means 2025-03-26.
var fastVersions = map[string]bool{"": true, "2025-03-26": true, "2025-06-18": true, "2025-11-25": true, statelessProtocol: true}

// speaks reports whether a request of protocol version (the Mcp-Protocol-Version header; ""
// when it has none) may be served beside the SDK: a version served here that the server
// negotiates (ServerOptions.SupportedProtocolVersions may narrow them), and 2026-07-28 only
// stateless.
func (s *served) speaks(version string, stateful bool) bool {
	if version >= statelessProtocol && stateful {
		return false
	}
	return fastVersions[version] && (version == "" || len(s.versions) == 0 || slices.Contains(s.versions, version))
}

// serveFast answers r, whose body holds the one message m, on stateful session l (nil:
// stateless), and reports whether it did; when it did not, r is the SDK's to serve.
func (s *served) serveFast(w http.ResponseWriter, r *http.Request, m *message, l *liveSession) bool {
	version := r.Header.Get("Mcp-Protocol-Version")
	if l == nil && taskMethod(m.Method) && s.tasks.on.Load() && version >= statelessProtocol && fastID(m.ID) && fastHTTP(r, false) &&
		s.speaks(version, false) && (s.crossOrigin == nil || s.crossOrigin.Check(r) == nil) {
		data, status := s.serveTaskRequest(r.Context(), m, nil, r.Header, auth.TokenInfoFromContext(r.Context()))
		(&fastStream{w: w}).answer(data, status)
		return true
	}
	if m.Method != "tools/call" || !fastID(m.ID) || !fastHTTP(r, l != nil) || !s.speaks(version, l != nil) ||
		s.crossOrigin != nil && s.crossOrigin.Check(r) != nil {
		return false
	}
	params, client, ok := s.fastParams(m, version)
	if !ok || version >= statelessProtocol && (!standardHeaders(r.Header, params.Name) || s.routes(params.Name)) {
		return false
	}
	id := idText(m.ID)
	req := &mcp.CallToolRequest{
		Params: params,
		Extra:  &mcp.RequestExtra{TokenInfo: auth.TokenInfoFromContext(r.Context()), Header: r.Header},
	}
	ctx := r.Context()
	if l != nil {
		req.Session = l.ss
	}
	ctx, beside := s.besideForGrant(ctx, req)
	if !beside {
		return false
	}
	if l != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		if !l.track(id, cancel) {
			return false // a request id already in flight: the SDK's to answer
		}
		defer l.untrack(id)
		req.Session = l.ss
	}
	if l != nil {
		client = peerOf(l.ss)
	}
	// On 2026-07-28 a client that sets no log level gets no log messages (SEP-2577).
	out := &fastStream{w: w, quiet: client.multiRound()}
	if l == nil {
		// Stateless: no session to send a log message through; the answer carries it.
		ctx = context.WithValue(ctx, fastStreamKey{}, out)
	}
	out.answer(s.answer(ctx, req, m.ID, id, client))
	return true
}

// standardHeaders reports whether a 2026-07-28 request's Mcp-Method and Mcp-Name headers say
// what its body does, and it mirrors no argument into an Mcp-Param header (which the SDK
// checks against the tool's schema): the SDK refuses the others, with its own errors.
func standardHeaders(h http.Header, tool string) bool {
	if h.Get("Mcp-Method") != "tools/call" || h.Get("Mcp-Name") != tool {
		return false
	}
	for name := range h {
		if strings.HasPrefix(name, "Mcp-Param-") {
			return false
		}
	}
	return true
}

// routes reports whether the listed tool name mirrors an argument into an Mcp-Param header
// (its schema's x-mcp-header): the SDK checks a 2026-07-28 call of it, header present or not
// (a client that leaves out the header of an argument it sends is refused), with its errors.
func (s *served) routes(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.routed[name]
}

// paramHeaders reports whether an input schema marks a property, at any depth of properties
// as the SDK reads them, with x-mcp-header; a schema it cannot read that names the keyword
// counts as marked, leaving its calls to the SDK.
func paramHeaders(schema json.RawMessage) bool {
	if !bytes.Contains(schema, []byte(`"x-mcp-header"`)) {
		return false
	}
	var root headerProperty
	if json.Unmarshal(schema, &root) != nil {
		return true
	}
	return root.marked()
}

// headerProperty is what paramHeaders reads of a schema.
type headerProperty struct {
	Header     json.RawMessage           `json:"x-mcp-header"`
	Properties map[string]headerProperty `json:"properties"`
}

func (p *headerProperty) marked() bool {
	for _, c := range p.Properties {
		if len(c.Header) > 0 || c.marked() {
			return true
		}
	}
	return false
}

// fastStream is the answer to a stateless call served beside the SDK: JSON, unless the call
// sends the client a log message (Log) first, when it becomes an event stream, as the SDK's
// answer is; the result is its last event. The SDK's stateless sessions log at info and above.
type fastStream struct {
	mu     sync.Mutex
	w      http.ResponseWriter
	quiet  bool // log messages are dropped (2026-07-28 without a log level)
	events bool // the answer is an event stream
	done   bool // answered: what the call sends later is dropped, as the SDK drops it
}

type fastStreamKey struct{}

// event writes one event of the stream, starting it when it is the first. f.mu is held.
func (f *fastStream) event(data []byte) error {
	if !f.events {
		f.events = true
		f.w.Header().Set("Content-Type", "text/event-stream")
		f.w.Header().Set("Cache-Control", "no-cache")
		f.w.WriteHeader(http.StatusOK)
	}
	if _, err := fmt.Fprintf(f.w, "event: message\ndata: %s\n\n", data); err != nil {
		return err
	}
	if flusher, ok := f.w.(http.Flusher); ok {
		flusher.Flush()
	}
	return nil
}

// answer writes the call's JSON-RPC response, of HTTP status (0: 200 OK): the stream's last
// event, or the JSON body.
func (f *fastStream) answer(data []byte, status int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.done = true
	if f.events {
		_ = f.event(data)
		return
	}
	if status == 0 {
		status = http.StatusOK
	}
	f.w.Header().Set("Content-Type", "application/json")
	f.w.WriteHeader(status)
	_, _ = f.w.Write(data)
}

// fastParams reads the params of tools/call m, of protocol version (the Mcp-Protocol-Version
// header, or a stdio call's _meta), and reports whether its call may be served beside the SDK:
// it names a tool the server lists and carries no progress token; on 2026-07-28 its _meta
// names that protocol and declares the client's capabilities (client), and sets no log
// level; before, it carries neither a 2026-07-28 version nor its answers.
func (s *served) fastParams(m *message, version string) (_ *mcp.CallToolParamsRaw, client peer, ok bool) {
	var p callParams
	if decodeCallParams(m.Params, &p) != nil || p.Name == "" || !s.lists(p.Name) {
		return nil, peer{}, false
	}
	stateless := version >= statelessProtocol
	if !stateless && (len(p.InputResponses) > 0 || len(p.RequestState) > 0) {
		return nil, peer{}, false
	}
	// Decoded whole, once, as the SDK does: a SessionFunc, WithUserData, WithTraceContext and
	// the handler (RequestFrom) may read any of it; what decides the path is read from it.
	var meta map[string]any
	if len(p.Meta) > 0 {
		var err error
		if meta, err = decodeMeta(p.Meta); err != nil {
			return nil, peer{}, false
		}
	}
	cm := callMetaOf(meta)
	// A call that becomes a task is served here whatever it asks of the stream: the
	// extension sends a task no progress or log messages, and only this path makes tasks.
	task := stateless && declaresTasks(meta) && s.tasks.on.Load() && s.taskMode(p.Name) != runtime.TaskNone
	switch {
	case cm.progressToken && !task:
		return nil, peer{}, false
	case stateless && (cm.protocol != version || !cm.capabilities || cm.logLevel && !task):
		return nil, peer{}, false
	case stateless:
		client = peer{protocol: version, elicit: cm.elicit, tasks: task}
	case cm.protocolSet:
		return nil, peer{}, false
	}
	return &mcp.CallToolParamsRaw{Meta: meta, Name: p.Name, Arguments: p.Arguments, InputResponses: p.InputResponses, RequestState: p.RequestState}, client, true
}

// answer runs req (whose JSON-RPC id is id, idText(id) as key) from client and returns the
// JSON-RPC response, and the HTTP status of a protocol error on 2026-07-28 (0 otherwise).
func (s *served) answer(ctx context.Context, req *mcp.CallToolRequest, id json.RawMessage, key string, client peer) (_ []byte, status int) {
	var outcome RequestOutcome // what the observer is told, once answered
	s.fastCalls.Add(1)
	if s.traceCtx != nil {
		ctx = s.traceCtx(ctx, req.Params.Meta)
	}
	if s.observer != nil {
		var done func(RequestOutcome)
		ctx, done = s.observer(ctx, s.observedCall(req, key, client))
		if done != nil {
			defer func() { done(outcome) }()
		}
	}
	res, task, err := s.serveCall(ctx, req, key, client)
	outcome = RequestOutcome{Err: err, ToolError: res != nil && res.IsError}
	if task != nil {
		return s.taskJSON(id, *task, "task"), 0
	}
	if err != nil {
		wire := &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
		errors.As(err, &wire)
		data, _ := json.Marshal(rpcError{"2.0", id, wire})
		if client.multiRound() {
			status = errorStatus(wire.Code)
		}
		return data, status
	}
	form := answerForm{}
	if client.multiRound() {
		form = answerForm{serverInfo: s.serverInfo, resultType: "complete"}
		if res.InputRequests != nil || res.RequestState != "" {
			form.resultType = "input_required"
		}
	}
	if data, ok := appendAnswer(nil, id, res, form); ok {
		return data, 0
	}
	data, err := marshalAnswer(id, res, form)
	if err != nil {
		data, _ = marshalAnswer(id, Result(internalError(req.Params.Name)), form)
	}
	return data, 0
}

// errorStatus is the HTTP status of a JSON-RPC error on protocol 2026-07-28 (SEP-2575), as the
// SDK sends it: 404 for an unknown method, 400 for invalid params, an unsupported protocol
// version or a missing client capability; 0 (200 OK) for the rest.
func errorStatus(code int64) int {
	switch code {
	case jsonrpc.CodeMethodNotFound:
		return http.StatusNotFound
	case jsonrpc.CodeInvalidParams, mcp.CodeUnsupportedProtocolVersion, mcp.CodeMissingRequiredClientCapabilities:
		return http.StatusBadRequest
	}
	return 0
}

// answerForm is what a protocol adds to a result: on 2026-07-28 the server's name in its
// _meta, and whether it is complete or asks for input.
type answerForm struct {
	serverInfo []byte // JSON of the server's mcp.Implementation; nil before 2026-07-28
	resultType string
}

// metaServerInfo is the _meta key under which a 2026-07-28 server names itself.
const metaServerInfo = "io.modelcontextprotocol/serverInfo"

// marshalAnswer writes the JSON-RPC response of a result appendAnswer does not write.
func marshalAnswer(id json.RawMessage, res *mcp.CallToolResult, form answerForm) ([]byte, error) {
	if form.resultType == "" {
		return json.Marshal(rpcAnswer{"2.0", id, res})
	}
	withMeta := *res
	withMeta.Meta = maps.Clone(res.Meta)
	if withMeta.Meta == nil {
		withMeta.Meta = mcp.Meta{}
	}
	if _, ok := withMeta.Meta[metaServerInfo]; !ok {
		withMeta.Meta[metaServerInfo] = json.RawMessage(form.serverInfo)
	}
	result, err := json.Marshal(&withMeta)
	if err != nil {
		return nil, err
	}
	// The SDK's CallToolResult keeps its resultType unexported: it is added here, last.
	result = append(result[:len(result)-1], `,"resultType":"`+form.resultType+`"}`...)
	return json.Marshal(rpcAnswer{"2.0", id, json.RawMessage(result)})
}

// rpcAnswer is a JSON-RPC response to tools/call, for results appendAnswer does not write.
type rpcAnswer struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result"` // *mcp.CallToolResult, or its JSON
}

// rpcError is a JSON-RPC error response.
type rpcError struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   *jsonrpc.Error  `json:"error"`
}

// lists reports whether the server lists the tool name (AddTools); a Handler alone serves
// no HTTP.
func (s *served) lists(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.names[name]
}

// fastID reports whether id is a JSON-RPC request id the fast path repeats: a string or a
// number.
func fastID(id json.RawMessage) bool {
	id = bytes.TrimSpace(id)
	return len(id) > 0 && (id[0] == '"' || id[0] == '-' || id[0] >= '0' && id[0] <= '9')
}

// idText is a request id as Call.ID has it: a string's text, a number's digits.
func idText(id json.RawMessage) string {
	var s string
	if json.Unmarshal(id, &s) == nil {
		return s
	}
	return string(bytes.TrimSpace(id))
}

// fastHTTP reports whether the SDK's handler would take r's message to its server: a POST
// of application/json accepting both JSON and an event stream, on a protocol served here,
// with a session id when stateful and without one when not, past its DNS-rebinding check
// (served.speaks checks the protocol version).
func fastHTTP(r *http.Request, stateful bool) bool {
	if r.Method != http.MethodPost || (r.Header.Get(sessionIDHeader) != "") != stateful {
		return false
	}
	if mediaType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mediaType != "application/json" {
		return false
	}
	if json, stream := accepts(r.Header.Values("Accept")); !json || !stream {
		return false
	}
	if local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && local != nil && loopback(local.String()) && !loopback(r.Host) {
		return false
	}
	return true
}

// accepts reads Accept as the go-sdk does.
func accepts(values []string) (json, stream bool) {
	for _, value := range values {
		for raw := range strings.SplitSeq(value, ",") {
			base, _, _ := strings.Cut(raw, ";")
			switch strings.ToLower(strings.TrimSpace(base)) {
			case "application/json", "application/*":
				json = true
			case "text/event-stream", "text/*":
				stream = true
			case "*/*":
				json, stream = true, true
			}
		}
	}
	return json, stream
}

// loopback reports whether a host (with or without a port) is a loopback one, as the go-sdk
// judges it.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = strings.Trim(addr, "[]")
	}
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// internalError is the result of a call whose result could not be encoded.
func internalError(tool string) runtime.Result {
	return runtime.Result{Text: tool + " produced a result that could not be encoded.", IsError: true}
}

// liveSession is what a stateful handler's gate keeps of an open session beyond its count:
// the server's session, for the calls served beside the SDK, and how long it has idled. Every
// idle session holds one, so it is kept small (48 bytes): its id is the gate's map key, its
// owner is shared with the other sessions of the same client and user, and the sweeper, not
// a timer of its own, closes it.
type liveSession struct {
	ss        *mcp.ServerSession // nil: not found when it opened; its calls go to the SDK
	owner     unique.Handle[sessionOwner]
	inflight                // its mu guards active and idleSince too
	logs      atomic.Bool   // the client set a log level: its calls go to the SDK
	active    int32         // requests in progress, which keep it open; -1: closing
	idleSince time.Duration // on the gate's clock: when it opened or its last request ended
}

// inflight are the calls of a session served beside the SDK, by request id, so that
// notifications/cancelled reaches them.
type inflight struct {
	mu    sync.Mutex
	calls map[string]context.CancelFunc
}

// sessionOwner is who opened a session: the client it counts against, and the authenticated
// user, whose requests alone the SDK serves on it.
type sessionOwner struct {
	client, user string
}

// enter counts a request in progress, unless the session is being closed.
func (l *liveSession) enter() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.active < 0 {
		return false
	}
	l.active++
	return true
}

// end ends a request enter counted, at now on the gate's clock.
func (l *liveSession) end(now time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.active--; l.active == 0 {
		l.idleSince = now
	}
}

// expire marks the session closing, and reports so, when at now it has idled for idle: no
// request in progress, none since now-idle. A request that comes after finds it closing.
func (l *liveSession) expire(now, idle time.Duration) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.active != 0 || now-l.idleSince < idle {
		return false
	}
	l.active = -1
	return true
}

// idleBefore reports whether the session has had no request since t: none in progress, the
// last ended before t.
func (l *liveSession) idleBefore(t time.Duration) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.active <= 0 && l.idleSince < t
}

// track records a call served beside the SDK, so that notifications/cancelled reaches it,
// until untrack; ok is false when a call of that id is in flight already.
func (f *inflight) track(id string, cancel context.CancelFunc) (ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, dup := f.calls[id]; dup {
		return false
	}
	if f.calls == nil {
		f.calls = map[string]context.CancelFunc{}
	}
	f.calls[id] = cancel
	return true
}

func (f *inflight) untrack(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if delete(f.calls, id); len(f.calls) == 0 {
		f.calls = nil // an idle session holds no map
	}
}

// cancel cancels the call a notifications/cancelled names, if it is served here.
func (f *inflight) cancel(params json.RawMessage) {
	id := cancelledID(params)
	if id == nil {
		return
	}
	f.mu.Lock()
	cancel := f.calls[idText(id)]
	f.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// cancelledID is the request id a notifications/cancelled's params name, or nil.
func cancelledID(params json.RawMessage) json.RawMessage {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || !fastID(p.RequestID) || len(p.RequestID) > MaxRequestIDBytes {
		return nil
	}
	return p.RequestID
}

// serveCall serves, beside the SDK, a tools/call on a session the gate holds (see above),
// and reports whether it did. Every POST on a session passes here: it keeps the session from
// idling until it ends, a log level turns the session's calls to the SDK, and a
// notifications/cancelled reaches the call it names (the SDK answers it).
func (g *sessionGate) serveCall(w http.ResponseWriter, r *http.Request, body []byte, m *message) bool {
	id := r.Header.Get(sessionIDHeader)
	if id == "" || r.Method != http.MethodPost {
		return false
	}
	l := g.begin(id, r) // nil for another user's request, before it can cancel a call
	if l == nil {
		return false
	}
	defer func() { l.end(g.clock()) }()
	if bytes.Contains(body, []byte("logging/setLevel")) {
		l.logs.Store(true)
	}
	switch {
	case m == nil:
		return false
	case m.Method == "notifications/cancelled":
		l.cancel(m.Params)
		return false
	case l.ss == nil || l.logs.Load() || g.served.resumable || !quietClient(l.ss):
		return false
	}
	return g.served.serveFast(w, r, m, l)
}

// quietClient reports whether a session's client, on a protocol with sessions, declared
// neither elicitation nor sampling: nothing a call runs would send it a request.
func quietClient(ss *mcp.ServerSession) bool {
	p := ss.InitializeParams()
	if p == nil || p.ProtocolVersion >= "2026-07-28" {
		return false
	}
	//lint:ignore SA1019 sampling is deprecated from 2026-07-28 on; these sessions are older
	return p.Capabilities == nil || p.Capabilities.Elicitation == nil && p.Capabilities.Sampling == nil
}

// appendAnswer appends the JSON-RPC response of res, of the common shape (text content, a
// structured object, isError), as encoding/json would write it, without reflection; ok is
// false for any other result, which json.Marshal writes.
func appendAnswer(buf []byte, id json.RawMessage, res *mcp.CallToolResult, form answerForm) (_ []byte, ok bool) {
	if res.Meta != nil || res.InputRequests != nil || res.RequestState != "" {
		return nil, false
	}
	var structured json.RawMessage
	switch v := res.StructuredContent.(type) {
	case nil:
	case json.RawMessage:
		if !json.Valid(v) {
			return nil, false // json.Marshal reports it
		}
		structured = v
	default:
		return nil, false
	}
	w := jx.Writer{Buf: buf}
	w.RawStr(`{"jsonrpc":"2.0","id":`)
	w.Raw(id)
	w.RawStr(`,"result":{`)
	if form.serverInfo != nil {
		w.RawStr(`"_meta":{"` + metaServerInfo + `":`)
		w.Raw(form.serverInfo)
		w.RawStr(`},`)
	}
	w.RawStr(`"content":[`)
	for i, c := range res.Content {
		text, ok := c.(*mcp.TextContent)
		if !ok || text.Meta != nil || text.Annotations != nil {
			return nil, false
		}
		if i > 0 {
			w.Comma()
		}
		w.RawStr(`{"type":"text","text":`)
		w.Str(text.Text)
		w.ObjEnd()
	}
	w.ArrEnd()
	if structured != nil {
		w.RawStr(`,"structuredContent":`)
		w.Raw(structured)
	}
	if res.IsError {
		w.RawStr(`,"isError":true`)
	}
	if form.resultType != "" {
		w.RawStr(`,"resultType":"` + form.resultType + `"`)
	}
	w.RawStr(`}}`)
	return w.Buf, true
}
