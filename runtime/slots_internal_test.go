package runtime

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A tool's slots keep an entry for a session without a slot only until there are
// sessionsKept of them: ten thousand sessions calling one after another leave a bounded map,
// and the session that still holds a slot keeps its count through every sweep.
func TestSlotsForgetSessionsWithoutASlot(t *testing.T) {
	e := &toolEntry{tool: Tool{Name: "t"}}
	cfg := &registryConfig{}
	held, _, ok := e.slots.acquire(t.Context(), cfg, e, "holder", time.Second)
	require.True(t, ok)

	for i := range 10_000 {
		own, res, ok := e.slots.acquire(t.Context(), cfg, e, fmt.Sprintf("session-%d", i), time.Second)
		require.True(t, ok, res.Text)
		e.slots.release(own, false)
		require.LessOrEqual(t, len(e.slots.sessions), sessionsKept+1, "after %d sessions", i+1)
	}
	assert.LessOrEqual(t, len(e.slots.free), sessionsKept+1)
	assert.Same(t, held, e.slots.sessions["holder"])
	assert.Equal(t, sessionSlots{running: 1}, *held)
	assert.Equal(t, 1, e.slots.running)

	// The entry cached for the last session is the map's, whatever the sweeps freed.
	again, _, ok := e.slots.acquire(t.Context(), cfg, e, "holder", time.Second)
	require.True(t, ok)
	assert.Same(t, held, again)
	assert.Equal(t, sessionSlots{running: 2}, *held)
	e.slots.release(again, false)
	e.slots.release(held, false)
	assert.Zero(t, e.slots.running)
}
