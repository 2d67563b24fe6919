// Package load is the first phase of toolgen: it loads the user's packages with
// golang.org/x/tools/go/packages and turns their loading errors into positioned diagnostics.
//
// Root packages (the patterns of the run) are loaded with syntax and type information; their
// dependencies come from export data, which is fast but carries neither doc comments nor the
// source order of declarations. When the parse phase needs those for a type declared in another
// package (an args struct, an enum type and its constants), it asks the Loader for that
// package's syntax with Syntax, which loads it on first use and caches it.
//
// Every package shares one token.FileSet, so Position works for any position the Loader has
// handed out.
//
// Packages are loaded with the build tag "toolgen" (plus the user's tags). toolgen's own output
// starts with //go:build !toolgen, so a stale or broken generated file never takes part in the
// run that regenerates it.
package load

import (
	"context"
	"fmt"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/toolgen-go/toolgen/gen/diag"
	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/internal/plural"
)

// BuildTag is the build tag every load sets, so generated files (//go:build !toolgen) are left
// out of the packages toolgen reads.
const BuildTag = "toolgen"

// rootMode is what toolgen needs of the packages it generates for. NeedDeps is left out on
// purpose: type-checking dependencies from source costs seconds, export data milliseconds.
const rootMode = packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
	packages.NeedTypes | packages.NeedTypesInfo | packages.NeedModule

// Loader loads the packages of a run and, lazily, the syntax of other packages whose doc
// comments are needed (args types and enum constants declared in another package).
type Loader struct {
	ctx   context.Context
	dir   string
	flags []string
	fset  *token.FileSet

	roots  map[string]*packages.Package // root packages by import path
	syntax map[string]*packages.Package // lazily loaded packages; nil when loading failed
	// typeErrors holds the type errors of root packages, reported only for packages that
	// declare tools (NoteTypeErrors).
	typeErrors map[string][]packages.Error
}

// New loads patterns (relative to dir) and records every loading problem in diags: list and
// parse errors as errors at their positions; type errors are kept for NoteTypeErrors. The error result is for
// failures of the loader itself (no go command, a canceled context), not for problems of the
// user's code.
func New(ctx context.Context, dir string, patterns []string, tags []string, diags *diag.List) (*Loader, []*packages.Package, error) {
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("load: %w", err)
	}
	l := &Loader{
		ctx:        ctx,
		dir:        absDir,
		flags:      []string{"-tags=" + strings.Join(append([]string{BuildTag}, tags...), ",")},
		fset:       token.NewFileSet(),
		roots:      map[string]*packages.Package{},
		syntax:     map[string]*packages.Package{},
		typeErrors: map[string][]packages.Error{},
	}
	pkgs, err := packages.Load(l.config(rootMode), patterns...)
	if err != nil {
		return nil, nil, fmt.Errorf("load: %w", err)
	}
	if len(pkgs) == 0 {
		// go/packages reports some go command failures (an untidy go.mod, for one) as an
		// empty result; without this the run would silently generate nothing.
		return nil, nil, fmt.Errorf("load: no packages match %s in %s; run go list %s there to see why",
			strings.Join(patterns, " "), absDir, strings.Join(patterns, " "))
	}
	for _, p := range pkgs {
		l.roots[p.PkgPath] = p
		l.report(p, diags)
	}
	return l, pkgs, nil
}

func (l *Loader) config(mode packages.LoadMode) *packages.Config {
	return &packages.Config{
		Context:    l.ctx,
		Mode:       mode,
		Dir:        l.dir,
		BuildFlags: l.flags,
		Fset:       l.fset,
		Tests:      false,
	}
}

// report turns the errors of one package into diagnostics. go/packages reports some errors
// twice (a list error and the same type error), so they are de-duplicated by position and
// message first.
func (l *Loader) report(p *packages.Package, diags *diag.List) {
	// A package whose code calls functions toolgen has not generated yet does not type-check,
	// and go list reports the compiler's errors as a list error starting with "# pkg". Types
	// are still complete enough to generate from, so such errors are one note, not a failure;
	// only errors that stop parsing (a syntax error, a broken go.mod) fail the run.
	var typeErrs []packages.Error
	seen := map[string]bool{}
	for _, e := range p.Errors {
		key := e.Pos + "\x00" + e.Msg
		if seen[key] {
			continue
		}
		seen[key] = true
		compileErr := e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# ")
		if e.Kind == packages.TypeError || compileErr {
			if !compileErr {
				typeErrs = append(typeErrs, e)
			}
			continue
		}
		diags.Errorf(l.parseErrorPos(e.Pos), "%s", e.Msg)
	}
	if len(typeErrs) > 0 {
		l.typeErrors[p.PkgPath] = typeErrs
	}
}

// NoteTypeErrors records one note when the package, which declares tools, does not
// type-check; packages without tools stay silent, since their errors are none of toolgen's
// business.
func (l *Loader) NoteTypeErrors(p *packages.Package, diags *diag.List) {
	errs := l.typeErrors[p.PkgPath]
	if len(errs) == 0 {
		return
	}
	d := diags.Notef(l.parseErrorPos(errs[0].Pos), "package %s does not type-check (%s; first: %s); generating anyway", p.PkgPath, plural.Of(len(errs), "error"), errs[0].Msg)
	d.WithHint("this is expected when the package calls code toolgen generates")
}

// parseErrorPos reads the "file:line:col" (or "file:line", "file", "-", "") of a
// packages.Error. Relative file names are taken relative to the load directory, like the go
// command prints them.
func (l *Loader) parseErrorPos(s string) model.Position {
	if s == "" || s == "-" {
		return model.Position{}
	}
	var nums []int
	rest := s
	// Peel up to two trailing numeric fields; a Windows drive letter ("C:\x") is never numeric.
	for range 2 {
		i := strings.LastIndexByte(rest, ':')
		if i < 0 {
			break
		}
		n, err := strconv.Atoi(rest[i+1:])
		if err != nil {
			break
		}
		nums = append([]int{n}, nums...)
		rest = rest[:i]
	}
	pos := model.Position{Filename: rest}
	if !filepath.IsAbs(rest) {
		pos.Filename = filepath.Join(l.dir, rest)
	}
	if len(nums) > 0 {
		pos.Line = nums[0]
	}
	if len(nums) > 1 {
		pos.Column = nums[1]
	}
	return pos
}

// Syntax returns the parsed files and type info of the package with the given import path,
// loading it with syntax on first use (cached); used for doc comments and constant order of
// types declared outside the root packages. Returns nil when it cannot be loaded.
//
// The package is type-checked on its own, so its types.Objects are not identical to the ones
// the root packages import; callers match declarations by name.
func (l *Loader) Syntax(pkgPath string) *packages.Package {
	if pkgPath == "" {
		return nil
	}
	if p, ok := l.roots[pkgPath]; ok {
		return p
	}
	if p, ok := l.syntax[pkgPath]; ok {
		return p
	}
	var found *packages.Package
	pkgs, err := packages.Load(l.config(rootMode&^packages.NeedModule), pkgPath)
	if err == nil && len(pkgs) == 1 && pkgs[0].PkgPath == pkgPath && len(pkgs[0].Syntax) > 0 &&
		pkgs[0].Types != nil {
		found = pkgs[0]
	}
	l.syntax[pkgPath] = found
	return found
}

// PackageDir is the directory of the Go files of p, or "" when it has none.
func PackageDir(p *packages.Package) string {
	if len(p.GoFiles) == 0 {
		return ""
	}
	return filepath.Dir(p.GoFiles[0])
}

// Position converts pos, from any package this Loader loaded, to an absolute filename, line
// and column. An invalid pos gives the zero Position.
func (l *Loader) Position(pos token.Pos) model.Position {
	if !pos.IsValid() {
		return model.Position{}
	}
	p := l.fset.Position(pos)
	return model.Position{Filename: p.Filename, Line: p.Line, Column: p.Column}
}
