// Package gen is toolgen's generator: it turns Go packages whose funcs carry //tool:
// directives into generated Go files of tools.
//
// The pipeline runs in phases, each in its own package, with the model (gen/model) as the
// only thing passed between them:
//
//	load     (gen/load)     go/packages, with -tags=toolgen so earlier output is ignored
//	parse    (gen/parse)    directives, doc comments, types and tags → model, with positions
//	check    (gen/check)    checks across tools and packages: names, examples, hints, …
//	provider (gen/provider) what each enabled provider (-providers) cannot take, at the
//	                        field concerned; the runtime derives the same conversions
//	                        (internal/dialect) through Tool.Variant
//	schema   (gen/schema)   model → JSON Schema 2020-12 (input and output)
//	emit     (gen/emit)     model → Go source, with jennifer
//
// Every user error is a diagnostic (gen/diag) at file:line:col; all are collected before
// anything is written, and nothing is written when there is one. Generate returns the files
// instead of writing them, so tests and -check run the whole generator in memory.
package gen

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
	"github.com/toolgen-go/toolgen/gen/check"
	"github.com/toolgen-go/toolgen/gen/diag"
	"github.com/toolgen-go/toolgen/gen/emit"
	"github.com/toolgen-go/toolgen/gen/load"
	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/gen/parse"
	"github.com/toolgen-go/toolgen/gen/provider"
	"github.com/toolgen-go/toolgen/gen/schema"
)

// DefaultOutput is the name of the generated file in each package.
const DefaultOutput = "tools_gen.go"

// Config says what to generate.
type Config struct {
	Dir        string   // working directory; patterns and printed paths are relative to it
	Patterns   []string // package patterns; default "."
	Tags       []string // extra build tags
	Output     string   // generated file name; default DefaultOutput
	SchemasDir string   // when set, also write <tool>.schema.json files there (relative to Dir)
	Strict     bool     // warnings fail the run
	// Providers limits the provider variants checked and derived (gen/provider names: openai,
	// anthropic, gemini, mcp); empty means all of them.
	Providers []string
	// Tests writes the generated tests (TestOutput) of every package, as //tool:tests in a
	// package's doc comment does for that package.
	Tests bool
}

// TestOutput is the name of the generated tests' file beside the generated file output:
// tools_gen.go's is tools_gen_test.go.
func TestOutput(output string) string {
	return strings.TrimSuffix(output, ".go") + "_test.go"
}

// File is one file toolgen owns: its absolute path and content. A nil Content means the file
// is stale output of a package that no longer declares tools, to be removed.
type File struct {
	Path    string
	Content []byte
}

// Result is the outcome of a run.
type Result struct {
	Packages    []*model.Package // the packages that declare tools, sorted by import path
	Files       []File           // sorted by path
	Diagnostics *diag.List
}

// Failed reports whether the run found errors (or, under strict, warnings); no file should be
// written then.
func (r *Result) Failed(strict bool) bool { return r.Diagnostics.HasErrors(strict) }

// Generate runs the generator in memory. The error is for failures that are not the user's
// code (a broken toolchain, an internal error); problems in the code are diagnostics.
func Generate(ctx context.Context, cfg Config) (*Result, error) {
	if cfg.Output == "" {
		cfg.Output = DefaultOutput
	}
	if len(cfg.Patterns) == 0 {
		cfg.Patterns = []string{"."}
	}
	if cfg.Output != filepath.Base(cfg.Output) || !strings.HasSuffix(cfg.Output, ".go") {
		return nil, fmt.Errorf("-output must be a file name ending in .go, got %q", cfg.Output)
	}
	providers, err := provider.Parse(strings.Join(cfg.Providers, ","))
	if err != nil {
		return nil, fmt.Errorf("-providers: %w", err)
	}
	res := &Result{Diagnostics: &diag.List{}}
	loader, pkgs, err := load.New(ctx, cfg.Dir, cfg.Patterns, cfg.Tags, res.Diagnostics)
	if err != nil {
		return nil, err
	}
	var without []string // directories of packages without tools: stale output is removed there
	for _, p := range pkgs {
		m := parse.Package(loader, p, res.Diagnostics)
		if m == nil {
			if dir := load.PackageDir(p); dir != "" {
				without = append(without, dir)
			}
			continue
		}
		loader.NoteTypeErrors(p, res.Diagnostics)
		res.Packages = append(res.Packages, m)
	}
	slices.SortFunc(res.Packages, func(a, b *model.Package) int { return strings.Compare(a.Path, b.Path) })
	check.Run(res.Packages, res.Diagnostics)
	provider.Run(res.Packages, providers, res.Diagnostics)
	if res.Failed(cfg.Strict) {
		return res, nil
	}

	for _, m := range res.Packages {
		src, err := emit.File(m, emit.Providers(providers...))
		if err != nil {
			return nil, err
		}
		res.Files = append(res.Files, File{Path: filepath.Join(m.Dir, cfg.Output), Content: src})
		testFile, err := testsFile(cfg, m)
		if err != nil {
			return nil, err
		}
		if testFile != nil {
			res.Files = append(res.Files, *testFile)
		}
		if cfg.SchemasDir != "" {
			res.Files = append(res.Files, schemaFiles(cfg, m)...)
		}
	}
	for _, dir := range without {
		for _, name := range []string{cfg.Output, TestOutput(cfg.Output)} {
			if path := filepath.Join(dir, name); ownedByToolgen(path) {
				res.Files = append(res.Files, File{Path: path})
			}
		}
	}
	slices.SortFunc(res.Files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return res, nil
}

// testsFile is the generated tests of m when they are asked for (cfg.Tests, or //tool:tests)
// and some tool has a handler to test; else, when the file is there and toolgen's, its
// removal (the tests were turned off); else nil.
func testsFile(cfg Config, m *model.Package) (*File, error) {
	path := filepath.Join(m.Dir, TestOutput(cfg.Output))
	var src []byte
	if cfg.Tests || m.Tests {
		var err error
		if src, err = emit.TestFile(m); err != nil {
			return nil, err
		}
	}
	if src == nil && !ownedByToolgen(path) {
		return nil, nil
	}
	return &File{Path: path, Content: src}, nil
}

// schemaFiles renders -schemas output: the input schema of each tool, and its output schema
// when the result is structured.
func schemaFiles(cfg Config, m *model.Package) []File {
	dir := cfg.SchemasDir
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(cfg.Dir, dir)
	}
	var out []File
	for _, t := range m.Tools {
		out = append(out, File{Path: filepath.Join(dir, t.Name+".schema.json"), Content: schema.Indent(schema.Input(t))})
		if o := schema.Output(t); o != nil {
			out = append(out, File{Path: filepath.Join(dir, t.Name+".output.schema.json"), Content: schema.Indent(o)})
		}
	}
	return out
}

// ownedByToolgen reports whether the file at path exists and was generated by toolgen, the
// only condition under which toolgen removes a file.
func ownedByToolgen(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	head, _, _ := bytes.Cut(data, []byte("\npackage "))
	return emit.IsGeneratedHeader(head)
}

// Write writes the files whose content differs from what is on disk (keeping modification
// times, and so the build cache, of unchanged files) and removes stale ones. It returns the
// files it changed, in the order of r.Files: those with a nil Content were removed.
func (r *Result) Write() ([]File, error) {
	var changed []File
	for _, f := range r.Files {
		old, err := os.ReadFile(f.Path)
		exists := err == nil
		switch {
		case f.Content == nil:
			if !exists {
				continue
			}
			if err := os.Remove(f.Path); err != nil {
				return changed, err
			}
		case exists && bytes.Equal(old, f.Content):
			continue
		default:
			if err := os.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
				return changed, err
			}
			if err := os.WriteFile(f.Path, f.Content, 0o644); err != nil {
				return changed, err
			}
		}
		changed = append(changed, f)
	}
	return changed, nil
}

// Diff compares the files with what is on disk and returns a unified diff of every difference
// (paths relative to dir), empty when everything is up to date. It is for reading: JSON in
// raw string literals (schemas, examples) is shown indented on both sides, so that changing
// one keyword is a one-line change rather than two long lines.
func (r *Result) Diff(dir string) string {
	var b strings.Builder
	for _, f := range r.Files {
		old, err := os.ReadFile(f.Path)
		if err != nil {
			old = nil
		}
		if f.Content == nil && err != nil {
			continue
		}
		if bytes.Equal(old, f.Content) && err == nil {
			continue
		}
		name := diag.Relative(dir, f.Path)
		text, _ := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
			A:        difflib.SplitLines(indentJSONLiterals(string(old))),
			B:        difflib.SplitLines(indentJSONLiterals(string(f.Content))),
			FromFile: "a/" + name,
			ToFile:   "b/" + name,
			Context:  3,
		})
		if text == "" { // one side missing and the other empty
			text = fmt.Sprintf("--- a/%s\n+++ b/%s\n", name, name)
		}
		b.WriteString(text)
	}
	return b.String()
}

// jsonLiteral matches a raw string literal, or several joined by +, holding a JSON object or
// array: schemas are emitted one member per line, as raw strings joined with +.
var jsonLiteral = regexp.MustCompile("`[{\\[][^`]*`(?:\\s*\\+\\s*`[^`]*`)*")

// rawPieces matches each raw string literal of a jsonLiteral match.
var rawPieces = regexp.MustCompile("`[^`]*`")

// indentJSONLiterals rewrites every raw string literal (or + joined run of them) of src
// holding valid JSON as indented JSON, one value per line, for Diff.
func indentJSONLiterals(src string) string {
	return jsonLiteral.ReplaceAllStringFunc(src, func(lit string) string {
		var joined strings.Builder
		for _, piece := range rawPieces.FindAllString(lit, -1) {
			joined.WriteString(piece[1 : len(piece)-1])
		}
		var b bytes.Buffer
		if err := json.Indent(&b, []byte(joined.String()), "\t", "  "); err != nil {
			return lit
		}
		return "`\n\t" + b.String() + "\n`"
	})
}
