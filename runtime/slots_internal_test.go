package runtime

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A tool's slots keep an entry for a session without a slot only until there are
// sessionsKept of them: ten thousand sessions calling one after another leave a bounded map,
// and the session that still holds a slot keeps its count through every sweep.
func TestSlotsForgetSessionsWithoutASlot(t *testing.T) {
	e := &toolEntry{tool: Tool{Name: "t"}}
	cfg := &registryConfig{}
	take := func(session string) *sessionSlots {
		own, refused, _ := e.slots.takeLocked(cfg, e, session)
		require.NotNil(t, own, "session %q: %+v", session, refused)
		return own
	}
	held := take("holder")
	for i := range 10_000 {
		e.slots.releaseLocked(take(fmt.Sprintf("session-%d", i)), false)
		require.LessOrEqual(t, len(e.slots.sessions), sessionsKept+1, "after %d sessions", i+1)
	}
	assert.LessOrEqual(t, len(e.slots.free), sessionsKept+1)
	assert.Same(t, held, e.slots.sessions["holder"])
	assert.Equal(t, sessionSlots{running: 1}, *held)
	assert.Equal(t, 1, e.slots.running)

	// The entry cached for the last session is the map's, whatever the sweeps freed.
	again := take("holder")
	assert.Same(t, held, again)
	assert.Equal(t, sessionSlots{running: 2}, *held)
	e.slots.releaseLocked(again, false)
	e.slots.releaseLocked(held, false)
	assert.Zero(t, e.slots.running)
}
