package runtime

import (
	"container/list"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"
)

// CallInfo is what a handler (or a middleware) knows about the call it serves.
type CallInfo struct {
	Tool     string
	CallID   string
	Session  string
	UserData any // Call.UserData
	Attempt  int // 1 for the first attempt (and before it: in a middleware, Bind, the approver), 2 for the first retry, …
	// State is the session's key/value state, kept between calls of the session.
	State SessionState
	// Run is the call's Call.Run: the run id, agent, model, turn and tokens the host (or
	// an adapter, or an MCP client's _meta) gave; zero fields are unknown.
	Run RunInfo
}

// CallInfoFrom returns the call a handler's ctx belongs to. It is false outside a call made
// through Registry.Invoke.
func CallInfoFrom(ctx context.Context) (CallInfo, bool) {
	st, ok := ctx.Value(callKey{}).(*callState)
	if !ok {
		return CallInfo{}, false
	}
	var run RunInfo
	if st.info.run != nil {
		run = *st.info.run
	}
	return CallInfo{
		Run:      run,
		Tool:     st.info.tool,
		CallID:   st.info.callID,
		Session:  st.info.session,
		UserData: st.info.userData,
		Attempt:  int(st.attempt.Load()) + 1,
		State:    SessionState{store: st.info.store(), session: st.info.session},
	}, true
}

type callKey struct{}

// callState is the context of one call: the caller's context plus what CallInfoFrom returns.
// It is the context itself, and it lives in the call the registry allocates for a generated
// tool (framedSlot), so a call allocates nothing for it.
type callState struct {
	context.Context
	info frameInfo
	// attempt counts the attempts before the current one (0 during the first, so that the
	// common call stores nothing); read by handlers abandoned after a timeout while a retry
	// runs.
	attempt atomic.Int32
	// taken is the flag of the call this state lives in (framed), kept next to attempt so
	// they share one word: the frame is in every call generated code allocates.
	taken atomic.Bool
	// framed tells that this state lives in a framedSlot, whose call is decoded at most once
	// (the first bind takes it); later binds of the same call, as a middleware calling next
	// twice makes, allocate their own.
	framed bool
	// first is the deadline context of the first attempt with a timeout, allocated with the
	// state when the tool has a timeout, so that the common call allocates nothing for it;
	// retries get their own. A call without a timeout does not carry its 80 bytes.
	first *attemptCtx
	// repairs records the changes made to the call before validation (repairs.go), made on
	// the first.
	repairs atomic.Pointer[repairLog]
}

func (s *callState) Value(key any) any {
	if key == (callKey{}) {
		return s
	}
	return s.Context.Value(key)
}

// frameInfo is what CallInfoFrom returns, without what it derives.
type frameInfo struct {
	tool, callID, session string
	userData              any
	run                   *RunInfo  // Call.Run
	reg                   *Registry // for the session store and ReadResult; nil outside a registry
}

// store is the session store of the call's registry.
func (f *frameInfo) store() SessionStore {
	if f.reg == nil {
		return nil
	}
	return f.reg.sessionStore()
}

// takeUnbound returns the call allocated with the frame, once.
func (s *callState) takeUnbound() *framedSlot {
	if s == nil || !s.framed || !s.taken.CompareAndSwap(false, true) {
		return nil
	}
	return (*framedSlot)(unsafe.Add(unsafe.Pointer(s), -int(framedStateOffset)))
}

// framedStateOffset is where a framedSlot holds its state.
const framedStateOffset = unsafe.Offsetof(framedSlot{}.st)

// newCallState returns the state of a call of tool, which runs with a timeout when timed:
// inside the call allocated for a generated tool, so that the call allocates once, else on
// its own.
func newCallState(tool *Tool, timed bool) *callState {
	if tool.binding != nil && tool.Bind == nil {
		return &newFramed(tool.binding, timed).st
	}
	if timed {
		c := &timedState{}
		c.st.first = &c.first
		return &c.st
	}
	return &callState{}
}

// timedState is the state of a call of a tool without a binding that has a timeout.
type timedState struct {
	st    callState
	first attemptCtx
}

// SessionStore keeps the key/value state of sessions. Implementations must be safe for
// concurrent use; values are whatever handlers store (a store that persists outside the
// process must document which types it can hold).
type SessionStore interface {
	Get(ctx context.Context, session, key string) (value any, ok bool, err error)
	Set(ctx context.Context, session, key string, value any) error
	// Update replaces the value under key with what fn returns, atomically with respect to
	// other calls on the same key; ok tells fn whether there was a value. When fn returns an
	// error, nothing changes and Update returns it.
	Update(ctx context.Context, session, key string, fn func(old any, ok bool) (any, error)) error
	Delete(ctx context.Context, session, key string) error
	// Clear forgets every key of session.
	Clear(ctx context.Context, session string) error
}

// Session returns the state of session in the registry's session store, for hosts that read
// or seed what handlers keep there (a toolkit's todo list, the tools a search found) outside
// a call.
func (r *Registry) Session(session string) SessionState {
	return SessionState{store: r.sessionStore(), session: session}
}

// SessionState is one session's view of a SessionStore, as handlers get it in CallInfo.
// Its zero value (outside a call) holds nothing and refuses writes.
type SessionState struct {
	store   SessionStore
	session string
}

// StateValue returns a value read from a session store (SessionState.Get, Update's old) as
// a T: as it is when the store kept the Go value (MemoryStore), else through its JSON, for a
// store that keeps values as JSON and gives them back as JSON's Go types (runtime/redisstore:
// a []Todo comes back as []any of map[string]any). A nil value is T's zero value.
//
//	v, _, err := info.State.Get(ctx, "todos")
//	list, err := runtime.StateValue[[]Todo](v)
func StateValue[T any](v any) (T, error) {
	var out T
	switch v := v.(type) {
	case nil:
		return out, nil
	case T:
		return v, nil
	}
	data, err := json.Marshal(v)
	if err == nil {
		err = json.Unmarshal(data, &out)
	}
	if err != nil {
		return out, fmt.Errorf("session state: a %T cannot be read as a %T: %w", v, out, err)
	}
	return out, nil
}

// Get returns the value under key.
func (s SessionState) Get(ctx context.Context, key string) (any, bool, error) {
	if s.store == nil {
		return nil, false, nil
	}
	v, ok, err := s.store.Get(ctx, s.session, key)
	return v, ok, storeFailure(ctx, err)
}

// Set stores value under key.
func (s SessionState) Set(ctx context.Context, key string, value any) error {
	if s.store == nil {
		return errNoSession
	}
	return storeFailure(ctx, s.store.Set(ctx, s.session, key, value))
}

// Update replaces the value under key with what fn returns (see SessionStore.Update). An
// error fn returns comes back as it is.
func (s SessionState) Update(ctx context.Context, key string, fn func(old any, ok bool) (any, error)) error {
	if s.store == nil {
		return errNoSession
	}
	var fnErr error
	err := s.store.Update(ctx, s.session, key, func(old any, ok bool) (any, error) {
		v, err := fn(old, ok)
		fnErr = err
		return v, err
	})
	if err != nil && fnErr != nil && errors.Is(err, fnErr) {
		return err
	}
	return storeFailure(ctx, err)
}

// Delete removes key.
func (s SessionState) Delete(ctx context.Context, key string) error {
	if s.store == nil {
		return errNoSession
	}
	return storeFailure(ctx, s.store.Delete(ctx, s.session, key))
}

// ErrSessionStoreUnavailable is wrapped by the error SessionState returns when its store
// failed (a shared store that is down or unreachable): a *ModelError of KindUnavailable,
// retryable, whose message a model can act on, so a handler that returns it as it is
// (ErrorResult(err), or wrapped with %w) tells the model to try again rather than passing on
// the store's own text ("redisstore: update: EOF").
var ErrSessionStoreUnavailable = errors.New("the session store is unavailable")

// storeFailure turns a store's error into ErrSessionStoreUnavailable; the call's own end
// (cancelled, timed out) stays as it is.
func storeFailure(ctx context.Context, err error) error {
	if err == nil || ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return err
	}
	var model *ModelError
	if errors.As(err, &model) {
		return err // already worded for the model (the store's or a nested call's)
	}
	return &ModelError{
		Kind:    KindUnavailable,
		Message: "the session's state could not be read or saved: its store is unavailable right now; try the call again in a moment",
		Err:     fmt.Errorf("%w: %w", ErrSessionStoreUnavailable, err),
	}
}

// ErrSessionStateLost is wrapped by the error a shared SessionStore (redisstore, say) returns
// when a session's state that it saw earlier is gone before its time: the store restarted
// without persistence, evicted it, or failed over to a replica that never had it. The error
// is a *ModelError of KindNotFound, which the registry does not retry on its own: the model is
// told that what the session held is gone, so that it does again what it had done rather than
// act on a fresh session as if it were the old one. The store reports a loss once: the next
// call finds the session empty, as a new one.
var ErrSessionStateLost = errors.New("the session's state was lost by its store")

// SessionStateLost is the error a shared SessionStore returns for a session whose state it
// lost (see ErrSessionStateLost); detail says how the store knew, for the host's logs.
func SessionStateLost(detail string) error {
	return &ModelError{
		Kind: KindNotFound,
		Message: "this session's earlier state (what tools stored during this conversation: lists, counters, progress) was lost by the server's store and is empty now; " +
			"nothing of it can be recovered. Tell the user if it matters, redo the steps whose results you still need, then go on",
		Err: fmt.Errorf("%w: %s", ErrSessionStateLost, detail),
	}
}

var errNoSession = ModelErrorf(KindInternal, "session state is only available during a call")

// MemoryStore is the in-memory SessionStore a registry uses unless WithSessionStore says
// otherwise, and its IdempotencyStore (the records of calls made with an idempotency key).
// Its zero value is ready to use.
type MemoryStore struct {
	// MaxCalls and MaxCallBytes bound the call records kept (DefaultMaxMemoryCalls and
	// DefaultMaxMemoryCallBytes when zero): past either, the oldest is forgotten first.
	MaxCalls     int
	MaxCallBytes int64

	mu       sync.Mutex
	sessions map[string]map[string]any

	calls     map[memoryCallID]*memoryCall
	callOrder list.List // of *memoryCall, by last write, oldest first
	callBytes int64
}

func (m *MemoryStore) Get(_ context.Context, session, key string) (any, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.sessions[session][key]
	return v, ok, nil
}

func (m *MemoryStore) Set(_ context.Context, session, key string, value any) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.values(session)[key] = value
	return nil
}

// Update holds the store's lock while fn runs: fn must be quick and must not use the store.
func (m *MemoryStore) Update(_ context.Context, session, key string, fn func(old any, ok bool) (any, error)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	values := m.values(session)
	old, ok := values[key]
	v, err := fn(old, ok)
	if err != nil {
		return err
	}
	values[key] = v
	return nil
}

func (m *MemoryStore) Delete(_ context.Context, session, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.sessions[session], key)
	return nil
}

func (m *MemoryStore) Clear(_ context.Context, session string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.sessions, session)
	return nil
}

func (m *MemoryStore) values(session string) map[string]any {
	if m.sessions == nil {
		m.sessions = make(map[string]map[string]any)
	}
	v := m.sessions[session]
	if v == nil {
		v = make(map[string]any)
		m.sessions[session] = v
	}
	return v
}
