package redisstore

import (
	"container/list"
	"crypto/rand"
	"encoding/base64"
	"sync"
	"time"
)

// A session's state hash holds, beside its values and counters, a generation field: a random
// id written when the hash is created. A Store remembers, for the sessions it has seen lately,
// the generation it saw and until when the hash was due to live. When a session it remembers
// is gone before that time, and no Clear left its tombstone, the store lost it (a restart
// without persistence, an eviction, a failover to a replica that never had it): the operation
// starts a new generation and returns runtime.SessionStateLost, once. Another replica that
// remembers the old generation then finds the new one and takes the session as re-created.
//
// What it cannot tell: a session that this process never saw (it started after the loss, or
// forgot the session under MaxTrackedSessions) is taken for a new one.
const generationField = "g"

// DefaultMaxTrackedSessions bounds how many sessions a Store remembers for loss detection,
// unless Options.MaxTrackedSessions says otherwise: about 150 bytes each.
const DefaultMaxTrackedSessions = 65536

// tracker is the bounded memory of the sessions a Store saw: least recently seen first out.
type tracker struct {
	mu      sync.Mutex
	max     int
	bySess  map[string]*list.Element
	recency list.List // of *seenSession, most recent at the front
}

type seenSession struct {
	hash       string // the session's key tag
	generation string
	expires    time.Time // when the hash was due to expire, as last seen
}

func newTracker(max int) *tracker {
	return &tracker{max: max, bySess: make(map[string]*list.Element)}
}

// expected returns the generation the session must still have now, or "" when the store
// may rightly have none: never seen, forgotten, or past its expiry.
func (t *tracker) expected(hash string, now time.Time) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	e, ok := t.bySess[hash]
	if !ok {
		return ""
	}
	s := e.Value.(*seenSession)
	// A second of slack: the hash's TTL is counted by Redis's clock from the write.
	if !now.Before(s.expires.Add(-time.Second)) {
		return ""
	}
	return s.generation
}

// saw records that the session's hash has generation and lives ttl from now.
func (t *tracker) saw(hash, generation string, ttl time.Duration, now time.Time) {
	if generation == "" || ttl <= 0 {
		t.forget(hash)
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if e, ok := t.bySess[hash]; ok {
		s := e.Value.(*seenSession)
		s.generation, s.expires = generation, now.Add(ttl)
		t.recency.MoveToFront(e)
		return
	}
	t.bySess[hash] = t.recency.PushFront(&seenSession{hash: hash, generation: generation, expires: now.Add(ttl)})
	for t.recency.Len() > t.max {
		oldest := t.recency.Back()
		t.recency.Remove(oldest)
		delete(t.bySess, oldest.Value.(*seenSession).hash)
	}
}

func (t *tracker) forget(hash string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e, ok := t.bySess[hash]; ok {
		t.recency.Remove(e)
		delete(t.bySess, hash)
	}
}

// newGeneration returns a fresh generation id.
func newGeneration() string {
	var b [9]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}
