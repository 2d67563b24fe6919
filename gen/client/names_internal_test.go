package client

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Clashing claims get the first free number from 2 on, in order, skipping numbers a name
// already holds, and each number is tried once: the tries a claim makes are counted.
func TestNamespaceNumbersClashes(t *testing.T) {
	ns := newNamespace("Client")
	got, by := ns.claim("Client", "/tools/0")
	assert.Equal(t, "Client2", got)
	assert.Equal(t, "the generated Client", by)
	got, _ = ns.claim("A3", "/tools/1")
	require.Equal(t, "A3", got)
	var names []string
	for i := range 4 {
		got, _ := ns.claim("A", "/tools/"+strconv.Itoa(i+2))
		names = append(names, got)
	}
	assert.Equal(t, []string{"A", "A2", "A4", "A5"}, names)
	assert.Equal(t, 6, ns.next["A"], "the next clash of A starts past A5")
}
