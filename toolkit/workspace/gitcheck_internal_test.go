package workspace

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
)

// TestGitConfigKeys: the keys git would read are found whatever the spelling, and a file the
// parser does not understand is an error (the command then goes to the user).
func TestGitConfigKeys(t *testing.T) {
	for config, want := range map[string][]string{
		"[core]\n\trepositoryformatversion = 0\n\tbare = false\n":          {"core.repositoryformatversion", "core.bare"},
		"[Core] FSMonitor = \"touch x\"\n":                                 {"core.fsmonitor"},
		"[core]fsmonitor\n":                                                {"core.fsmonitor"},
		"# [user]\n; name = x\n[filter \"x\"]\n  clean = evil # comment\n": {"filter.x.clean"},
		"[remote \"o\"]\n\turl = a \\\n[core]\n\tfsmonitor = b\n":          {"remote.o.url", "remote.o.fsmonitor"}, // a continued value
		"[remote \"o\"]\n\turl = \"a # b ; c\" ; d\n[x]k\n":                {"remote.o.url", "x.k"},
		"[alias.st]\n\tx = y\n":                                            {"alias.st.x"},
		"[includeIf \"gitdir:/\"]\n\tpath = /workspace/evil\n":             {"includeif.gitdir:/.path"},
		"[a \"q\\\"]\"]\n\tk = v\r\n":                                      {"a.q\"].k"},
		"":                                                                 nil,
	} {
		keys, err := gitConfigKeys([]byte(config))
		require.NoError(t, err, config)
		var got []string
		for _, k := range keys {
			got = append(got, k.String())
		}
		assert.Equal(t, want, got, config)
	}
	for _, config := range []string{
		"key = outside a section\n",
		"[core\n",
		"[core \"x\n",
		"[core.x \"y\"]\n",
		"[core]\n\tname: value\n",
		"[core]\n\tk = \"unterminated\n",
		"\xef\xbb\xbf[core]\n", // a byte order mark, which git skips: not worth understanding
		"[core]\n\t.k = v\n",
		"[]\n",
	} {
		_, err := gitConfigKeys([]byte(config))
		assert.Error(t, err, "%q", config)
	}
}

// TestGitInert: what makes a repository's git commands unfit for automatic approval, found
// wherever git would look.
func TestGitInert(t *testing.T) {
	clean := "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n[remote \"origin\"]\n\turl = https://example.com/r.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch \"main\"]\n\tremote = origin\n\tmerge = refs/heads/main\n"
	repo := func(extra map[string]string) *sandbox.Memory {
		files := map[string]string{".git/HEAD": "ref: refs/heads/main\n", ".git/config": clean, ".git/hooks/pre-commit.sample": "#!/bin/sh\n", "src/a.go": "package a"}
		for k, v := range extra {
			files[k] = v
		}
		return sandbox.NewMemory(files)
	}
	assert.NoError(t, gitInert(repo(nil), "src"))
	assert.NoError(t, gitInert(sandbox.NewMemory(map[string]string{"a": ""}), "."), "no repository: git runs nothing")
	index := "DIRC\x00\x00\x00\x02\x00\x00\x00\x01" + string(make([]byte, 24)) + "\x00\x00\xe0\x00" + "rest"

	for name, sb := range map[string]*sandbox.Memory{
		"fsmonitor":        repo(map[string]string{".git/config": clean + "[core]\n\tfsmonitor = touch pwned\n"}),
		"filter":           repo(map[string]string{".git/config": clean + "[filter \"x\"]\n\tclean = touch pwned\n"}),
		"include":          repo(map[string]string{".git/config": clean + "[include]\n\tpath = ../evil\n"}),
		"worktree config":  repo(map[string]string{".git/config.worktree": "[core]\n\tpager = evil\n"}),
		"unparsable":       repo(map[string]string{".git/config": "[core\n"}),
		"hook":             repo(map[string]string{".git/hooks/post-index-change": "#!/bin/sh\ntouch pwned\n"}),
		"submodules":       repo(map[string]string{".gitmodules": "[submodule \"s\"]\n\tpath = s\n"}),
		"modules dir":      repo(map[string]string{".git/modules/s/config": clean}),
		"gitlink in index": repo(map[string]string{".git/index": index}),
		"shared index":     repo(map[string]string{".git/sharedindex.0123": index}),
		"nested repo":      repo(map[string]string{"src/.git/HEAD": "x", "src/.git/config": "[core]\n\tfsmonitor = x\n"}),
		"gitdir file":      sandbox.NewMemory(map[string]string{"src/.git": "gitdir: ../evil\n", "evil/config": "[core]\n\tfsmonitor = x\n"}),
		"gitdir absolute":  sandbox.NewMemory(map[string]string{"src/.git": "gitdir: /workspace/evil\n", "evil/config": "[core]\n\tfsmonitor = x\n"}),
		"gitdir outside":   sandbox.NewMemory(map[string]string{"src/.git": "gitdir: /tmp/evil\n"}),
		"commondir":        sandbox.NewMemory(map[string]string{".git": "gitdir: wt\n", "wt/commondir": "../main\n", "main/config": "[core]\n\thooksPath = x\n"}),
		"bare":             sandbox.NewMemory(map[string]string{"src/HEAD": "x", "src/objects/x": "", "src/refs/x": "", "src/config": "[core]\n\tfsmonitor = x\n"}),
	} {
		err := gitInert(sb, "src")
		var not *errNotInert
		assert.ErrorAs(t, err, &not, name)
	}
}
