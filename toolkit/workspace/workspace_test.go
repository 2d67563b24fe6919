package workspace_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
	"github.com/toolgen-go/toolgen/toolkit/workspace"
)

// approveAll approves every confirmation: the tests are about the tools, not approval.
var approveAll = runtime.ApproverFunc(func(context.Context, runtime.ApprovalRequest) (runtime.Decision, error) {
	return runtime.Decision{Approved: true}, nil
})

// harness is a registry with the workspace tools over one sandbox.
type harness struct {
	t   *testing.T
	reg *runtime.Registry
	sb  sandbox.Sandbox
	dir string // the host directory of a local sandbox, "" for memory
}

func newHarness(t *testing.T, sb sandbox.Sandbox, dir string, opts ...runtime.Option) *harness {
	reg := runtime.NewRegistry(append([]runtime.Option{runtime.WithApprover(approveAll)}, opts...)...)
	require.NoError(t, reg.Add(workspace.New(sb).Tools()...))
	return &harness{t: t, reg: reg, sb: sb, dir: dir}
}

// call invokes a tool and checks that what the model reads never names the host directory.
func (h *harness) call(name, args string) runtime.Result {
	h.t.Helper()
	res := h.reg.Invoke(h.t.Context(), runtime.Call{ID: "c1", Name: name, Args: []byte(args)})
	if h.dir != "" {
		assert.NotContains(h.t, res.Text, h.dir, "%s %s shows the host path", name, args)
		assert.NotContains(h.t, res.Text, os.TempDir(), "%s %s shows a host path", name, args)
	}
	return res
}

// sandboxes runs test against a local and an in-memory sandbox holding the same files.
func sandboxes(t *testing.T, files map[string]string, test func(t *testing.T, h *harness)) {
	t.Run("local", func(t *testing.T) {
		dir := t.TempDir()
		for name, content := range files {
			p := filepath.Join(dir, filepath.FromSlash(name))
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		}
		sb, err := sandbox.OpenLocal(dir, sandbox.LocalOptions{})
		require.NoError(t, err)
		t.Cleanup(func() { sb.Close() })
		test(t, newHarness(t, sb, dir))
	})
	t.Run("memory", func(t *testing.T) {
		test(t, newHarness(t, sandbox.NewMemory(files), ""))
	})
}

func numbered(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// toolCase is one call and what the model must read back.
type toolCase struct {
	name, tool, args string
	want             string            // the exact text, when set
	contains         []string          // parts of the text, in order
	kind             runtime.ErrorKind // the error kind, for a failing call
}

func (c toolCase) check(t *testing.T, h *harness) {
	t.Helper()
	res := h.call(c.tool, c.args)
	if c.kind != "" {
		assert.True(t, res.IsError, "want an error, got %q", res.Text)
		assert.Equal(t, c.kind, res.Kind, res.Text)
	} else {
		assert.False(t, res.IsError, res.Text)
	}
	if c.want != "" {
		assert.Equal(t, c.want, res.Text)
	}
	rest := res.Text
	for _, part := range c.contains {
		i := strings.Index(rest, part)
		if !assert.GreaterOrEqual(t, i, 0, "%q not in (the rest of) %q", part, res.Text) {
			return
		}
		rest = rest[i+len(part):]
	}
}

var parityFiles = map[string]string{
	"ten.txt":          numbered(1, 10),
	"noeol.txt":        "one\ntwo",
	"empty.txt":        "",
	"bin.dat":          "PK\x03\x04\x00\x00binary",
	"long.txt":         strings.Repeat("é", 1500) + "\nshort\n",
	"a.go":             "package a\n\nfunc A() {}\n",
	"a/b.go":           "package b\n\n// TODO: more\nfunc B() {}\n",
	"a/c/d.go":         "package c\n\nfunc D() { todo() }\n",
	"a/c/d_test.go":    "package c\n",
	"src/main.go":      "package main\n\nfunc main() {\n\tprintln(\"hi\")\n\tprintln(\"hi\")\n}\n",
	".git/config":      "TODO in git\n",
	"docs/readme.md":   "# TODO\n",
	"grep/ctx.txt":     "a\nb\nmatch 1\nc\nd\ne\nf\nmatch 2\nmatch 3\ng\n",
	"many/f000.txt":    "x",
	"dir with space/x": "todo",
}

func TestParity(t *testing.T) {
	cases := []toolCase{
		{name: "page", tool: "read_file", args: `{"path":"ten.txt","offset":3,"limit":2}`,
			want: "     3\tline 3\n     4\tline 4\n[ten.txt: lines 3-4 of 10; read_file with offset=5 reads on]"},
		{name: "last page", tool: "read_file", args: `{"path":"./ten.txt","offset":9}`,
			want: "     9\tline 9\n    10\tline 10\n[ten.txt: lines 9-10 of 10]"},
		{name: "no final newline", tool: "read_file", args: `{"path":"noeol.txt"}`,
			want: "     1\tone\n     2\ttwo\n[noeol.txt: lines 1-2 of 2]"},
		{name: "empty", tool: "read_file", args: `{"path":"empty.txt"}`, want: "[empty.txt is empty]"},
		{name: "past the end", tool: "read_file", args: `{"path":"ten.txt","offset":11}`, kind: runtime.KindInvalidInput,
			want: "ten.txt has 10 lines; offset 11 is past its end"},
		{name: "binary", tool: "read_file", args: `{"path":"bin.dat"}`, kind: runtime.KindInvalidInput,
			want: "bin.dat is a binary file (12 bytes); read_file reads text only"},
		{name: "long line cut at a character", tool: "read_file", args: `{"path":"long.txt"}`,
			contains: []string{"     1\t" + strings.Repeat("é", 1000) + " […line cut at 2000 bytes]\n     2\tshort\n[long.txt: lines 1-2 of 2]"}},
		{name: "missing", tool: "read_file", args: `{"path":"nope.txt"}`, kind: runtime.KindNotFound,
			want: "nope.txt does not exist; list_dir or glob show what does"},
		{name: "directory", tool: "read_file", args: `{"path":"a"}`, kind: runtime.KindInvalidInput, want: "a is a directory; list_dir lists it"},
		{name: "dot-dot", tool: "read_file", args: `{"path":"../x"}`, kind: runtime.KindPermission, contains: []string{`"../x" is outside the workspace`}},
		{name: "dot-dot inside", tool: "read_file", args: `{"path":"a/../../etc/passwd"}`, kind: runtime.KindPermission},
		{name: "absolute", tool: "read_file", args: `{"path":"/etc/passwd"}`, kind: runtime.KindPermission},
		{name: "climbing back in is fine", tool: "read_file", args: `{"path":"a/../ten.txt","limit":1}`, contains: []string{"line 1\n"}},

		{name: "list root", tool: "list_dir", args: `{}`,
			want: ".git/\na/\na.go (23 bytes)\nbin.dat (12 bytes)\ndir with space/\ndocs/\nempty.txt (0 bytes)\ngrep/\nlong.txt (3007 bytes)\nmany/\nnoeol.txt (7 bytes)\nsrc/\nten.txt (71 bytes)\n[.: 13 entries]"},
		{name: "list sub", tool: "list_dir", args: `{"path":"a/c"}`, want: "d.go (31 bytes)\nd_test.go (10 bytes)\n[a/c: 2 entries]"},
		{name: "list a file", tool: "list_dir", args: `{"path":"a.go"}`, kind: runtime.KindInvalidInput},
		{name: "list outside", tool: "list_dir", args: `{"path":".."}`, kind: runtime.KindPermission},

		{name: "glob sorted as strings", tool: "glob", args: `{"pattern":"**/*.go"}`,
			want: "a.go\na/b.go\na/c/d.go\na/c/d_test.go\nsrc/main.go\n[5 files match **/*.go]"},
		{name: "glob below a path", tool: "glob", args: `{"pattern":"*.go","path":"a/c"}`, want: "a/c/d.go\na/c/d_test.go\n[2 files match *.go]"},
		{name: "glob fixed prefix", tool: "glob", args: `{"pattern":"a/**/*_test.go"}`, want: "a/c/d_test.go\n[1 file matches a/**/*_test.go]"},
		{name: "glob braces", tool: "glob", args: `{"pattern":"**/*.{md,txt}","path":"docs"}`, want: "docs/readme.md\n[1 file matches **/*.{md,txt}]"},
		{name: "glob skips .git", tool: "glob", args: `{"pattern":"**/config"}`, want: "[no files match **/config]"},
		{name: "glob names .git", tool: "glob", args: `{"pattern":".git/*"}`, want: ".git/config\n[1 file matches .git/*]"},
		{name: "glob ./ prefix", tool: "glob", args: `{"pattern":"./a/*.go"}`, want: "a/b.go\n[1 file matches ./a/*.go]"},
		{name: "glob no match", tool: "glob", args: `{"pattern":"nothing/**"}`, want: "[no files match nothing/**]"},
		{name: "glob bad pattern", tool: "glob", args: `{"pattern":"[a"}`, kind: runtime.KindInvalidInput},
		{name: "glob escape", tool: "glob", args: `{"pattern":"../*"}`, kind: runtime.KindInvalidInput},
		{name: "glob escape inside", tool: "glob", args: `{"pattern":"a/../../*"}`, kind: runtime.KindInvalidInput},
		{name: "glob absolute", tool: "glob", args: `{"pattern":"/etc/*"}`, kind: runtime.KindInvalidInput},
		{name: "glob path escape", tool: "glob", args: `{"pattern":"*","path":"../.."}`, kind: runtime.KindPermission},

		{name: "grep sorted, .git skipped", tool: "grep", args: `{"pattern":"TODO"}`,
			want: "a/b.go:3: // TODO: more\ndocs/readme.md:1: # TODO\n[2 matching lines in 2 files]"},
		{name: "grep case-insensitive with glob", tool: "grep", args: `{"pattern":"todo","case_insensitive":true,"glob":"*.go"}`,
			want: "a/b.go:3: // TODO: more\na/c/d.go:3: func D() { todo() }\n[2 matching lines in 2 files]"},
		{name: "grep glob with a path", tool: "grep", args: `{"pattern":"package","path":"a","glob":"c/*_test.go"}`,
			want: "a/c/d_test.go:1: package c\n[1 matching line in 1 file]"},
		{name: "grep anchors per line", tool: "grep", args: `{"pattern":"^func","path":"a"}`,
			want: "a/b.go:4: func B() {}\na/c/d.go:3: func D() { todo() }\n[2 matching lines in 2 files]"},
		{name: "grep one file", tool: "grep", args: `{"pattern":"hi","path":"src/main.go"}`,
			want: "src/main.go:4: \tprintln(\"hi\")\nsrc/main.go:5: \tprintln(\"hi\")\n[2 matching lines in 1 file]"},
		{name: "grep context", tool: "grep", args: `{"pattern":"match","path":"grep","context":1}`,
			want: "grep/ctx.txt-2- b\ngrep/ctx.txt:3: match 1\ngrep/ctx.txt-4- c\n--\ngrep/ctx.txt-7- f\ngrep/ctx.txt:8: match 2\ngrep/ctx.txt:9: match 3\ngrep/ctx.txt-10- g\n[3 matching lines in 1 file]"},
		{name: "grep cap", tool: "grep", args: `{"pattern":"match","path":"grep","max_results":2}`,
			want: "grep/ctx.txt:3: match 1\ngrep/ctx.txt:8: match 2\n[3 matching lines in 1 file; the first 2 shown, 1 more: narrow the pattern, path or glob, or raise max_results]"},
		{name: "grep skips binary", tool: "grep", args: `{"pattern":"binary"}`, want: "[no lines match binary]"},
		{name: "grep bad pattern", tool: "grep", args: `{"pattern":"(a"}`, kind: runtime.KindInvalidInput,
			want: "pattern \"(a\" is not a valid RE2 regular expression: missing closing ): `(a`"},
		{name: "grep outside", tool: "grep", args: `{"pattern":"root","path":"/etc"}`, kind: runtime.KindPermission},

		{name: "edit not found", tool: "edit_file", args: `{"path":"src/main.go","old_string":"func mian() {","new_string":"x"}`, kind: runtime.KindInvalidInput,
			want: "old_string was not found in src/main.go. The closest lines:\n     3\tfunc main() {\nCopy the text exactly as the file holds it (read_file shows it) and call edit_file again."},
		{name: "edit with line numbers", tool: "edit_file", args: `{"path":"src/main.go","old_string":"     3\tfunc main() {","new_string":"x"}`, kind: runtime.KindInvalidInput,
			contains: []string{"old_string seems to hold read_file's line numbers"}},
		{name: "edit ambiguous", tool: "edit_file", args: `{"path":"src/main.go","old_string":"println(\"hi\")","new_string":"x"}`, kind: runtime.KindInvalidInput,
			want: "old_string occurs 2 times in src/main.go (lines 4, 5); include more of the surrounding lines to make it unique, or set replace_all to change every one"},
		{name: "edit same", tool: "edit_file", args: `{"path":"a.go","old_string":"A","new_string":"A"}`, kind: runtime.KindInvalidInput},
		{name: "edit missing file", tool: "edit_file", args: `{"path":"zz.go","old_string":"A","new_string":"B"}`, kind: runtime.KindNotFound},
	}
	sandboxes(t, parityFiles, func(t *testing.T, h *harness) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) { c.check(t, h) })
		}
	})
}

func jsonString(s string) (string, error) {
	b, err := json.Marshal(s)
	return string(b), err
}

// localWithOutside returns a harness over a local sandbox and a directory outside it holding
// secret.txt.
func localWithOutside(t *testing.T) (h *harness, dir, outside string) {
	dir, outside = t.TempDir(), t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("SECRET\n"), 0o644))
	sb, err := sandbox.OpenLocal(dir, sandbox.LocalOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { sb.Close() })
	return newHarness(t, sb, dir), dir, outside
}

// TestNoSandbox: without a sandbox for the call, the tools refuse to run anywhere.
func TestNoSandbox(t *testing.T) {
	h := newHarness(t, nil, "")
	res := h.call("list_dir", `{}`)
	assert.True(t, res.IsError)
	assert.Equal(t, "the workspace tools are not available in this conversation", res.Text)
	assert.Equal(t, 1, res.Attempts)
}

// TestSandboxPerCall: one registry serves several users, each call in the sandbox it brings
// (in its UserData or its context).
func TestSandboxPerCall(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add((*workspace.Workspace)(nil).Tools()...))
	h := &harness{t: t, reg: reg}
	alice := sandbox.NewMemory(map[string]string{"who.txt": "alice\n"})
	bob := sandbox.NewMemory(map[string]string{"who.txt": "bob\n"})
	res := h.reg.Invoke(t.Context(), runtime.Call{Name: "read_file", Args: []byte(`{"path":"who.txt"}`), UserData: alice})
	assert.Contains(t, res.Text, "alice")
	res = h.reg.Invoke(sandbox.NewContext(t.Context(), bob), runtime.Call{Name: "read_file", Args: []byte(`{"path":"who.txt"}`)})
	assert.Contains(t, res.Text, "bob")
}
