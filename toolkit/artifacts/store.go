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
)

// versionOverhead is what MemoryStore counts for a version besides its text: about the memory
// its entry takes (the key, the slice, the string header).
const versionOverhead = 256

// diskBlock is the least DirStore counts for a file or a directory: the disk block it takes,
// however little it holds.
const diskBlock = 4 << 10

// MemoryStore keeps artifacts in memory. Its zero value is ready to use.
type MemoryStore struct {
	// MaxBytes bounds the bytes of every version of every scope together: 0 means 64 MiB.
	// A Save past it fails. Each version counts its text and versionOverhead, so that empty
	// versions cannot pile up without bound either.
	MaxBytes int64

	mu    sync.Mutex
	size  int64
	items map[[2]string][]string // scope, id → versions
}

func (m *MemoryStore) Save(_ context.Context, scope, id string, base int, content string) error {
	if err := CheckID(id); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	key := [2]string{scope, id}
	versions := m.items[key]
	switch {
	case base == 0 && len(versions) > 0:
		return ErrExists
	case base > 0 && len(versions) == 0:
		return ErrNotFound
	case base != len(versions):
		return ErrConflict
	}
	cost := int64(len(content)) + versionOverhead
	if limit := cmp.Or(m.MaxBytes, 64<<20); m.size+cost > limit {
		return fmt.Errorf("artifacts: the store is full (%d bytes)", limit)
	}
	if m.items == nil {
		m.items = make(map[[2]string][]string)
	}
	m.items[key] = append(versions, content)
	m.size += cost
	return nil
}

func (m *MemoryStore) Load(_ context.Context, scope, id string, version int) (Artifact, error) {
	if err := CheckID(id); err != nil {
		return Artifact{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	versions := m.items[[2]string{scope, id}]
	if version == 0 {
		version = len(versions)
	}
	if version < 1 || version > len(versions) {
		return Artifact{}, ErrNotFound
	}
	return Artifact{ID: id, Version: version, Latest: len(versions), Content: versions[version-1]}, nil
}

// DirStore keeps artifacts under a directory, one file per version:
// <Dir>/<hash of the scope>/<id>/<version>.txt. Every file operation goes through an os.Root
// on Dir, ids are checked (CheckID) and scopes hashed, so nothing reaches outside Dir. Files
// are written whole under a temporary name, then linked to their version's name, which fails
// when the version exists: a version is never overwritten and never seen half-written.
type DirStore struct {
	Dir string
	// MaxBytes bounds the bytes of every file under Dir together: 0 means 1 GiB. A Save past
	// it fails, so sessions that create artifact after artifact cannot fill the disk. Each file
	// and directory counts at least a 4 KiB disk block, so empty versions cannot pile up
	// without bound either. Save sums the sizes under Dir each time: its cost grows with the
	// number of versions kept (at most MaxBytes / 4 KiB).
	MaxBytes int64
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
	dir := dirOf(scope, id)
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
	used, err := treeSize(root)
	if err != nil {
		return err
	}
	// The new version counts as the files already there do.
	if limit := cmp.Or(d.MaxBytes, 1<<30); used+max(int64(len(content)), diskBlock) > limit {
		return fmt.Errorf("artifacts: the store is full (%d bytes)", limit)
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

// treeSize is the bytes of every file under root, each file and directory counting at least
// a disk block.
func treeSize(root *os.Root) (int64, error) {
	var total int64
	err := fs.WalkDir(root.FS(), ".", func(name string, e fs.DirEntry, err error) error {
		if err != nil || name == "." {
			return err
		}
		var size int64
		if e.Type().IsRegular() {
			info, err := e.Info()
			if err != nil {
				return err
			}
			size = info.Size()
		}
		total += max(size, diskBlock)
		return nil
	})
	return total, err
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
