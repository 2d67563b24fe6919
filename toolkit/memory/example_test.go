package memory_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/memory"
)

func Example() {
	dir, err := os.MkdirTemp("", "memory")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	mem, err := memory.Open(dir)
	if err != nil {
		log.Fatal(err)
	}
	defer mem.Close()
	// One memory per user, shared by their conversations: the host puts the user in UserData.
	mem.Scope = func(ctx context.Context) (string, error) {
		info, _ := runtime.CallInfoFrom(ctx)
		user, _ := info.UserData.(string)
		return user, nil
	}
	reg := runtime.NewRegistry()
	if err := reg.Add(mem.Tools()...); err != nil {
		log.Fatal(err)
	}
	run := func(session, tool, args string) {
		res := reg.Invoke(context.Background(), runtime.Call{Name: tool, Args: []byte(args), Session: session, UserData: "alice"})
		fmt.Println(res.Text)
	}
	run("monday", "memory_create", `{"path":"/memories/preferences.md","file_text":"- answers in French\n"}`)
	run("tuesday", "memory_view", `{"path":"/memories"}`)
	// Output:
	// Wrote /memories/preferences.md.
	// The files and directories up to 2 levels deep in /memories, with sizes:
	// -	/memories/
	// 20B	/memories/preferences.md
}
