package runtime

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// MemoryResultStore is the ResultStore a registry uses unless WithResultStore says otherwise.
// It keeps results in memory for MaxAge and at most MaxBytes in all, dropping the oldest
// results to make room. A session holding its share (MaxSessionBytes) or more makes room
// from its own results first, so one conversation storing result after result cannot push
// out every other's: it displaces at most its share of theirs. Its zero value is ready to
// use, with DefaultResultMaxAge and DefaultResultMaxBytes.
type MemoryResultStore struct {
	MaxAge          time.Duration // 0: DefaultResultMaxAge
	MaxBytes        int64         // 0: DefaultResultMaxBytes
	MaxSessionBytes int64         // a session's share when the store is full; 0: half of MaxBytes

	mu        sync.Mutex
	items     map[string]*memoryResult
	queue     []string // ids, oldest first; ids already dropped are skipped
	total     int64
	bySession map[string]int64
	now       func() time.Time // tests replace the clock
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
	m.dropExpired(now)
	m.makeRoom(r.Session, n, size, share)
	if m.items == nil {
		m.items = make(map[string]*memoryResult)
		m.bySession = make(map[string]int64)
	}
	r.Data = append([]byte(nil), r.Data...) // the caller may reuse its buffer
	m.items[id] = &memoryResult{StoredResult: r, expires: now.Add(age)}
	m.queue = append(m.queue, id)
	m.total += n
	m.bySession[r.Session] += n
	return id, nil
}

// makeRoom drops results, oldest first, until n more bytes fit in size: first those of
// session while it holds more than its share with them, then any. Each pass walks the queue
// once, so a result that displaces thousands of small ones costs a pass, not a pass per
// result dropped.
func (m *MemoryResultStore) makeRoom(session string, n, size, share int64) {
	if own := m.bySession[session]; own+n > share && m.total+n > size {
		total := m.total
		var victims []string // dropped after the walk: drop may compact the queue
		for _, id := range m.queue {
			if total+n <= size || own+n <= share {
				break
			}
			if it := m.items[id]; it != nil && it.Session == session {
				victims = append(victims, id)
				own -= int64(len(it.Data))
				total -= int64(len(it.Data))
			}
		}
		for _, id := range victims {
			m.drop(id)
		}
	}
	for m.total+n > size && len(m.queue) > 0 {
		id := m.queue[0]
		m.queue = m.queue[1:]
		m.drop(id)
	}
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
	if m.bySession[it.Session] -= n; m.bySession[it.Session] <= 0 {
		delete(m.bySession, it.Session)
	}
	delete(m.items, id)
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
