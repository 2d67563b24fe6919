//go:build unix

package sandbox

import (
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
)

// TestScrubAcrossChunks: the root's host path is replaced in command output even when the
// output arrives a byte at a time.
func TestScrubAcrossChunks(t *testing.T) {
	l := &Local{hosts: []string{"/tmp/root-dir"}}
	var out strings.Builder
	l.copyScrubbed(&out, iotest.OneByteReader(strings.NewReader("in /tmp/root-dir/sub and /tmp/root-di and /tmp/root-dir")))
	assert.Equal(t, "in ./sub and /tmp/root-di and .", out.String())
}
