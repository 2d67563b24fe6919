package mcp_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

func (s *countingStore) holds(session string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.live[session]
}

// lingerServer serves call_info over stateless HTTP keyed by the X-Conversation header, with
// sessions lingering an hour, and returns a client whose conversation the test sets, the
// store, and how many sessions linger.
func lingerServer(t *testing.T, sopts *mcp.ClientSessionOptions, opts ...toolmcp.Option) (
	call func(conversation string) callInfo, store *countingStore, lingering func() int) {
	t.Helper()
	store = &countingStore{live: map[string]bool{}}
	reg := runtime.NewRegistry(runtime.WithSessionStore(store))
	require.NoError(t, reg.Add(callInfoTool()))
	opts = append([]toolmcp.Option{toolmcp.WithStateless(), toolmcp.WithSessionLinger(time.Hour),
		toolmcp.WithSessionKey(toolmcp.SessionFromHeader("X-Conversation"))}, opts...)
	h, lingering := toolmcp.HTTPHandlerLingering(reg, opts...)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	header := &conversationHeader{}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(t.Context(),
		&mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: &http.Client{Transport: header}}, sopts)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return func(conversation string) callInfo {
		t.Helper()
		header.set(conversation)
		return callInfoOver(t, cs)
	}, store, lingering
}

// settled waits until want sessions linger and want hold state: a session starts lingering
// when the server sees its request's connection close, which through the SDK comes after the
// answer, and an evicted one ends after that.
func settled(t *testing.T, store *countingStore, lingering func() int, want int) {
	t.Helper()
	require.Eventually(t, func() bool { return lingering() == want && store.count() == want }, 10*time.Second, time.Millisecond,
		"want %d lingering with state, have %d lingering, %d with state", want, lingering(), store.count())
}

// A client sending a new conversation key on every stateless request leaves one lingering
// session each: past MaxLingering the one that has lingered longest ends (its state gone),
// and a session used again lingers anew as the newest, so it outlives older ones.
func TestLingeringSessionsAreBounded(t *testing.T) {
	const bound = 3
	for name, sopts := range protocols { // 2025-11-25 is served beside the SDK, 2026-07-28 by it
		t.Run(name, func(t *testing.T) {
			call, store, lingering := lingerServer(t, sopts, toolmcp.WithSessionLimits(toolmcp.SessionLimits{MaxLingering: bound}))
			session := map[string]string{}
			for i := 1; i <= 5; i++ {
				c := fmt.Sprint("c", i)
				info := call(c)
				require.Equal(t, 1, info.Calls, c)
				session[c] = info.Session
				settled(t, store, lingering, min(i, bound))
			}
			for c, kept := range map[string]bool{"c1": false, "c2": false, "c3": true, "c4": true, "c5": true} {
				assert.Equal(t, kept, store.holds(session[c]), "%s: only the newest %d keep their state", c, bound)
			}

			// c4, in the middle, used again: it now lingers last, so c6 and c7 end c3 and c5.
			require.Equal(t, 2, call("c4").Calls, "a lingering session's state survives")
			settled(t, store, lingering, bound)
			for _, c := range []string{"c6", "c7"} {
				info := call(c)
				require.Equal(t, 1, info.Calls)
				session[c] = info.Session
				settled(t, store, lingering, bound)
			}
			for c, kept := range map[string]bool{"c3": false, "c4": true, "c5": false, "c6": true, "c7": true} {
				assert.Equal(t, kept, store.holds(session[c]), "%s", c)
			}
			assert.Equal(t, 3, call("c4").Calls, "used again before its eviction: not evicted")
			assert.Equal(t, 1, call("c1").Calls, "an evicted session ended in the registry: it starts afresh")
		})
	}
}

// With the bound off every session lingers; with a shared store none lingers here, so none is
// ended whatever the bound.
func TestLingeringBoundOffAndShared(t *testing.T) {
	const keys = 10
	t.Run("off", func(t *testing.T) {
		call, store, lingering := lingerServer(t, legacy, toolmcp.WithSessionLimits(toolmcp.SessionLimits{MaxLingering: -1}))
		for i := range keys {
			require.Equal(t, 1, call(fmt.Sprint("c", i)).Calls)
		}
		settled(t, store, lingering, keys)
		assert.Equal(t, 2, call("c0").Calls, "the first still has its state")
	})
	t.Run("shared", func(t *testing.T) {
		call, store, lingering := lingerServer(t, legacy, toolmcp.WithSharedSessions(),
			toolmcp.WithSessionLimits(toolmcp.SessionLimits{MaxLingering: 1}))
		for i := range keys {
			require.Equal(t, 1, call(fmt.Sprint("c", i)).Calls)
		}
		// Served beside the SDK (2025-11-25), a call is released before its answer is sent.
		assert.Zero(t, lingering())
		assert.Equal(t, keys, store.count(), "none ended here")
		assert.Equal(t, 2, call("c0").Calls)
	})
}

// Lingering sessions that expire leave the bound's count: the list stays consistent when
// timers, not evictions, end them.
func TestLingeringSessionsExpire(t *testing.T) {
	call, store, lingering := lingerServer(t, legacy, toolmcp.WithSessionLinger(5*time.Millisecond),
		toolmcp.WithSessionLimits(toolmcp.SessionLimits{MaxLingering: 2}))
	for i := range 6 {
		require.Equal(t, 1, call(fmt.Sprint("c", i)).Calls)
	}
	settled(t, store, lingering, 0)
}

// A connection's own session (SessionPerConnection) lingers after it closes and counts
// towards the bound as well, DefaultMaxLingering by default: past it, the oldest ends.
func TestOwnSessionsLingerWithinTheBound(t *testing.T) {
	serve := func(t *testing.T, opts ...toolmcp.Option) (connect func() callInfo, store *countingStore, lingering func() int) {
		store = &countingStore{live: map[string]bool{}}
		reg := runtime.NewRegistry(runtime.WithSessionStore(store))
		require.NoError(t, reg.Add(callInfoTool()))
		server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
		lingering = toolmcp.AddToolsLingering(server, reg, nil, append(opts, toolmcp.WithSessionLinger(time.Hour))...)
		return func() callInfo {
			cs := connectInMemory(t, server, nil, nil)
			info := callInfoOver(t, cs)
			require.Equal(t, 1, info.Calls, "a new connection, a new session")
			require.NoError(t, cs.Close())
			return info
		}, store, lingering
	}
	t.Run("bound 2", func(t *testing.T) {
		connect, store, lingering := serve(t, toolmcp.WithSessionLimits(toolmcp.SessionLimits{MaxLingering: 2}))
		var sessions []string
		for i := 1; i <= 4; i++ {
			sessions = append(sessions, connect().Session)
			// The server sees the close on a goroutine of its own: wait, so that they linger in order.
			settled(t, store, lingering, min(i, 2))
		}
		var kept []bool
		for _, session := range sessions {
			kept = append(kept, store.holds(session))
		}
		assert.Equal(t, []bool{false, false, true, true}, kept)
	})
	t.Run("default", func(t *testing.T) {
		connect, store, lingering := serve(t)
		for range toolmcp.DefaultMaxLingering + 5 {
			connect()
		}
		settled(t, store, lingering, toolmcp.DefaultMaxLingering)
	})
}

// A call naming a session whose end is under way waits for it to finish, then starts afresh:
// the end never clears state the new call made. Here the end is an eviction, held up in the
// store's Clear while the call arrives.
func TestCallWaitsForItsSessionsEnd(t *testing.T) {
	call, store, lingering := lingerServer(t, legacy, toolmcp.WithSessionLimits(toolmcp.SessionLimits{MaxLingering: 1}))
	first := call("a")
	require.Equal(t, 1, first.Calls)
	settled(t, store, lingering, 1)

	clearing, release := make(chan struct{}), make(chan struct{})
	store.mu.Lock()
	store.beforeClear = func(session string) {
		if session == first.Session {
			close(clearing)
			<-release
		}
	}
	store.mu.Unlock()
	// b lingers and pushes a out: a's Clear begins and waits, perhaps before b's answer is
	// sent (a call served beside the SDK is released before it answers).
	b := make(chan callInfo, 1)
	go func() { b <- call("b") }()
	receive := func(from chan callInfo) callInfo {
		t.Helper()
		select {
		case info := <-from:
			return info
		case <-time.After(10 * time.Second):
			close(release)
			t.Fatal("no answer")
			return callInfo{}
		}
	}
	select {
	case <-clearing:
	case <-time.After(10 * time.Second):
		t.Fatal("a was not pushed out")
	}

	again := make(chan callInfo, 1)
	go func() { again <- call("a") }()
	// Give a call that did not wait the time to make its state, which the Clear would then
	// remove (a wait that only lets the bug show; the call waits on the end, not on a clock).
	select {
	case info := <-again:
		close(release)
		t.Fatalf("the call ran while its session was ending: %+v", info)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	info := receive(again)
	assert.Equal(t, 1, info.Calls, "a starts afresh")
	assert.Equal(t, 1, receive(b).Calls)
	assert.True(t, store.holds(info.Session), "the end did not clear the new call's state")
}
