package pattern

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"
)

func TestFuncCompiledFlag(t *testing.T) {
	for _, p := range testPatterns {
		_, compiled, err := Func("match"+p.name, p.expr)
		if err != nil {
			t.Errorf("Func(%q): %v", p.expr, err)
			continue
		}
		if compiled != p.compiled {
			t.Errorf("Func(%q) compiled = %v, want %v", p.expr, compiled, p.compiled)
		}
	}
}

func TestFuncErrors(t *testing.T) {
	for _, expr := range []string{`a(`, `[z-a]`, `a{1001}`, `\8`, `(?<`, `x**`, `\pX`} {
		_, wantErr := regexp.Compile(expr)
		code, _, err := Func("m", expr)
		if err == nil || code != nil {
			t.Errorf("Func(%q) = %v, nil error; want regexp's error", expr, code)
			continue
		}
		if err.Error() != wantErr.Error() {
			t.Errorf("Func(%q) error = %q, want regexp's %q", expr, err, wantErr)
		}
	}
	for _, name := range []string{"", "1st", "a-b", "func"} {
		if _, _, err := Func(name, "a"); err == nil {
			t.Errorf("Func(%q, \"a\") accepted a name that is not a Go identifier", name)
		}
	}
}

// renderFile renders funcs into a Go source file of package pkg.
func renderFile(t *testing.T, pkg string, codes ...jen.Code) string {
	t.Helper()
	f := jen.NewFile(pkg)
	for _, c := range codes {
		f.Add(c)
	}
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestFuncCodeShape(t *testing.T) {
	compiledCode, _, _ := Func("matchSKU", `^[A-Z]{3}-[0-9]{4}$`)
	src := renderFile(t, "p", compiledCode)
	if strings.Contains(src, `"regexp"`) || !strings.Contains(src, "func matchSKU(s string) bool") {
		t.Errorf("compiled function should be plain Go named matchSKU:\n%s", src)
	}
	fallbackCode, _, _ := Func("matchWord", `\bword\b`)
	src = renderFile(t, "p", fallbackCode)
	for _, want := range []string{"var matchWordRegexp = regexp.MustCompile(`\\bword\\b`)", "func matchWord(s string) bool", "matchWordRegexp.MatchString(s)"} {
		if !strings.Contains(src, want) {
			t.Errorf("fallback code lacks %q:\n%s", want, src)
		}
	}
	// The expression is shown in the doc comment even when it cannot be backquoted.
	code, _, _ := Func("matchTick", "a`\n")
	if src := renderFile(t, "p", code); !strings.Contains(src, "// matchTick reports whether s contains a match of the regular expression \"a`\\n\",") {
		t.Errorf("doc comment should quote the expression:\n%s", src)
	}
}

func TestFuncIsDeterministic(t *testing.T) {
	for _, p := range testPatterns {
		a, _, _ := Func("m", p.expr)
		b, _, _ := Func("m", p.expr)
		if renderFile(t, "p", a) != renderFile(t, "p", b) {
			t.Errorf("Func(%q) renders differently on two calls", p.expr)
		}
	}
}

// checkerMain is the main package of the temporary module: it reads a corpus of (pattern index,
// quoted string) lines and compares every generated function with regexp.
const checkerMain = `package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

func main() {
	f, err := os.Open(os.Args[1])
	if err != nil {
		panic(err)
	}
	compiled := make([]*regexp.Regexp, len(patterns))
	for i, p := range patterns {
		compiled[i] = regexp.MustCompile(p.expr)
	}
	checked, mismatches := 0, 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		index, quoted, _ := strings.Cut(sc.Text(), "\t")
		i, err := strconv.Atoi(index)
		if err != nil {
			panic(err)
		}
		s, err := strconv.Unquote(quoted)
		if err != nil {
			panic(err)
		}
		checked++
		if got, want := patterns[i].match(s), compiled[i].MatchString(s); got != want {
			mismatches++
			if mismatches <= 20 {
				fmt.Printf("pattern %q on %q: generated code says %v, regexp says %v\n", patterns[i].expr, s, got, want)
			}
		}
	}
	if err := sc.Err(); err != nil {
		panic(err)
	}
	fmt.Printf("checked %d strings, %d mismatches\n", checked, mismatches)
	if mismatches > 0 {
		os.Exit(1)
	}
}
`

// TestGeneratedFuncsMatchRegexp renders every test pattern into one file of a temporary module,
// builds and runs it with a main that compares each function with regexp.MatchString over a
// corpus per pattern, and fails on any disagreement.
func TestGeneratedFuncsMatchRegexp(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a temporary module")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found")
	}
	dir := t.TempDir()

	var codes []jen.Code
	var table []jen.Code
	var lines strings.Builder
	r := rand.New(rand.NewPCG(7, 11))
	for i, p := range testPatterns {
		code, _, err := Func("match"+p.name, p.expr)
		if err != nil {
			t.Fatalf("Func(%q): %v", p.expr, err)
		}
		codes = append(codes, code)
		table = append(table, jen.Values(jen.Lit(p.expr), jen.Id("match"+p.name)))
		for _, s := range corpus(p.expr, r, 3000) {
			fmt.Fprintf(&lines, "%d\t%s\n", i, strconv.Quote(s))
		}
	}
	codes = append(codes, jen.Var().Id("patterns").Op("=").Index().Struct(
		jen.Id("expr").String(),
		jen.Id("match").Func().Params(jen.String()).Bool(),
	).Values(table...))

	files := map[string]string{
		"go.mod":      "module patterncheck\n\ngo 1.26\n",
		"patterns.go": renderFile(t, "main", codes...),
		"main.go":     checkerMain,
		"corpus.txt":  lines.String(),
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(goTool, "run", ".", "corpus.txt")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run of the generated functions failed: %v\n%s", err, out)
	}
	t.Logf("%s", bytes.TrimSpace(out))
}
