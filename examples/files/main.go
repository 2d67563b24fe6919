// Command files runs the sandboxed file tools on a temporary directory, the way a model would
// call them: it lists, writes and reads inside the sandbox, then tries to escape it with "..",
// an absolute path and a symbolic link, and prints what the model reads each time.
//
// write_file needs approval (//tool:confirm); this program's approver allows writes under
// notes/ only, to show a policy decided in code rather than at a terminal.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolgen-go/toolgen/examples/files/files"
	"github.com/toolgen-go/toolgen/runtime"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run() error {
	dir, err := os.MkdirTemp("", "files-example-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "readme.txt"), []byte("Hello from the sandbox.\n"), 0o644); err != nil {
		return err
	}
	// A link out of the sandbox, as a careless user (or an attacker) might leave one.
	if err := os.Symlink(os.TempDir(), filepath.Join(dir, "tmp")); err != nil {
		fmt.Fprintln(os.Stderr, "no symbolic links here:", err)
	}

	notesOnly := runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
		if args, ok := req.Args.(*files.WriteFileArgs); ok && strings.HasPrefix(args.Path, "notes/") {
			return runtime.Decision{Approved: true, By: "notes policy"}, nil
		}
		return runtime.Decision{By: "notes policy", Reason: "only files under notes/ may be written"}, nil
	})
	reg := runtime.NewRegistry(runtime.WithApprover(notesOnly))
	if err := reg.Add(files.Tools()...); err != nil {
		return err
	}

	sandbox := files.Sandbox{Root: dir}
	calls := []runtime.Call{
		{Name: "write_file", Args: []byte(`{"path":"notes/todo.txt","content":"- buy milk\n"}`)},
		{Name: "list_dir", Args: []byte(`{}`)},
		{Name: "read_file", Args: []byte(`{"path":"notes/todo.txt"}`)},
		{Name: "write_file", Args: []byte(`{"path":"readme.txt","content":"overwritten"}`)},
		{Name: "read_file", Args: []byte(`{"path":"../../etc/passwd"}`)},
		{Name: "read_file", Args: []byte(`{"path":"/etc/passwd"}`)},
		{Name: "list_dir", Args: []byte(`{"path":"tmp"}`)},
		{Name: "read_file", Args: []byte(`{"path":"missing.txt"}`)},
	}
	for i := range calls {
		calls[i].ID = fmt.Sprintf("call_%d", i+1)
		calls[i].UserData = sandbox
	}
	// One model turn: write_file is //tool:sequential, so it runs alone, before the rest.
	for i, res := range reg.InvokeAll(context.Background(), calls) {
		fmt.Printf("%s %s\n-> error=%v kind=%q\n%s\n\n", calls[i].Name, calls[i].Args, res.IsError, res.Kind, res.Text)
	}
	return nil
}
