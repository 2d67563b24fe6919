// Package docs_test keeps the guides in this folder and the README true: every Go code block
// in them is compiled, as a user would compile it, in a module of its own that requires
// this checkout (the README's "local checkout" install steps).
package docs_test

import (
	"bufio"
	"fmt"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/internal/buildtest"
)

// block is one ```go block of a Markdown file.
type block struct {
	doc  string // the Markdown file
	line int    // of the block's first line of code
	code string
}

// fileDirective names the file a block is, in the user's module: "// file: weather/weather.go".
var fileDirective = regexp.MustCompile(`^// file: (\S+)\n`)

// userModule is the module path of the blocks that are files; "example.com/agent/weather" is
// how the guides import a package of the user's.
const userModule = "example.com/agent"

// imports are the packages a fragment (a block that is not a file) may name, by the name it
// uses: fragments show calls, and leave the import lines out.
var imports = map[string]string{
	"context": "context", "errors": "errors", "fmt": "fmt", "http": "net/http", "json": "encoding/json",
	"log": "log", "netip": "net/netip", "os": "os", "time": "time",
	"runtime":    "github.com/toolgen-go/toolgen/runtime",
	"toolmcp":    "github.com/toolgen-go/toolgen/runtime/mcp",
	"mcp":        "github.com/modelcontextprotocol/go-sdk/mcp",
	"openai":     "github.com/toolgen-go/toolgen/runtime/openai",
	"anthropic":  "github.com/toolgen-go/toolgen/runtime/anthropic",
	"gemini":     "github.com/toolgen-go/toolgen/runtime/gemini",
	"redisstore": "github.com/toolgen-go/toolgen/runtime/redisstore",
	"toolotel":   "github.com/toolgen-go/toolgen/runtime/otel",
	"redis":      "github.com/redis/go-redis/v9",
	"presets":    "github.com/toolgen-go/toolgen/toolkit/presets",
	"research":   "github.com/toolgen-go/toolgen/toolkit/presets/research",
	"sandbox":    "github.com/toolgen-go/toolgen/toolkit/sandbox",
	"workspace":  "github.com/toolgen-go/toolgen/toolkit/workspace",
	"toolsearch": "github.com/toolgen-go/toolgen/runtime/toolsearch",
	"schematool": "github.com/toolgen-go/toolgen/runtime/schematool",
	"tooleval":   "github.com/toolgen-go/toolgen/runtime/tooleval",
	"mount":      "github.com/toolgen-go/toolgen/runtime/mcp/mount",
	"mcpservers": "github.com/toolgen-go/toolgen/toolkit/mcpservers",
	"weather":    userModule + "/weather",
	"notes":      userModule + "/notes", // docs/mcp.md
}

// nestedModules are the modules of this repository apart from the root, which a fragment
// may import (redisstore in docs/scaling-out.md).
var nestedModules = []string{
	"runtime/otel", "runtime/redisstore", "runtime/temporal",
	"runtime/openai/openaisdk", "runtime/anthropic/anthropicsdk", "runtime/gemini/geminisdk",
}

func readBlocks(t *testing.T, paths ...string) []block {
	var out []block
	for _, p := range paths {
		f, err := os.Open(p)
		require.NoError(t, err)
		sc := bufio.NewScanner(f)
		var cur *block
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			switch {
			case cur == nil && strings.TrimSpace(line) == "```go":
				cur = &block{doc: p, line: n + 1}
			case cur != nil && strings.TrimSpace(line) == "```":
				out = append(out, *cur)
				cur = nil
			case cur != nil:
				cur.code += line + "\n"
			}
		}
		require.NoError(t, sc.Err())
		f.Close()
		require.Nil(t, cur, "%s: a ```go block is not closed", p)
	}
	return out
}

// TestCodeBlocksCompile writes every block into a module that requires this checkout: a block
// starting with "// file: PATH" is that file of the user's module (toolgen generates its
// tools, as go generate would), any other is a fragment, compiled in a package of its own as
// declarations or, when it is statements, as a function body, with ctx in scope and its
// imports added from the table above. Variables and imports a fragment leaves unused are no
// error: fragments show a step, not a program.
func TestCodeBlocksCompile(t *testing.T) {
	buildtest.Require(t, "builds a module of the docs' code blocks")
	docs, err := filepath.Glob("*.md")
	require.NoError(t, err)
	blocks := readBlocks(t, append([]string{"../README.md"}, docs...)...)
	require.NotEmpty(t, blocks)

	root, err := filepath.Abs("..")
	require.NoError(t, err)
	byDoc := map[string][]block{}
	var order []string
	for _, b := range blocks {
		if byDoc[b.doc] == nil {
			order = append(order, b.doc)
		}
		byDoc[b.doc] = append(byDoc[b.doc], b)
	}
	// The README's files (the weather package, main.go) are in every guide's module too, as
	// the package of the user's that the guides' fragments call.
	var shared []block
	for _, b := range byDoc["../README.md"] {
		if fileDirective.MatchString(b.code) {
			shared = append(shared, b)
		}
	}
	for _, doc := range order {
		t.Run(filepath.Base(doc), func(t *testing.T) { compileBlocks(t, root, append(slices.Clone(shared), byDoc[doc]...)) })
	}
}

// compileBlocks compiles the blocks of one Markdown file in a module of their own.
func compileBlocks(t *testing.T, root string, blocks []block) {
	dir := t.TempDir()
	where := map[string]block{} // package dir → the block it came from, for the errors
	usedModules := map[string]bool{}
	for i, b := range blocks {
		if m := fileDirective.FindStringSubmatch(b.code); m != nil {
			path := filepath.Join(dir, filepath.FromSlash(m[1]))
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			require.NoError(t, os.WriteFile(path, []byte(b.code), 0o644))
			where[filepath.Dir(m[1])] = b
			where[m[1]] = b // the file itself: a package's files are several blocks
			for _, nested := range nestedModules {
				if strings.Contains(b.code, `"github.com/toolgen-go/toolgen/`+nested+`"`) || strings.Contains(b.code, `"github.com/toolgen-go/toolgen/`+nested+`/`) {
					usedModules[nested] = true
				}
			}
			continue
		}
		pkg := fmt.Sprintf("fragment%d", i+1)
		src, mods := fragment(pkg, b.code)
		for _, m := range mods {
			usedModules[m] = true
		}
		require.NoError(t, os.MkdirAll(filepath.Join(dir, pkg), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, pkg, "fragment.go"), []byte(src), 0o644))
		where[pkg] = b
	}

	// go.mod and go.sum as the README's local-checkout steps leave them.
	mod := "module " + userModule + "\n\ngo 1.26.0\n\nrequire github.com/toolgen-go/toolgen v0.0.0\n\nreplace github.com/toolgen-go/toolgen => " + root + "\n"
	sums, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	for _, m := range nestedModules {
		if !usedModules[m] {
			continue
		}
		path := "github.com/toolgen-go/toolgen/" + m
		mod += fmt.Sprintf("\nrequire %s v0.0.0\n\nreplace %s => %s\n", path, path, filepath.Join(root, m))
		more, err := os.ReadFile(filepath.Join(root, m, "go.sum"))
		require.NoError(t, err)
		sums = append(sums, more...)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.sum"), sums, 0o644))

	gocmd := func(args ...string) (string, error) {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := gocmd("run", "github.com/toolgen-go/toolgen/cmd/toolgen", "./..."); err != nil {
		t.Fatalf("toolgen on the blocks that are files: %v\n%s", err, out)
	}
	out, err := gocmd("build", "-gcflags=-e", "./...")
	if err != nil {
		var problems []string
		for _, line := range strings.Split(out, "\n") {
			if line == "" || strings.HasPrefix(line, "#") || strings.HasSuffix(line, "and not used") || strings.Contains(line, "and not used:") {
				continue
			}
			problems = append(problems, locate(line, where))
		}
		if len(problems) > 0 {
			t.Errorf("code blocks that do not compile:\n%s", strings.Join(problems, "\n"))
			return
		}
		// Only fragments' unused names failed the build: the test packages build on their own.
	}
	// The blocks that are test files (// file: PATH_test.go) are run, as the guide says they
	// pass: go test in each of their packages.
	tested := map[string]bool{}
	for _, b := range blocks {
		if m := fileDirective.FindStringSubmatch(b.code); m != nil && strings.HasSuffix(m[1], "_test.go") {
			tested["./"+filepath.ToSlash(filepath.Dir(m[1]))] = true
		}
	}
	if len(tested) == 0 {
		return
	}
	pkgs := slices.Sorted(maps.Keys(tested))
	if out, err := gocmd(append([]string{"test", "-count=1"}, pkgs...)...); err != nil {
		var lines []string
		for _, line := range strings.Split(out, "\n") {
			lines = append(lines, locate(strings.TrimSpace(line), where))
		}
		t.Errorf("code blocks that are tests fail (go test %s):\n%s", strings.Join(pkgs, " "), strings.Join(lines, "\n"))
	}
}

// fragment renders a fragment as a package: declarations as they are, statements in a function
// body; imports from the table for every name it uses (unused ones are soft errors). It
// returns the nested modules it imports.
func fragment(pkg, code string) (src string, modules []string) {
	var used []string // `name "path"`
	for name, path := range imports {
		if strings.Contains(code, name+".") && regexp.MustCompile(`\b`+name+`\.`).MatchString(code) {
			used = append(used, fmt.Sprintf("%s %q", name, path))
			for _, m := range nestedModules {
				if strings.HasPrefix(path, "github.com/toolgen-go/toolgen/"+m) {
					modules = append(modules, m)
				}
			}
		}
	}
	if ctx := `context "context"`; !slices.Contains(used, ctx) {
		used = append(used, ctx)
	}
	slices.Sort(used)
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\nimport (\n", pkg)
	for _, p := range used {
		fmt.Fprintf(&b, "\t%s\n", p)
	}
	b.WriteString(")\n\n")
	if _, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+code, parser.SkipObjectResolution); err == nil {
		// Declarations, perhaps with imports of their own: those must come first.
		b.WriteString("//line fragment.go:1\n" + code + "\nvar ctx = context.Background()\n")
	} else {
		b.WriteString("var ctx = context.Background()\n\nfunc _() {\n//line fragment.go:1\n" + code + "}\n")
	}
	return b.String(), modules
}

// errorLine is a line of the go command's errors: "fragment3/fragment.go:2:5: msg".
var errorLine = regexp.MustCompile(`^(?:\./)?([^:]+?)/([^/:]+\.go):(\d+)(?::\d+)?: (.*)$`)

// locate turns the go command's "fragment3/fragment.go:2:5: msg" into the Markdown position.
func locate(line string, where map[string]block) string {
	m := errorLine.FindStringSubmatch(line)
	if m == nil {
		return line
	}
	b, ok := where[m[1]+"/"+m[2]]
	if !ok {
		b, ok = where[m[1]]
	}
	if !ok {
		return line
	}
	var n int
	fmt.Sscan(m[3], &n)
	if m[2] == "fragment.go" || fileDirective.MatchString(b.code) {
		return fmt.Sprintf("%s:%d: %s", b.doc, b.line+n-1, m[4])
	}
	return line
}
