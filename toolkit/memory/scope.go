package memory

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strings"
	"syscall"

	"github.com/toolgen-go/toolgen/internal/plural"
	"github.com/toolgen-go/toolgen/runtime"
)

// scope is the memory of one call: an os.Root on its subdirectory, and the bounds.
type scope struct {
	root     *os.Root
	maxFile  int64
	maxTotal int64
	maxFiles int
}

func (s *scope) Close() error { return s.root.Close() }

var plainKey = regexp.MustCompile(`^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$`)

// scopeDir is the subdirectory for a Scope's key: the key itself when it is a plain name,
// else a hash of it (prefixed "h-", so a plain key never looks like a hash by accident
// unless it starts with "h-" and 32 hex digits).
func scopeDir(key string) string {
	if plainKey.MatchString(key) {
		return key
	}
	sum := sha256.Sum256([]byte(key))
	return "h-" + hex.EncodeToString(sum[:16])
}

// open opens the caller's scope (creating its directory) and resolves p in it.
func (k *Toolkit) open(ctx context.Context, p string) (*scope, string, error) {
	name, err := memoryName(p)
	if err != nil {
		return nil, "", err
	}
	scopeOf := k.Scope
	if scopeOf == nil {
		scopeOf = PerSession
	}
	key, err := scopeOf(ctx)
	if err != nil {
		return nil, "", err
	}
	if key == "" {
		return nil, "", runtime.ModelErrorf(runtime.KindPermission, "this call has no memory: the host's Scope gave no name")
	}
	dir := scopeDir(key)
	if err := k.root.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, "", fmt.Errorf("memory: create the scope's directory: %w", err)
	}
	root, err := k.root.OpenRoot(dir)
	if err != nil {
		return nil, "", fmt.Errorf("memory: open the scope's directory: %w", err)
	}
	return &scope{root: root, maxFile: orDefault(k.MaxFileSize, DefaultMaxFileSize),
		maxTotal: orDefault(k.MaxTotalSize, DefaultMaxTotalSize), maxFiles: int(orDefault(int64(k.MaxFiles), DefaultMaxFiles))}, name, nil
}

func orDefault(v, def int64) int64 {
	if v <= 0 {
		return def
	}
	return v
}

// write replaces the file p of the caller's scope with edit's result, within the bounds.
func (k *Toolkit) write(ctx context.Context, p string, edit func(old string, exists bool) (string, error), done string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	s, name, err := k.open(ctx, p)
	if err != nil {
		return "", err
	}
	defer s.Close()
	if name == "." {
		return "", runtime.ModelErrorf(runtime.KindInvalidInput, "%s is the memory directory itself; name a file in it, e.g. %s/progress.md", Prefix, Prefix)
	}
	old, exists, err := s.read(name)
	if err != nil {
		return "", err
	}
	text, err := edit(old, exists)
	if err != nil {
		return "", err
	}
	if err := s.fits(name, int64(len(old)), exists, int64(len(text))); err != nil {
		return "", err
	}
	if err := s.replace(ctx, name, text); err != nil {
		return "", err
	}
	return fmt.Sprintf(done, shown(name)), nil
}

// change runs fn on the caller's scope under the toolkit's lock.
func (k *Toolkit) change(ctx context.Context, fn func(*scope) (string, error)) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	s, _, err := k.open(ctx, Prefix)
	if err != nil {
		return "", err
	}
	defer s.Close()
	return fn(s)
}

// lstat describes name without following a link, refusing what memory does not keep.
func (s *scope) lstat(name string) (fs.FileInfo, error) {
	info, err := s.root.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, runtime.ModelErrorf(runtime.KindNotFound, "%s does not exist; memory_view %s shows what does", shown(name), Prefix)
	case err != nil:
		return nil, fileError(name, err)
	case !info.IsDir() && !info.Mode().IsRegular():
		return nil, runtime.ModelErrorf(runtime.KindPermission, "%s is not a regular file (a link or a device), and memory does not follow or read such files", shown(name))
	}
	return info, nil
}

// read returns the content of the file name, or exists false when there is none.
func (s *scope) read(name string) (text string, exists bool, err error) {
	if _, err := s.root.Lstat(name); errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	info, err := s.lstat(name)
	if err != nil {
		return "", false, err
	}
	if info.IsDir() {
		return "", false, runtime.ModelErrorf(runtime.KindInvalidInput, "%s is a directory; memory_view lists it", shown(name))
	}
	if info.Size() > s.maxFile {
		return "", false, runtime.ModelErrorf(runtime.KindLimit, "%s is %s, over the limit of %s per file; delete it or ask the user to", shown(name), plural.Of(info.Size(), "byte"), plural.Of(s.maxFile, "byte"))
	}
	f, err := s.root.Open(name)
	if err != nil {
		return "", false, fileError(name, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, s.maxFile+1)) // bounded even if the file grew since Lstat
	if err != nil {
		return "", false, fileError(name, err)
	}
	if int64(len(data)) > s.maxFile {
		return "", false, runtime.ModelErrorf(runtime.KindLimit, "%s is over the limit of %s per file", shown(name), plural.Of(s.maxFile, "byte"))
	}
	return string(data), true, nil
}

// usage counts the files of the scope and their bytes, stopping once past the bounds: a
// directory the host filled with more costs no more than a full one.
func (s *scope) usage() (files int, bytes int64) {
	_ = fs.WalkDir(s.root.FS(), ".", func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		files++
		if info, err := d.Info(); err == nil {
			bytes += info.Size()
		}
		if files > s.maxFiles || bytes > s.maxTotal {
			return fs.SkipAll
		}
		return nil
	})
	return files, bytes
}

// fits checks that replacing name (of oldSize, if exists) by newSize bytes keeps the bounds.
func (s *scope) fits(name string, oldSize int64, exists bool, newSize int64) error {
	if newSize > s.maxFile {
		return runtime.ModelErrorf(runtime.KindLimit, "%s would be %s, over the limit of %s per file: keep notes short, or split them into topic files", shown(name), plural.Of(newSize, "byte"), plural.Of(s.maxFile, "byte"))
	}
	files, bytes := s.usage()
	if !exists {
		files++
	} else {
		bytes -= oldSize
	}
	if files > s.maxFiles {
		return runtime.ModelErrorf(runtime.KindLimit, "memory holds at most %s: merge or delete files (memory_view %s lists them) before creating %s", plural.Of(s.maxFiles, "file"), Prefix, shown(name))
	}
	if bytes+newSize > s.maxTotal {
		return runtime.ModelErrorf(runtime.KindLimit, "memory holds at most %s in all, and this write would make it %s: delete or shorten outdated files first", plural.Of(s.maxTotal, "byte"), plural.Of(bytes+newSize, "byte"))
	}
	return nil
}

// replace writes text to a temporary file beside name and renames it over name, so a reader
// never sees half a file.
func (s *scope) replace(ctx context.Context, name, text string) error {
	if dir := path.Dir(name); dir != "." {
		if err := s.root.MkdirAll(dir, 0o700); err != nil {
			return fileError(dir, err)
		}
	}
	tmp := path.Join(path.Dir(name), ".write-"+rand.Text())
	if err := s.root.WriteFile(tmp, []byte(text), 0o600); err != nil {
		return fileError(name, err)
	}
	if err := runtime.Commit(ctx); err != nil { // the call already ended: the file stays as it was
		_ = s.root.Remove(tmp)
		return err
	}
	if err := s.root.Rename(tmp, name); err != nil {
		_ = s.root.Remove(tmp)
		return fileError(name, err)
	}
	return nil
}

func (s *scope) delete(p string) (string, error) {
	name, err := memoryName(p)
	if err != nil {
		return "", err
	}
	if name == "." {
		return "", runtime.ModelErrorf(runtime.KindInvalidInput, "%s itself cannot be deleted; delete the files in it", Prefix)
	}
	if _, err := s.root.Lstat(name); err != nil { // a link is deleted, not followed
		return "", notFound(name, err)
	}
	if err := s.root.RemoveAll(name); err != nil {
		return "", fileError(name, err)
	}
	return fmt.Sprintf("Deleted %s.", shown(name)), nil
}

func (s *scope) rename(oldPath, newPath string) (string, error) {
	from, err := memoryName(oldPath)
	if err != nil {
		return "", err
	}
	to, err := memoryName(newPath)
	if err != nil {
		return "", err
	}
	if from == "." || to == "." {
		return "", runtime.ModelErrorf(runtime.KindInvalidInput, "%s itself cannot be renamed; rename the files in it", Prefix)
	}
	if strings.HasPrefix(to+"/", from+"/") {
		return "", runtime.ModelErrorf(runtime.KindInvalidInput, "%s cannot be moved into itself", shown(from))
	}
	if _, err := s.lstat(from); err != nil {
		return "", err
	}
	if _, err := s.root.Lstat(to); err == nil {
		return "", runtime.ModelErrorf(runtime.KindInvalidInput, "%s already exists; delete it first or choose another name", shown(to))
	}
	if dir := path.Dir(to); dir != "." {
		if err := s.root.MkdirAll(dir, 0o700); err != nil {
			return "", fileError(dir, err)
		}
	}
	if err := s.root.Rename(from, to); err != nil {
		return "", fileError(from, err)
	}
	return fmt.Sprintf("Renamed %s to %s.", shown(from), shown(to)), nil
}

func notFound(name string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return runtime.ModelErrorf(runtime.KindNotFound, "%s does not exist; memory_view %s shows what does", shown(name), Prefix)
	}
	return fileError(name, err)
}

// fileError words an os.Root error for the model: it names the file as the model does, and
// the host's path never appears.
func fileError(name string, err error) error {
	var me *runtime.ModelError
	switch {
	case errors.As(err, &me):
		return err
	case errors.Is(err, fs.ErrNotExist):
		return notFound(name, err)
	case strings.Contains(err.Error(), "path escapes"):
		return &runtime.ModelError{Kind: runtime.KindPermission, Err: err,
			Message: fmt.Sprintf("%s leads outside the memory directory (through a link), and memory does not follow such links", shown(name))}
	case errors.Is(err, fs.ErrExist), errors.Is(err, syscall.ENOTDIR):
		return &runtime.ModelError{Kind: runtime.KindInvalidInput, Err: err, Message: fmt.Sprintf("%s: a file is in the way where a directory is needed; rename or delete that file first", shown(name))}
	default:
		return &runtime.ModelError{Kind: runtime.KindInternal, Err: err, Message: fmt.Sprintf("%s could not be accessed", shown(name))}
	}
}
