package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"slices"
	"sync"
	"time"
	"unique"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

// Bounds of what a client's request can make the HTTP handler echo back. The go-sdk repeats
// a request's id in its answer, as JSON-RPC requires, and repeats an unknown method, tool,
// prompt or resource in its error, whole: a request of megabytes would come back as large.
// HTTPHandler answers a request past these bounds itself, repeating none of it.
const (
	MaxRequestIDBytes   = 256                       // the id's JSON text
	MaxMethodLength     = 128                       // a method name (MCP's longest is under 40)
	MaxNameLength       = runtime.MaxToolNameLength // a tool's or a prompt's name
	MaxResourceURIBytes = 16 << 10                  // a resource's URI (a result link is a few hundred bytes)
	maxHostLength       = 255                       // a Host header, which the SDK repeats when it refuses one
)

// Defaults of SessionLimits: the sessions of a stateful HTTPHandler, the registry sessions
// one MCP connection of any server holds, and those a server keeps lingering.
const (
	DefaultSessionIdle          = 30 * time.Minute
	DefaultMaxSessions          = 1000
	DefaultMaxSessionsPerClient = 50
	DefaultMaxKeysPerConnection = 64
	// DefaultMaxLingering is of the order of DefaultMaxSessions: a server sized for that many
	// open conversations can keep as many recently closed ones for their clients to come back
	// to. Beside its registry state, a lingering session costs the tracker about 250 bytes
	// (its record, map entry and timer), so 250 KB at the bound.
	DefaultMaxLingering = 1024
)

const (
	sessionIDHeader = "Mcp-Session-Id"
	// reconcileEvery is how often, at most, a gate at a bound compares its count with the
	// server's sessions (a walk of them all): a session the SDK closed is counted until then.
	reconcileEvery = time.Second
)

// SessionLimits bounds the stateful sessions (Mcp-Session-Id) of HTTPHandler, each of which
// holds goroutines and memory until it ends, the registry sessions one MCP connection holds
// on any server (MaxKeysPerConnection), and those a server keeps after their last connection
// closed (MaxLingering). A zero field takes its default; a negative one turns its bound off.
type SessionLimits struct {
	// Idle closes a session that received no request for this long (DefaultSessionIdle, 30
	// minutes), or up to an eighth of it longer (at most a minute longer): one sweeper a
	// handler looks for idle sessions that often, rather than a timer a session. A request in
	// progress (a call waiting for the user's approval) keeps it open; a client that keeps a
	// session for longer without calls sends pings.
	Idle time.Duration
	// Max bounds the sessions open at once (DefaultMaxSessions, 1000): past it a new session
	// is refused with 503 Service Unavailable.
	Max int
	// MaxPerClient bounds the sessions one client holds at once (DefaultMaxSessionsPerClient,
	// 50): past it, its new session is refused with 429 Too Many Requests.
	MaxPerClient int
	// ClientKey names the client of a request: by default its authenticated user
	// (auth.TokenInfo.UserID, from WithBearerAuth) when it has one, else its remote address
	// (an IPv6 address by its /64 network, which one host usually holds whole), or the
	// address a trusted proxy forwarded (TrustedProxies). Behind a reverse proxy every
	// request has the proxy's address, so without one of these every client shares one
	// MaxPerClient. A ClientKey of the host's replaces the default, TrustedProxies included.
	ClientKey func(*http.Request) string
	// TrustedProxies are the addresses of the reverse proxies and load balancers in front of
	// the server. A request whose remote address is in one of them is keyed, unless it has an
	// authenticated user, by the address the proxies forwarded: the rightmost address of
	// X-Forwarded-For that is not itself in TrustedProxies, or, without X-Forwarded-For, the
	// same of the for= parameters of RFC 7239 Forwarded. A request from any other address is
	// keyed by that address, whatever it sends, so a client cannot choose its key. A header
	// that cannot be read (an entry that is not an IP address, "unknown", an obfuscated
	// identifier) keys the request by the proxy's address; only its last 1 KiB and 16
	// addresses are read, where the proxies wrote. The proxies must append the address they
	// received from (as net/http/httputil.ReverseProxy, nginx's
	// $proxy_add_x_forwarded_for and cloud balancers do), and one that writes only
	// Forwarded must remove a client's X-Forwarded-For.
	TrustedProxies []netip.Prefix
	// MaxKeysPerConnection bounds the registry sessions one MCP connection (stdio, in-memory,
	// a stateful HTTP session) holds at once besides its own (DefaultMaxKeysPerConnection,
	// 64). A key from SessionFromHeader, SessionFromPrincipal or SessionFunc that differs from
	// the connection's own is held until the connection closes, and a client may send a new
	// one each call: past the bound, a call under a key the connection does not hold yet is
	// refused before it runs, with a tool error; calls under the keys it holds still run.
	// Refused rather than evicting an older key, whose end would silently drop another
	// conversation's state. Over stateless HTTP a connection is one request, so one key.
	MaxKeysPerConnection int
	// MaxLingering bounds the registry sessions one server (one AddTools, Handler or
	// HTTPHandler) keeps lingering at once after their last connection closed
	// (WithSessionLinger; DefaultMaxLingering, 1024), each holding its registry state until
	// the linger time passes: over stateless HTTP every request with a new key
	// (SessionFromHeader, SessionFunc, or SessionPerConnection's own) leaves one. Past the
	// bound, the session that has lingered longest ends at once (Registry.EndSession), as if
	// its time had passed: a lingering session has no connection, so no running conversation
	// is cut short, but a client that sends many new keys shortens how long others' closed
	// sessions wait. A session used again stops lingering and is not counted; it lingers anew,
	// as the newest, when its last connection closes. Sessions of a shared store
	// (WithSharedSessions) never linger here, so the bound does not apply to them.
	MaxLingering int
}

// WithSessionLimits bounds the stateful sessions of HTTPHandler, the registry sessions a
// connection holds on any server, and those a server keeps lingering (see SessionLimits);
// without it, the defaults apply. Stateless HTTP has no stateful session to bound; its
// requests' registry sessions are bounded as connections' are.
func WithSessionLimits(l SessionLimits) Option {
	return func(c *config) { c.server.sessionLimits = l }
}

// resolved returns the limits with their defaults, and 0 for a bound turned off.
func (l SessionLimits) resolved() SessionLimits {
	pick := func(v, def int) int {
		switch {
		case v == 0:
			return def
		case v < 0:
			return 0
		}
		return v
	}
	l.Max = pick(l.Max, DefaultMaxSessions)
	l.MaxPerClient = pick(l.MaxPerClient, DefaultMaxSessionsPerClient)
	l.MaxKeysPerConnection = pick(l.MaxKeysPerConnection, DefaultMaxKeysPerConnection)
	l.MaxLingering = pick(l.MaxLingering, DefaultMaxLingering)
	switch {
	case l.Idle == 0:
		l.Idle = DefaultSessionIdle
	case l.Idle < 0:
		l.Idle = 0
	}
	if l.ClientKey == nil {
		trusted := slices.Clone(l.TrustedProxies)
		for i, p := range trusted {
			if p.Addr().Is4In6() && p.Bits() >= 96 { // addresses are compared unmapped
				p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
			}
			trusted[i] = p.Masked()
		}
		l.ClientKey = func(r *http.Request) string { return clientKey(r, trusted) }
	}
	return l
}

// guard is what HTTPHandler puts in front of the go-sdk's handler: it refuses requests whose
// answer would repeat more than the bounds above, and, for a stateful handler, counts the
// sessions and refuses new ones past SessionLimits.
type guard struct {
	next     http.Handler
	sessions *sessionGate // nil: stateless
	fast     *served      // serves tools/call itself (fastcall.go)
	drain    *Drain       // WithDrain, or nil
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if g.drain != nil {
		counted, ok := g.drain.enter(w, r)
		if !ok {
			return
		}
		if counted {
			defer g.drain.leave()
		}
	}
	if len(r.Host) > maxHostLength {
		http.Error(w, fmt.Sprintf("Bad Request: the Host header is %d bytes, more than %d", len(r.Host), maxHostLength), http.StatusBadRequest)
		return
	}
	var single *message // the POST's message, when it holds one
	if r.Method == http.MethodPost && r.Body != nil {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, mcp.DefaultMaxRequestBodyBytes))
		if err != nil {
			if mbe, ok := errors.AsType[*http.MaxBytesError](err); ok {
				http.Error(w, fmt.Sprintf("request body exceeds %d bytes", mbe.Limit), http.StatusRequestEntityTooLarge)
			} else {
				http.Error(w, "Bad Request: the request body could not be read", http.StatusBadRequest)
			}
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		var refuse func(http.ResponseWriter)
		refuse, single = checkMessages(body)
		if refuse != nil {
			refuse(w)
			return
		}
		if g.sessions == nil {
			if single != nil && g.fast.serveFast(w, r, single, nil) {
				return
			}
		} else if g.sessions.serveCall(w, r, body, single) {
			return
		}
	}
	if g.sessions == nil {
		g.next.ServeHTTP(w, r)
		return
	}
	g.sessions.serve(g.next, w, r, single)
}

// message is what checkMessages reads of a JSON-RPC message.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// checkMessages returns the answer to a request whose id, method or named tool, prompt or
// resource is past its bound, or nil, and the body's message when it holds one (not a batch).
// A body that is not JSON-RPC is left to the SDK, which refuses it without repeating it.
func checkMessages(body []byte) (refuse func(http.ResponseWriter), single *message) {
	var msgs []message
	body = bytes.TrimLeft(body, " \t\r\n")
	if len(body) > 0 && body[0] == '[' {
		if json.Unmarshal(body, &msgs) != nil {
			return nil, nil
		}
	} else {
		single = &message{}
		if decodeMessage(body, single) != nil {
			return nil, nil
		}
		msgs = []message{*single}
	}
	for _, m := range msgs {
		if len(m.ID) > MaxRequestIDBytes {
			return rpcRefusal(http.StatusBadRequest, nil, jsonrpc.CodeInvalidRequest,
				fmt.Sprintf("Invalid Request: the id is %d bytes of JSON, more than %d", len(m.ID), MaxRequestIDBytes)), nil
		}
	}
	for _, m := range msgs {
		code, text := checkMessage(m)
		if text == "" {
			continue
		}
		if len(msgs) > 1 || len(m.ID) == 0 {
			return func(w http.ResponseWriter) { http.Error(w, "Bad Request: "+text, http.StatusBadRequest) }, nil
		}
		return rpcRefusal(http.StatusOK, m.ID, code, text), nil
	}
	return nil, single
}

// checkMessage returns the error of one message past a bound: its code and text, or "".
func checkMessage(m message) (code int64, text string) {
	if len(m.Method) > MaxMethodLength {
		return jsonrpc.CodeMethodNotFound, fmt.Sprintf("method not found: a method name of %d bytes (none is longer than %d)", len(m.Method), MaxMethodLength)
	}
	switch m.Method {
	case "tools/call", "prompts/get":
		if n := paramLength(m.Params, "name"); n > MaxNameLength {
			what := map[string]string{"tools/call": "tool", "prompts/get": "prompt"}[m.Method]
			return jsonrpc.CodeInvalidParams, fmt.Sprintf("unknown %s: a name of %d bytes (none is longer than %d)", what, n, MaxNameLength)
		}
	case "resources/read", "resources/subscribe", "resources/unsubscribe":
		if n := paramLength(m.Params, "uri"); n > MaxResourceURIBytes {
			return jsonrpc.CodeInvalidParams, fmt.Sprintf("resource not found: a URI of %d bytes (none is longer than %d)", n, MaxResourceURIBytes)
		}
	}
	return 0, ""
}

// rpcRefusal answers with a JSON-RPC error: id null when the request's cannot be repeated.
func rpcRefusal(status int, id json.RawMessage, code int64, text string) func(http.ResponseWriter) {
	if id == nil {
		id = json.RawMessage("null")
	}
	data, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: code, Message: text}})
	return func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(data)
	}
}

// sessionGate counts the stateful sessions of an HTTP handler, by Mcp-Session-Id and by
// client, and refuses new ones past SessionLimits. A session is counted from the request
// that opens it (a POST without Mcp-Session-Id, answered with one) until a DELETE ends it
// or the go-sdk closes it (idle, or ended by the server): the closes the gate cannot see
// are found by comparing its count with the server's sessions, when a bound is reached, at
// most once a second.
type sessionGate struct {
	limits SessionLimits
	server *mcp.Server
	served *served // serves the calls the gate takes (fastcall.go)
	// clock is the time on the gate's monotonic clock, which measures how long sessions idle.
	clock func() time.Duration

	mu            sync.Mutex
	open          map[string]*liveSession // by session id
	pending       int                     // new sessions being opened
	perClient     map[string]int          // open and pending, by client
	lastReconcile time.Time
	sweeping      bool // a sweeper closes the idle sessions: while any is open and Idle bounds them
}

// newSessionGate returns the gate of a stateful handler. It closes idle sessions itself (the
// SDK's idle timer sees only the requests the SDK serves, not the calls served beside it),
// and tells served when a session it holds ends, so that no goroutine per session waits for
// it.
func newSessionGate(l SessionLimits, server *mcp.Server, served *served) *sessionGate {
	epoch := time.Now()
	return &sessionGate{limits: l, server: server, served: served, clock: func() time.Duration { return time.Since(epoch) },
		open: map[string]*liveSession{}, perClient: map[string]int{}}
}

func (g *sessionGate) serve(next http.Handler, w http.ResponseWriter, r *http.Request, m *message) {
	id := r.Header.Get(sessionIDHeader)
	if id != "" && !g.holds(id) {
		// Plain text, as the go-sdk's own 404: its client then reports ErrSessionMissing, on
		// which hosts open a new session; a JSON-RPC error body would make it the request's
		// error instead, the connection kept as if the session lived. The words reach a
		// TypeScript client's error, curl, and the logs of proxies.
		http.Error(w, g.notFound(), http.StatusNotFound)
		return
	}
	switch {
	case r.Method == http.MethodPost && id == "":
		client := g.limits.ClientKey(r)
		if refused := g.admit(client); refused != "" {
			status := http.StatusServiceUnavailable
			if refused == "client" {
				status = http.StatusTooManyRequests
			}
			w.Header().Set("Retry-After", "60")
			http.Error(w, g.refusal(refused), status)
			return
		}
		// The count is settled when the response starts, before the client can read it, so a
		// client that opens or closes sessions one after the other meets an exact count.
		var user string
		if ti := auth.TokenInfoFromContext(r.Context()); ti != nil {
			user = ti.UserID
		}
		hw := &headerHook{ResponseWriter: w}
		hw.hook = func(int) { g.opened(client, hw.Header().Get(sessionIDHeader), user) }
		defer hw.settle(http.StatusOK) // a response the handler never started opened nothing it said
		w = hw
	case r.Method == http.MethodDelete && id != "":
		hw := &headerHook{ResponseWriter: w}
		hw.hook = func(status int) {
			if status >= 200 && status < 300 {
				g.closed(id)
			}
		}
		defer hw.settle(0)
		w = hw
	}
	next.ServeHTTP(w, r)
}

// CodeSessionNotFound is the JSON-RPC error code of the 404 that the TypeScript SDK's servers
// answer a request on a session they do not hold with: the session ended, or another replica
// opened it. A go-sdk client reads such a 404 as the request's error, a *jsonrpc.Error, its
// connection kept open; runtime/mcp/mount takes it, like the go-sdk's ErrSessionMissing, for a
// session to open again. HTTPHandler's own 404 is plain text, which the go-sdk client reports
// as ErrSessionMissing.
const CodeSessionNotFound = -32001

// holds reports whether the server holds session id: the gate counts it, or the SDK has it.
// Only an id the gate does not count is looked for among the SDK's sessions.
func (g *sessionGate) holds(id string) bool {
	g.mu.Lock()
	_, ok := g.open[id]
	g.mu.Unlock()
	if ok {
		return true
	}
	for ss := range g.server.Sessions() {
		if ss.ID() == id {
			return true
		}
	}
	return false
}

// notFound is the text of the 404 that answers a request on a session the server does not
// hold, which a developer reads in a client's log: behind a load balancer, most often a
// session another replica opened.
func (g *sessionGate) notFound() string {
	ended := "it was closed, or the server restarted"
	if g.limits.Idle > 0 {
		ended = fmt.Sprintf("it was closed, idle for %v, or the server restarted", g.limits.Idle)
	}
	return "Session not found: this server holds no MCP session with this Mcp-Session-Id. " +
		"Either the session ended (" + ended + "): start a new one with initialize. " +
		"Or it was opened on another server: a stateful MCP server keeps its sessions in its own process, " +
		"so behind a load balancer every request of a session must reach the replica that opened it. " +
		"Route by the Mcp-Session-Id header (session affinity), or serve stateless " +
		"(toolmcp.WithStateless() with toolmcp.WithSharedSessions() and a shared session store) so that any replica serves any request"
}

// refusal is the text of a refused session.
func (g *sessionGate) refusal(which string) string {
	held := fmt.Sprintf("Service Unavailable: the server holds %d MCP sessions, the most it may", g.limits.Max)
	if which == "client" {
		held = fmt.Sprintf("Too Many Requests: this client holds %d MCP sessions, the most it may", g.limits.MaxPerClient)
	}
	if g.limits.Idle <= 0 {
		return held + ": close one (an HTTP DELETE with its Mcp-Session-Id)"
	}
	return fmt.Sprintf("%s: close one (an HTTP DELETE with its Mcp-Session-Id) or wait until one has been idle for %v", held, g.limits.Idle)
}

// admit counts a session client is about to open, or says which bound refuses it ("client"
// or "server"). At a bound it first forgets the sessions the server closed, when it has not
// looked for a while.
func (g *sessionGate) admit(client string) string {
	refused, look := g.tryAdmit(client, true)
	if look {
		g.reconcile()
		refused, _ = g.tryAdmit(client, false)
	}
	return refused
}

// tryAdmit counts the session when no bound refuses it. Otherwise it says which refuses and,
// when may and a look is due, that the caller is to reconcile.
func (g *sessionGate) tryAdmit(client string, may bool) (refused string, look bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.limits.MaxPerClient > 0 && g.perClient[client] >= g.limits.MaxPerClient:
		refused = "client"
	case g.limits.Max > 0 && len(g.open)+g.pending >= g.limits.Max:
		refused = "server"
	default:
		g.pending++
		g.perClient[client]++
		return "", false
	}
	if may && time.Since(g.lastReconcile) >= reconcileEvery {
		g.lastReconcile = time.Now()
		return refused, true
	}
	return refused, false
}

// reconcile forgets the sessions the server no longer has. A session opened or used since
// the listing began is kept until the next look: it may be missing from the listing only for
// having come after it.
func (g *sessionGate) reconcile() {
	start := g.clock()
	live := map[string]bool{}
	for ss := range g.server.Sessions() {
		live[ss.ID()] = true
	}
	var ended []*liveSession
	g.mu.Lock()
	for id, l := range g.open {
		if !live[id] && l.idleBefore(start) {
			ended = append(ended, g.forget(id, l))
		}
	}
	g.mu.Unlock()
	g.end(ended...)
}

// opened turns the count of a session being opened into one of session id, opened by user,
// or drops it when no session was opened. The SDK holds the session by now: the gate finds
// it, has served watch for its end, and starts the sweeper that closes it once idle.
func (g *sessionGate) opened(client, id, user string) {
	live := &liveSession{owner: unique.Make(sessionOwner{client: client, user: user})}
	if id != "" {
		for ss := range g.server.Sessions() {
			if ss.ID() == id {
				live.ss = ss
				break
			}
		}
	}
	g.mu.Lock()
	g.pending--
	if _, dup := g.open[id]; id == "" || dup {
		g.release(client)
		g.mu.Unlock()
		return
	}
	live.idleSince = g.clock()
	g.open[id] = live
	if g.limits.Idle > 0 && !g.sweeping {
		g.sweeping = true
		go g.sweeper()
	}
	g.mu.Unlock()
	if live.ss != nil {
		g.served.sessions.adopt(live.ss)
	}
}

// sweepEvery is how often the sweeper looks for sessions idle for idle: an eighth of it, at
// most a minute. A session is closed between idle and idle plus that.
func sweepEvery(idle time.Duration) time.Duration {
	return max(min(idle/8, time.Minute), time.Millisecond)
}

// sweeper closes the sessions idle for the limit, until none is open. One goroutine a
// handler, not a timer a session: an idle session holds no more than it must.
func (g *sessionGate) sweeper() {
	tick := time.NewTicker(sweepEvery(g.limits.Idle))
	defer tick.Stop()
	for range tick.C {
		if !g.sweep() {
			return
		}
	}
}

// sweep closes the sessions idle for the limit, and reports whether the sweeper is to go on:
// when it is not, it has stopped, and the next session to open starts it again.
func (g *sessionGate) sweep() (more bool) {
	now := g.clock()
	var idle []string
	var found []*liveSession
	g.mu.Lock()
	for id, l := range g.open {
		if l.expire(now, g.limits.Idle) {
			idle, found = append(idle, id), append(found, l)
		}
	}
	more = len(g.open) > len(idle)
	g.sweeping = more
	g.mu.Unlock()
	for i, id := range idle {
		g.closeIdle(id, found[i])
	}
	return more
}

// closeIdle closes session id, which expired.
func (g *sessionGate) closeIdle(id string, l *liveSession) {
	ss := l.ss
	if ss == nil {
		for s := range g.server.Sessions() {
			if s.ID() == id {
				ss = s
				break
			}
		}
	}
	if ss != nil {
		_ = ss.Close()
	}
	g.closed(id)
}

// closed forgets session id, ended by a DELETE or closed for idling.
func (g *sessionGate) closed(id string) {
	g.mu.Lock()
	l, ok := g.open[id]
	if ok {
		g.forget(id, l)
	}
	g.mu.Unlock()
	if ok {
		g.end(l)
	}
}

// end tells served that sessions ended; the caller does not hold g.mu (ending a registry
// session may wait for its store).
func (g *sessionGate) end(ended ...*liveSession) {
	for _, l := range ended {
		if l.ss != nil {
			g.served.sessions.closed(l.ss)
		}
	}
}

// begin marks request r on session id in progress, which keeps it open, and returns the
// session (nil: one the gate does not hold, one being closed, or one opened by another
// authenticated user than r's); the caller ends the request with end. Another user's request
// is the SDK's to refuse (403): it neither keeps the session open nor reaches its calls (a
// notifications/cancelled of theirs cancels nothing).
func (g *sessionGate) begin(id string, r *http.Request) *liveSession {
	g.mu.Lock()
	l := g.open[id]
	g.mu.Unlock()
	if l == nil || !l.ownedBy(r) || !l.enter() {
		return nil
	}
	return l
}

// ownedBy reports whether r is of the user who opened the session, as the SDK checks every
// request on it: any request, when it was opened without an authenticated user.
func (l *liveSession) ownedBy(r *http.Request) bool {
	user := l.owner.Value().user
	if user == "" {
		return true
	}
	ti := auth.TokenInfoFromContext(r.Context())
	return ti != nil && ti.UserID == user
}

// forget and release run under g.mu. forget returns the session, for end.
func (g *sessionGate) forget(id string, l *liveSession) *liveSession {
	delete(g.open, id)
	g.release(l.owner.Value().client)
	return l
}

func (g *sessionGate) release(client string) {
	if g.perClient[client]--; g.perClient[client] <= 0 {
		delete(g.perClient, client)
	}
}

// headerHook calls hook once with the response's status, when the response starts and
// before any of it reaches the client, or from settle when the handler wrote nothing.
type headerHook struct {
	http.ResponseWriter
	hook func(status int)
	done bool
}

func (w *headerHook) run(status int) {
	if !w.done {
		w.done = true
		w.hook(status)
	}
}

// settle runs the hook if the response never started: with status, or not at all for 0.
func (w *headerHook) settle(status int) {
	if !w.done && status != 0 {
		w.run(status)
	}
	w.done = true
}

func (w *headerHook) WriteHeader(status int) {
	if status >= 200 { // informational responses (1xx) are not the response
		w.run(status)
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *headerHook) Write(p []byte) (int, error) {
	w.run(http.StatusOK)
	return w.ResponseWriter.Write(p)
}

func (w *headerHook) Flush() {
	w.run(http.StatusOK)
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *headerHook) Unwrap() http.ResponseWriter { return w.ResponseWriter }
