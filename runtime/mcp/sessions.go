package mcp

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

// SessionKey chooses the registry session of a call (runtime.Call.Session): the unit of loop
// guards, call limits, AskRetry budgets, session state and stored results. Choose it with
// SessionPerConnection (the default), SessionFromPrincipal, SessionFromHeader,
// SessionPerRequest or SessionFunc.
type SessionKey struct {
	key func(ctx context.Context, req *mcp.CallToolRequest, connKey string) (string, error)
	// perRequest sessions end when their call returns.
	perRequest bool
	// perConnection keys by the connection: over stateless HTTP, the request.
	perConnection bool
}

// SessionPerConnection keys a call by the MCP connection it came on: the stdio or in-memory
// connection, or the Mcp-Session-Id of stateful streamable HTTP. Stateless HTTP has no
// connection beyond the request, so there every call is its own session, as with
// SessionPerRequest: separate clients are never merged. The key is a random id the server
// picks, so a client cannot choose another's.
func SessionPerConnection() SessionKey {
	return SessionKey{perConnection: true, key: func(_ context.Context, _ *mcp.CallToolRequest, connKey string) (string, error) {
		return connKey, nil
	}}
}

// SessionPerRequest makes every tools/call its own session, ended when the call returns:
// nothing carries over from call to call (no loop guard across calls, no session state).
func SessionPerRequest() SessionKey {
	return SessionKey{perRequest: true, key: func(context.Context, *mcp.CallToolRequest, string) (string, error) {
		return "req:" + rand.Text(), nil
	}}
}

// ErrNoPrincipal is the error of a call SessionFromPrincipal cannot key: it carries no
// authenticated user (auth.TokenInfo with a UserID, from the go-sdk's auth.RequireBearerToken).
var ErrNoPrincipal = errors.New("mcp: the call has no authenticated user to key its session by")

// SessionFromPrincipal keys a call by its authenticated user: auth.TokenInfo.UserID, set by
// the go-sdk's auth.RequireBearerToken middleware in front of the HTTP handler. Every
// connection of one user shares the session, over stateless HTTP too; a call without a user
// is refused (ErrNoPrincipal). Use WithSessionLinger so that state outlives one request.
func SessionFromPrincipal() SessionKey {
	return SessionKey{key: func(_ context.Context, req *mcp.CallToolRequest, _ string) (string, error) {
		if user := principal(req); user != "" {
			return "user:" + user, nil
		}
		return "", ErrNoPrincipal
	}}
}

// SessionFromHeader keys a call by the value of a client-supplied HTTP header (for instance
// "X-Conversation-Id"), so that a client running several conversations, or one reconnecting
// over stateless HTTP, keeps each apart. The value is scoped by the authenticated user, when
// there is one, so that one user cannot reach another's session by sending the same value;
// without a user, anyone who knows a value shares its session, so prefer it behind auth. A
// call without the header falls back to SessionPerConnection. A connection holds the keys it
// named until it closes, at most SessionLimits.MaxKeysPerConnection of them. A value longer
// than MaxHeaderKeyBytes is keyed by its SHA-256, so that what a key holds does not grow
// with the header a client sends (up to the http.Server's MaxHeaderBytes, 1 MiB by default).
func SessionFromHeader(name string) SessionKey {
	return SessionKey{key: func(_ context.Context, req *mcp.CallToolRequest, connKey string) (string, error) {
		var v string
		if req.Extra != nil && req.Extra.Header != nil {
			v = req.Extra.Header.Get(name)
		}
		if v == "" {
			return connKey, nil
		}
		if len(v) > MaxHeaderKeyBytes {
			sum := sha256.Sum256([]byte(v))
			return "user:" + principal(req) + "\x00header-sha256:" + hex.EncodeToString(sum[:]), nil
		}
		return "user:" + principal(req) + "\x00header:" + v, nil
	}}
}

// MaxHeaderKeyBytes is the longest header value SessionFromHeader keys a session by as it is;
// a longer one is keyed by its hash.
const MaxHeaderKeyBytes = 256

// SessionFunc keys a call by what fn returns for its request (req.GetExtra() has the HTTP
// header and the verified token): "" falls back to SessionPerConnection, an error refuses the
// call with the error's text as the tool error. A connection holds the keys it used until it
// closes, at most SessionLimits.MaxKeysPerConnection of them.
func SessionFunc(fn func(ctx context.Context, req mcp.Request) (string, error)) SessionKey {
	return SessionKey{key: func(ctx context.Context, req *mcp.CallToolRequest, connKey string) (string, error) {
		key, err := fn(ctx, req)
		if err == nil && key == "" {
			key = connKey
		}
		return key, err
	}}
}

// principal is the authenticated user of a call, or "".
func principal(req *mcp.CallToolRequest) string {
	if req.Extra != nil && req.Extra.TokenInfo != nil {
		return req.Extra.TokenInfo.UserID
	}
	return ""
}

// sessions ends registry sessions when the last MCP connection that used them closes (after
// the linger time, if any), so what the registry keeps per session does not grow with the
// number of clients served.
type sessions struct {
	reg    *runtime.Registry
	linger time.Duration
	shared bool // the store is shared with other replicas: never end a session here
	// maxKeys bounds the keys but its own a connection holds (SessionLimits.MaxKeysPerConnection); 0: no bound.
	maxKeys int
	// maxLingering bounds the sessions lingering at once (SessionLimits.MaxLingering); 0: no bound.
	maxLingering int

	mu     sync.Mutex
	conns  map[*mcp.ServerSession]*connection
	keys   map[string]*keyUse              // the registry sessions but the connections' own
	others map[*connection]map[string]bool // those a connection holds until it closes; a set, as a client may name a new key each call
	own    int                             // connections' own registry sessions not ended yet
	// lingering are the sessions nothing uses, waiting out the linger time, oldest first, so
	// that the bound ends the oldest without a scan.
	lingering lingerList
	// ending are the keys whose EndSession runs now, outside s.mu: a call naming one waits
	// for it to finish (hold), so that the end does not clear the state that call makes.
	ending map[string]chan struct{}
}

// connection is one MCP session as the tracker knows it. An idle stateful HTTP session holds
// one, so it is kept small (24 bytes): its own key (SessionPerConnection's), which no other
// connection can name, is counted here rather than in sessions.keys, and made at its first
// call; the keys it shares with other connections are in sessions.others.
type connection struct {
	key    string // "conn:" and a random id; "" until a call
	calls  int32  // calls running under key
	holds  bool   // a call tied key to the connection: it lasts until the connection closes
	closed bool
	gone   chan struct{} // closed when the connection closes; made by whenClosed, nil until then
}

// keyUse counts the connections and running calls that hold a registry session; while none
// does and it lingers, it is in sessions.lingering.
type keyUse struct {
	key        string
	refs       int
	timer      *time.Timer // the pending EndSession while lingering, nil otherwise
	prev, next *keyUse     // in sessions.lingering
	own        bool        // a connection's own session: counted in sessions.own, not in sessions.keys
}

// lingerList is a list of lingering sessions through their keyUse, in the order they began to
// linger: adding, taking out and finding the oldest cost O(1) and no memory of their own.
type lingerList struct {
	oldest, newest *keyUse
	len            int
}

func (l *lingerList) push(u *keyUse) {
	u.prev, u.next = l.newest, nil
	if l.newest != nil {
		l.newest.next = u
	} else {
		l.oldest = u
	}
	l.newest = u
	l.len++
}

func (l *lingerList) remove(u *keyUse) {
	if u.prev != nil {
		u.prev.next = u.next
	} else {
		l.oldest = u.next
	}
	if u.next != nil {
		u.next.prev = u.prev
	} else {
		l.newest = u.prev
	}
	u.prev, u.next = nil, nil
	l.len--
}

// newSessions tracks the registry sessions of one server, bounded by limits (resolved).
func newSessions(reg *runtime.Registry, linger time.Duration, shared bool, limits SessionLimits) *sessions {
	return &sessions{reg: reg, linger: linger, shared: shared, maxKeys: limits.MaxKeysPerConnection, maxLingering: limits.MaxLingering,
		conns: map[*mcp.ServerSession]*connection{}, keys: map[string]*keyUse{}, others: map[*connection]map[string]bool{},
		ending: map[string]chan struct{}{}}
}

// connection returns the tracker's record of ss, watching for its end on first sight. A call
// without a session (a handler called directly) gets a record of its own that ends with the
// call (done).
func (s *sessions) connection(ss *mcp.ServerSession) (conn *connection, done func()) {
	if ss == nil {
		c := &connection{key: connectionKey()}
		return c, func() { s.close(c) }
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.conns[ss]
	if c == nil {
		c = &connection{}
		s.conns[ss] = c
		go func() {
			_ = ss.Wait()
			s.closed(ss)
		}()
	}
	if c.key == "" {
		c.key = connectionKey()
	}
	return c, func() {}
}

// connectionKey is a new key of SessionPerConnection: random, so that a client cannot choose
// another's.
func connectionKey() string { return "conn:" + rand.Text() }

// adopt records ss for a closer that says when it closed (closed), so that no goroutine
// waits for its end: a stateful HTTPHandler's session gate, which sees every session end but
// those the server itself closes, and finds those when it reconciles its count.
func (s *sessions) adopt(ss *mcp.ServerSession) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conns[ss] == nil {
		s.conns[ss] = &connection{}
	}
}

// closed forgets ss, which closed, and releases the registry sessions it held.
func (s *sessions) closed(ss *mcp.ServerSession) {
	s.mu.Lock()
	c := s.conns[ss]
	delete(s.conns, ss)
	s.mu.Unlock()
	if c != nil {
		s.close(c)
	}
}

// hold records that a call runs under key (until release) and, when tied, that conn uses it
// (until conn closes). It refuses (ok false, nothing recorded) a tied key conn does not hold
// yet when conn already holds maxKeys keys besides its own: a client naming a new key each
// call would otherwise make the registry keep a session for each until it disconnects.
func (s *sessions) hold(conn *connection, key string, tied bool) (release func(), ok bool) {
	s.mu.Lock()
	for key != conn.key {
		ended := s.ending[key]
		if ended == nil {
			break
		}
		s.mu.Unlock()
		<-ended
		s.mu.Lock()
	}
	defer s.mu.Unlock()
	if key == conn.key {
		if conn.calls == 0 && !conn.holds {
			s.own++
		}
		conn.calls++
		conn.holds = conn.holds || tied && !conn.closed
		return func() { s.releaseOwn(conn) }, true
	}
	if tied && !conn.closed && !s.others[conn][key] {
		if s.maxKeys > 0 && len(s.others[conn]) >= s.maxKeys {
			return nil, false
		}
		if s.others[conn] == nil {
			s.others[conn] = map[string]bool{}
		}
		s.others[conn][key] = true
		s.ref(key)
	}
	s.ref(key)
	return func() {
		s.mu.Lock()
		ended := s.unref(key)
		s.mu.Unlock()
		s.end(ended)
	}, true
}

// releaseOwn ends a call under conn's own key.
func (s *sessions) releaseOwn(conn *connection) {
	s.mu.Lock()
	conn.calls--
	unused := conn.calls == 0 && !conn.holds
	s.mu.Unlock()
	if unused {
		s.endOwn(conn.key)
	}
}

// close releases the keys conn held.
func (s *sessions) close(conn *connection) {
	var ended []string
	s.mu.Lock()
	for key := range s.others[conn] {
		ended = append(ended, s.unref(key))
	}
	delete(s.others, conn)
	ownUnused := conn.holds && conn.calls == 0
	if conn.gone != nil && !conn.closed {
		close(conn.gone)
	}
	conn.holds, conn.closed = false, true
	s.mu.Unlock()
	if ownUnused {
		s.endOwn(conn.key)
	}
	s.end(ended...)
}

// whenClosed returns a channel closed when conn closes (at once, when it has).
func (s *sessions) whenClosed(conn *connection) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if conn.gone == nil {
		conn.gone = make(chan struct{})
		if conn.closed {
			close(conn.gone)
		}
	}
	return conn.gone
}

// endOwn ends a connection's own registry session, which nothing uses any more: at once,
// after the linger time (or sooner, pushed out by newer lingering sessions), or, when the
// store is shared, not here. No call can come for it
// meanwhile: its connection has closed, and no other can name it.
func (s *sessions) endOwn(key string) {
	var ended string
	s.mu.Lock()
	switch {
	case s.shared:
		s.own--
	case s.linger <= 0:
		s.own--
		ended = key
	default:
		ended = s.startLinger(&keyUse{key: key, own: true})
	}
	s.mu.Unlock()
	s.end(ended)
}

// ref, unref and the linger bookkeeping below run under s.mu.
func (s *sessions) ref(key string) {
	u := s.keys[key]
	if u == nil {
		u = &keyUse{key: key}
		s.keys[key] = u
	}
	s.stopLinger(u) // used again: it leaves the lingering ones
	u.refs++
}

// unref drops a use of key. It returns the session to end now, "" for none: key when it ends
// at once, or the oldest lingering session when key's lingering pushed that out.
func (s *sessions) unref(key string) string {
	u := s.keys[key]
	if u == nil {
		return ""
	}
	if u.refs--; u.refs > 0 {
		return ""
	}
	switch {
	case s.shared:
		delete(s.keys, key)
		return ""
	case s.linger <= 0:
		s.forget(u)
		return key
	}
	return s.startLinger(u)
}

// startLinger keeps u, which nothing uses, for the linger time. At the bound it first ends the
// session that has lingered longest and returns its key (to end once s.mu is released):
// lingering sessions have no connection, so ending the oldest early cuts no conversation
// short that is running, whereas refusing would keep a client that multiplies keys from
// leaving any. A timer each is cheap at the bound (the runtime keeps timers in a heap).
func (s *sessions) startLinger(u *keyUse) (evicted string) {
	if s.maxLingering > 0 && s.lingering.len >= s.maxLingering {
		oldest := s.lingering.oldest
		s.stopLinger(oldest)
		s.forget(oldest)
		evicted = oldest.key
	}
	var timer *time.Timer
	timer = time.AfterFunc(s.linger, func() {
		s.mu.Lock()
		// Read under s.mu, which startLinger held when it set timer. Another timer means u was
		// used again and lingers anew, or ended.
		expired := u.timer == timer
		if expired {
			s.stopLinger(u)
			s.forget(u)
		}
		s.mu.Unlock()
		if expired {
			s.end(u.key)
		}
	})
	u.timer = timer
	s.lingering.push(u)
	return evicted
}

// stopLinger takes u out of the lingering sessions, if it is one.
func (s *sessions) stopLinger(u *keyUse) {
	if u.timer == nil {
		return
	}
	u.timer.Stop()
	u.timer = nil
	s.lingering.remove(u)
}

// forget drops the record of u, whose session is about to end (by end, once s.mu is
// released); until it has, calls naming its key wait.
func (s *sessions) forget(u *keyUse) {
	if u.own {
		s.own-- // no call can name a connection's own key once it closed
		return
	}
	delete(s.keys, u.key)
	s.ending[u.key] = make(chan struct{})
}

// end ends registry sessions ("" is none) and lets the calls waiting for them go on; the
// caller must not hold s.mu (a session store may be slow).
func (s *sessions) end(keys ...string) {
	for _, key := range keys {
		if key == "" {
			continue
		}
		_ = s.reg.EndSession(context.Background(), key)
		s.mu.Lock()
		if ended := s.ending[key]; ended != nil {
			close(ended)
			delete(s.ending, key)
		}
		s.mu.Unlock()
	}
}

// open reports how many registry sessions and connections the tracker holds; tests use it.
func (s *sessions) open() (keys, conns int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.keys) + s.own, len(s.conns)
}

// lingeringNow reports how many registry sessions linger; tests use it.
func (s *sessions) lingeringNow() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lingering.len
}
