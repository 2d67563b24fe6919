package runtime

import (
	"container/heap"

	"github.com/toolgen-go/toolgen/internal/fifo"
)

// The result stores make room by taking from the sessions that hold the most: a session that
// stores result after result, or two or ten doing so together, displace one another's
// results before those of a session that stored little. A session then loses its results
// only while it holds as much as the largest holders, so its recent results survive whatever
// the others store, as long as they store more.

// holder is what one session holds in a result store: its bytes and its results, oldest
// first.
type holder struct {
	session string
	bytes   int64 // its results' bytes, and what it is about to add while room is made
	items   fifo.Queue[heldItem]
	index   int // in the heap
}

// heldItem is one stored result as its holder knows it.
type heldItem struct {
	id   string
	size int64
	seq  int64 // the order results came in: a counter, or a file's modification time
}

// oldest returns the holder's oldest result, skipping those forgotten already (alive says
// which are held still).
func (h *holder) oldest(alive func(id string) bool) (heldItem, bool) {
	for {
		it, ok := h.items.Front()
		if !ok || alive == nil || alive(it.id) {
			return it, ok
		}
		h.items.Pop()
	}
}

// holders orders sessions by the bytes they hold, most first; between equals, the one with
// the oldest result first.
type holders []*holder

func (hs holders) Len() int { return len(hs) }

func (hs holders) Less(i, j int) bool {
	a, b := hs[i], hs[j]
	if a.bytes != b.bytes {
		return a.bytes > b.bytes
	}
	return a.front() < b.front()
}

// front is the order of the holder's oldest result (the last possible when it has none).
func (h *holder) front() int64 {
	if it, ok := h.items.Front(); ok {
		return it.seq
	}
	return 1<<63 - 1
}

func (hs holders) Swap(i, j int) {
	hs[i], hs[j] = hs[j], hs[i]
	hs[i].index, hs[j].index = i, j
}

func (hs *holders) Push(x any) {
	h := x.(*holder)
	h.index = len(*hs)
	*hs = append(*hs, h)
}

func (hs *holders) Pop() any {
	old := *hs
	h := old[len(old)-1]
	old[len(old)-1] = nil
	*hs = old[:len(old)-1]
	h.index = -1
	return h
}

// largest returns the holder that holds the most and has a result to give up; the putter,
// whose bytes count what it is about to add, is passed over when it holds nothing yet. A
// binary heap's second largest is a child of its root.
func (hs holders) largest(alive func(id string) bool) (*holder, heldItem, bool) {
	candidates := hs[:min(len(hs), 3)]
	if len(candidates) > 0 {
		if it, ok := candidates[0].oldest(alive); ok {
			return candidates[0], it, true
		}
	}
	var best *holder
	var bestItem heldItem
	for _, h := range candidates[min(1, len(candidates)):] {
		it, ok := h.oldest(alive)
		if ok && (best == nil || h.bytes > best.bytes || h.bytes == best.bytes && it.seq < bestItem.seq) {
			best, bestItem = h, it
		}
	}
	return best, bestItem, best != nil
}

// makeRoom drops results until need() says enough: first the oldest of putter while it
// holds more than share with the n bytes it adds, then, from the session holding the most
// (putter counting n), its oldest. drop forgets a result and updates the bytes of its
// holder and the total need reads; alive, when set, says which items are still held. While
// room is made putter's bytes count n, so a putter adding bytes never looks empty.
func makeRoom(hs *holders, putter *holder, n, share int64, need func() bool, alive func(id string) bool, drop func(*holder, heldItem)) {
	putter.bytes += n
	fix(hs, putter)
	defer func() {
		putter.bytes -= n
		fix(hs, putter)
	}()
	for putter.bytes > share && need() {
		it, ok := putter.oldest(alive)
		if !ok {
			break
		}
		drop(putter, it)
	}
	for need() {
		h, it, ok := hs.largest(alive)
		if !ok {
			return
		}
		drop(h, it)
	}
}

// fix restores the heap's order after h's bytes changed, pushing h if it is not in the heap.
func fix(hs *holders, h *holder) {
	if h.index < 0 || h.index >= len(*hs) || (*hs)[h.index] != h {
		heap.Push(hs, h)
		return
	}
	heap.Fix(hs, h.index)
}
