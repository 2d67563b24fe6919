package runtime

import (
	"container/heap"
	"context"
	"fmt"
	"sync"
	"time"
)

// MemoryResultStore is the ResultStore a registry uses unless WithResultStore says otherwise.
// It keeps results in memory for MaxAge and at most MaxBytes in all. When a new result needs
// room, a session holding its share (MaxSessionBytes) or more with it gives up its own oldest
// results first; then the sessions holding the most give up their oldest, one result at a
// time, so that sessions storing result after result (one or several) displace one another's
// results before a session that stored little loses its own. Its zero value is ready to use,
// with DefaultResultMaxAge and DefaultResultMaxBytes.
type MemoryResultStore struct {
	MaxAge          time.Duration // 0: DefaultResultMaxAge
	MaxBytes        int64         // 0: DefaultResultMaxBytes
	MaxSessionBytes int64         // a session's share when the store is full; 0: half of MaxBytes

	mu      sync.Mutex
	items   map[string]*memoryResult
	queue   []string // ids, oldest first; ids already dropped are skipped
	total   int64
	holders map[string]*holder // by session
	largest holders            // the sessions, most bytes first
	seq     int64
	now     func() time.Time // tests replace the clock
}

type memoryResult struct {
	StoredResult
	expires time.Time
}

// limits returns MaxAge, MaxBytes and MaxSessionBytes, or their defaults.
func (m *MemoryResultStore) limits() (age time.Duration, size, share int64) {
	age, size, share = m.MaxAge, m.MaxBytes, m.MaxSessionBytes
	if age <= 0 {
		age = DefaultResultMaxAge
	}
	if size <= 0 {
		size = DefaultResultMaxBytes
	}
	if share <= 0 {
		share = size / 2
	}
	return age, size, share
}

func (m *MemoryResultStore) clock() time.Time {
	if m.now != nil {
		return m.now()
	}
	return time.Now()
}

// Put keeps r. A result larger than MaxBytes is refused; older results are dropped until the
// new one fits.
func (m *MemoryResultStore) Put(_ context.Context, r StoredResult) (string, error) {
	age, size, share := m.limits()
	n := int64(len(r.Data))
	if n > size {
		return "", fmt.Errorf("result of %d bytes is larger than the store's %d", n, size)
	}
	id := NewResultID()
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.clock()
	if m.items == nil {
		m.items = make(map[string]*memoryResult)
		m.holders = make(map[string]*holder)
	}
	m.dropExpired(now)
	h := m.holders[r.Session]
	if h == nil {
		h = &holder{session: r.Session, index: -1}
		m.holders[r.Session] = h
	}
	makeRoom(&m.largest, h, n, share, func() bool { return m.total+n > size }, m.alive,
		func(_ *holder, it heldItem) { m.drop(it.id) })
	r.Data = append([]byte(nil), r.Data...) // the caller may reuse its buffer
	m.items[id] = &memoryResult{StoredResult: r, expires: now.Add(age)}
	m.queue = append(m.queue, id)
	m.total += n
	m.seq++
	h.bytes += n
	h.items.Push(heldItem{id: id, size: n, seq: m.seq})
	fix(&m.largest, h)
	return id, nil
}

// alive reports whether result id is still held.
func (m *MemoryResultStore) alive(id string) bool {
	return m.items[id] != nil
}

// Read returns a page of result id of session.
func (m *MemoryResultStore) Read(_ context.Context, session, id string, offset, limit int64) (ResultPage, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.dropExpired(m.clock())
	it, ok := m.items[id]
	if !ok || it.Session != session {
		return ResultPage{}, ErrResultNotFound
	}
	return ResultPage{
		Data:        append([]byte(nil), page(it.Data, offset, limit)...),
		Size:        int64(len(it.Data)),
		ContentType: it.ContentType,
		Tool:        it.Tool,
		Expires:     it.expires,
	}, nil
}

// dropExpired drops the results whose time is up; they are the oldest, at the queue's front.
func (m *MemoryResultStore) dropExpired(now time.Time) {
	for len(m.queue) > 0 {
		it := m.items[m.queue[0]]
		if it != nil && now.Before(it.expires) {
			return
		}
		id := m.queue[0]
		m.queue = m.queue[1:]
		m.drop(id)
	}
}

// drop forgets result id. Its queue entry stays until it reaches the front or the queue is
// compacted, which happens once most entries are dropped ones.
func (m *MemoryResultStore) drop(id string) {
	it := m.items[id]
	if it == nil {
		return
	}
	n := int64(len(it.Data))
	m.total -= n
	delete(m.items, id)
	if h := m.holders[it.Session]; h != nil {
		h.bytes -= n
		h.oldest(m.alive) // forgets id when it was the session's oldest, as it always is
		if h.bytes <= 0 && h.items.Len() == 0 {
			if h.index >= 0 && h.index < len(m.largest) && m.largest[h.index] == h {
				heap.Remove(&m.largest, h.index)
			}
			delete(m.holders, it.Session)
		} else {
			fix(&m.largest, h)
		}
	}
	if len(m.queue) > 64 && len(m.queue) > 2*len(m.items) {
		live := m.queue[:0]
		for _, q := range m.queue {
			if m.items[q] != nil {
				live = append(live, q)
			}
		}
		clear(m.queue[len(live):])
		m.queue = live
	}
}
