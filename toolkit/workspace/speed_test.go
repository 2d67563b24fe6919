package workspace_test

import (
	"flag"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
	"github.com/toolgen-go/toolgen/toolkit/workspace"
)

var speed = flag.Bool("speed", false, "compare grep and glob with grep -rn and find -name over this repository; print the ratios, fail above 3×")

// The searches compared: the same pattern over the same tree (this repository), .git left
// out by both, the whole output produced by both.
var speedCases = []struct {
	name    string
	tool    string
	args    string
	command []string
}{
	{name: "grep vs grep -rn", tool: "grep", args: `{"pattern":"func [A-Z]\\w*\\(ctx"}`,
		command: []string{"grep", "-rnE", "--exclude-dir=.git", `func [A-Z][[:alnum:]_]*\(ctx`, "."}},
	{name: "glob vs find -name", tool: "glob", args: `{"pattern":"**/*_test.go"}`,
		command: []string{"find", ".", "-name", ".git", "-prune", "-o", "-name", "*_test.go", "-print"}},
}

// repository returns a registry with the workspace tools over this repository.
func repository(tb testing.TB) (*runtime.Registry, string) {
	dir, err := filepath.Abs("../..")
	require.NoError(tb, err)
	sb, err := sandbox.OpenLocal(dir, sandbox.LocalOptions{})
	require.NoError(tb, err)
	tb.Cleanup(func() { sb.Close() })
	reg := runtime.NewRegistry()
	require.NoError(tb, reg.Add(workspace.New(sb).Tools()...))
	return reg, dir
}

func benchTool(reg *runtime.Registry, tool, args string) func(b *testing.B) {
	return func(b *testing.B) {
		for b.Loop() {
			if res := reg.Invoke(b.Context(), runtime.Call{Name: tool, Args: []byte(args)}); res.IsError {
				b.Fatal(res.Text)
			}
		}
	}
}

func benchCommand(dir string, command []string) func(b *testing.B) {
	return func(b *testing.B) {
		if _, err := exec.LookPath(command[0]); err != nil {
			b.Skip(err)
		}
		for b.Loop() {
			cmd := exec.Command(command[0], command[1:]...)
			cmd.Dir = dir
			if out, err := cmd.Output(); err != nil || len(out) == 0 {
				b.Fatalf("%s: %v", command[0], err)
			}
		}
	}
}

// BenchmarkSearch runs each tool and the command it replaces, in the same run:
// go test ./toolkit/workspace -run '^$' -bench Search.
func BenchmarkSearch(b *testing.B) {
	reg, dir := repository(b)
	for _, c := range speedCases {
		b.Run(c.tool+"/tool", benchTool(reg, c.tool, c.args))
		b.Run(c.tool+"/"+c.command[0], benchCommand(dir, c.command))
	}
}

// TestSpeed prints each tool's time as a ratio to the command's, measured in the same run:
// go test ./toolkit/workspace -run TestSpeed -speed -v. The two alternate for five rounds
// and each keeps its best round, so a burst of load on a shared machine counts for neither.
func TestSpeed(t *testing.T) {
	if !*speed {
		t.Skip("run with -speed")
	}
	reg, dir := repository(t)
	for _, c := range speedCases {
		best := func(old time.Duration, r testing.BenchmarkResult) time.Duration {
			if d := time.Duration(r.NsPerOp()); old == 0 || d < old {
				return d
			}
			return old
		}
		var tool, command time.Duration
		for range 5 {
			tool = best(tool, testing.Benchmark(benchTool(reg, c.tool, c.args)))
			command = best(command, testing.Benchmark(benchCommand(dir, c.command)))
		}
		ratio := float64(tool) / float64(command)
		t.Logf("%s: %v against %v, %.2f×", c.name, tool, command, ratio)
		assert.LessOrEqual(t, ratio, 3.0, c.name)
	}
}
