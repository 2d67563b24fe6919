package parse_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/gen/diag"
	"github.com/toolgen-go/toolgen/gen/load"
	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/gen/parse"
)

// repoRoot finds the toolgen module root above the test's working directory, so the temporary
// modules can replace toolgen with this checkout.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.Contains(string(data), "module github.com/toolgen-go/toolgen\n") {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("toolgen module root not found above the working directory")
		}
		dir = parent
	}
}

// result is what parsing a temporary package gave.
type result struct {
	pkg   *model.Package
	diags *diag.List
	dir   string
}

// parseFiles writes files (path → content) into a temporary module example.com/m and parses
// the package in its root directory.
func parseFiles(t *testing.T, files map[string]string) result {
	t.Helper()
	root := repoRoot(t)
	// The temporary go.mod lists only toolgen; let the go command add what toolgen needs.
	t.Setenv("GOFLAGS", "-mod=mod")
	dir := t.TempDir()
	gomod := "module example.com/m\n\ngo 1.26\n\nrequire github.com/toolgen-go/toolgen v0.0.0\n\n" +
		"replace github.com/toolgen-go/toolgen => " + root + "\n"
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	all := map[string]string{"go.mod": gomod, "go.sum": string(sum)}
	for name, content := range files {
		all[name] = content
	}
	for name, content := range all {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var diags diag.List
	l, pkgs, err := load.New(context.Background(), dir, []string{"."}, nil, &diags)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 {
		var buf bytes.Buffer
		diags.Print(&buf, dir)
		t.Fatalf("loaded %d packages, want 1:\n%s", len(pkgs), buf.String())
	}
	return result{pkg: parse.Package(l, pkgs[0], &diags), diags: &diags, dir: dir}
}

// messages renders the diagnostics as the command prints them, paths relative to the module.
func (r result) messages() string {
	var buf bytes.Buffer
	r.diags.Print(&buf, r.dir)
	return buf.String()
}

// errors lists "file:line:col: message" of every error, without hints.
func (r result) errors() []string {
	var out []string
	for _, d := range r.diags.Items() {
		if d.Severity != diag.Error {
			continue
		}
		pos := d.Pos
		pos.Filename = diag.Relative(r.dir, pos.Filename)
		out = append(out, fmt.Sprintf("%s: %s", pos, d.Message))
	}
	return out
}

// requireNoErrors fails when parsing reported any error.
func (r result) requireNoErrors(t *testing.T) {
	t.Helper()
	if r.diags.HasErrors(false) {
		t.Fatalf("unexpected errors:\n%s", r.messages())
	}
}

// dump is parse.Dump as a string.
func (r result) dump() string {
	var buf bytes.Buffer
	parse.Dump(&buf, r.pkg)
	return buf.String()
}

// tool returns the tool with the given name.
func (r result) tool(t *testing.T, name string) *model.Tool {
	t.Helper()
	if r.pkg == nil {
		t.Fatalf("no tools parsed; diagnostics:\n%s", r.messages())
	}
	for _, tl := range r.pkg.Tools {
		if tl.Name == name {
			return tl
		}
	}
	t.Fatalf("no tool %q in:\n%s", name, r.dump())
	return nil
}

// field returns the field with the given JSON name.
func field(t *testing.T, st *model.Type, jsonName string) *model.Field {
	t.Helper()
	if st == nil {
		t.Fatalf("no struct type to look up %q in", jsonName)
	}
	for _, f := range st.Fields {
		if f.JSONName == jsonName {
			return f
		}
	}
	var names []string
	for _, f := range st.Fields {
		names = append(names, f.JSONName)
	}
	t.Fatalf("no field %q among %v", jsonName, names)
	return nil
}

// wantErrors checks that each expected "file:line:col: message" appears among the errors
// (message as a prefix), and that no unexpected error was reported.
func wantErrors(t *testing.T, r result, want []string) {
	t.Helper()
	got := r.errors()
	used := make([]bool, len(got))
	for _, w := range want {
		found := false
		for i, g := range got {
			if !used[i] && strings.HasPrefix(g, w) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			t.Errorf("missing error %q", w)
		}
	}
	for i, g := range got {
		if !used[i] {
			t.Errorf("unexpected error %q", g)
		}
	}
	if t.Failed() {
		t.Logf("all diagnostics:\n%s", r.messages())
	}
}

// lineOf is the 1-based line of the first line of src containing substr.
func lineOf(t *testing.T, src, substr string) int {
	t.Helper()
	for i, line := range strings.Split(src, "\n") {
		if strings.Contains(line, substr) {
			return i + 1
		}
	}
	t.Fatalf("%q not in source", substr)
	return 0
}
