package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/toolgen-go/toolgen/toolkit/sandbox"
)

// Why git gets a check of its own: git runs programs its repository's files name. Its
// config (.git/config, config.worktree) can name them outright (core.fsmonitor, which git
// status runs; core.hooksPath; filter.<driver>.clean, which git status runs on changed files
// that .gitattributes routes to the driver; diff.external, textconv, pagers, aliases,
// credential helpers, includes of other files), .git/hooks holds programs (git status
// may run post-index-change), and a submodule is a repository of its own that git status
// enters with its own config. All of it lives in the workspace, where the model writes, so an
// automatic approval of "git status" would run what the model wrote there.
//
// Passing -c settings cannot close it: a filter driver may have any name, and so may an
// alias. So automatic approval is given only to a git command whose repository holds no
// such thing: every config key is on a list of keys that name no program (repoInertKeys),
// there are no hooks (only the *.sample files git init writes), no submodules, and no
// includes. Anything else, or anything the check cannot read or understand, leaves the
// call to the next approver: the user sees the command and decides.

// Bounds of the check: what the model wrote is read only this far.
const (
	maxGitConfig     = 64 << 10  // bytes of a config file; a longer one is not inert
	maxGitIndex      = 64 << 20  // bytes of the index scanned for submodules; a larger one is not inert
	maxGitDirEntries = 1024      // entries of a hooks or git directory listed
	maxGitLevels     = 256       // directories climbed from the working directory
	gitlinkMode      = 0o160000  // the index's mode of a submodule
	gitChunk         = 256 << 10 // bytes read at a time from the index
)

// repoInertKeys are the config keys, as section.key or section.*.key (any subsection), that
// name no program and no other file: what git init and git clone write, and a few common
// settings of the same kind.
var repoInertKeys = map[string]bool{
	"core.repositoryformatversion": true, "core.filemode": true, "core.bare": true,
	"core.logallrefupdates": true, "core.ignorecase": true, "core.precomposeunicode": true,
	"core.symlinks": true, "core.autocrlf": true, "core.eol": true, "core.safecrlf": true,
	"core.checkstat": true, "core.trustctime": true, "core.quotepath": true,
	"remote.*.url": true, "remote.*.pushurl": true, "remote.*.fetch": true, "remote.*.tagopt": true,
	"remote.*.prune":  true,
	"branch.*.remote": true, "branch.*.merge": true, "branch.*.rebase": true,
	"branch.*.pushremote": true, "branch.*.description": true,
	"user.name": true, "user.email": true, "init.defaultbranch": true,
	"extensions.objectformat": true, "extensions.worktreeconfig": true, "extensions.refstorage": true,
	"lfs.repositoryformatversion": true,
}

// errNotInert says why a repository's git commands are not approved automatically.
type errNotInert struct{ why string }

func (e *errNotInert) Error() string { return e.why }

func notInert(format string, args ...any) error {
	return &errNotInert{why: fmt.Sprintf(format, args...)}
}

// isGitCommand reports whether command runs git.
func isGitCommand(command string) bool {
	fields := strings.Fields(command)
	return len(fields) > 0 && fields[0] == "git"
}

// gitInert returns nil when git, run in the sandbox directory dir, would find no repository
// or only inert ones (see above), or why not. It looks, as git does, at dir and each
// directory above it up to the root for a .git directory or file and for a bare
// repository, and checks every one it finds, not only the first git would use.
func gitInert(sb sandbox.Sandbox, dir string) error {
	for level := 0; ; level++ {
		if level == maxGitLevels {
			return notInert("the working directory is too deep to check")
		}
		if err := checkGitCandidate(sb, dir); err != nil {
			return err
		}
		if dir == "." {
			return nil
		}
		dir = path.Dir(dir)
	}
}

// checkGitCandidate checks dir/.git and dir itself as git would find them.
func checkGitCandidate(sb sandbox.Sandbox, dir string) error {
	dotgit := path.Join(dir, ".git")
	info, err := sb.Stat(dotgit)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return notInert("%s cannot be read: %v", dotgit, err)
	}
	if err == nil {
		gitdir := dotgit
		if !info.IsDir() { // a file "gitdir: PATH" naming the repository, as worktrees and submodules have
			if gitdir, err = readGitFile(sb, dotgit, dir); err != nil {
				return err
			}
		}
		if err := checkGitDir(sb, gitdir); err != nil {
			return err
		}
		if err := mustNotExist(sb, path.Join(dir, ".gitmodules"), "submodules"); err != nil {
			return err
		}
	}
	// A bare repository: git takes the directory itself for one when it has HEAD, objects
	// and refs.
	for _, name := range []string{"HEAD", "objects", "refs"} {
		if _, err := sb.Stat(path.Join(dir, name)); err != nil {
			return nil
		}
	}
	return checkGitDir(sb, dir)
}

// readGitFile reads a .git file and returns the sandbox name of the directory it names.
func readGitFile(sb sandbox.Sandbox, name, dir string) (string, error) {
	data, err := readSmall(sb, name, 4096)
	if err != nil {
		return "", err
	}
	target, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return "", notInert("%s is not a gitdir file", name)
	}
	return sandboxName(strings.TrimSpace(target), dir, name)
}

// sandboxName turns a path a git file holds, relative to dir or absolute in an isolated
// sandbox's view (under sandbox.WorkspacePath), into a sandbox name.
func sandboxName(p, dir, from string) (string, error) {
	if rest, ok := strings.CutPrefix(p, sandbox.WorkspacePath); ok && (rest == "" || rest[0] == '/') {
		p = strings.TrimPrefix(rest, "/")
	} else if !strings.HasPrefix(p, "/") {
		p = path.Join(dir, p)
	}
	name, err := sandbox.Clean(p)
	if err != nil {
		return "", notInert("%s names a repository outside the workspace", from)
	}
	return name, nil
}

// checkGitDir checks a repository directory: its config files, its common directory's (a
// worktree's repository shares the main one's), hooks, submodules and index.
func checkGitDir(sb sandbox.Sandbox, gitdir string) error {
	dirs := []string{gitdir}
	if data, err := readSmall(sb, path.Join(gitdir, "commondir"), 4096); err == nil {
		common, err := sandboxName(strings.TrimSpace(string(data)), gitdir, path.Join(gitdir, "commondir"))
		if err != nil {
			return err
		}
		dirs = append(dirs, common)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for _, d := range dirs {
		for _, name := range []string{"config", "config.worktree"} {
			if err := checkGitConfig(sb, path.Join(d, name)); err != nil {
				return err
			}
		}
		if err := checkHooks(sb, path.Join(d, "hooks")); err != nil {
			return err
		}
		if err := mustNotExist(sb, path.Join(d, "modules"), "submodules"); err != nil {
			return err
		}
		if err := checkIndexes(sb, d); err != nil {
			return err
		}
	}
	return nil
}

func mustNotExist(sb sandbox.Sandbox, name, what string) error {
	_, err := sb.Stat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return notInert("%s cannot be read: %v", name, err)
	}
	return notInert("the repository has %s (%s)", what, name)
}

// checkGitConfig checks that the config file name, when there is one, sets only inert keys.
func checkGitConfig(sb sandbox.Sandbox, name string) error {
	data, err := readSmall(sb, name, maxGitConfig)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	keys, err := gitConfigKeys(data)
	if err != nil {
		return notInert("%s: %v", name, err)
	}
	for _, key := range keys {
		if !inertKey(key) {
			return notInert("%s sets %s", name, key)
		}
	}
	return nil
}

// inertKey reports whether a key (section, subsection and name, as gitConfigKeys returns
// them) is in repoInertKeys.
func inertKey(key gitKey) bool {
	if key.hasSub {
		return repoInertKeys[key.section+".*."+key.name]
	}
	return repoInertKeys[key.section+"."+key.name]
}

// checkHooks checks that the hooks directory, when there is one, holds only samples.
func checkHooks(sb sandbox.Sandbox, dir string) error {
	return eachEntry(sb, dir, func(name string) error {
		if !strings.HasSuffix(name, ".sample") {
			return notInert("the repository has a hook (%s)", path.Join(dir, name))
		}
		return nil
	})
}

// checkIndexes checks that the index, and any shared index a split index uses, records no
// submodule. The index is scanned for the mode bytes of a submodule entry anywhere, which
// also finds a few that are not entries: those only send the call to the user.
func checkIndexes(sb sandbox.Sandbox, gitdir string) error {
	names := []string{"index"}
	err := eachEntry(sb, gitdir, func(name string) error {
		if strings.HasPrefix(name, "sharedindex.") {
			names = append(names, name)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, name := range names {
		if err := scanIndex(sb, path.Join(gitdir, name)); err != nil {
			return err
		}
	}
	return nil
}

func scanIndex(sb sandbox.Sandbox, name string) error {
	f, err := sb.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return notInert("%s cannot be read: %v", name, err)
	}
	defer f.Close()
	pattern := []byte{0, 0, gitlinkMode >> 8 & 0xff, gitlinkMode & 0xff} // big-endian 32 bits
	buf := make([]byte, gitChunk+len(pattern)-1)
	carry, total := 0, 0
	for {
		n, err := f.Read(buf[carry:])
		total += n
		if total > maxGitIndex {
			return notInert("%s is larger than %d bytes", name, maxGitIndex)
		}
		if bytes.Contains(buf[:carry+n], pattern) {
			return notInert("the repository's index may record a submodule")
		}
		// Keep the last bytes, which may begin the pattern.
		keep := min(carry+n, len(pattern)-1)
		copy(buf, buf[carry+n-keep:carry+n])
		carry = keep
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return notInert("%s cannot be read: %v", name, err)
		}
	}
}

// eachEntry calls fn with the name of each entry of the directory dir, if there is one,
// reading the listing in chunks and failing past maxGitDirEntries.
func eachEntry(sb sandbox.Sandbox, dir string, fn func(name string) error) error {
	f, err := sb.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return notInert("%s cannot be read: %v", dir, err)
	}
	defer f.Close()
	rd, ok := f.(fs.ReadDirFile)
	if !ok {
		return notInert("%s is not a directory", dir)
	}
	for seen := 0; ; {
		entries, err := rd.ReadDir(64)
		for _, e := range entries {
			if seen++; seen > maxGitDirEntries {
				return notInert("%s has more than %d entries", dir, maxGitDirEntries)
			}
			if err := fn(e.Name()); err != nil {
				return err
			}
		}
		if err == io.EOF || err == nil && len(entries) == 0 {
			return nil
		}
		if err != nil {
			return notInert("%s cannot be listed: %v", dir, err)
		}
	}
}

// gitKey is a key of a git config file. Section and name are case-insensitive (kept
// lower-case); the subsection is case-sensitive and, for the check, only present or not.
type gitKey struct {
	section, sub, name string
	hasSub             bool
}

func (k gitKey) String() string {
	if k.hasSub {
		return k.section + "." + k.sub + "." + k.name
	}
	return k.section + "." + k.name
}

// gitConfigKeys returns the keys a git config file sets, in order. It follows git's syntax
// (sections as [section], [section "sub"] or the old [section.sub]; keys with or without
// "= value"; values with quotes, escapes and backslash-newline continuations; # and ;
// comments) and fails on anything else, so that nothing git would read as a key escapes it.
func gitConfigKeys(data []byte) ([]gitKey, error) {
	p := &configParser{s: data}
	var keys []gitKey
	var section gitKey
	inSection := false
	for {
		p.skipSpace()
		c, ok := p.peek()
		if !ok {
			return keys, nil
		}
		switch {
		case c == '\n':
			p.i++
		case c == '#' || c == ';':
			p.skipLine()
		case c == '[':
			s, err := p.sectionHeader()
			if err != nil {
				return nil, err
			}
			section, inSection = s, true
		case isAlpha(c):
			if !inSection {
				return nil, errors.New("a key outside any section")
			}
			name, err := p.key()
			if err != nil {
				return nil, err
			}
			k := section
			k.name = name
			keys = append(keys, k)
		default:
			return nil, fmt.Errorf("unexpected %q at byte %d", c, p.i)
		}
	}
}

type configParser struct {
	s []byte
	i int
}

func (p *configParser) peek() (byte, bool) {
	if p.i >= len(p.s) {
		return 0, false
	}
	return p.s[p.i], true
}

func (p *configParser) skipSpace() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *configParser) skipLine() {
	for p.i < len(p.s) && p.s[p.i] != '\n' {
		p.i++
	}
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isKeyChar(c byte) bool { return isAlpha(c) || c >= '0' && c <= '9' || c == '-' }

// sectionHeader reads [section], [section "sub"] or [section.sub]; the rest of the line may
// hold a key, which the caller reads next.
func (p *configParser) sectionHeader() (gitKey, error) {
	p.i++ // [
	start := p.i
	for p.i < len(p.s) && (isKeyChar(p.s[p.i]) || p.s[p.i] == '.') {
		p.i++
	}
	name := strings.ToLower(string(p.s[start:p.i]))
	if name == "" {
		return gitKey{}, fmt.Errorf("an empty section name at byte %d", start)
	}
	var k gitKey
	k.section = name
	if section, sub, ok := strings.Cut(name, "."); ok { // the old [section.sub]
		k.section, k.sub, k.hasSub = section, sub, true
	}
	c, _ := p.peek()
	if c == ' ' || c == '\t' {
		if k.hasSub {
			return gitKey{}, fmt.Errorf("a malformed section header at byte %d", start)
		}
		p.skipSpace()
		if c, _ := p.peek(); c != '"' {
			return gitKey{}, fmt.Errorf("a malformed section header at byte %d", start)
		}
		p.i++
		var sub strings.Builder
		for {
			c, ok := p.peek()
			if !ok || c == '\n' {
				return gitKey{}, fmt.Errorf("an unterminated subsection at byte %d", start)
			}
			p.i++
			if c == '"' {
				break
			}
			if c == '\\' {
				if c, ok = p.peek(); !ok || c == '\n' {
					return gitKey{}, fmt.Errorf("an unterminated subsection at byte %d", start)
				}
				p.i++
			}
			sub.WriteByte(c)
		}
		k.sub, k.hasSub = sub.String(), true
	}
	if c, _ := p.peek(); c != ']' {
		return gitKey{}, fmt.Errorf("a malformed section header at byte %d", start)
	}
	p.i++
	return k, nil
}

// key reads a key and its value, if any, to the end of its (maybe continued) line.
func (p *configParser) key() (string, error) {
	start := p.i
	for p.i < len(p.s) && isKeyChar(p.s[p.i]) {
		p.i++
	}
	name := strings.ToLower(string(p.s[start:p.i]))
	p.skipSpace()
	c, ok := p.peek()
	switch {
	case !ok || c == '\n':
		return name, nil // a boolean true
	case c == '#' || c == ';':
		p.skipLine()
		return name, nil
	case c != '=':
		return "", fmt.Errorf("a malformed key at byte %d", start)
	}
	p.i++
	quoted := false
	for {
		c, ok := p.peek()
		if !ok {
			if quoted {
				return "", fmt.Errorf("an unterminated quote in the value of %s", name)
			}
			return name, nil
		}
		p.i++
		switch {
		case c == '\n':
			if quoted {
				return "", fmt.Errorf("an unterminated quote in the value of %s", name)
			}
			return name, nil
		case c == '"':
			quoted = !quoted
		case c == '\\':
			c, ok := p.peek()
			if !ok {
				return "", fmt.Errorf("a backslash at the end of the file")
			}
			p.i++
			if c == '\r' { // backslash, CR, LF continues the line too
				if c, _ := p.peek(); c == '\n' {
					p.i++
				}
			}
		case !quoted && (c == '#' || c == ';'):
			p.skipLine()
		}
	}
}
