package workspace

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/toolgen-go/toolgen/internal/plural"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
)

// Caps of list_dir and glob; the package doc states them.
const (
	maxListEntries = 500
	maxGlobResults = 200
)

// ListDirArgs are the arguments of list_dir.
type ListDirArgs struct {
	// Path of the directory, relative to the workspace root; "." is the root.
	Path string `json:"path,omitempty" tool:"default=.,maxLength=4096"`
}

// ListDir lists a directory of the workspace, sorted by name: directories end in "/",
// symbolic links in "@", files show their size. At most 500 entries are shown, with the
// number of the others.
//
//tool:name list_dir
//tool:hints readonly,idempotent
//tool:maxresult 64KiB
//tool:example "The workspace root" {"path":"."}
func (w *Workspace) ListDir(ctx context.Context, args ListDirArgs) (string, error) {
	f, name, err := w.open(ctx, args.Path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	dir, ok := f.(fs.ReadDirFile)
	if !ok {
		return "", modelError(runtime.KindInvalidInput, nil, "%s is a file, not a directory%s", args.Path, toolHint(ctx, "read_file", "%s reads it"))
	}
	entries, total, err := firstEntries(ctx, dir, maxListEntries)
	if err != nil {
		return "", fileError(ctx, args.Path, err)
	}
	return formatEntries(ctx, name, entries, total), nil
}

// firstEntries returns the first n entries of dir by name, and how many it has. It reads the
// directory in chunks, keeping n: a directory of a million entries costs time, not memory.
func firstEntries(ctx context.Context, dir fs.ReadDirFile, n int) ([]fs.DirEntry, int, error) {
	var kept []fs.DirEntry
	total := 0
	for {
		chunk, err := dir.ReadDir(1024)
		total += len(chunk)
		kept = smallest(append(kept, chunk...), n, fs.DirEntry.Name)
		if errors.Is(err, io.EOF) || err == nil && len(chunk) == 0 {
			return kept, total, nil
		}
		if err != nil {
			return nil, 0, err
		}
		if ctx.Err() != nil {
			return nil, 0, ctx.Err()
		}
	}
}

// formatEntries writes list_dir's lines: "name/" for a directory, "name@" for a symbolic
// link, "name (N bytes)" for a file, then the count.
func formatEntries(ctx context.Context, name string, entries []fs.DirEntry, total int) string {
	var b strings.Builder
	for _, e := range entries {
		switch {
		case e.IsDir():
			fmt.Fprintf(&b, "%s/\n", e.Name())
		case e.Type()&fs.ModeSymlink != 0:
			fmt.Fprintf(&b, "%s@\n", e.Name())
		default:
			size := ""
			if info, err := e.Info(); err == nil {
				size = " (" + plural.Of(info.Size(), "byte") + ")"
			}
			fmt.Fprintf(&b, "%s%s\n", e.Name(), size)
		}
	}
	fmt.Fprintf(&b, "[%s: %s", name, plural.Of(total, "entry"))
	if total > len(entries) {
		fmt.Fprintf(&b, ", the first %d shown%s", len(entries), toolHint(ctx, "glob", "%s finds files by pattern"))
	}
	b.WriteString("]")
	return b.String()
}

// smallest sorts items by key and keeps the first n.
func smallest[T any](items []T, n int, key func(T) string) []T {
	slices.SortFunc(items, func(a, b T) int { return strings.Compare(key(a), key(b)) })
	return items[:min(len(items), n)]
}

func identity(s string) string { return s }

// GlobArgs are the arguments of glob.
type GlobArgs struct {
	// Pattern to match paths against: * matches within a name, ** any number of directories,
	// {a,b} either, e.g. **/*.go or src/**/*_test.go.
	Pattern string `json:"pattern" tool:"minLength=1,maxLength=1024"`
	// Path of the directory to search in, relative to the workspace root; the pattern is
	// matched against paths relative to it.
	Path string `json:"path,omitempty" tool:"default=.,maxLength=4096"`
}

// Glob finds the files whose paths match a glob pattern (** for any depth) and returns their
// paths relative to the workspace root, sorted, at most 200.
//
// The last line counts the files not shown. .git directories are skipped unless the pattern
// names one.
//
//tool:name glob
//tool:hints readonly,idempotent
//tool:maxresult 64KiB
//tool:example "Every Go test file" {"pattern":"**/*_test.go"}
func (w *Workspace) Glob(ctx context.Context, args GlobArgs) (string, error) {
	sb, dir, err := w.resolve(ctx, args.Path)
	if err != nil {
		return "", err
	}
	pattern := strings.TrimPrefix(args.Pattern, "./")
	if !doublestar.ValidatePattern(pattern) {
		return "", modelError(runtime.KindInvalidInput, nil, "%q is not a valid glob pattern: check its brackets and braces", args.Pattern)
	}
	re, err := globRegexp("pattern", pattern)
	if err != nil {
		return "", err
	}
	start, err := walkStart(dir, pattern)
	if err != nil {
		return "", fileError(ctx, args.Pattern, err)
	}
	matches, total, deep, err := glob(ctx, sb, dir, start, pattern, re)
	if errors.Is(err, fs.ErrNotExist) && start != dir {
		err = nil // the pattern's directory does not exist: nothing matches
	}
	if err != nil {
		return "", fileError(ctx, args.Path, err)
	}
	what := "files match " + args.Pattern
	if total == 1 {
		what = "file matches " + args.Pattern
	}
	return listing(matches, total, what, "narrow the pattern or path", deepNote(deep)), nil
}

// deepNote says how many directories a walk left out for their depth, if any.
func deepNote(deep int) string {
	if deep == 0 {
		return ""
	}
	return fmt.Sprintf("; %s more than %d levels deep not searched: search from deeper down", plural.Of(deep, "directory"), maxWalkDepth)
}

// glob walks the tree at start for the files whose paths relative to dir match pattern
// (compiled into re), and
// returns the first maxGlobResults of them, sorted, how many there are, and how many
// directories were too deep to walk.
func glob(ctx context.Context, fsys fs.FS, dir, start, pattern string, re *regexp.Regexp) ([]string, int, int, error) {
	wantGit := strings.Contains(pattern, ".git")
	var matches []string
	total := 0
	deep, err := walk(ctx, fsys, start, func(name string, typ fs.FileMode) error {
		if typ.IsDir() {
			if path.Base(name) == ".git" && !wantGit {
				return fs.SkipDir
			}
			return nil
		}
		if re.MatchString(relativeTo(dir, name)) {
			total++
			if matches = append(matches, name); len(matches) >= 2*maxGlobResults {
				matches = smallest(matches, maxGlobResults, identity)
			}
		}
		return nil
	})
	// The walk visits "a/b" before "a.go"; the model gets them sorted as strings.
	return smallest(matches, maxGlobResults, identity), total, deep, err
}

// walkStart returns where a glob walk starts: below the search directory dir, at the
// pattern's fixed part (src/**/*.go walks src), which must stay inside dir.
func walkStart(dir, pattern string) (string, error) {
	base, _ := doublestar.SplitPattern(pattern)
	if base == "." {
		return dir, nil
	}
	inside, err := sandbox.Clean(base)
	if err != nil || path.IsAbs(base) {
		return "", &fs.PathError{Op: "glob", Path: base, Err: errPatternEscape}
	}
	return path.Join(dir, inside), nil
}

var errPatternEscape = fmt.Errorf("the pattern's directory is outside the search path: %w", fs.ErrInvalid)

// relativeTo returns name relative to dir (both sandbox names, name inside dir).
func relativeTo(dir, name string) string {
	if dir == "." {
		return name
	}
	return strings.TrimPrefix(strings.TrimPrefix(name, dir), "/")
}

// listing writes one line per item and a last line with the count, and note.
func listing(items []string, total int, what, narrow, note string) string {
	if total == 0 {
		return "[no " + what + note + "]"
	}
	var b strings.Builder
	for _, it := range items {
		b.WriteString(it)
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "[%d %s", total, what)
	if total > len(items) {
		fmt.Fprintf(&b, "; the first %d shown, %d more: %s", len(items), total-len(items), narrow)
	}
	b.WriteString(note + "]")
	return b.String()
}
