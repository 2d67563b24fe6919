package workspace

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/toolgen-go/toolgen/internal/plural"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
)

// Limits of grep; the package doc states them.
const (
	maxGrepFileBytes = 16 << 20 // larger files are skipped, and counted
	maxGrepLineBytes = 300      // longer lines are cut in the output
)

// GrepArgs are the arguments of grep.
type GrepArgs struct {
	// Pattern is a regular expression in RE2 syntax (as Go's regexp), matched against each
	// line, e.g. func \w+Handler or TODO|FIXME.
	Pattern string `json:"pattern" tool:"minLength=1,maxLength=1024"`
	// Path of the file or directory to search, relative to the workspace root.
	Path string `json:"path,omitempty" tool:"default=.,maxLength=4096"`
	// Glob keeps only files matching it: a pattern without / is matched against file names
	// (*.go, *.{ts,tsx}), one with / against paths relative to path.
	Glob string `json:"glob,omitempty" tool:"default='',maxLength=1024"`
	// CaseInsensitive ignores the case of letters.
	CaseInsensitive bool `json:"case_insensitive,omitempty" tool:"default=false"`
	// Context is the number of lines shown before and after each matching line.
	Context int `json:"context,omitempty" tool:"default=0,minimum=0,maximum=20"`
	// MaxResults is the most matching lines shown; the rest are counted.
	MaxResults int `json:"max_results,omitempty" tool:"default=100,minimum=1,maximum=1000"`
}

// Grep searches the workspace's files for lines matching an RE2 regular expression, shown as
// file:line: text, files sorted, at most max_results. Skips binary files and .git.
//
// Context lines are shown as file-line- text, and groups are separated by --. The last line
// counts the matching lines not shown. Files over 16 MiB are skipped and counted.
//
//tool:name grep
//tool:hints readonly,idempotent
//tool:maxresult 64KiB
//tool:example "Find a function's callers" {"pattern":"ParseConfig\\(","glob":"*.go"}
//tool:example "TODOs with context" {"pattern":"TODO","path":"src","context":2,"case_insensitive":true}
func (w *Workspace) Grep(ctx context.Context, args GrepArgs) (string, error) {
	sb, start, err := w.resolve(ctx, args.Path)
	if err != nil {
		return "", err
	}
	g, err := newGrep(args)
	if err != nil {
		return "", err
	}
	if err := g.search(ctx, sb, start); err != nil {
		return "", fileError(args.Path, err)
	}
	return g.report(), nil
}

type grep struct {
	args     GrepArgs
	line     *regexp.Regexp // matched against one line
	anyLine  *regexp.Regexp // the same in multi-line mode, to skip files with no match fast
	glob     string
	globPath bool // the glob has a "/": match it against the path, not the name
	out      strings.Builder
	shown    int
	total    int
	files    int
	skipped  int // large files not searched
	root     string
}

func newGrep(args GrepArgs) (*grep, error) {
	expr := args.Pattern
	if args.CaseInsensitive {
		expr = "(?i)" + expr
	}
	line, err := regexp.Compile(expr)
	if err != nil {
		return nil, modelError(runtime.KindInvalidInput, err, "pattern %q is not a valid RE2 regular expression: %v", args.Pattern, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	if args.Glob != "" && !doublestar.ValidatePattern(args.Glob) {
		return nil, modelError(runtime.KindInvalidInput, nil, "glob %q is not a valid pattern: check its brackets and braces", args.Glob)
	}
	anyLine, err := regexp.Compile("(?m:" + expr + ")")
	if err != nil { // one group deeper than RE2 allows
		return nil, modelError(runtime.KindInvalidInput, err, "pattern %q is nested too deeply", args.Pattern)
	}
	return &grep{
		args:     args,
		line:     line,
		anyLine:  anyLine,
		glob:     args.Glob,
		globPath: strings.Contains(args.Glob, "/"),
	}, nil
}

// Files are grepped by a few workers at once (the work is mostly system calls, which overlap
// even on few cores), and merged in walk order; at most grepWindow files are in flight, so
// memory stays bounded by the window, not the tree.
const (
	grepWorkers = 4
	grepWindow  = 16
)

// fileMatches is what grepping one file found.
type fileMatches struct {
	name    string
	blocks  []matchBlock // one per matching line, at most max_results
	matches int          // every matching line
	tooBig  bool
	done    chan struct{}
}

// matchBlock is a matching line as shown: the context before it, the line, the context after.
type matchBlock struct {
	text     string
	separate bool // not adjacent to the block before it in the file: a "--" goes between
}

// search greps the file or the tree at start, in sorted order.
func (g *grep) search(ctx context.Context, sb sandbox.Sandbox, start string) error {
	g.root = start
	jobs := make(chan *fileMatches)
	order := make(chan *fileMatches, grepWindow)
	var workers sync.WaitGroup
	for range grepWorkers {
		workers.Go(func() {
			var buf []byte // reused from file to file
			for fm := range jobs {
				g.file(sb, fm, &buf)
				close(fm.done)
			}
		})
	}
	merged := make(chan struct{})
	go func() {
		defer close(merged)
		for fm := range order {
			<-fm.done
			g.merge(fm)
		}
	}()
	err := fs.WalkDir(sb, start, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			if name == start {
				return err
			}
			return nil // unreadable below the start: skipped, as grep -s does
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if d.IsDir() {
			if d.Name() == ".git" && name != start {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || name != start && !g.globMatches(name, d.Name()) {
			return nil
		}
		fm := &fileMatches{name: name, done: make(chan struct{})}
		order <- fm
		jobs <- fm
		return nil
	})
	close(jobs)
	close(order)
	workers.Wait()
	<-merged
	return err
}

func (g *grep) globMatches(name, base string) bool {
	switch {
	case g.glob == "":
		return true
	case g.globPath:
		return doublestar.MatchUnvalidated(g.glob, relativeTo(g.root, name))
	}
	return doublestar.MatchUnvalidated(g.glob, base)
}

// file greps one file into fm; files it cannot read are skipped silently, as grep -s does.
func (g *grep) file(fsys fs.FS, fm *fileMatches, buf *[]byte) {
	f, err := fsys.Open(fm.name)
	if err != nil {
		return
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return
	}
	if info.Size() > maxGrepFileBytes {
		fm.tooBig = true
		return
	}
	data, err := readAll(f, info.Size(), buf)
	if err != nil || bytes.IndexByte(data[:min(len(data), binarySniff)], 0) >= 0 || !g.anyLine.Match(data) {
		return
	}
	var lines [][]byte
	for l := range bytes.Lines(data) {
		lines = append(lines, bytes.TrimRight(l, "\r\n"))
	}
	lastShown := -1 // index of the last line written, for context and separators
	for i, l := range lines {
		if !g.line.Match(l) {
			continue
		}
		fm.matches++
		if len(fm.blocks) >= g.args.MaxResults {
			continue
		}
		var b strings.Builder
		from := max(i-g.args.Context, lastShown+1)
		for j := from; j < i; j++ {
			writeLine(&b, fm.name, j, "-", lines[j])
		}
		writeLine(&b, fm.name, i, ":", l)
		separate := lastShown >= 0 && from > lastShown+1
		lastShown = i
		for j := i + 1; j <= min(i+g.args.Context, len(lines)-1) && !g.line.Match(lines[j]); j++ {
			writeLine(&b, fm.name, j, "-", lines[j]) // up to the next match, which writes itself
			lastShown = j
		}
		fm.blocks = append(fm.blocks, matchBlock{text: b.String(), separate: separate})
	}
}

// merge adds a file's matches to the output, in walk order, up to max_results lines.
func (g *grep) merge(fm *fileMatches) {
	if fm.tooBig {
		g.skipped++
	}
	if fm.matches == 0 {
		return
	}
	g.files++
	g.total += fm.matches
	for i, b := range fm.blocks {
		if g.shown >= g.args.MaxResults {
			return
		}
		g.shown++
		if g.args.Context > 0 && g.out.Len() > 0 && (i == 0 || b.separate) {
			g.out.WriteString("--\n")
		}
		g.out.WriteString(b.text)
	}
}

func writeLine(b *strings.Builder, name string, i int, sep string, line []byte) {
	fmt.Fprintf(b, "%s%s%d%s %s\n", name, sep, i+1, sep, shorten(string(line), maxGrepLineBytes))
}

// readAll reads the size bytes a file had when it was opened into *buf, reused from file to
// file. It stops there without asking for the end of the file (a system call per file).
func readAll(r io.Reader, size int64, buf *[]byte) ([]byte, error) {
	if int64(cap(*buf)) < size {
		*buf = make([]byte, size)
	}
	b := (*buf)[:size]
	n, err := io.ReadFull(r, b)
	if err == io.ErrUnexpectedEOF { // shrunk since it was opened
		err = nil
	}
	return b[:n], err
}

func (g *grep) report() string {
	if g.total == 0 {
		return fmt.Sprintf("[no lines match %s%s]", g.args.Pattern, g.skippedNote())
	}
	fmt.Fprintf(&g.out, "[%s in %s", plural.Of(g.total, "matching line"), plural.Of(g.files, "file"))
	if g.total > g.shown {
		fmt.Fprintf(&g.out, "; the first %d shown, %d more: narrow the pattern, path or glob, or raise max_results", g.shown, g.total-g.shown)
	}
	g.out.WriteString(g.skippedNote() + "]")
	return g.out.String()
}

func (g *grep) skippedNote() string {
	if g.skipped == 0 {
		return ""
	}
	return "; " + plural.Of(g.skipped, "file") + " over 16 MiB not searched"
}
