package fifo

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestQueue(t *testing.T) {
	var q Queue[int]
	_, ok := q.Front()
	assert.False(t, ok)
	q.Pop() // on an empty queue: nothing
	next := 0
	for round := range 100 {
		for i := range 50 {
			q.Push(round*50 + i)
		}
		for range 45 {
			v, ok := q.Front()
			require.True(t, ok)
			require.Equal(t, next, v, "first in, first out")
			next++
			q.Pop()
		}
	}
	assert.Equal(t, 500, q.Len())
	want := next
	for v := range q.All() {
		require.Equal(t, want, v)
		want++
	}
	assert.Equal(t, next+500, want)
	for q.Len() > 0 {
		v, _ := q.Front()
		require.Equal(t, next, v)
		next++
		q.Pop()
	}
	assert.Equal(t, 5000, next)
	for i := range 10_000 {
		q.Push(i)
		q.Pop()
	}
	assert.LessOrEqual(t, q.Cap(), 2048, "the slice's front is reused")
}
