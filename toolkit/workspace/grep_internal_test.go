package workspace

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
)

// TestGrepBlocksChangeNothing: going through a file in blocks (skipping those the block
// regexp does not match, and matching long lines through a reader) finds and shows what
// matching every line alone does, whatever the block size, context lines included.
func TestGrepBlocksChangeNothing(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	words := []string{"foo", "bar", "x", "", "foo bar", "Foo", "é", "baz\r", "a\tb"}
	var b strings.Builder
	for range 800 {
		for range r.Intn(4) {
			b.WriteString(words[r.Intn(len(words))] + " ")
		}
		if r.Intn(40) == 0 {
			b.WriteString(strings.Repeat("z", 200))
		}
		b.WriteString("\n")
	}
	b.WriteString("foo at the end")
	files := map[string]string{"lf.txt": strings.ReplaceAll(b.String(), "\r", ""), "mixed.txt": b.String()}
	sb := sandbox.NewMemory(files)
	for _, pattern := range []string{`foo`, `^foo`, `bar $`, `\Abar`, `x \z`, `z{200}`, `(?i)foo`, `é`, `^$`, `baz`} {
		for _, context := range []int{0, 1, 3} {
			args := GrepArgs{Pattern: pattern, Path: ".", Context: context, MaxResults: 1000}
			want := grepWith(t, sb, args, 1<<30, false)
			for _, block := range []int{1, 7, 100, 4096} {
				assert.Equal(t, want, grepWith(t, sb, args, block, true), "pattern %q, context %d, blocks of %d bytes", pattern, context, block)
			}
		}
	}
}

// grepWith greps with blocks of n bytes, skipping blocks or not.
func grepWith(t *testing.T, sb sandbox.Sandbox, args GrepArgs, n int, skip bool) string {
	g, err := newGrep(args)
	require.NoError(t, err)
	g.block = n
	if !skip {
		g.anyLine = nil
	}
	require.NoError(t, g.search(t.Context(), sb, "."))
	return g.report()
}

// TestBlockRegexp: the block regexp anchors to lines where the line's regexp anchors to its
// text.
func TestBlockRegexp(t *testing.T) {
	for expr, block := range map[string]string{
		`\Afoo`:    "x\nfoo\n",
		`foo$`:     "foo\nx\n",
		`foo\z`:    "foo\nx\n",
		`^foo`:     "x\nfoo",
		`(?i)^FOO`: "x\nfoo",
	} {
		re := blockRegexp(expr)
		require.NotNil(t, re, expr)
		assert.True(t, re.MatchString(block), fmt.Sprintf("%s (%s) against %q", expr, re, block))
	}
}
