package sandbox

import (
	"context"
	"io/fs"
	"path"
	"strings"
	"sync"
	"testing/fstest"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
)

// Memory is a sandbox whose files live in memory: for tests of agents, and of tools, with no
// disk and no host path at all. The zero value is an empty sandbox. It has no symbolic or hard
// links, so the only escapes it knows are absolute names and "..", which it refuses as Local
// does.
type Memory struct {
	// RunFunc runs commands; nil refuses them with ErrNoRun. A test scripts it to answer the
	// shell tool as it needs.
	RunFunc func(ctx context.Context, cmd Command) (exit int, err error)
	// WriteQuota is how many bytes WriteFile may add, counted as for Local (see
	// LocalOptions.WriteQuota): 0 means DefaultWriteQuota, a negative value no quota. Set it
	// before the first write.
	WriteQuota int64

	mu     sync.RWMutex
	files  fstest.MapFS // entries are replaced, never changed in place, so open files stay valid
	quota  quota
	counts bool // quota is set from WriteQuota
}

// NewMemory returns a sandbox holding files, given as name → content.
func NewMemory(files map[string]string) *Memory {
	m := &Memory{}
	for name, content := range files {
		m.put(name, []byte(content), 0o644)
	}
	return m
}

func (m *Memory) put(name string, data []byte, perm fs.FileMode) {
	if m.files == nil {
		m.files = fstest.MapFS{}
	}
	m.files[name] = &fstest.MapFile{Data: data, Mode: perm, ModTime: time.Now()}
}

// Open opens name for reading.
func (m *Memory) Open(name string) (fs.File, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.files.Open(name)
}

// Stat returns the file information of name.
func (m *Memory) Stat(name string) (fs.FileInfo, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.files.Stat(name)
}

// ReadDir lists the directory name, sorted by name.
func (m *Memory) ReadDir(name string) ([]fs.DirEntry, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.files.ReadDir(name)
}

// WriteFile replaces name with data, unless ctx has ended; parent directories exist
// implicitly.
func (m *Memory) WriteFile(ctx context.Context, name string, data []byte) error {
	if !fs.ValidPath(name) || name == "." {
		return &fs.PathError{Op: "write", Path: name, Err: fs.ErrInvalid}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	perm := fs.FileMode(0o644)
	if info, err := m.files.Stat(name); err == nil {
		if info.IsDir() {
			return &fs.PathError{Op: "write", Path: name, Err: errIsDir}
		}
		perm = info.Mode().Perm()
	}
	for dir := path.Dir(name); dir != "."; dir = path.Dir(dir) {
		if info, err := m.files.Stat(dir); err == nil && !info.IsDir() {
			return &fs.PathError{Op: "mkdir", Path: dir, Err: errNotDir}
		}
	}
	if !m.counts {
		m.quota, m.counts = newQuota(m.WriteQuota), true
	}
	growth := int64(len(data)) + missingDirs(m.files, path.Dir(name))*entryCost
	if info, err := m.files.Stat(name); err == nil {
		growth -= info.Size()
	} else {
		growth += entryCost
	}
	if err := m.quota.check(growth); err != nil {
		return &fs.PathError{Op: "write", Path: name, Err: err}
	}
	if err := runtime.Commit(ctx); err != nil {
		return err
	}
	m.put(name, append([]byte(nil), data...), perm)
	m.quota.add(growth)
	return nil
}

// Mkdir creates the directory name (and its parents), for tests that need an empty one.
func (m *Memory) Mkdir(name string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.files == nil {
		m.files = fstest.MapFS{}
	}
	m.files[strings.TrimSuffix(name, "/")] = &fstest.MapFile{Mode: fs.ModeDir | 0o755, ModTime: time.Now()}
}

// Run runs cmd through RunFunc, in a directory that must exist.
func (m *Memory) Run(ctx context.Context, cmd Command) (int, error) {
	if m.RunFunc == nil {
		return -1, ErrNoRun
	}
	if _, err := commandDir(m, cmd); err != nil {
		return -1, err
	}
	return m.RunFunc(ctx, cmd)
}
