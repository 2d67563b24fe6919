package workspace

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"regexp/syntax"
	"slices"
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
	maxGrepOutput    = 1 << 20  // text shown, in all and of one file; past it matches are counted
	// grepWork bounds the regexp work between two looks at the call's ctx: bytes matched
	// times the instructions of the pattern's program, which bounds what RE2 spends on
	// them (about 30 ns each at worst here: some 0.1 s).
	grepWork = 1 << 22
	// maxGrepBlock is the most bytes of lines matched between two looks at the ctx, however
	// small the program.
	maxGrepBlock = 1 << 20
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
		return "", fileError(ctx, args.Path, err)
	}
	return g.report(), nil
}

type grep struct {
	args     GrepArgs
	line     *regexp.Regexp // matched against one line
	anyLine  *regexp.Regexp // the same for a block of lines, to skip blocks with no match fast; nil: none
	block    int            // bytes of lines matched between two looks at the ctx (grepWork)
	glob     *regexp.Regexp // nil: every file
	globPath bool           // the glob has a "/": match it against the path, not the name
	out      strings.Builder
	shown    int
	total    int
	files    int
	skipped  int  // large files not searched
	deep     int  // directories too deep to walk
	full     bool // the output reached maxGrepOutput: the rest is counted
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
	g := &grep{
		args:     args,
		line:     line,
		anyLine:  blockRegexp(expr),
		block:    max(1, min(maxGrepBlock, grepWork/programSize(expr))),
		globPath: strings.Contains(args.Glob, "/"),
	}
	if args.Glob != "" {
		if g.glob, err = globRegexp("glob", args.Glob); err != nil {
			return nil, err
		}
	}
	return g, nil
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
	blocks  []matchBlock // one per matching line, at most max_results and about maxGrepOutput
	matches int          // every matching line
	tooBig  bool
	err     error // the call's ctx ended while the file was searched
	done    chan struct{}
}

// matchBlock is a matching line as shown: the context before it, the line, the context after.
type matchBlock struct {
	text     string
	separate bool // not adjacent to the block before it in the file: a "--" goes between
}

// search greps the file or the tree at start, in walk order.
func (g *grep) search(ctx context.Context, sb sandbox.Sandbox, start string) error {
	g.root = start
	jobs := make(chan *fileMatches)
	order := make(chan *fileMatches, grepWindow)
	var workers sync.WaitGroup
	for range grepWorkers {
		workers.Go(func() {
			var buf []byte // reused from file to file
			for fm := range jobs {
				g.file(ctx, sb, fm, &buf)
				close(fm.done)
			}
		})
	}
	merged := make(chan struct{})
	var stopped error // a file's search ended by ctx, as the merge found it
	go func() {
		defer close(merged)
		for fm := range order {
			<-fm.done
			if fm.err != nil {
				stopped = fm.err
			}
			g.merge(fm)
		}
	}()
	deep, err := walk(ctx, sb, start, func(name string, typ fs.FileMode) error {
		if typ.IsDir() {
			if path.Base(name) == ".git" && name != start {
				return fs.SkipDir
			}
			return nil
		}
		if !typ.IsRegular() || name != start && !g.globMatches(name, path.Base(name)) {
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
	g.deep = deep
	if err == nil {
		err = stopped
	}
	return err
}

func (g *grep) globMatches(name, base string) bool {
	switch {
	case g.glob == nil:
		return true
	case g.globPath:
		return g.glob.MatchString(relativeTo(g.root, name))
	}
	return g.glob.MatchString(base)
}

// blockRegexp returns the regexp expr (valid) for a block of whole lines: one that matches
// the block wherever expr matches one of its lines (taken without their "\n"), so that a
// block it does not match can be skipped. \A and \z, and ^ and $ without (?m), are made line
// anchors; a block with a "\r" is not skipped (a line is matched without its "\r\n", so $
// matches before the "\r"). Nil when the result does not compile.
func blockRegexp(expr string) *regexp.Regexp {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	var lineAnchors func(re *syntax.Regexp)
	lineAnchors = func(re *syntax.Regexp) {
		switch re.Op {
		case syntax.OpBeginText:
			re.Op = syntax.OpBeginLine
		case syntax.OpEndText:
			re.Op, re.Flags = syntax.OpEndLine, re.Flags&^syntax.WasDollar
		}
		for _, sub := range re.Sub {
			lineAnchors(sub)
		}
	}
	lineAnchors(re)
	block, err := regexp.Compile(re.String())
	if err != nil {
		return nil
	}
	return block
}

// programSize returns the instructions of expr's (valid) program: what matching a byte
// costs RE2 at most, give or take a constant.
func programSize(expr string) int {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return grepWork
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return grepWork
	}
	return max(1, len(prog.Inst))
}

// blockEnd returns the end of the first block of data: its whole lines up to n bytes, or
// its first line when that is longer.
func blockEnd(data []byte, n int) int {
	if len(data) <= n {
		return len(data)
	}
	if i := bytes.LastIndexByte(data[:n], '\n'); i >= 0 {
		return i + 1
	}
	if i := bytes.IndexByte(data[n:], '\n'); i >= 0 {
		return n + i + 1
	}
	return len(data)
}

// matchLong reports whether a line longer than a block matches. It is matched through a
// reader that looks at the ctx every block's worth of characters (RE2 reads a character a
// step), so a 16 MiB line under a large program stops soon after the ctx ends.
func (g *grep) matchLong(ctx context.Context, l []byte) (bool, error) {
	r := ctxRunes{Reader: bytes.NewReader(l), ctx: ctx, every: g.block}
	matched := g.line.MatchReader(&r)
	if r.stopped {
		return false, ctx.Err()
	}
	return matched, nil
}

// ctxRunes reads runes until the ctx ends, then reports the end of the input.
type ctxRunes struct {
	*bytes.Reader
	ctx     context.Context
	every   int // runes between two looks at the ctx
	n       int
	stopped bool
}

func (r *ctxRunes) ReadRune() (rune, int, error) {
	if r.stopped {
		return 0, 0, io.EOF
	}
	if r.n++; r.n >= r.every {
		r.n = 0
		if r.ctx.Err() != nil {
			r.stopped = true
			return 0, 0, io.EOF
		}
	}
	return r.Reader.ReadRune()
}

// lastLines returns before with the lines of block (as the loop trims them) appended, at
// most the last n.
func lastLines(before [][]byte, block []byte, n int) [][]byte {
	var tail [][]byte
	end := len(block)
	if end > 0 && block[end-1] == '\n' {
		end--
	}
	for len(tail) < n {
		start := bytes.LastIndexByte(block[:end], '\n') + 1
		tail = append(tail, bytes.TrimRight(block[start:end], "\r\n"))
		if start == 0 {
			break
		}
		end = start - 1
	}
	slices.Reverse(tail)
	before = append(before, tail...)
	return append(before[:0], before[max(0, len(before)-n):]...)
}

// file greps one file into fm; files it cannot read are skipped silently, as grep -s does.
// It reads the file whole into *buf (one per worker, reused), but goes through its lines one
// at a time, keeping only the blocks it may show and the context lines before the current
// line: a file of millions of lines costs its bytes, not an entry per line. It goes through
// the lines in blocks of g.block bytes, looking at the ctx before each, and skips a block
// anyLine does not match (a long line is a block of its own, matched by matchLong).
func (g *grep) file(ctx context.Context, fsys fs.FS, fm *fileMatches, buf *[]byte) {
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
	if err != nil || bytes.IndexByte(data[:min(len(data), binarySniff)], 0) >= 0 {
		return
	}
	var (
		before    = make([][]byte, 0, g.args.Context) // the lines before the current one, at most Context
		block     strings.Builder                     // the block being written
		separate  bool                                // the block is not adjacent to the one before
		after     int                                 // context lines still to write after a match
		lastShown = -1                                // index of the last line written
		kept      int                                 // bytes of the blocks kept
		keep      = true                              // blocks are still kept
	)
	flush := func() {
		if block.Len() > 0 {
			kept += block.Len()
			fm.blocks = append(fm.blocks, matchBlock{text: block.String(), separate: separate})
			block.Reset()
			keep = len(fm.blocks) < g.args.MaxResults && kept < maxGrepOutput
		}
	}
	i := 0 // index of the line
	for rest := data; len(rest) > 0; {
		if err := ctx.Err(); err != nil {
			fm.err = err
			return
		}
		blockLines := rest[:blockEnd(rest, g.block)]
		rest = rest[len(blockLines):]
		if after == 0 && len(blockLines) <= g.block && g.anyLine != nil &&
			bytes.IndexByte(blockLines, '\r') < 0 && !g.anyLine.Match(blockLines) {
			i += bytes.Count(blockLines, []byte{'\n'})
			if blockLines[len(blockLines)-1] != '\n' {
				i++
			}
			if g.args.Context > 0 {
				before = lastLines(before, blockLines, g.args.Context)
			}
			continue
		}
		for l := range bytes.Lines(blockLines) {
			l = bytes.TrimRight(l, "\r\n")
			var matched bool
			if len(l) <= g.block {
				matched = g.line.Match(l)
			} else if matched, err = g.matchLong(ctx, l); err != nil {
				fm.err = err
				return
			}
			switch {
			case matched:
				fm.matches++
				after = 0
				if !keep {
					break
				}
				flush()
				if !keep {
					break
				}
				from := max(i-len(before), lastShown+1)
				for j := from; j < i; j++ {
					writeLine(&block, fm.name, j, "-", before[len(before)-(i-j)])
				}
				writeLine(&block, fm.name, i, ":", l)
				separate = lastShown >= 0 && from > lastShown+1
				lastShown, after = i, g.args.Context
			case after > 0:
				writeLine(&block, fm.name, i, "-", l) // up to the next match, which writes itself
				lastShown = i
				after--
			}
			if g.args.Context > 0 {
				if len(before) == g.args.Context {
					before = append(before[:0], before[1:]...)
				}
				before = append(before, l)
			}
			i++
		}
	}
	flush()
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
		if g.shown >= g.args.MaxResults || g.full {
			return
		}
		g.full = g.out.Len()+len(b.text) > maxGrepOutput
		if g.full {
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
	switch {
	case g.full:
		fmt.Fprintf(&g.out, "; the first %d shown (1 MiB of text), %d more: narrow the pattern, path or glob", g.shown, g.total-g.shown)
	case g.total > g.shown:
		fmt.Fprintf(&g.out, "; the first %d shown, %d more: narrow the pattern, path or glob, or raise max_results", g.shown, g.total-g.shown)
	}
	g.out.WriteString(g.skippedNote() + "]")
	return g.out.String()
}

func (g *grep) skippedNote() string {
	note := deepNote(g.deep)
	if g.skipped > 0 {
		note = "; " + plural.Of(g.skipped, "file") + " over 16 MiB not searched" + note
	}
	return note
}
