package mcp

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A spent nonce is forgotten once its state has expired, whatever the number held: the
// states of a long-lived server do not pile up (before, they were kept until 4096 were held).
func TestSpentNoncesAreForgottenWhenTheyExpire(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	s := newRoundStates(nil)
	s.now = func() time.Time { return now }
	var tokens []string
	for range 10 {
		token := s.sign(roundState{Tool: "t", Scope: "u"})
		_, err := s.open(token, "t", "u")
		require.NoError(t, err)
		tokens = append(tokens, token)
	}
	_, err := s.open(tokens[3], "t", "u")
	assert.ErrorContains(t, err, "already used")
	assert.Equal(t, 10, s.spentCount())

	now = now.Add(stateTTL + time.Minute)
	_, err = s.open(s.sign(roundState{Tool: "t", Scope: "u"}), "t", "u")
	require.NoError(t, err)
	assert.Equal(t, 1, s.spentCount(), "the expired nonces are forgotten")
	_, err = s.open(tokens[3], "t", "u")
	assert.ErrorContains(t, err, "expired", "an expired state is still refused")

	// Many rounds of use and expiry keep the queue to what is live.
	for range 5 {
		for range 200 {
			_, err := s.open(s.sign(roundState{Tool: "t", Scope: "u"}), "t", "u")
			require.NoError(t, err)
		}
		now = now.Add(stateTTL + time.Second)
	}
	_, err = s.open(s.sign(roundState{Tool: "t", Scope: "u"}), "t", "u")
	require.NoError(t, err)
	assert.Equal(t, 1, s.spentCount())
	s.mu.Lock()
	assert.Equal(t, 1, s.order.Len())
	assert.LessOrEqual(t, s.order.Cap(), 512, "the queue's memory is reused")
	s.mu.Unlock()
}
