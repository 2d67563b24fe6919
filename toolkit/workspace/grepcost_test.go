package workspace_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
	"github.com/toolgen-go/toolgen/toolkit/workspace"
)

// TestGrepStopsInsideAnExpensiveMatch: a pattern whose program is large ((?:[a-z]{1,10}){100}x,
// about 85 s per MiB) was matched against the whole file before grep first looked at its
// ctx, and a long line was matched whole; grep now looks at the ctx within a bounded amount
// of matching work, so it returns (its workers stopped) soon after the ctx ends.
func TestGrepStopsInsideAnExpensiveMatch(t *testing.T) {
	// 2 MiB each, without the x the pattern ends in: minutes of matching for the old code.
	letters := strings.Repeat("abcdefghijklmnopqrstuvwyz", 2<<20/25)
	lines := strings.Repeat(strings.Repeat("q", 79)+"\n", 2<<20/80)
	for name, content := range map[string]string{"one line": letters, "many lines": lines} {
		t.Run(name, func(t *testing.T) {
			w := workspace.New(sandbox.NewMemory(map[string]string{"big.txt": content}))
			ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
			defer cancel()
			var err error
			require.True(t, returns(t, func() {
				_, err = w.Grep(ctx, workspace.GrepArgs{Pattern: `(?:[a-z]{1,10}){100}x`, Path: ".", MaxResults: 10})
			}), "grep did not stop after its ctx ended")
			assert.ErrorIs(t, err, context.DeadlineExceeded)
		})
	}
}

// TestGrepAnchors: the whole-file pass that skipped files with no match (now one per block
// of lines) took \A, \z and $ for the file's bounds, not the line's: "x$" found nothing in a
// file with CRLF line ends, and \Ab nothing past the first line.
func TestGrepAnchors(t *testing.T) {
	w := workspace.New(sandbox.NewMemory(map[string]string{"crlf.txt": "a x\r\nb x\r\n", "lf.txt": "a x\nb x\n"}))
	for pattern, want := range map[string]string{
		`x$`:     "crlf.txt:1: a x\ncrlf.txt:2: b x\nlf.txt:1: a x\nlf.txt:2: b x\n[4 matching lines in 2 files]",
		`\Ab`:    "crlf.txt:2: b x\nlf.txt:2: b x\n[2 matching lines in 2 files]",
		`a x\z`:  "crlf.txt:1: a x\nlf.txt:1: a x\n[2 matching lines in 2 files]",
		`(?m)^b`: "crlf.txt:2: b x\nlf.txt:2: b x\n[2 matching lines in 2 files]",
	} {
		out, err := w.Grep(t.Context(), workspace.GrepArgs{Pattern: pattern, Path: ".", MaxResults: 10})
		require.NoError(t, err, pattern)
		assert.Equal(t, want, out, pattern)
	}
}
