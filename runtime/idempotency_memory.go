package runtime

import (
	"container/list"
	"context"
	"time"
)

// Bounds of the call records a MemoryStore keeps (IdempotencyStore), unless its MaxCalls and
// MaxCallBytes say otherwise.
const (
	DefaultMaxMemoryCalls     = 10000
	DefaultMaxMemoryCallBytes = 64 << 20
)

var _ IdempotencyStore = (*MemoryStore)(nil)

// memoryCall is one record of a MemoryStore, in its calls map and its callOrder list.
type memoryCall struct {
	id      memoryCallID
	rec     CallRecord
	lease   time.Time // a running record's lease ends then
	expires time.Time
	elem    *list.Element
}

type memoryCallID struct{ session, key string }

// size is what the record counts against MaxCallBytes.
func (c *memoryCall) size() int64 {
	return int64(len(c.id.session) + len(c.id.key) + len(c.rec.Fingerprint) + len(c.rec.Owner) + len(c.rec.Result) + 128)
}

// ClaimCall implements IdempotencyStore. Records are forgotten when they expire, and the
// oldest first (running ones too) past MaxCalls records or MaxCallBytes bytes.
func (m *MemoryStore) ClaimCall(_ context.Context, session, key string, claim CallClaim) (CallRecord, error) {
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweepCalls(now)
	id := memoryCallID{session, key}
	if c := m.calls[id]; c != nil {
		if c.rec.State == CallRunning && !now.Before(c.lease) {
			c.rec.State = CallStale
		}
		if c.rec.State != CallStale || !claim.TakeStale || c.rec.Fingerprint != claim.Fingerprint {
			return c.rec, nil
		}
		m.dropCall(c)
	}
	c := &memoryCall{id: id, rec: CallRecord{State: CallRunning, Fingerprint: claim.Fingerprint, Owner: claim.Owner},
		lease: now.Add(claim.Lease), expires: now.Add(max(claim.Keep, claim.Lease))}
	if m.calls == nil {
		m.calls = map[memoryCallID]*memoryCall{}
	}
	m.calls[id] = c
	c.elem = m.callOrder.PushBack(c)
	m.callBytes += c.size()
	m.boundCalls()
	return c.rec, nil
}

// RenewCall implements IdempotencyStore.
func (m *MemoryStore) RenewCall(_ context.Context, session, key, owner string, lease time.Duration) (bool, error) {
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	c := m.calls[memoryCallID{session, key}]
	if c == nil || c.rec.Owner != owner || c.rec.State == CallDone {
		return false, nil
	}
	if lease <= 0 {
		c.rec.State, c.lease = CallStale, now
		return true, nil
	}
	c.rec.State, c.lease = CallRunning, now.Add(lease)
	if c.expires.Before(c.lease) {
		c.expires = c.lease
		m.callOrder.MoveToBack(c.elem)
	}
	return true, nil
}

// FinishCall implements IdempotencyStore.
func (m *MemoryStore) FinishCall(_ context.Context, session, key, owner string, result []byte, keep time.Duration) error {
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	c := m.calls[memoryCallID{session, key}]
	if c == nil || c.rec.Owner != owner || c.rec.State == CallDone {
		return nil
	}
	if result == nil {
		m.dropCall(c)
		return nil
	}
	m.callBytes -= c.size()
	c.rec.State, c.rec.Result, c.expires = CallDone, result, now.Add(keep)
	m.callBytes += c.size()
	m.callOrder.MoveToBack(c.elem)
	m.boundCalls()
	return nil
}

// sweepCalls forgets the expired records at the front of callOrder, which is in the order of
// their last write: with one window a store, the order they expire in.
func (m *MemoryStore) sweepCalls(now time.Time) {
	for e := m.callOrder.Front(); e != nil; e = m.callOrder.Front() {
		c := e.Value.(*memoryCall)
		if now.Before(c.expires) {
			return
		}
		m.dropCall(c)
	}
}

// boundCalls forgets the oldest records past the bounds.
func (m *MemoryStore) boundCalls() {
	maxCalls, maxBytes := m.MaxCalls, m.MaxCallBytes
	if maxCalls <= 0 {
		maxCalls = DefaultMaxMemoryCalls
	}
	if maxBytes <= 0 {
		maxBytes = DefaultMaxMemoryCallBytes
	}
	for m.callOrder.Len() > 1 && (m.callOrder.Len() > maxCalls || m.callBytes > maxBytes) {
		m.dropCall(m.callOrder.Front().Value.(*memoryCall))
	}
}

func (m *MemoryStore) dropCall(c *memoryCall) {
	m.callOrder.Remove(c.elem)
	delete(m.calls, c.id)
	m.callBytes -= c.size()
}
