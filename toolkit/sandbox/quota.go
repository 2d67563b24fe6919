package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
)

// DefaultWriteQuota is how many bytes WriteFile may add to a sandbox in all, unless its
// options say otherwise (see quota).
const DefaultWriteQuota = 1 << 30

// entryCost is what a file or directory WriteFile creates counts besides its content: the
// disk gives each a block and an inode, so a million empty files are not free.
const entryCost = 4 << 10

// ErrQuota is the error of a write the sandbox's write quota refuses; the error is a
// *QuotaError.
var ErrQuota = errors.New("the workspace's write quota is used up")

// QuotaError is the error of a write past a sandbox's write quota. Its text names no path.
type QuotaError struct {
	Limit int64 // the quota
	Used  int64 // counted before this write
	Need  int64 // what this write would add
}

func (e *QuotaError) Error() string {
	return fmt.Sprintf("the write would add %d bytes to the workspace, and its write quota of %d bytes has %d left", e.Need, e.Limit, max(e.Limit-e.Used, 0))
}

func (e *QuotaError) Is(target error) bool { return target == ErrQuota }

// quota counts what WriteFile adds to a sandbox, from the moment it is opened: a write counts
// the size of its data minus the size of the file it replaces (a new file replaces nothing,
// and a smaller one gives bytes back), plus entryCost for each file and directory it creates.
// Temporary files are not counted (they exist during a write), nor is what commands write.
// Its owner holds a lock around check and add.
type quota struct {
	limit int64 // < 0: none
	used  int64
}

// newQuota returns the quota of an option: 0 means DefaultWriteQuota, < 0 none.
func newQuota(option int64) quota {
	if option == 0 {
		option = DefaultWriteQuota
	}
	return quota{limit: option}
}

// check refuses adding need bytes when that passes the limit; a write that adds nothing
// (or gives back) always passes.
func (q *quota) check(need int64) error {
	if q.limit < 0 || need <= 0 || q.used+need <= q.limit {
		return nil
	}
	return &QuotaError{Limit: q.limit, Used: q.used, Need: need}
}

func (q *quota) add(n int64) { q.used += n }

// missingDirs counts the directories of dir (a slash-terminated name, or "") that do not
// exist in fsys, from the deepest up to the first that does.
func missingDirs(fsys fs.StatFS, dir string) int64 {
	n := int64(0)
	for d := path.Clean(dir); d != "." && d != "/"; d = path.Dir(d) {
		if _, err := fsys.Stat(d); err == nil {
			break
		}
		n++
	}
	return n
}
