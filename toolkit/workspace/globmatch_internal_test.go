package workspace

import (
	"testing"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGlobMatchesAsDoublestar: the compiled glob matches what doublestar matched, for the
// patterns a model writes (and a few odd ones), over names of files in a tree.
func TestGlobMatchesAsDoublestar(t *testing.T) {
	patterns := []string{
		"*", "**", "*.go", "**/*.go", "src/**/*_test.go", "a/**", "a/**/c", "a/*/c", "**/c/*.go",
		"{a,b}/*.go", "*.{go,md}", "a/{b,c/d}/*", "a/{b,c/d}/**", "{a,src}/**/*.go", "{**/,}*.go",
		"[a-c]*", "[!a]*", "[^a]*.go", "[a-]*", "[\\]]*", "\\*.go", "a?c", "??", "**.go",
		"a/**.go", "x/**/y/**/z", "**/**/*.go", "**/", "a/**/", "*a*", "a**b", "***", "{,}*.go",
		"{a,{b,{c,d}}}/*", "{a/**,b}", "{a,b/**}", "a/{**,x}", "{}a", "{a}", "é*", "*é",
		"[é-ü]*", "a,b", "\\{a,b\\}", "a/b", "a//b", "[z-a]*", "{*.go,*.md}", "src/{,**/}*.go",
	}
	names := []string{
		"a", "b", "c", "a.go", "b.go", "x.md", "ab", "abc", "a/b", "a/c", "a/b/c", "a/x/y/c",
		"a/b.go", "a/c/d.go", "a/c/d_test.go", "src/main.go", "src/a/b/x_test.go", "src/x_test.go",
		"x/y/z", "x/1/y/2/z", "x/y/q/z", "*.go", "{a,b}", "a,b", "]", "]a", "-x", "é", "éa", "ü",
		"a/b/c/d", "a//b", "aXb", "ac", "a-c", "abc/d", "c/x.go", "q/c/x.go", "a/d/b.go",
		"a/c/d/e", "d", "a\nb", "é/x.go",
	}
	for _, pattern := range patterns {
		require.True(t, doublestar.ValidatePattern(pattern), pattern)
		re, err := compileGlob(pattern)
		require.NoError(t, err, pattern)
		for _, name := range names {
			assert.Equal(t, doublestar.MatchUnvalidated(pattern, name), re.MatchString(name), "%q against %q (regexp %s)", pattern, name, re)
		}
	}
}

// TestGlobDiffersFromDoublestar: where doublestar's reading is not a glob's usual one, or
// depends on the alternative taken, the choices the package doc states.
func TestGlobDiffersFromDoublestar(t *testing.T) {
	for _, c := range []struct {
		pattern, name string
		match         bool
	}{
		{"a[!x]b", "a/b", false}, // a negated class does not match /
		{"{x,**}/b", "a/c/b", false},
		{"{x,**}/b", "a/b", true}, // the ** is a *
	} {
		re, err := compileGlob(c.pattern)
		require.NoError(t, err)
		assert.Equal(t, c.match, re.MatchString(c.name), "%q against %q", c.pattern, c.name)
	}
}
