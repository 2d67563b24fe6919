package runtime

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"sync"
	"time"
)

// ApprovalState is where a request of the approval queue stands. A request moves
// pending → approved or denied (Registry.Approve, Deny) → consumed (the call was invoked again:
// an approved call ran, a denial was reported), each step once.
type ApprovalState string

const (
	ApprovalPending  ApprovalState = "pending"
	ApprovalApproved ApprovalState = "approved"
	ApprovalDenied   ApprovalState = "denied"
	ApprovalConsumed ApprovalState = "consumed"
)

// ApprovalRecord is one request of the approval queue as an ApprovalStore keeps it.
type ApprovalRecord struct {
	// Request is the request. A store outside the process may keep it without Args (the
	// decoded Go value): the registry decodes RawArgs again when it needs them.
	Request  ApprovalRequest
	State    ApprovalState
	Decision Decision // once approved or denied
	Created  time.Time
	// Expires ends the request: a pending request not decided by then, or a decided one not
	// acted on by then, is refused with a notice that it expired. A decision renews it.
	Expires time.Time
	// Forget is when the store may drop the record (after Expires: until then an expired or
	// consumed request is still answered as such rather than queued again).
	Forget time.Time
}

// live reports whether the record holds a request still in play at now: pending or decided,
// and not expired. Only live records count against ApprovalLimits.
func (rec *ApprovalRecord) live(now time.Time) bool {
	return rec.State != ApprovalConsumed && now.Before(rec.Expires)
}

// ApprovalLimits bounds what an ApprovalStore holds of live requests (pending, or decided and
// not yet acted on, and not expired).
type ApprovalLimits struct {
	PerSession int   // live requests of one session
	Total      int   // live requests in all
	Bytes      int64 // bytes of RawArgs of the live requests in all
}

// ErrApprovalLimit is returned by ApprovalStore.Add when a new request would exceed its
// ApprovalLimits, and wrapped by the Err of the result that refuses the call.
var ErrApprovalLimit = errors.New("too many approval requests waiting")

// ErrApprovalExpired is wrapped by the error of Approve, ApproveWithArgs and Deny for a
// request that expired, and by the Err of a call refused because its request expired.
var ErrApprovalExpired = errors.New("the approval request expired")

// ApprovalStore keeps the requests of the approval queue (WithApprovalQueue); the registry
// uses a MemoryApprovalStore unless WithApprovalStore gives another, such as one shared by
// several processes (which then share a WithApprovalKey too). Every method is atomic with respect to the others. A store must be safe
// for concurrent use and may drop a record after its Forget time.
//
// The registry drives the state machine through Add and Transition only, so that a decision
// is acted on exactly once even with many processes: Add is an insert-if-absent, Transition a
// compare-and-set on the state. In Redis, for instance: a hash per record (state, decision,
// the request as JSON without Args) expiring at Forget (EXPIREAT); a sorted set of live ids
// per session and one in all, scored by Expires, and a counter of their RawArgs bytes; Add a
// Lua script that drops ids scored below now from the sets, compares their sizes and the
// counter with the limits, then HSETNX and ZADD; Transition a Lua script that sets the state
// only when it still is from (removing the id from the sets when it moves to consumed).
type ApprovalStore interface {
	// Add stores rec, in state pending, unless a record with the same Request.ID exists, and
	// returns the record stored under that id afterwards (the existing one, or rec). It
	// returns ErrApprovalLimit, storing nothing, when rec would take the live requests of
	// its session or in all past limits at time now.
	Add(ctx context.Context, rec ApprovalRecord, limits ApprovalLimits, now time.Time) (ApprovalRecord, error)
	// Get returns the record of request id.
	Get(ctx context.Context, id string) (ApprovalRecord, bool, error)
	// Transition moves request id from state from to state to, atomically: ok is false, and
	// nothing changes, when there is no such record or it is not in state from. Moving to
	// approved or denied records dec and sets Expires to expires and Forget to forget; moving
	// to consumed keeps the decision. It returns the record as it now is.
	Transition(ctx context.Context, id string, from, to ApprovalState, dec Decision, expires, forget time.Time) (rec ApprovalRecord, ok bool, err error)
	// Pending returns the pending records not expired at now, oldest first.
	Pending(ctx context.Context, now time.Time) ([]ApprovalRecord, error)
	// ClearSession forgets every record of session.
	ClearSession(ctx context.Context, session string) error
}

// MemoryApprovalStore is the in-process ApprovalStore a registry uses by default. Its zero
// value is ready to use. It keeps the decoded arguments of live requests, and of the others
// only what answers a call of them again (id, tool, session, state).
type MemoryApprovalStore struct {
	mu        sync.Mutex
	records   map[string]*ApprovalRecord
	seq       map[string]uint64 // the order requests came in, for Pending
	next      uint64
	nextSweep time.Time
}

func (m *MemoryApprovalStore) Add(_ context.Context, rec ApprovalRecord, limits ApprovalLimits, now time.Time) (ApprovalRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.records == nil {
		m.records, m.seq = make(map[string]*ApprovalRecord), make(map[string]uint64)
	}
	if old, ok := m.records[rec.Request.ID]; ok && now.Before(old.Forget) {
		return *old, nil
	}
	if !now.Before(m.nextSweep) {
		m.sweep(now)
		m.nextSweep = now.Add(time.Minute)
	}
	var session, total int
	var bytes int64
	for _, r := range m.records {
		if r.live(now) {
			total++
			bytes += int64(len(r.Request.RawArgs))
			if r.Request.Session == rec.Request.Session {
				session++
			}
		}
	}
	if limits.PerSession > 0 && session >= limits.PerSession || limits.Total > 0 && total >= limits.Total ||
		limits.Bytes > 0 && bytes+int64(len(rec.Request.RawArgs)) > limits.Bytes {
		return ApprovalRecord{}, ErrApprovalLimit
	}
	rec.State = ApprovalPending
	m.records[rec.Request.ID] = &rec
	m.next++
	m.seq[rec.Request.ID] = m.next
	return rec, nil
}

// sweep drops the records past their Forget time and the arguments of those no longer live.
func (m *MemoryApprovalStore) sweep(now time.Time) {
	for id, r := range m.records {
		switch {
		case !now.Before(r.Forget):
			delete(m.records, id)
			delete(m.seq, id)
		case !r.live(now):
			r.Request.Args, r.Request.RawArgs, r.Decision.Args = nil, nil, nil
		}
	}
}

func (m *MemoryApprovalStore) Get(_ context.Context, id string) (ApprovalRecord, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.records[id]
	if !ok {
		return ApprovalRecord{}, false, nil
	}
	return *r, true, nil
}

func (m *MemoryApprovalStore) Transition(_ context.Context, id string, from, to ApprovalState, dec Decision, expires, forget time.Time) (ApprovalRecord, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.records[id]
	if !ok || r.State != from {
		return ApprovalRecord{}, false, nil
	}
	r.State = to
	switch to {
	case ApprovalApproved, ApprovalDenied:
		r.Decision, r.Expires, r.Forget = dec, expires, forget
	case ApprovalConsumed:
		out := *r
		// Acted on: what is left answers a replay, and holds no arguments.
		r.Request.Args, r.Request.RawArgs, r.Decision.Args = nil, nil, nil
		return out, true, nil
	}
	return *r, true, nil
}

func (m *MemoryApprovalStore) Pending(_ context.Context, now time.Time) ([]ApprovalRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var ids []string
	for id, r := range m.records {
		if r.State == ApprovalPending && now.Before(r.Expires) {
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, func(a, b string) int { return cmp.Compare(m.seq[a], m.seq[b]) })
	out := make([]ApprovalRecord, len(ids))
	for i, id := range ids {
		out[i] = *m.records[id]
	}
	return out, nil
}

func (m *MemoryApprovalStore) ClearSession(_ context.Context, session string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, r := range m.records {
		if r.Request.Session == session {
			delete(m.records, id)
			delete(m.seq, id)
		}
	}
	return nil
}
