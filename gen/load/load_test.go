package load_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/gen/diag"
	"github.com/toolgen-go/toolgen/gen/load"
)

func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module example.com/m\n\ngo 1.26\n"
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoadReportsErrorsAndSkipsGeneratedFiles(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"ok/ok.go": "package ok\n\nvar X int = \"not an int\"\n",
		// Stale toolgen output must not take part in the run.
		"ok/tools_gen.go": "//go:build !toolgen\n\npackage ok\n\nthis does not parse\n",
		"bad/bad.go":      "package bad\n\nfunc {\n",
		"other/other.go":  "package other\n\n// Speed is a speed.\ntype Speed string\n",
	})
	var diags diag.List
	l, pkgs, err := load.New(context.Background(), dir, []string{"./ok", "./bad"}, nil, &diags)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 2 {
		t.Fatalf("got %d packages", len(pkgs))
	}
	for _, p := range pkgs {
		l.NoteTypeErrors(p, &diags)
	}
	items := diags.Items()
	var got []string
	for _, d := range items {
		sev := [...]string{diag.Error: "error", diag.Warning: "warning", diag.Note: "note"}[d.Severity]
		got = append(got, sev+" "+diag.Relative(dir, d.Pos.Filename)+" "+d.Message)
	}
	joined := strings.Join(got, "\n")
	if !strings.Contains(joined, "error bad/bad.go expected") {
		t.Errorf("the syntax error should be an error at bad/bad.go:\n%s", joined)
	}
	if !strings.Contains(joined, "note ok/ok.go package example.com/m/ok does not type-check (1 error; first: cannot use \"not an int\"") {
		t.Errorf("the type error should be one note at ok/ok.go:\n%s", joined)
	}
	if strings.Contains(joined, "tools_gen.go") {
		t.Errorf("the generated file should be excluded by -tags=toolgen:\n%s", joined)
	}
	if n := strings.Count(joined, "cannot use"); n != 1 {
		t.Errorf("the type error should be reported once, got %d:\n%s", n, joined)
	}

	// Syntax of a package outside the roots, loaded on demand and cached.
	other := l.Syntax("example.com/m/other")
	if other == nil || len(other.Syntax) != 1 || other.Syntax[0].Decls == nil {
		t.Fatalf("Syntax(other) = %+v", other)
	}
	if again := l.Syntax("example.com/m/other"); again != other {
		t.Errorf("Syntax should cache the package")
	}
	if l.Syntax("example.com/m/ok") != pkgs[0] && l.Syntax("example.com/m/ok") != pkgs[1] {
		t.Errorf("Syntax of a root package should return the root")
	}
	if l.Syntax("example.com/m/missing") != nil {
		t.Errorf("Syntax of a missing package should be nil")
	}
	pos := l.Position(other.Syntax[0].Decls[0].Pos())
	if pos.Filename != filepath.Join(dir, "other", "other.go") || pos.Line != 4 || pos.Column != 1 {
		t.Errorf("Position = %s", pos)
	}
}

func TestLoadWithoutPackagesFails(t *testing.T) {
	dir := writeModule(t, map[string]string{})
	var diags diag.List
	if _, _, err := load.New(context.Background(), dir, []string{"./..."}, nil, &diags); err == nil {
		t.Errorf("loading a module without packages should fail; diagnostics: %d", diags.Len())
	}
}
