// Command files runs the workspace toolkit's file tools (toolkit/workspace) the way a model
// would call them, for two users of one registry, each in a sandbox directory of their own:
// it writes, lists and reads inside the sandbox, then tries to escape it with "..", an
// absolute path, a symbolic link and a hard link, and prints what the model reads each time.
//
// The sandbox of each call travels in its UserData, so one registry serves every user.
// write_file needs approval (//tool:confirm); this program's approver allows writes under
// notes/ only, to show a policy decided in code rather than at a terminal.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
	"github.com/toolgen-go/toolgen/toolkit/workspace"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run() error {
	notesOnly := runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
		if args, ok := req.Args.(*workspace.WriteFileArgs); ok && strings.HasPrefix(args.Path, "notes/") {
			return runtime.Decision{Approved: true, By: "notes policy"}, nil
		}
		return runtime.Decision{By: "notes policy", Reason: "only files under notes/ may be written"}, nil
	})
	reg := runtime.NewRegistry(runtime.WithApprover(notesOnly))
	// No sandbox here: each call brings its user's.
	if err := reg.Add(workspace.New(nil).Tools()...); err != nil {
		return err
	}

	for _, user := range []string{"alice", "bob"} {
		dir, err := os.MkdirTemp("", "files-example-"+user+"-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		outside, err := plant(dir, user)
		if err != nil {
			return err
		}
		defer os.Remove(outside)
		sb, err := sandbox.OpenLocal(dir, sandbox.LocalOptions{})
		if err != nil {
			return err
		}
		defer sb.Close()

		calls := []runtime.Call{
			{Name: "write_file", Args: []byte(`{"path":"notes/todo.txt","content":"- buy milk\n"}`)},
			{Name: "list_dir", Args: []byte(`{}`)},
			{Name: "read_file", Args: []byte(`{"path":"readme.txt"}`)},
			{Name: "write_file", Args: []byte(`{"path":"readme.txt","content":"overwritten"}`)},
			{Name: "read_file", Args: []byte(`{"path":"../../etc/passwd"}`)},
			{Name: "read_file", Args: []byte(`{"path":"/etc/passwd"}`)},
			{Name: "list_dir", Args: []byte(`{"path":"tmp"}`)},
			{Name: "read_file", Args: []byte(`{"path":"passwd-link"}`)},
			{Name: "read_file", Args: []byte(`{"path":"missing.txt"}`)},
		}
		for i := range calls {
			calls[i].ID = fmt.Sprintf("call_%d", i+1)
			calls[i].Session = user
			calls[i].UserData = sb
		}
		fmt.Printf("######## %s\n\n", user)
		// One model turn: write_file is //tool:sequential, so it runs alone, before the rest.
		for i, res := range reg.InvokeAll(context.Background(), calls) {
			fmt.Printf("%s %s\n-> error=%v kind=%q\n%s\n\n", calls[i].Name, calls[i].Args, res.IsError, res.Kind, res.Text)
		}
	}
	return nil
}

// plant fills a user's directory: a readme, a symbolic link out of the sandbox and, where the
// system allows it, a hard link to a file outside (as a careless user, or an attacker, might
// leave them). It returns the file it made outside.
func plant(dir, user string) (outside string, err error) {
	if err := os.WriteFile(filepath.Join(dir, "readme.txt"), []byte("Hello, "+user+".\n"), 0o644); err != nil {
		return "", err
	}
	if err := os.Symlink(os.TempDir(), filepath.Join(dir, "tmp")); err != nil {
		fmt.Fprintln(os.Stderr, "no symbolic links here:", err)
	}
	outside = dir + "-outside"
	if err := os.WriteFile(outside, []byte("a secret\n"), 0o600); err != nil {
		return "", err
	}
	if err := os.Link(outside, filepath.Join(dir, "passwd-link")); err != nil {
		fmt.Fprintln(os.Stderr, "no hard links here:", err)
	}
	return outside, nil
}
