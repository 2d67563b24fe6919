// Package files declares read_file, write_file and list_dir: file tools confined to a sandbox
// directory. The host chooses the sandbox per call, by passing a Sandbox as the call's
// UserData; the handlers read it from their ctx (runtime.CallInfoFrom), so one registry
// serves many users, each in their own directory.
//
// Every path is relative to the sandbox root. A path that is absolute, that climbs out with
// "..", or that passes through a symbolic link is refused with a message telling the model
// what to send instead; the file operations themselves go through an os.Root, which refuses
// any escape the checks missed.
package files

//go:generate go tool toolgen

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
)

// Sandbox is the UserData a host passes with every call of these tools.
type Sandbox struct {
	Root string // the directory the tools may read and write in
}

// ReadFileArgs are the arguments of read_file.
type ReadFileArgs struct {
	// Path of the file, relative to the sandbox root, e.g. notes/todo.txt.
	Path string `json:"path" tool:"minLength=1,maxLength=1024"`
}

// ReadFile reads a text file from the sandbox.
//
//tool:name read_file
//tool:hints readonly,idempotent
//tool:timeout 5s
//tool:maxresult 8KiB
//tool:example {"path":"notes/todo.txt"}
func ReadFile(ctx context.Context, args ReadFileArgs) (string, error) {
	root, err := openSandbox(ctx, args.Path)
	if err != nil {
		return "", err
	}
	defer root.Close()
	data, err := root.ReadFile(args.Path)
	if err != nil {
		return "", fileError(args.Path, err)
	}
	return string(data), nil
}

// WriteFileArgs are the arguments of write_file.
type WriteFileArgs struct {
	// Path of the file, relative to the sandbox root; missing directories are created.
	Path string `json:"path" tool:"minLength=1,maxLength=1024"`
	// Content replaces the file's content.
	Content string `json:"content" tool:"maxLength=100000"`
}

// WriteFile writes a text file in the sandbox, replacing it if it exists.
//
//tool:name write_file
//tool:hints destructive
//tool:confirm replaces the content of a file
//tool:risk medium
//tool:sequential
//tool:timeout 5s
//tool:example {"path":"notes/todo.txt","content":"- buy milk\n"}
func WriteFile(ctx context.Context, args WriteFileArgs) (string, error) {
	root, err := openSandbox(ctx, args.Path)
	if err != nil {
		return "", err
	}
	defer root.Close()
	if dir := path.Dir(args.Path); dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return "", fileError(dir, err)
		}
	}
	if err := root.WriteFile(args.Path, []byte(args.Content), 0o644); err != nil {
		return "", fileError(args.Path, err)
	}
	return fmt.Sprintf("wrote %d bytes to %s", len(args.Content), args.Path), nil
}

// ListDirArgs are the arguments of list_dir.
type ListDirArgs struct {
	// Path of the directory, relative to the sandbox root; "." is the root itself.
	Path string `json:"path,omitempty" tool:"default=.,maxLength=1024"`
}

// Listing is the content of a directory.
type Listing struct {
	// Entries of the directory, sorted by name.
	Entries []Entry `json:"entries"`
}

// Entry is one file or directory.
type Entry struct {
	// Name of the entry.
	Name string `json:"name"`
	// Dir is true for a directory.
	Dir bool `json:"dir"`
	// Size in bytes, for a file.
	Size int64 `json:"size"`
}

// ListDir lists a directory of the sandbox.
//
//tool:name list_dir
//tool:hints readonly,idempotent
//tool:timeout 5s
//tool:example {"path":"."}
func ListDir(ctx context.Context, args ListDirArgs) (Listing, error) {
	root, err := openSandbox(ctx, args.Path)
	if err != nil {
		return Listing{}, err
	}
	defer root.Close()
	dir, err := root.Open(args.Path)
	if err != nil {
		return Listing{}, fileError(args.Path, err)
	}
	defer dir.Close()
	entries, err := dir.ReadDir(-1)
	if err != nil {
		return Listing{}, fileError(args.Path, err)
	}
	out := Listing{Entries: []Entry{}}
	for _, e := range entries {
		entry := Entry{Name: e.Name(), Dir: e.IsDir()}
		if info, err := e.Info(); err == nil && !e.IsDir() {
			entry.Size = info.Size()
		}
		out.Entries = append(out.Entries, entry)
	}
	slices.SortFunc(out.Entries, func(a, b Entry) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// openSandbox opens the sandbox of the call in ctx, after checking that p stays inside it.
func openSandbox(ctx context.Context, p string) (*os.Root, error) {
	info, _ := runtime.CallInfoFrom(ctx)
	sandbox, ok := info.UserData.(Sandbox)
	if !ok || sandbox.Root == "" {
		// The host's mistake, not the model's: say little, and keep the detail for the operator.
		return nil, runtime.Permanent(&runtime.ModelError{
			Kind:    runtime.KindInternal,
			Message: "file tools are not available in this conversation",
			Err:     errors.New("the call's UserData holds no files.Sandbox"),
		})
	}
	if err := checkPath(p); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(sandbox.Root)
	if err != nil {
		return nil, runtime.WithKind(err, runtime.KindUnavailable)
	}
	if err := refuseSymlinks(root, p); err != nil {
		root.Close()
		return nil, err
	}
	return root, nil
}

// checkPath refuses paths that are absolute or climb out of the sandbox.
func checkPath(p string) error {
	slashed := strings.ReplaceAll(p, `\`, "/")
	if path.IsAbs(slashed) || len(slashed) >= 2 && slashed[1] == ':' {
		return runtime.ModelErrorf(runtime.KindPermission,
			"%q is an absolute path; paths are relative to the sandbox root, e.g. notes/todo.txt", p)
	}
	for _, elem := range strings.Split(slashed, "/") {
		if elem == ".." {
			return runtime.ModelErrorf(runtime.KindPermission,
				"%q leaves the sandbox: \"..\" is not allowed; use a path inside it, e.g. notes/todo.txt", p)
		}
	}
	return nil
}

// refuseSymlinks refuses a path any existing element of which is a symbolic link: a link may
// point anywhere, and the model has no way to know where.
func refuseSymlinks(root *os.Root, p string) error {
	walked := ""
	for _, elem := range strings.Split(path.Clean(strings.ReplaceAll(p, `\`, "/")), "/") {
		if elem == "." || elem == "" {
			continue
		}
		walked = path.Join(walked, elem)
		info, err := root.Lstat(walked)
		if errors.Is(err, fs.ErrNotExist) {
			return nil // nothing further exists, so no further link either
		}
		if err != nil {
			return fileError(walked, err)
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			return runtime.ModelErrorf(runtime.KindPermission,
				"%q goes through the symbolic link %q, which these tools do not follow; use a path without links", p, walked)
		}
	}
	return nil
}

// fileError words a file system error for the model without the sandbox's real location.
func fileError(p string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return runtime.ModelErrorf(runtime.KindNotFound, "%s does not exist; list_dir shows what does: %w", p, err)
	case errors.Is(err, fs.ErrPermission):
		return runtime.ModelErrorf(runtime.KindPermission, "%s cannot be accessed: permission denied: %w", p, err)
	case strings.Contains(err.Error(), "is a directory"), strings.Contains(err.Error(), "not a directory"):
		return runtime.ModelErrorf(runtime.KindInvalidInput, "%s: %s: %w", p, "wrong kind of entry (file versus directory)", err)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return runtime.ModelErrorf(runtime.KindInternal, "%s: %s failed: %w", p, pe.Op, err)
	}
	return runtime.WithKind(err, runtime.KindInternal)
}
