package workspace

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// Bounds of the walks of glob and grep; the package doc states them.
const (
	walkChunk    = 1024 // directory entries read, and held, at a time per directory
	maxWalkDepth = 128  // directories below this many levels under the start are not walked
)

// walkEntry is what a walk keeps of a directory entry: its name and type, not the os
// package's entry with its parent's path, so a chunk costs little more than its names.
type walkEntry struct {
	name string
	typ  fs.FileMode
}

// walk calls visit for start and, when it is a directory, for every file and directory
// below it, depth first; visit returning fs.SkipDir skips a directory, and any other error
// ends the walk with it. It reads each directory walkChunk entries at a time and visits each
// chunk sorted by name, so a directory of up to walkChunk entries comes sorted, and a larger
// one in sorted batches: a walk holds at most maxWalkDepth open directories and walkChunk
// entries of each, whatever the size of a directory. Directories past maxWalkDepth are not
// walked; deep counts them. Directories that cannot be read below the start are skipped,
// as find does.
func walk(ctx context.Context, fsys fs.FS, start string, visit func(name string, typ fs.FileMode) error) (deep int, err error) {
	info, err := fs.Stat(fsys, start)
	if err != nil {
		return 0, err
	}
	typ := info.Mode().Type()
	if err := visit(start, typ); err != nil || !info.IsDir() {
		if errors.Is(err, fs.SkipDir) {
			err = nil
		}
		return 0, err
	}
	w := walker{ctx: ctx, fsys: fsys, visit: visit}
	err = w.dir(start, 0)
	return w.deep, err
}

type walker struct {
	ctx   context.Context
	fsys  fs.FS
	visit func(name string, typ fs.FileMode) error
	deep  int
}

// dir walks the directory name, depth levels below the start.
func (w *walker) dir(name string, depth int) error {
	f, err := w.fsys.Open(name)
	if err != nil {
		if depth == 0 {
			return err
		}
		return nil
	}
	defer f.Close()
	d, ok := f.(fs.ReadDirFile)
	if !ok {
		if depth == 0 {
			return &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a directory")}
		}
		return nil
	}
	chunk := make([]walkEntry, 0, walkChunk)
	for {
		if err := w.ctx.Err(); err != nil {
			return err
		}
		entries, err := d.ReadDir(walkChunk)
		chunk = chunk[:0]
		for _, e := range entries {
			chunk = append(chunk, walkEntry{name: e.Name(), typ: e.Type()})
		}
		entries = nil // only the names are kept while the chunk is walked
		slices.SortFunc(chunk, func(a, b walkEntry) int { return strings.Compare(a.name, b.name) })
		for _, e := range chunk {
			if err := w.entry(path.Join(name, e.name), e.typ, depth); err != nil {
				return err
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) || depth > 0 {
				return nil
			}
			return err
		}
		if len(chunk) == 0 {
			return nil
		}
	}
}

// entry visits one entry of a directory depth levels below the start, and walks it when it
// is a directory.
func (w *walker) entry(name string, typ fs.FileMode, depth int) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	err := w.visit(name, typ)
	if errors.Is(err, fs.SkipDir) || err == nil && !typ.IsDir() {
		return nil
	}
	if err != nil {
		return err
	}
	if depth+1 >= maxWalkDepth {
		w.deep++
		return nil
	}
	return w.dir(name, depth+1)
}
