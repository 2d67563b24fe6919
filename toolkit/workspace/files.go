package workspace

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/internal/plural"
	"github.com/toolgen-go/toolgen/runtime"
)

// Limits of read_file and edit_file; the package doc states them for users.
const (
	maxPageBytes   = 48 << 10 // text read_file returns at most, line numbers included
	maxLineBytes   = 2000     // longer lines are cut
	countBudget    = 64 << 20 // bytes read past the page to count the file's lines
	binarySniff    = 8000     // bytes searched for NUL to tell a binary file (as git does)
	maxEditBytes   = 16 << 20 // largest file edit_file rewrites
	readBufferSize = 64 << 10
)

// ReadFileArgs are the arguments of read_file.
type ReadFileArgs struct {
	// Path of the file, relative to the workspace root, e.g. src/main.go.
	Path string `json:"path" tool:"minLength=1,maxLength=4096"`
	// Offset is the line to start at: 1 for the first line.
	Offset int `json:"offset,omitempty" tool:"default=1,minimum=1"`
	// Limit is the most lines to return.
	Limit int `json:"limit,omitempty" tool:"default=2000,minimum=1,maximum=2000"`
}

// ReadFile reads a text file of the workspace, a page of numbered lines at a time; the last
// line says which lines it shows, of how many, and how to read on.
//
// Each line starts with its number and a tab. Lines over 2000 bytes are cut, and a page
// holds at most 48 KiB. Binary files are refused with their size.
//
//tool:name read_file
//tool:hints readonly,idempotent
//tool:maxresult 64KiB
//tool:example "Read a file" {"path":"go.mod"}
//tool:example "Read lines 200 to 299" {"path":"src/main.go","offset":200,"limit":100}
func (w *Workspace) ReadFile(ctx context.Context, args ReadFileArgs) (string, error) {
	f, name, err := w.open(ctx, args.Path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", fileError(ctx, args.Path, err)
	}
	if info.IsDir() {
		return "", modelError(runtime.KindInvalidInput, nil, "%s is a directory%s", args.Path, toolHint(ctx, "list_dir", "%s lists it"))
	}
	return readPage(ctx, f, name, info.Size(), args.Offset, args.Limit)
}

// readPage formats lines offset to offset+limit-1 of f, streaming: it holds one buffer and
// the page, never the file.
func readPage(ctx context.Context, f io.Reader, name string, size int64, offset, limit int) (string, error) {
	r := bufio.NewReaderSize(f, readBufferSize)
	head, _ := r.Peek(binarySniff)
	if bytes.IndexByte(head, 0) >= 0 {
		return "", modelError(runtime.KindInvalidInput, nil, "%s is a binary file (%s)%s", name, plural.Of(size, "byte"), toolHint(ctx, "read_file", "%s reads text only"))
	}
	if size == 0 && len(head) == 0 {
		return fmt.Sprintf("[%s is empty]", name), nil
	}
	var page strings.Builder
	line, last := 0, 0
	for {
		if line%1024 == 0 && ctx.Err() != nil {
			return "", ctx.Err()
		}
		text, cut, err := readLine(r)
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", fileError(ctx, name, err)
		}
		line++
		if line < offset {
			continue
		}
		if line >= offset+limit || last >= offset && page.Len()+len(text)+16 > maxPageBytes {
			break // the line read is not shown, but counted
		}
		fmt.Fprintf(&page, "%6d\t%s", line, strings.TrimRight(string(text), "\r\n"))
		if cut {
			page.WriteString(" […line cut at 2000 bytes]")
		}
		page.WriteByte('\n')
		last = line
	}
	total, exact, err := countLines(ctx, r, line)
	if err != nil {
		return "", fileError(ctx, name, err)
	}
	if last == 0 {
		return "", modelError(runtime.KindInvalidInput, nil, "%s has %s %s; offset %d is past its end", name, about(total, exact), plural.Noun(total, "line"), offset)
	}
	fmt.Fprintf(&page, "[%s: lines %d-%d of %s", name, offset, last, about(total, exact))
	if last < total || !exact {
		page.WriteString(toolHint(ctx, "read_file", fmt.Sprintf("%%s with offset=%d reads on", last+1)))
	}
	page.WriteString("]")
	return page.String(), nil
}

// readLine returns the next line (at most maxLineBytes of it, cut at a character boundary),
// whether it was cut, and io.EOF after the last line. A long line is skipped through, not
// held.
func readLine(r *bufio.Reader) (text []byte, cut bool, err error) {
	text, err = r.ReadSlice('\n')
	if err == nil || err == io.EOF && len(text) > 0 {
		if len(text) <= maxLineBytes {
			return text, false, nil
		}
		return cutText(text), true, nil
	}
	if err != bufio.ErrBufferFull {
		return nil, false, err
	}
	kept := cutText(text) // copy before the buffer moves on
	for err == bufio.ErrBufferFull {
		_, err = r.ReadSlice('\n')
	}
	if err != nil && err != io.EOF {
		return nil, false, err
	}
	return kept, true, nil
}

func cutText(text []byte) []byte {
	n := min(len(text), maxLineBytes)
	for n > 0 && n < len(text) && !utf8.RuneStart(text[n]) {
		n--
	}
	return append([]byte(nil), text[:n]...)
}

// countLines counts the lines left in r, added to seen, reading at most countBudget bytes;
// exact is false when it stopped there.
func countLines(ctx context.Context, r *bufio.Reader, seen int) (total int, exact bool, err error) {
	buf := make([]byte, readBufferSize)
	var read int64
	lastNewline := true
	for read < countBudget {
		if ctx.Err() != nil {
			return 0, false, ctx.Err()
		}
		n, err := r.Read(buf)
		if n > 0 {
			seen += bytes.Count(buf[:n], []byte{'\n'})
			lastNewline = buf[n-1] == '\n'
			read += int64(n)
		}
		if err == io.EOF {
			if !lastNewline {
				seen++ // a last line without a newline
			}
			return seen, true, nil
		}
		if err != nil {
			return 0, false, err
		}
	}
	return seen, false, nil
}

func about(n int, exact bool) string {
	if exact {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("more than %d", n)
}

// WriteFileArgs are the arguments of write_file.
type WriteFileArgs struct {
	// Path of the file, relative to the workspace root; missing directories are created.
	Path string `json:"path" tool:"minLength=1,maxLength=4096"`
	// Content is the whole new content of the file.
	Content string `json:"content"`
}

// WriteFile creates a file in the workspace, or replaces its whole content, creating missing
// directories. To change a part of a file, use edit_file.
//
// The file is replaced atomically: a reader sees the old content or the new, never a mix.
//
//tool:name write_file
//tool:hints destructive
//tool:confirm creates or replaces a file in the workspace
//tool:risk medium
//tool:sequential
//tool:example "Create a file" {"path":"notes/todo.md","content":"- write tests\n"}
func (w *Workspace) WriteFile(ctx context.Context, args WriteFileArgs) (string, error) {
	sb, name, err := w.resolve(ctx, args.Path)
	if err != nil {
		return "", err
	}
	verb := "created"
	if _, err := sb.Stat(name); err == nil {
		verb = "replaced"
	}
	if err := sb.WriteFile(ctx, name, []byte(args.Content)); err != nil {
		return "", fileError(ctx, args.Path, err)
	}
	return fmt.Sprintf("%s %s (%s, %s)", verb, name, plural.Of(len(args.Content), "byte"), plural.Of(lineCount(args.Content), "line")), nil
}

func lineCount(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// EditFileArgs are the arguments of edit_file.
type EditFileArgs struct {
	// Path of the file, relative to the workspace root.
	Path string `json:"path" tool:"minLength=1,maxLength=4096"`
	// OldString is the exact text to replace, as the file holds it (without read_file's line
	// numbers), with enough lines around it to occur only once.
	OldString string `json:"old_string" tool:"minLength=1"`
	// NewString replaces it.
	NewString string `json:"new_string"`
	// ReplaceAll replaces every occurrence instead of requiring exactly one.
	ReplaceAll bool `json:"replace_all,omitempty" tool:"default=false"`
}

// EditFile replaces old_string with new_string in a file of the workspace; old_string must
// occur exactly once unless replace_all is set. The result shows the changed lines.
//
// When old_string is not found, the error names the closest lines; when it occurs several
// times, their line numbers.
//
//tool:name edit_file
//tool:hints destructive
//tool:confirm changes a file in the workspace
//tool:risk medium
//tool:sequential
//tool:related read_file use first
//tool:example "Rename a call" {"path":"main.go","old_string":"fmt.Println(greeting)","new_string":"log.Println(greeting)"}
func (w *Workspace) EditFile(ctx context.Context, args EditFileArgs) (string, error) {
	sb, name, err := w.resolve(ctx, args.Path)
	if err != nil {
		return "", err
	}
	content, err := readSmall(sb, name, maxEditBytes)
	if err != nil {
		return "", fileError(ctx, args.Path, err)
	}
	edited, changed, err := replace(ctx, name, string(content), args.OldString, args.NewString, args.ReplaceAll)
	if err != nil {
		return "", err
	}
	if err := sb.WriteFile(ctx, name, []byte(edited)); err != nil {
		return "", fileError(ctx, args.Path, err)
	}
	return changed, nil
}

// readSmall reads a whole file of at most max bytes.
func readSmall(fsys fs.FS, name string, max int64) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errIsDirectory}
	}
	if info.Size() > max {
		return nil, modelError(runtime.KindLimit, nil, "%s is %d bytes, over the %d this tool handles", name, info.Size(), max)
	}
	// Sized from the file, so that a large file is read into one buffer, not grown into one.
	var buf bytes.Buffer
	buf.Grow(int(info.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(f, max+1)); err != nil {
		return nil, err
	}
	if int64(buf.Len()) > max { // it grew since the Stat
		return nil, modelError(runtime.KindLimit, nil, "%s is over the %d bytes this tool handles", name, max)
	}
	return buf.Bytes(), nil
}
