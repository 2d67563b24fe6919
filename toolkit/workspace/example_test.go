package workspace_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
	"github.com/toolgen-go/toolgen/toolkit/workspace"
)

// The tools over an in-memory sandbox, as a test of an agent would use them.
func Example() {
	sb := sandbox.NewMemory(map[string]string{
		"main.go": "package main\n\nfunc main() {\n\tprintln(\"hello\")\n}\n",
	})
	reg := runtime.NewRegistry()
	if err := reg.Add(workspace.New(sb).Tools()...); err != nil {
		panic(err)
	}
	for _, call := range []runtime.Call{
		{Name: "grep", Args: []byte(`{"pattern":"println"}`)},
		{Name: "read_file", Args: []byte(`{"path":"main.go","offset":3,"limit":2}`)},
		{Name: "read_file", Args: []byte(`{"path":"../secret"}`)},
	} {
		fmt.Println(reg.Invoke(context.Background(), call).Text)
	}
	// Output:
	// main.go:4: 	println("hello")
	// [1 matching line in 1 file]
	//      3	func main() {
	//      4		println("hello")
	// [main.go: lines 3-4 of 5; read_file with offset=5 reads on]
	// "../secret" is outside the workspace: paths are relative to the workspace root (e.g. src/main.go), without .. above it, and symbolic links out of it are not followed
}

// Shell calls of a few harmless commands run without asking; every other call that needs
// approval goes to the approver AllowCommands wraps (here, one that says no).
func ExampleWorkspace_AllowCommands() {
	askTheUser := runtime.ApproverFunc(func(context.Context, runtime.ApprovalRequest) (runtime.Decision, error) {
		return runtime.Decision{Reason: "not now"}, nil
	})
	sb := sandbox.NewMemory(nil)
	sb.RunFunc = func(_ context.Context, cmd sandbox.Command) (int, error) {
		fmt.Fprintf(cmd.Output, "ran %s\n", cmd.Script)
		return 0, nil
	}
	w := workspace.New(sb)
	reg := runtime.NewRegistry(runtime.WithApprover(w.AllowCommands(askTheUser, "git status", "ls")))
	if err := reg.Add(w.Tools()...); err != nil {
		panic(err)
	}
	for _, command := range []string{"git status --short", "git status; rm -rf ."} {
		res := reg.Invoke(context.Background(), runtime.Call{Name: "shell", Args: []byte(`{"command":"` + command + `"}`)})
		if res.IsError {
			fmt.Printf("%s: %s\n", res.Kind, res.Text)
			continue
		}
		_, output, _ := strings.Cut(res.Text, "\n") // after "exit status 0 (duration)"
		fmt.Print(output)
	}
	// Output:
	// ran git status --short
	// denied: The user denied this call of shell, so it was not run: not now. Do not call it again without asking the user.
}
