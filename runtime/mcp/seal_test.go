package mcp

import (
	"encoding/base64"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A token opens only for the purpose and the key it was sealed with, and its text does not
// show what it carries.
func TestSealedTokens(t *testing.T) {
	s := newSealer([]byte("the server key"))
	token := seal(s.link, []byte(`{"id":"r1","s":"session-secret"}`))
	raw, err := base64.RawURLEncoding.DecodeString(token)
	require.NoError(t, err)
	assert.NotContains(t, string(raw), "session-secret", "the token's bytes do not show what it carries")
	data, err := unseal(s.link, token)
	require.NoError(t, err)
	assert.Equal(t, `{"id":"r1","s":"session-secret"}`, string(data))

	_, err = unseal(s.round, token)
	assert.Error(t, err, "a result link is not an elicitation state")
	_, err = unseal(newSealer([]byte("another key")).link, token)
	assert.Error(t, err, "another server's key")
	changed := []byte(token)
	changed[len(changed)/2] ^= 1 // another base64 letter: the ciphertext changes
	_, err = unseal(s.link, string(changed))
	assert.Error(t, err, "a changed token")
	_, err = unseal(s.link, "")
	assert.Error(t, err)

	// Every other spelling of the last letter is refused, including those that differ only in
	// the bits the encoding leaves unused: 12+1+16 bytes leave 2 in the last letter.
	const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	token = seal(s.link, []byte("x"))
	raw, err = base64.RawURLEncoding.DecodeString(token)
	require.NoError(t, err)
	require.NotZero(t, len(raw)%3, "a token whose last letter has unused bits")
	for _, c := range []byte(letters) {
		if c == token[len(token)-1] {
			continue
		}
		other := token[:len(token)-1] + string(c)
		_, err := unseal(s.link, other)
		assert.Error(t, err, "last letter %q", c)
	}
}
