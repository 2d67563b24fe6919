package files_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/examples/files/files"
	"github.com/toolgen-go/toolgen/runtime"
)

func TestSandbox(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	reg := runtime.NewRegistry(runtime.WithApprover(runtime.ApproverFunc(func(context.Context, runtime.ApprovalRequest) (runtime.Decision, error) {
		return runtime.Decision{Approved: true}, nil
	})))
	if err := reg.Add(files.Tools()...); err != nil {
		t.Fatal(err)
	}
	call := func(name, args string) runtime.Result {
		return reg.Invoke(t.Context(), runtime.Call{Name: name, Args: []byte(args), UserData: files.Sandbox{Root: dir}})
	}

	if res := call("write_file", `{"path":"a/b.txt","content":"hi"}`); res.IsError {
		t.Fatalf("write_file = %+v", res)
	}
	if res := call("read_file", `{"path":"a/b.txt"}`); res.Text != "hi" {
		t.Errorf("read_file = %+v", res)
	}
	if res := call("list_dir", `{}`); !strings.HasPrefix(res.Text, `{"entries":[{"name":"a","dir":true,"size":0},{"name":"out","dir":false,`) {
		t.Errorf("list_dir = %s", res.Text)
	}
	for _, escape := range []string{`../x`, `a/../../x`, `/etc/passwd`, `out/secret.txt`, `out`} {
		res := call("read_file", `{"path":"`+escape+`"}`)
		if res.Kind != runtime.KindPermission || strings.Contains(res.Text, "secret") && !strings.Contains(res.Text, "secret.txt") {
			t.Errorf("read_file %s = %+v, want a refusal", escape, res)
		}
	}
	if res := call("write_file", `{"path":"out/secret.txt","content":"pwned"}`); res.Kind != runtime.KindPermission {
		t.Errorf("write through a link = %+v", res)
	}
	if data, _ := os.ReadFile(filepath.Join(outside, "secret.txt")); string(data) != "secret" {
		t.Errorf("the file outside the sandbox changed: %q", data)
	}

	// Without a sandbox in the call, the tools refuse to run anywhere.
	res := reg.Invoke(t.Context(), runtime.Call{Name: "list_dir"})
	if !res.IsError || res.Text != "file tools are not available in this conversation" || res.Attempts != 1 {
		t.Errorf("no sandbox = %+v", res)
	}
}
