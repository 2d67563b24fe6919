package artifacts

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

// versionOverhead is what MemoryStore counts for a version besides its text: about the memory
// its entry takes (the key, the slice, the string header).
const versionOverhead = 256

// diskBlock is the least DirStore counts for a file or a directory: the disk block it takes,
// however little it holds.
const diskBlock = 4 << 10

// DefaultMaxAge is how long an artifact is kept after its latest version was saved, in
// either store, unless its MaxAge says otherwise.
const DefaultMaxAge = 24 * time.Hour

// Errors of a store that has no room: the model is told which, and that room comes back as
// artifacts expire.
var (
	// ErrSessionFull: the session's artifacts take its share of the store (MaxSessionBytes).
	ErrSessionFull = errors.New("this session's artifacts fill its share of the store")
	// ErrStoreFull: the artifacts of every session together take the store's MaxBytes.
	ErrStoreFull = errors.New("the artifact store is full")
)

// limits returns a store's bounds with their defaults: the bytes of every session
// together, of one session, and how long an artifact is kept (0: for ever).
func limits(total, share int64, age time.Duration, defaultTotal int64) (int64, int64, time.Duration) {
	total = cmp.Or(total, defaultTotal)
	share = cmp.Or(share, total/4)
	switch {
	case age == 0:
		age = DefaultMaxAge
	case age < 0:
		age = 0
	}
	return total, share, age
}

// MemoryStore keeps artifacts in memory. Its zero value is ready to use.
type MemoryStore struct {
	// MaxBytes bounds the bytes of every version of every scope together: 0 means 64 MiB.
	// A Save past it fails. Each version counts its text and versionOverhead, so that empty
	// versions cannot pile up without bound either.
	MaxBytes int64
	// MaxSessionBytes bounds, inside MaxBytes, the bytes of one scope (a session): 0 means a
	// quarter of MaxBytes. A Save past it fails, so one session cannot fill the store for the
	// others.
	MaxSessionBytes int64
	// MaxAge is how long an artifact is kept after its latest version was saved: 0 means
	// DefaultMaxAge (24 hours), negative for ever. An expired artifact is gone, its bytes free.
	MaxAge time.Duration

	mu        sync.Mutex
	size      int64
	scopes    map[string]int64 // bytes by scope
	items     map[[2]string]*memoryArtifact
	nextSweep time.Time
	now       func() time.Time // tests replace the clock
}

// memoryArtifact is an artifact's versions and when the latest was saved.
type memoryArtifact struct {
	versions []string
	cost     int64
	saved    time.Time
}

func (m *MemoryStore) clock() time.Time {
	if m.now != nil {
		return m.now()
	}
	return time.Now()
}

// live returns artifact key unless it expired, which it then forgets. It runs under m.mu.
func (m *MemoryStore) live(key [2]string, age time.Duration, now time.Time) *memoryArtifact {
	a := m.items[key]
	if a != nil && age > 0 && now.Sub(a.saved) >= age {
		m.forget(key, a)
		return nil
	}
	return a
}

func (m *MemoryStore) forget(key [2]string, a *memoryArtifact) {
	delete(m.items, key)
	m.size -= a.cost
	if m.scopes[key[0]] -= a.cost; m.scopes[key[0]] <= 0 {
		delete(m.scopes, key[0])
	}
}

// sweep forgets the expired artifacts, at most once a minute: its cost grows with the number
// of artifacts, so the room an expired artifact frees is seen up to a minute late. It runs
// under m.mu.
func (m *MemoryStore) sweep(age time.Duration, now time.Time) {
	if age <= 0 || now.Before(m.nextSweep) {
		return
	}
	m.nextSweep = now.Add(time.Minute)
	for key := range m.items {
		m.live(key, age, now)
	}
}

func (m *MemoryStore) Save(_ context.Context, scope, id string, base int, content string) error {
	if err := CheckID(id); err != nil {
		return err
	}
	total, share, age := limits(m.MaxBytes, m.MaxSessionBytes, m.MaxAge, 64<<20)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.items == nil {
		m.items = make(map[[2]string]*memoryArtifact)
		m.scopes = make(map[string]int64)
	}
	now := m.clock()
	m.sweep(age, now)
	key := [2]string{scope, id}
	a := m.live(key, age, now)
	var latest int
	if a != nil {
		latest = len(a.versions)
	}
	switch {
	case base == 0 && latest > 0:
		return ErrExists
	case base > 0 && latest == 0:
		return ErrNotFound
	case base != latest:
		return ErrConflict
	}
	cost := int64(len(content)) + versionOverhead
	if m.scopes[scope]+cost > share {
		return fmt.Errorf("%w (%d bytes)", ErrSessionFull, share)
	}
	if m.size+cost > total {
		return fmt.Errorf("%w (%d bytes)", ErrStoreFull, total)
	}
	if a == nil {
		a = &memoryArtifact{}
		m.items[key] = a
	}
	a.versions = append(a.versions, content)
	a.cost += cost
	a.saved = now
	m.size += cost
	m.scopes[scope] += cost
	return nil
}

func (m *MemoryStore) Load(_ context.Context, scope, id string, version int) (Artifact, error) {
	if err := CheckID(id); err != nil {
		return Artifact{}, err
	}
	_, _, age := limits(m.MaxBytes, m.MaxSessionBytes, m.MaxAge, 64<<20)
	m.mu.Lock()
	defer m.mu.Unlock()
	a := m.live([2]string{scope, id}, age, m.clock())
	if a == nil {
		return Artifact{}, ErrNotFound
	}
	if version == 0 {
		version = len(a.versions)
	}
	if version < 1 || version > len(a.versions) {
		return Artifact{}, ErrNotFound
	}
	return Artifact{ID: id, Version: version, Latest: len(a.versions), Content: a.versions[version-1]}, nil
}

// DirStore keeps artifacts under a directory, one file per version:
// <Dir>/<hash of the scope>/<id>/<version>.txt. Every file operation goes through an os.Root
// on Dir, ids are checked (CheckID) and scopes hashed, so nothing reaches outside Dir. Files
// are written whole under a temporary name, then linked to their version's name, which fails
// when the version exists: a version is never overwritten and never seen half-written.
//
// Save walks the directory once each time: it sums the bytes under Dir and under the
// session's directory, and removes the artifacts that expired, so its cost grows with the
// number of versions kept (at most MaxBytes / 4 KiB). Several processes may share Dir.
type DirStore struct {
	Dir string
	// MaxBytes bounds the bytes of every file under Dir together: 0 means 1 GiB. A Save past
	// it fails, so sessions that create artifact after artifact cannot fill the disk. Each file
	// and directory counts at least a 4 KiB disk block, so empty versions cannot pile up
	// without bound either.
	MaxBytes int64
	// MaxSessionBytes bounds, inside MaxBytes, the bytes under one scope's (a session's)
	// directory, counted the same way: 0 means a quarter of MaxBytes. A Save past it fails,
	// so one session cannot fill the store for the others.
	MaxSessionBytes int64
	// MaxAge is how long an artifact is kept after its latest version was written (its
	// file's modification time): 0 means DefaultMaxAge (24 hours), negative for ever. Load
	// does not see an expired artifact; the next Save removes it.
	MaxAge time.Duration
}

func (d DirStore) limits() (total, share int64, age time.Duration) {
	return limits(d.MaxBytes, d.MaxSessionBytes, d.MaxAge, 1<<30)
}

func (d DirStore) open(id string) (*os.Root, error) {
	if err := CheckID(id); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(d.Dir, 0o700); err != nil {
		return nil, err
	}
	return os.OpenRoot(d.Dir)
}

// dirOf is the directory of artifact id in scope, inside the root.
func dirOf(scope, id string) string {
	sum := sha256.Sum256([]byte(scope))
	return path.Join(hex.EncodeToString(sum[:16]), id)
}

func (d DirStore) Save(_ context.Context, scope, id string, base int, content string) error {
	root, err := d.open(id)
	if err != nil {
		return err
	}
	defer root.Close()
	total, share, age := d.limits()
	dir := dirOf(scope, id)
	used, own, err := usage(root, path.Dir(dir), age, time.Now())
	if err != nil {
		return err
	}
	latest, err := latestVersion(root, dir)
	if err != nil {
		return err
	}
	switch {
	case base == 0 && latest > 0:
		return ErrExists
	case base > 0 && latest == 0:
		return ErrNotFound
	case base != latest:
		return ErrConflict
	}
	// The new version counts as the files already there do.
	cost := max(int64(len(content)), diskBlock)
	if own+cost > share {
		return fmt.Errorf("%w (%d bytes)", ErrSessionFull, share)
	}
	if used+cost > total {
		return fmt.Errorf("%w (%d bytes)", ErrStoreFull, total)
	}
	if err := root.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp := path.Join(dir, "tmp-"+rand.Text())
	if err := root.WriteFile(tmp, []byte(content), 0o600); err != nil {
		return err
	}
	defer root.Remove(tmp)
	if err := root.Link(tmp, path.Join(dir, strconv.Itoa(base+1)+".txt")); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return ErrConflict
		}
		return err
	}
	return nil
}

func (d DirStore) Load(_ context.Context, scope, id string, version int) (Artifact, error) {
	root, err := d.open(id)
	if err != nil {
		return Artifact{}, err
	}
	defer root.Close()
	dir := dirOf(scope, id)
	latest, err := latestVersion(root, dir)
	if err != nil {
		return Artifact{}, err
	}
	if _, _, age := d.limits(); latest > 0 && age > 0 {
		info, err := root.Lstat(path.Join(dir, strconv.Itoa(latest)+".txt"))
		if err != nil {
			return Artifact{}, err
		}
		if time.Since(info.ModTime()) >= age {
			return Artifact{}, ErrNotFound // expired: the next Save removes it
		}
	}
	if version == 0 {
		version = latest
	}
	if version < 1 || version > latest {
		return Artifact{}, ErrNotFound
	}
	data, err := root.ReadFile(path.Join(dir, strconv.Itoa(version)+".txt"))
	if err != nil {
		return Artifact{}, err
	}
	return Artifact{ID: id, Version: version, Latest: latest, Content: string(data)}, nil
}

// usage sums the bytes under root and under its directory scopeDir, each file and directory
// counting at least a disk block, and removes on the way the artifacts whose newest file is
// older than age (0: none expire).
func usage(root *os.Root, scopeDir string, age time.Duration, now time.Time) (total, own int64, err error) {
	scopes, err := fs.ReadDir(root.FS(), ".")
	if err != nil {
		return 0, 0, err
	}
	for _, s := range scopes {
		n := int64(diskBlock)
		if s.IsDir() {
			if n, err = scopeUsage(root, s.Name(), age, now); err != nil {
				return 0, 0, err
			}
		}
		total += n
		if s.Name() == scopeDir {
			own = n
		}
	}
	return total, own, nil
}

// scopeUsage is usage for one scope's directory.
func scopeUsage(root *os.Root, scope string, age time.Duration, now time.Time) (int64, error) {
	artifacts, err := fs.ReadDir(root.FS(), scope)
	if err != nil {
		return 0, err
	}
	total := int64(diskBlock)
	for _, a := range artifacts {
		if !a.IsDir() {
			total += diskBlock
			continue
		}
		dir := path.Join(scope, a.Name())
		files, err := fs.ReadDir(root.FS(), dir)
		if err != nil {
			return 0, err
		}
		size := int64(diskBlock)
		var newest time.Time
		if info, err := a.Info(); err == nil {
			newest = info.ModTime()
		}
		for _, f := range files {
			info, err := f.Info()
			if err != nil {
				return 0, err
			}
			if info.ModTime().After(newest) {
				newest = info.ModTime()
			}
			if f.Type().IsRegular() {
				size += max(info.Size(), diskBlock)
			} else {
				size += diskBlock
			}
		}
		if age > 0 && now.Sub(newest) >= age && root.RemoveAll(dir) == nil {
			continue
		}
		total += size
	}
	return total, nil
}

// latestVersion is the highest version file in dir, 0 when there is none.
func latestVersion(root *os.Root, dir string) (int, error) {
	f, err := root.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	} else if err != nil {
		return 0, err
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return 0, err
	}
	latest := 0
	for _, n := range names {
		if v, err := strconv.Atoi(strings.TrimSuffix(n, ".txt")); err == nil && strings.HasSuffix(n, ".txt") && v > latest {
			latest = v
		}
	}
	return latest, nil
}
