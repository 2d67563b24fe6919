// Package memory gives a model a directory of notes that outlives its context window: the
// shape of Anthropic's memory tool (view, create, str_replace, insert, delete, rename over
// /memories), as six tools written with //tool: directives.
//
//   - memory_view {path, view_range} lists a directory (two levels, with sizes) or shows a
//     file's numbered lines.
//   - memory_create {path, file_text} writes a file whole, creating its directories.
//   - memory_str_replace {path, old_str, new_str} replaces text that occurs exactly once.
//   - memory_insert {path, insert_line, insert_text} inserts text after a line (0: at the top).
//   - memory_delete {path} deletes a file or a directory.
//   - memory_rename {old_path, new_path} renames or moves one.
//
// [Anthropic.Tools] serves the same six commands as one tool named memory whose input is that
// of Anthropic's memory tool ({command, path, …}), for a host that declares Anthropic's own
// tool to the model; register one form or the other.
//
// The model names files as /memories/notes.md (or notes.md); /memories is the root of the
// caller's scope. Each scope is a subdirectory of the host's memory directory, named by
// [Toolkit.Scope] from the call's context: [PerSession] (the default) gives each
// conversation its own memory, a function reading the user from runtime.CallInfo.UserData
// gives each user one shared by their conversations.
//
// Files go through an os.Root opened on the scope's directory, so "..", absolute names and
// symbolic links that lead out of the scope (into another scope as well as out of the memory
// directory) are refused, even when swapped in between a check and the use. Names starting
// with a dot are refused: they are where writes are staged. Each scope is bounded:
// [Toolkit.MaxFileSize] per file, [Toolkit.MaxTotalSize] and [Toolkit.MaxFiles] in all; a
// write past a bound fails, changes nothing and says what to clean up. Writes are atomic (a
// temporary file renamed over the old one). memory_delete asks no approval: it deletes only
// the model's own notes (a host wanting one adds an approver for it). Tools of one scope run one after another
// (//tool:sequential, and a lock per toolkit around writes), so a bound checked is a bound
// kept.
//
//	mem, err := memory.Open("/var/lib/agent/memory")
//	reg.Add(mem.Tools()...)
package memory

//go:generate go tool toolgen

import (
	"context"
	"fmt"
	"os"
	"path"
	"strings"
	"sync"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
)

// Defaults of the bounds.
const (
	DefaultMaxFileSize  = 64 << 10
	DefaultMaxTotalSize = 4 << 20
	DefaultMaxFiles     = 200
)

// Prefix is the directory the model sees its memory as.
const Prefix = "/memories"

// Toolkit is a memory directory of the host and the bounds of each scope in it.
type Toolkit struct {
	// Scope names the subdirectory of the call's memory; nil means PerSession. A name that
	// is not a plain file name (letters, digits, '-', '_', '.', at most 100 bytes, not
	// starting with a dot) is hashed into one, so any user id works.
	Scope func(ctx context.Context) (string, error)
	// MaxFileSize is the largest file in bytes; 0 means DefaultMaxFileSize.
	MaxFileSize int64
	// MaxTotalSize bounds the bytes of all files of a scope; 0 means DefaultMaxTotalSize.
	MaxTotalSize int64
	// MaxFiles bounds the files of a scope; 0 means DefaultMaxFiles.
	MaxFiles int

	root *os.Root
	mu   sync.Mutex // serialises writes, so usage checked is usage kept
}

// Open returns a Toolkit over dir, which must exist. Close it when done.
func Open(dir string) (*Toolkit, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("memory: %w", err)
	}
	return &Toolkit{root: root}, nil
}

// Close closes the memory directory.
func (k *Toolkit) Close() error { return k.root.Close() }

// PerSession is the default Scope: the call's session (runtime.Call.Session). A call with no
// session is refused, since its memory would be shared with every other such call.
func PerSession(ctx context.Context) (string, error) {
	info, ok := runtime.CallInfoFrom(ctx)
	if !ok || info.Session == "" {
		return "", runtime.ModelErrorf(runtime.KindPermission, "memory is kept per conversation, and this call has no session: the host must set runtime.Call.Session")
	}
	return info.Session, nil
}

// ViewArgs are the arguments of memory_view.
type ViewArgs struct {
	// Path of a file or directory, e.g. /memories or /memories/progress.md.
	Path string `json:"path" tool:"minLength=1,maxLength=1024"`
	// ViewRange is [first, last] line of a file to show, 1-based; last -1 means the end.
	ViewRange []int `json:"view_range,omitempty" tool:"minItems=2,maxItems=2"`
}

// View shows your memory directory or one of its files. ALWAYS view /memories before
// anything else in a task: what you recorded earlier is there.
//
// Your context may have been reset since you last worked on the task. A directory is listed two levels deep with sizes; a file is shown as numbered lines.
//
//tool:name memory_view
//tool:hints readonly,idempotent
//tool:sequential
//tool:timeout 10s
//tool:maxresult 96KiB
//tool:example "Check memory first" {"path":"/memories"}
//tool:example "Lines 10 to 20 of a file" {"path":"/memories/progress.md","view_range":[10,20]}
func (k *Toolkit) View(ctx context.Context, args ViewArgs) (string, error) {
	s, name, err := k.open(ctx, args.Path)
	if err != nil {
		return "", err
	}
	defer s.Close()
	return s.view(name, args.ViewRange)
}

// CreateArgs are the arguments of memory_create.
type CreateArgs struct {
	// Path of the file, e.g. /memories/progress.md.
	Path string `json:"path" tool:"minLength=1,maxLength=1024"`
	// FileText is the whole content of the file.
	FileText string `json:"file_text"`
}

// Create writes a memory file whole, replacing it if it exists. Record progress and what
// you learn as you go, not at the end.
//
// Assume your context can be reset at any moment: only what is in /memories survives.

// Keep memory organised: a few topic files (progress.md, decisions.md, user_preferences.md)
// kept current beat many small ones; rewrite or delete what is outdated.
//
//tool:name memory_create
//tool:sequential
//tool:hints idempotent
//tool:timeout 10s
//tool:example "Record progress" {"path":"/memories/progress.md","file_text":"# Task: fix the login bug\n- [x] reproduced\n- [ ] write a failing test\n"}
func (k *Toolkit) Create(ctx context.Context, args CreateArgs) (string, error) {
	return k.write(ctx, args.Path, func(string, bool) (string, error) { return args.FileText, nil },
		"Wrote %s.")
}

// StrReplaceArgs are the arguments of memory_str_replace.
type StrReplaceArgs struct {
	// Path of the file.
	Path string `json:"path" tool:"minLength=1,maxLength=1024"`
	// OldStr is the text to replace; it must occur exactly once in the file.
	OldStr string `json:"old_str" tool:"minLength=1"`
	// NewStr replaces it; empty deletes it.
	NewStr string `json:"new_str"`
}

// StrReplace replaces text in a memory file, to update one fact or tick off a step
// without rewriting the file. The text must occur exactly once; include surrounding words
// to make it unique.
//
//tool:name memory_str_replace
//tool:sequential
//tool:timeout 10s
//tool:example "Tick off a step" {"path":"/memories/progress.md","old_str":"- [ ] write a failing test","new_str":"- [x] write a failing test"}
func (k *Toolkit) StrReplace(ctx context.Context, args StrReplaceArgs) (string, error) {
	return k.write(ctx, args.Path, func(old string, exists bool) (string, error) {
		return replaceOnce(args.Path, old, exists, args.OldStr, args.NewStr)
	}, "Replaced the text in %s.")
}

// InsertArgs are the arguments of memory_insert.
type InsertArgs struct {
	// Path of the file.
	Path string `json:"path" tool:"minLength=1,maxLength=1024"`
	// InsertLine is the line after which to insert: 0 inserts at the top.
	InsertLine int `json:"insert_line" tool:"minimum=0"`
	// InsertText is the text to insert; a line break is added at its end if missing.
	InsertText string `json:"insert_text" tool:"minLength=1"`
}

// Insert inserts text into a memory file after a given line, e.g. a new entry in a log.
//
//tool:name memory_insert
//tool:sequential
//tool:timeout 10s
//tool:example "Add a note at the top" {"path":"/memories/decisions.md","insert_line":0,"insert_text":"- Use PostgreSQL, not SQLite (the user asked)."}
func (k *Toolkit) Insert(ctx context.Context, args InsertArgs) (string, error) {
	return k.write(ctx, args.Path, func(old string, exists bool) (string, error) {
		return insertAfter(args.Path, old, exists, args.InsertLine, args.InsertText)
	}, "Inserted the text into %s.")
}

// DeleteArgs are the arguments of memory_delete.
type DeleteArgs struct {
	// Path of the file or directory to delete, with all it holds.
	Path string `json:"path" tool:"minLength=1,maxLength=1024"`
}

// Delete deletes a memory file, or a directory with everything in it. Delete what is
// outdated or wrong so that memory stays worth reading.
//
//tool:name memory_delete
//tool:sequential
//tool:hints idempotent
//tool:timeout 10s
//tool:example {"path":"/memories/old_plan.md"}
func (k *Toolkit) Delete(ctx context.Context, args DeleteArgs) (string, error) {
	return k.change(ctx, func(s *scope) (string, error) { return s.delete(args.Path) })
}

// RenameArgs are the arguments of memory_rename.
type RenameArgs struct {
	// OldPath is the file or directory to rename.
	OldPath string `json:"old_path" tool:"minLength=1,maxLength=1024"`
	// NewPath is its new name; nothing may exist there yet.
	NewPath string `json:"new_path" tool:"minLength=1,maxLength=1024"`
}

// Rename renames or moves a memory file or directory, e.g. to sort notes into topics.
//
//tool:name memory_rename
//tool:sequential
//tool:timeout 10s
//tool:example {"old_path":"/memories/notes.md","new_path":"/memories/project/notes.md"}
func (k *Toolkit) Rename(ctx context.Context, args RenameArgs) (string, error) {
	return k.change(ctx, func(s *scope) (string, error) { return s.rename(args.OldPath, args.NewPath) })
}

// memoryName turns a path the model sent into a name in its scope: "/memories/a/b.md" and
// "a/b.md" become "a/b.md", "/memories" becomes ".".
func memoryName(p string) (string, error) {
	rest := p
	if rest == Prefix || strings.HasPrefix(rest, Prefix+"/") {
		rest = strings.TrimPrefix(rest[len(Prefix):], "/")
	}
	name, err := sandbox.Clean(rest)
	if err != nil || strings.Contains(name, "\x00") {
		return "", runtime.ModelErrorf(runtime.KindPermission, "%q is outside the memory directory: name files as %s/NAME, e.g. %s/progress.md", p, Prefix, Prefix)
	}
	for elem := range strings.SplitSeq(name, "/") {
		if name != "." && strings.HasPrefix(elem, ".") {
			return "", runtime.ModelErrorf(runtime.KindInvalidInput, "%q: names starting with a dot are reserved; choose another name", p)
		}
	}
	return name, nil
}

// shown is how the model sees a name of its scope.
func shown(name string) string {
	if name == "." {
		return Prefix
	}
	return path.Join(Prefix, name)
}
