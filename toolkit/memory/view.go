package memory

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
)

const (
	maxListed = 500      // entries a directory listing shows
	maxShown  = 64 << 10 // bytes of numbered lines memory_view shows (short lines number to more than the file)
)

func (s *scope) view(name string, viewRange []int) (string, error) {
	info, err := s.lstat(name)
	if err != nil {
		return "", err
	}
	if info.IsDir() {
		return s.list(name)
	}
	text, _, err := s.read(name)
	if err != nil {
		return "", err
	}
	return numbered(name, text, viewRange)
}

// list shows the directory name two levels deep, with sizes, dot-names left out.
func (s *scope) list(name string) (string, error) {
	var b strings.Builder
	shownCount, more := 0, 0
	err := fs.WalkDir(s.root.FS(), name, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable entries are left out, not fatal
		}
		if p != name && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		depth := 0
		if p != name {
			depth = strings.Count(strings.TrimPrefix(p, name+"/"), "/") + 1
			if name == "." {
				depth = strings.Count(p, "/") + 1
			}
		}
		if shownCount >= maxListed {
			more++
			if more > 10*maxListed {
				return fs.SkipAll // a directory the host filled costs no more than this
			}
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		size := int64(0)
		if info, err := d.Info(); err == nil && !d.IsDir() {
			size = info.Size()
		}
		suffix := ""
		if d.IsDir() {
			suffix = "/"
		}
		fmt.Fprintf(&b, "%s\t%s%s\n", humanSize(size, d.IsDir()), shown(p), suffix)
		shownCount++
		if d.IsDir() && depth >= 2 {
			return fs.SkipDir
		}
		return nil
	})
	if err != nil {
		return "", fileError(name, err)
	}
	if shownCount == 1 {
		return fmt.Sprintf("%s is empty: nothing has been recorded yet.", shown(name)), nil
	}
	if more > 0 {
		fmt.Fprintf(&b, "[%d more entries not shown; view a subdirectory]\n", more)
	}
	return fmt.Sprintf("The files and directories up to 2 levels deep in %s, with sizes:\n%s", shown(name), b.String()), nil
}

func humanSize(n int64, dir bool) string {
	switch {
	case dir:
		return "-"
	case n < 1024:
		return fmt.Sprintf("%dB", n)
	default:
		return fmt.Sprintf("%.1fK", float64(n)/1024)
	}
}

// numbered shows the lines of text in viewRange ([first, last], last -1 for the end), each
// after its number and a tab.
func numbered(name, text string, viewRange []int) (string, error) {
	if text == "" {
		return fmt.Sprintf("%s is empty.", shown(name)), nil
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	first, last := 1, len(lines)
	if len(viewRange) == 2 {
		first, last = viewRange[0], viewRange[1]
		if last == -1 {
			last = len(lines)
		}
		if first < 1 || first > len(lines) || last < first || last > len(lines) {
			return "", runtime.ModelErrorf(runtime.KindInvalidInput,
				"view_range %v is not within %s, which has %d lines: use [first, last] with 1 <= first <= last <= %d, or last -1 for the end", viewRange, shown(name), len(lines), len(lines))
		}
	}
	var b strings.Builder
	for i := first; i <= last; i++ {
		if b.Len() > maxShown {
			fmt.Fprintf(&b, "[lines %d-%d not shown: view_range [%d, -1] shows them]\n", i, last, i)
			break
		}
		fmt.Fprintf(&b, "%6d\t%s\n", i, strings.TrimRight(lines[i-1], "\r\n"))
	}
	return b.String(), nil
}

// replaceOnce replaces the one occurrence of oldStr in the file name's text.
func replaceOnce(p, text string, exists bool, oldStr, newStr string) (string, error) {
	if !exists {
		return "", runtime.ModelErrorf(runtime.KindNotFound, "%s does not exist; memory_create writes a new file", p)
	}
	switch n := strings.Count(text, oldStr); n {
	case 1:
		return strings.Replace(text, oldStr, newStr, 1), nil
	case 0:
		return "", runtime.ModelErrorf(runtime.KindInvalidInput, "old_str does not occur in %s; memory_view it to see its text as it is now", p)
	default:
		return "", runtime.ModelErrorf(runtime.KindInvalidInput, "old_str occurs %d times in %s; include more of the surrounding text so it occurs once", n, p)
	}
}

// insertAfter inserts insertText after line insertLine (0: before the first).
func insertAfter(p, text string, exists bool, insertLine int, insertText string) (string, error) {
	if !exists {
		return "", runtime.ModelErrorf(runtime.KindNotFound, "%s does not exist; memory_create writes a new file", p)
	}
	if !strings.HasSuffix(insertText, "\n") {
		insertText += "\n"
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if insertLine > len(lines) {
		return "", runtime.ModelErrorf(runtime.KindInvalidInput, "insert_line %d is past the end of %s, which has %d lines", insertLine, p, len(lines))
	}
	if insertLine > 0 && !strings.HasSuffix(lines[insertLine-1], "\n") {
		lines[insertLine-1] += "\n"
	}
	head := strings.Join(lines[:insertLine], "")
	return head + insertText + strings.Join(lines[insertLine:], ""), nil
}
