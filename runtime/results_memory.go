package runtime

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// MemoryResultStore is the ResultStore a registry uses unless WithResultStore says otherwise.
// It keeps results in memory for MaxAge and at most MaxBytes in all, dropping the oldest
// results to make room. Its zero value is ready to use, with DefaultResultMaxAge and
// DefaultResultMaxBytes.
type MemoryResultStore struct {
	MaxAge   time.Duration // 0: DefaultResultMaxAge
	MaxBytes int64         // 0: DefaultResultMaxBytes

	mu    sync.Mutex
	items map[string]*memoryResult
	queue []string // ids, oldest first
	total int64
	now   func() time.Time // tests replace the clock
}

type memoryResult struct {
	StoredResult
	expires time.Time
}

func (m *MemoryResultStore) limits() (time.Duration, int64) {
	age, size := m.MaxAge, m.MaxBytes
	if age <= 0 {
		age = DefaultResultMaxAge
	}
	if size <= 0 {
		size = DefaultResultMaxBytes
	}
	return age, size
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
	age, size := m.limits()
	n := int64(len(r.Data))
	if n > size {
		return "", fmt.Errorf("result of %d bytes is larger than the store's %d", n, size)
	}
	id := NewResultID()
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.clock()
	m.dropExpired(now)
	for m.total+n > size && len(m.queue) > 0 {
		m.drop(m.queue[0])
	}
	if m.items == nil {
		m.items = make(map[string]*memoryResult)
	}
	r.Data = append([]byte(nil), r.Data...) // the caller may reuse its buffer
	m.items[id] = &memoryResult{StoredResult: r, expires: now.Add(age)}
	m.queue = append(m.queue, id)
	m.total += n
	return id, nil
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
		m.drop(m.queue[0])
	}
}

// drop forgets the oldest result, id.
func (m *MemoryResultStore) drop(id string) {
	if it := m.items[id]; it != nil {
		m.total -= int64(len(it.Data))
		delete(m.items, id)
	}
	m.queue = m.queue[1:]
}
