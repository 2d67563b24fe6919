package gen_test

// The golden tests run the whole generator on the txtar cases under testdata/gen and compare
// what it writes and prints with the want/ files of each archive, then build and test the
// generated code of every successful case in one temporary module.
//
// Archive layout (testdata/gen/NAME.txtar):
//
//	# prose describing the case (lines starting with #)
//	-strict -schemas ./a ./b        flags and package patterns (optional; default ".")
//	-- a.go --                      input files; go.mod is added unless the archive has one
//	-- case_test.go --              optional: a test of the generated code, run in the case's package
//	-- want/tools_gen.go --         the generated file of the root package
//	-- want/b/tools_gen.go --       … of package b
//	-- want/schemas/NAME.schema.json --  with -schemas
//	-- want/stderr --               the printed diagnostics, paths relative to the case directory
//
// A case with a want/*.go file is expected to succeed, one without to fail; a case that does
// the other is reported as such. go test ./gen -run TestGolden -update rewrites the want/
// sections, but only when the new output builds and its tests pass; one case alone:
// go test ./gen -run 'TestGolden/(generate|compile)/NAME' -update. Under -short the compile
// step is skipped.

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pmezard/go-difflib/difflib"
	"golang.org/x/tools/txtar"

	"github.com/toolgen-go/toolgen/annotations"
	"github.com/toolgen-go/toolgen/gen"
	"github.com/toolgen-go/toolgen/gen/agreement"
	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/internal/buildtest"
	"github.com/toolgen-go/toolgen/runtime"
)

var update = flag.Bool("update", false,
	"rewrite the want/ sections of testdata/gen/*.txtar with the generator's output; "+
		"accepted only when the output builds and its tests pass")

// caseModule is the module path of a case when the archive has no go.mod of its own.
const caseModule = "example.com/m"

// goEnv makes the go command work offline from the host's module and build caches: the
// temporary modules of the tests only need what the repository's go.sum already lists.
var goEnv = map[string]string{"GOFLAGS": "-mod=mod", "GOPROXY": "off", "GOWORK": "off"}

func TestMain(m *testing.M) {
	// gen.Generate runs go list in-process through go/packages, which reads the process
	// environment, so it is set once here rather than per test.
	for k, v := range goEnv {
		os.Setenv(k, v)
	}
	os.Exit(m.Run())
}

// goldenCase is one archive and, once run, what the generator produced for it.
type goldenCase struct {
	name     string
	file     string // the archive's path
	archive  *txtar.Archive
	strict   bool
	schemas  bool
	patterns []string
	module   string            // the case's module path
	want     map[string][]byte // want/ files, keyed by the path after "want/"

	// Set by run.
	dir    string            // the temporary directory the case ran in
	got    map[string][]byte // generated files and "stderr", keyed like want
	failed bool
	pkgs   []*model.Package
}

// expectSuccess reports whether the archive says the run succeeds: it has generated Go files.
func (c *goldenCase) expectSuccess() bool {
	for name := range c.want {
		if strings.HasSuffix(name, ".go") {
			return true
		}
	}
	// A package without tools generates nothing, and succeeds when it has only notes.
	notes := false
	for _, line := range strings.Split(string(c.want["stderr"]), "\n") {
		if line == "" || strings.HasPrefix(line, "\t") {
			continue
		}
		if !strings.Contains(line, ": note: ") {
			return false
		}
		notes = true
	}
	return notes
}

func repoRoot(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// loadCases reads every archive under testdata/gen.
func loadCases(t testing.TB) []*goldenCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "gen", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no cases in testdata/gen")
	}
	var cases []*goldenCase
	for _, file := range files {
		cases = append(cases, loadCase(t, file))
	}
	return cases
}

func loadCase(t testing.TB, file string) *goldenCase {
	t.Helper()
	a, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	c := &goldenCase{
		name:    strings.TrimSuffix(filepath.Base(file), ".txtar"),
		file:    file,
		archive: a,
		module:  caseModule,
		want:    map[string][]byte{},
	}
	for _, line := range strings.Split(string(a.Comment), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		for _, field := range strings.Fields(line) {
			switch {
			case field == "-strict":
				c.strict = true
			case field == "-schemas":
				c.schemas = true
			case strings.HasPrefix(field, "-"):
				t.Fatalf("%s: unknown flag %s in the archive comment (known: -strict, -schemas)", file, field)
			default:
				c.patterns = append(c.patterns, field)
			}
		}
	}
	for _, f := range a.Files {
		if name, ok := strings.CutPrefix(f.Name, "want/"); ok {
			c.want[name] = f.Data
		}
		if f.Name == "go.mod" {
			if m := regexp.MustCompile(`(?m)^module\s+(\S+)`).FindSubmatch(f.Data); m != nil {
				c.module = string(m[1])
			}
		}
	}
	return c
}

// inputs returns the archive's files other than want/.
func (c *goldenCase) inputs() []txtar.File {
	var in []txtar.File
	for _, f := range c.archive.Files {
		if !strings.HasPrefix(f.Name, "want/") {
			in = append(in, f)
		}
	}
	return in
}

// goMod is the go.mod of a temporary module that uses the repository's toolgen.
func goMod(module, root string) string {
	return fmt.Sprintf("module %s\n\ngo 1.26\n\nrequire github.com/toolgen-go/toolgen v0.0.0\n\n"+
		"replace github.com/toolgen-go/toolgen => %s\n", module, root)
}

// writeModule writes the case's inputs into dir as a module.
func (c *goldenCase) writeModule(t testing.TB, dir, root string) {
	t.Helper()
	files := map[string][]byte{}
	for _, f := range c.inputs() {
		files[f.Name] = f.Data
	}
	if _, ok := files["go.mod"]; !ok {
		files["go.mod"] = []byte(goMod(c.module, root))
	}
	if _, ok := files["go.sum"]; !ok {
		sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
		if err != nil {
			t.Fatal(err)
		}
		files["go.sum"] = sum
	}
	writeFiles(t, dir, files)
}

func writeFiles(t testing.TB, dir string, files map[string][]byte) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// generate runs the generator in-process on a copy of the case in dir and returns the files
// it would write and the diagnostics it prints, keyed like want.
func (c *goldenCase) generate(t testing.TB, dir string, patterns []string) (map[string][]byte, *gen.Result) {
	t.Helper()
	c.writeModule(t, dir, repoRoot(t))
	cfg := gen.Config{Dir: dir, Patterns: patterns, Strict: c.strict}
	if c.schemas {
		cfg.SchemasDir = "schemas"
	}
	res, err := gen.Generate(context.Background(), cfg)
	if err != nil {
		t.Fatalf("gen.Generate: %v", err)
	}
	got := map[string][]byte{}
	for _, f := range res.Files {
		if f.Content == nil {
			continue // removal of stale output: no case has any
		}
		rel, err := filepath.Rel(dir, f.Path)
		if err != nil || strings.HasPrefix(rel, "..") {
			t.Fatalf("generated file %s is outside the case directory %s", f.Path, dir)
		}
		got[filepath.ToSlash(rel)] = f.Content
	}
	var stderr bytes.Buffer
	res.Diagnostics.Print(&stderr, dir)
	if stderr.Len() > 0 {
		got["stderr"] = stderr.Bytes()
	}
	return got, res
}

func (c *goldenCase) run(t *testing.T) {
	t.Helper()
	c.dir = t.TempDir()
	got, res := c.generate(t, c.dir, c.patterns)
	c.got, c.failed, c.pkgs = got, res.Failed(c.strict), res.Packages
	if *update {
		return // the archive is rewritten after the compile step accepts the output
	}
	switch {
	case len(c.want) == 0:
		t.Fatalf("%s has no want/ files; run go test ./gen -run TestGolden -update to record them", c.file)
	case c.failed && c.expectSuccess():
		t.Fatalf("generation unexpectedly failed:\n%s", got["stderr"])
	case !c.failed && !c.expectSuccess():
		t.Errorf("generation unexpectedly succeeded; stderr:\n%s", got["stderr"])
	}
	for _, name := range slices.Sorted(maps.Keys(mergeKeys(c.want, got))) {
		w, inWant := c.want[name]
		g, inGot := got[name]
		switch {
		case !inWant:
			t.Errorf("%s was generated but the archive has no want/%s; if the change is expected, run go test ./gen -run TestGolden -update\n%s", name, name, g)
		case !inGot && name != "stderr":
			t.Errorf("want/%s was not generated; if the change is expected, run go test ./gen -run TestGolden -update", name)
		case !bytes.Equal(w, g):
			t.Errorf("%s: output differs from golden file; if the change is expected, run go test ./gen -run TestGolden -update\n%s",
				name, unifiedDiff("want/"+name, name, w, g))
		}
	}
}

func mergeKeys(a, b map[string][]byte) map[string][]byte {
	m := maps.Clone(a)
	maps.Copy(m, b)
	return m
}

func unifiedDiff(from, to string, a, b []byte) string {
	text, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: difflib.SplitLines(string(a)), B: difflib.SplitLines(string(b)),
		FromFile: from, ToFile: to, Context: 2,
	})
	if err != nil {
		return err.Error()
	}
	return text
}

// TestGolden runs every case, then builds, vets and tests the output of the successful ones.
func TestGolden(t *testing.T) {
	buildtest.Require(t, "loads, builds and runs every golden case")
	if *update && testing.Short() {
		t.Fatal("-update accepts output only after building and testing it; drop -short")
	}
	cases := loadCases(t)
	t.Run("generate", func(t *testing.T) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				c.run(t)
			})
		}
	})
	if t.Failed() && !*update {
		return // the compile step would only repeat the failures above
	}
	if testing.Short() {
		t.Log("-short: generated code not compiled or run")
		return
	}
	compiled := false
	t.Run("compile", func(t *testing.T) {
		compiled = true
		compileCases(t, cases)
	})
	if !*update || t.Failed() {
		return
	}
	if !compiled {
		t.Fatal("-update accepts output only after building and testing it: let -run match the compile step, " +
			"e.g. -run 'TestGolden/(generate|compile)/NAME'")
	}
	for _, c := range cases {
		if c.got != nil { // cases left out by -run keep their archive as it is
			writeArchive(t, c)
		}
	}
}

// writeArchive replaces the want/ files of the case's archive with what the generator produced.
func writeArchive(t *testing.T, c *goldenCase) {
	t.Helper()
	a := &txtar.Archive{Comment: c.archive.Comment, Files: c.inputs()}
	names := slices.Sorted(maps.Keys(c.got))
	// stderr last: the generated code first, then what was printed about it.
	if i := slices.Index(names, "stderr"); i >= 0 {
		names = append(slices.Delete(names, i, i+1), "stderr")
	}
	for _, name := range names {
		a.Files = append(a.Files, txtar.File{Name: "want/" + name, Data: c.got[name]})
	}
	data := txtar.Format(a)
	if old, err := os.ReadFile(c.file); err == nil && bytes.Equal(old, data) {
		return
	}
	if err := os.WriteFile(c.file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("updated %s", c.file)
}

// compileCases assembles the successful cases into one module, each in its own directory, with
// the generated files next to the inputs and an agreement test per package, and runs go vet and
// go test over all of them at once.
func compileCases(t *testing.T, cases []*goldenCase) {
	root := repoRoot(t)
	dir := t.TempDir()
	const module = "example.com/golden"
	files := map[string][]byte{"go.mod": []byte(goMod(module, root))}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files["go.sum"] = sum
	compiled := 0
	for _, c := range cases {
		if c.failed || c.got == nil {
			continue
		}
		compiled++
		// The case's import paths move under the combined module.
		rewrite := strings.NewReplacer(
			`"`+c.module+`"`, `"`+module+"/"+c.name+`"`,
			`"`+c.module+"/", `"`+module+"/"+c.name+"/",
		)
		for _, f := range c.inputs() {
			if f.Name == "go.mod" || f.Name == "go.sum" {
				continue
			}
			files[path.Join(c.name, f.Name)] = []byte(rewrite.Replace(string(f.Data)))
		}
		for name, data := range c.got {
			if strings.HasSuffix(name, ".go") {
				files[path.Join(c.name, name)] = []byte(rewrite.Replace(string(data)))
			}
		}
		for _, p := range c.pkgs {
			rel, err := filepath.Rel(c.dir, p.Dir)
			if err != nil {
				t.Fatal(err)
			}
			if src := agreementTest(p); src != nil {
				files[path.Join(c.name, filepath.ToSlash(rel), "zz_agreement_test.go")] = src
			}
		}
	}
	if compiled == 0 {
		t.Fatal("no successful case to compile")
	}
	writeFiles(t, dir, files)
	goCommand(t, dir, "vet", "./...")
	goCommand(t, dir, "test", "-count=1", "./...")
}

// The agreement tests agreementTest writes call agreement.Check: referring to it here makes a
// change of its signature fail this file's build, not only the generated tests'.
var _ func(testing.TB, []runtime.Tool) = agreement.Check

// agreementTest is a test, in the package of p, that checks every tool whose decoder alone
// decides validity against an independent JSON Schema validator. Client tools have no decoder;
// the user's code decides what more the decoder refuses when the args type has a Validate
// method or holds a TextUnmarshaler (the schema can only say "a string").
func agreementTest(p *model.Package) []byte {
	keep := map[string]bool{}
	var calls []string
	for _, tool := range p.Tools {
		if tool.Client || tool.Handler.Validate || tool.Args.HoldsText() {
			continue
		}
		keep[tool.Name] = true
		noun := map[model.ServeKind]string{model.ServeTool: "Tools", model.ServePrompt: "Prompts", model.ServeResource: "Resources"}[tool.Serve]
		call := noun + "()"
		if r := tool.Handler.Receiver; r != nil {
			call = fmt.Sprintf("%s%s(new(%s))", r.TypeName, noun, r.TypeName)
		}
		if !slices.Contains(calls, call) {
			calls = append(calls, call)
		}
	}
	if len(keep) == 0 {
		return nil
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "package %s\n\n", p.Name)
	b.WriteString("import (\n\t\"testing\"\n\n\t\"github.com/toolgen-go/toolgen/gen/agreement\"\n\ttoolgenruntime \"github.com/toolgen-go/toolgen/runtime\"\n)\n\n")
	b.WriteString("func TestToolgenAgreement(t *testing.T) {\n\tvar all []toolgenruntime.Tool\n")
	for _, call := range calls {
		fmt.Fprintf(&b, "\tall = append(all, %s...)\n", call)
	}
	b.WriteString("\tkeep := map[string]bool{")
	for i, name := range slices.Sorted(maps.Keys(keep)) {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q: true", name)
	}
	b.WriteString("}\n\tvar tools []toolgenruntime.Tool\n\tfor _, tool := range all {\n\t\tif keep[tool.Name] {\n\t\t\ttools = append(tools, tool)\n\t\t}\n\t}\n")
	fmt.Fprintf(&b, "\tif len(tools) != %d {\n\t\tt.Fatalf(\"found %%d of the %d tools to check\", len(tools))\n\t}\n", len(keep), len(keep))
	b.WriteString("\tagreement.Check(t, tools)\n}\n")
	return b.Bytes()
}

func goCommand(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s in the module of the generated code: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// TestGoldenDeterminism generates a multi-package case twice, in different directories and
// with the package patterns in the opposite order, and requires the same bytes.
func TestGoldenDeterminism(t *testing.T) {
	buildtest.Require(t, "loads the golden cases twice")
	c := loadCase(t, filepath.Join("..", "testdata", "gen", "packages_two_with_shared_types.txtar"))
	if len(c.patterns) < 2 {
		t.Fatalf("%s must name at least two package patterns", c.file)
	}
	first, _ := c.generate(t, t.TempDir(), c.patterns)
	reversed := slices.Clone(c.patterns)
	slices.Reverse(reversed)
	second, _ := c.generate(t, t.TempDir(), reversed)
	if len(first) == 0 {
		t.Fatal("nothing generated")
	}
	for _, name := range slices.Sorted(maps.Keys(mergeKeys(first, second))) {
		if !bytes.Equal(first[name], second[name]) {
			t.Errorf("%s differs between runs with patterns %v and %v:\n%s", name, c.patterns, reversed,
				unifiedDiff(name+" (first)", name+" (second)", first[name], second[name]))
		}
	}
}

var (
	directiveUse = regexp.MustCompile(`//tool:([a-zA-Z]+)`)
	tagUse       = regexp.MustCompile("tool:\"([^\"]*)\"")
)

// TestGoldenCoversRegistry fails when a directive or tag key of the annotations registry has
// no case using it, so a new directive cannot ship without an end-to-end test.
func TestGoldenCoversRegistry(t *testing.T) {
	directives, tags := map[string]bool{}, map[string]bool{}
	for _, c := range loadCases(t) {
		for _, f := range c.inputs() {
			for _, m := range directiveUse.FindAllSubmatch(f.Data, -1) {
				directives[string(m[1])] = true
			}
			for _, m := range tagUse.FindAllSubmatch(f.Data, -1) {
				items, _ := annotations.ParseTag(string(m[1]))
				for _, it := range items {
					if it.Key != nil {
						tags[it.Key.Name] = true
					}
				}
			}
		}
	}
	for _, d := range annotations.Directives {
		if !directives[d.Name] {
			t.Errorf("no case in testdata/gen uses //tool:%s", d.Name)
		}
	}
	for _, k := range annotations.TagKeys {
		if !tags[k.Name] {
			t.Errorf("no case in testdata/gen uses the tag key %s", k.Name)
		}
	}
}
