// Package fifo is a first-in, first-out queue on a slice whose front is reused: each item
// costs O(1) amortised to push and to pop, and a queue holds no more memory than about twice
// what it holds, however many items went through it.
package fifo

import (
	"iter"
	"slices"
)

// Queue is a FIFO queue. Its zero value is empty and ready to use.
type Queue[T any] struct {
	items []T
	head  int // items[:head] are popped
}

// Push adds v at the back.
func (q *Queue[T]) Push(v T) { q.items = append(q.items, v) }

// Len is the number of items queued.
func (q *Queue[T]) Len() int { return len(q.items) - q.head }

// Front returns the item at the front; ok is false when the queue is empty.
func (q *Queue[T]) Front() (v T, ok bool) {
	if q.head >= len(q.items) {
		return v, false
	}
	return q.items[q.head], true
}

// Pop drops the item at the front, if any. Once half the slice is popped, the rest moves to
// its start: moving costs no more than the popping did.
func (q *Queue[T]) Pop() {
	if q.head >= len(q.items) {
		return
	}
	var zero T
	q.items[q.head] = zero // let it be collected
	q.head++
	if q.head > 32 && q.head*2 >= len(q.items) {
		n := copy(q.items, q.items[q.head:])
		clear(q.items[n:])
		q.items, q.head = q.items[:n], 0
	}
}

// All yields the items queued, front first.
func (q *Queue[T]) All() iter.Seq[T] { return slices.Values(q.items[q.head:]) }

// Cap is the capacity of the slice behind the queue; tests use it to see memory reused.
func (q *Queue[T]) Cap() int { return cap(q.items) }
