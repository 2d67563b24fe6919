// Command coding-agent is a coding agent on the workspace toolkit: a model finds a bug in a
// small Go module, reads the code, runs the tests, fixes the bug with edit_file and runs the
// tests again. The model is scripted (it runs with no API key and no network), and speaks the
// OpenAI Chat Completions wire format: the loop declares the tools with
// openai.ChatToolsJSON, reads the model's calls with openai.ParseChatCalls, runs them with
// openai.Dispatch and answers with openai.ChatToolMessagesJSON, exactly as it would with the
// real API's JSON.
//
// The module lives in a temporary directory, the sandbox of the tools. Edits and commands
// need approval; this program's approver approves every call and prints it, where a real
// agent would ask someone.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
	toolopenai "github.com/toolgen-go/toolgen/runtime/openai"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
	"github.com/toolgen-go/toolgen/toolkit/workspace"
)

// maxTurns bounds the loop, so a model that keeps calling tools cannot run it forever.
const maxTurns = 10

// module is the Go module the agent works on: Add subtracts.
var module = map[string]string{
	"go.mod":       "module example.com/calc\n\ngo 1.26\n",
	"calc.go":      "// Package calc does arithmetic.\npackage calc\n\n// Add returns the sum of a and b.\nfunc Add(a, b int) int {\n\treturn a - b\n}\n",
	"calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(2, 3); got != 5 {\n\t\tt.Fatalf(\"Add(2, 3) = %d, want 5\", got)\n\t}\n}\n",
}

func main() {
	dir, err := os.MkdirTemp("", "coding-agent-")
	if err == nil {
		defer os.RemoveAll(dir)
		err = run(context.Background(), dir, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "coding-agent:", err)
		os.Exit(1)
	}
}

// run writes the module into dir and lets the scripted model fix it.
func run(ctx context.Context, dir string, out io.Writer) error {
	for name, content := range module {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			return err
		}
	}
	// Commands run isolated: they see the module at /workspace, the host's /usr and /etc, and
	// nothing of its home. go test needs a build cache: the sandbox gets one of its own, kept
	// between calls (not the host's, into which the model could plant compiled code that the
	// host's builds would then link).
	cache, err := os.MkdirTemp("", "coding-agent-cache-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(cache)
	opts := sandbox.LocalOptions{
		Env:    append(slices.Clone(sandbox.DefaultEnv), "GOTOOLCHAIN", "GOFLAGS"),
		Vars:   []string{"GOCACHE=/cache"},
		Mounts: []sandbox.Mount{{Source: cache, Target: "/cache", Writable: true}},
	}
	// A Go installed outside /usr is shown read-only where the host has it (PATH names it).
	if out, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output(); err == nil {
		if goroot := strings.TrimSpace(string(out)); filepath.IsAbs(goroot) && !strings.HasPrefix(goroot, "/usr/") {
			opts.Mounts = append(opts.Mounts, sandbox.Mount{Source: goroot, Target: goroot})
		}
	}
	sb, err := sandbox.OpenLocal(dir, opts)
	if err != nil {
		return err
	}
	defer sb.Close()
	approveAndShow := runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
		fmt.Fprintf(out, "   (approved %s %s)\n", req.Tool, req.RawArgs)
		return runtime.Decision{Approved: true, By: "coding-agent"}, nil
	})
	reg := runtime.NewRegistry(runtime.WithApprover(approveAndShow))
	if err := reg.Add(workspace.New(sb).Tools()...); err != nil {
		return err
	}
	tools, err := toolopenai.ChatToolsJSON(reg.Tools())
	if err != nil {
		return err
	}
	model := newScriptedModel()
	messages := []json.RawMessage{json.RawMessage(`{"role":"user","content":"The tests of this module fail. Find out why and fix it."}`)}
	for turn := 1; turn <= maxTurns; turn++ {
		reply, err := model.complete(tools, messages)
		if err != nil {
			return fmt.Errorf("turn %d: %w", turn, err)
		}
		messages = append(messages, reply)
		calls, err := toolopenai.ParseChatCalls(reply)
		if err != nil {
			return err
		}
		if len(calls) == 0 {
			var answer struct{ Content string }
			if err := json.Unmarshal(reply, &answer); err != nil {
				return err
			}
			fmt.Fprintf(out, "\n== answer\n%s\n", answer.Content)
			return nil
		}
		outs := toolopenai.Dispatch(ctx, reg, calls)
		for _, o := range outs {
			fmt.Fprintf(out, "\n== %s %s\n%s\n", o.Call.Name, o.Call.Args, o.Result.Text)
		}
		answers, err := toolopenai.ChatToolMessagesJSON(outs)
		if err != nil {
			return err
		}
		var results []json.RawMessage
		if err := json.Unmarshal(answers, &results); err != nil {
			return err
		}
		messages = append(messages, results...)
	}
	return fmt.Errorf("no answer after %d turns", maxTurns)
}
