package docs_test

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// repoModule is the import path of this repository's root module.
const repoModule = "github.com/toolgen-go/toolgen"

// docNames are the package names the prose uses beyond the fragments' imports: packages a user
// never imports, which the guides and package docs still name.
var docNames = map[string]string{
	"toolimpl": repoModule + "/runtime/toolimpl",
	"decode":   repoModule + "/runtime/decode",
	"encode":   repoModule + "/runtime/encode",
	"tooltest": repoModule + "/runtime/tooltest",
	"variant":  repoModule + "/runtime/variant",
}

// otherPackages are qualified names whose package name is one of this repository's and whose
// package is not: each says whose it is.
var otherPackages = map[string]bool{
	"runtime.Goexit":  true, // Go's runtime (runtime/doc.go: a handler that calls it)
	"runtime.Version": true, // Go's runtime (docs/benchmarks.md: the report's header)
	// langchaingo's openai (runtime/tooltest/doc.go: the agent a scripted model answers)
	"openai.New": true, "openai.WithBaseURL": true, "openai.WithToken": true,
}

// qualified is a package-qualified Go name in prose or code: runtime.Tool, toolmcp.Server.Serve.
var qualified = regexp.MustCompile(`\b([a-z][a-z0-9]*)\.([A-Z][A-Za-z0-9_]*)(?:\.([A-Z][A-Za-z0-9_]*))?`)

// api is the exported Go API of one package, as go doc shows it: its names and, per type,
// its methods and fields.
type api struct {
	names   map[string]bool
	members map[string]map[string]bool // type → method or field
}

func (a api) has(name, member string) bool {
	if !a.names[name] {
		return false
	}
	return member == "" || a.members[name][member]
}

// repoAPI reads the exported API of every package of this repository (nested modules
// included, testdata and test files not), by import path, with go/doc: a parse, no type check,
// so it takes a fraction of a second.
func repoAPI(t *testing.T, root string) map[string]api {
	out := map[string]api{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if name := d.Name(); path != root && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		entries, err := os.ReadDir(path)
		if err != nil {
			return err
		}
		var files []*ast.File
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, filepath.Join(path, e.Name()), nil, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			if f.Name.Name == "main" || strings.HasSuffix(f.Name.Name, "_test") {
				continue
			}
			files = append(files, f)
		}
		if len(files) == 0 {
			return nil
		}
		importPath := repoModule
		if rel != "." {
			importPath += "/" + filepath.ToSlash(rel)
		}
		// Build constraints are not evaluated: a name declared in any file of the package
		// (jsonv2 on Go 1.27 only, unix or not) is API.
		p, err := doc.NewFromFiles(fset, files, importPath, doc.AllMethods)
		if err != nil {
			return err
		}
		a := api{names: map[string]bool{}, members: map[string]map[string]bool{}}
		for _, f := range p.Funcs {
			a.names[f.Name] = true
		}
		for _, v := range append(slices.Clone(p.Consts), p.Vars...) {
			for _, n := range v.Names {
				a.names[n] = true
			}
		}
		for _, ty := range p.Types {
			a.names[ty.Name] = true
			members := map[string]bool{}
			for _, m := range ty.Methods {
				members[m.Name] = true
			}
			for _, f := range ty.Funcs {
				a.names[f.Name] = true
			}
			for _, v := range append(slices.Clone(ty.Consts), ty.Vars...) {
				for _, n := range v.Names {
					a.names[n] = true
				}
			}
			for _, spec := range ty.Decl.Specs {
				ts, ok := spec.(*ast.TypeSpec)
				if !ok || ts.Name.Name != ty.Name {
					continue
				}
				if st, ok := ts.Type.(*ast.StructType); ok {
					for _, field := range st.Fields.List {
						for _, n := range field.Names {
							members[n.Name] = true
						}
						if len(field.Names) == 0 { // embedded: its name is the type's
							if id := embeddedName(field.Type); id != "" {
								members[id] = true
							}
						}
					}
				}
				if it, ok := ts.Type.(*ast.InterfaceType); ok {
					for _, m := range it.Methods.List {
						for _, n := range m.Names {
							members[n.Name] = true
						}
					}
				}
			}
			a.members[ty.Name] = members
		}
		out[importPath] = a
		return nil
	})
	require.NoError(t, err)
	return out
}

func embeddedName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.StarExpr:
		return embeddedName(e.X)
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.IndexExpr:
		return embeddedName(e.X)
	case *ast.IndexListExpr:
		return embeddedName(e.X)
	}
	return ""
}

// text is a Markdown file or the package doc of one package, with where it comes from.
type text struct {
	where string
	body  string
	self  string // the import path of the package a package doc documents
}

// TestNamesExist checks that every package-qualified Go name of this repository that the
// README, the guides and the package docs write (runtime.Tool, toolimpl.BindTools,
// toolmcp.Server.Serve, in prose or in code) is API that go doc shows today: a guide that
// names an API that is gone fails here, not in a reader's editor.
func TestNamesExist(t *testing.T) {
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	apis := repoAPI(t, root)

	// The package names a text resolves: the fragments' imports and docNames. Others (client,
	// model, schema) are as often a variable or another module's package as one of ours.
	resolve := map[string]string{}
	for name, path := range imports {
		resolve[name] = path
	}
	for name, path := range docNames {
		resolve[name] = path
	}

	var texts []text
	mds, err := filepath.Glob("*.md")
	require.NoError(t, err)
	for _, md := range append([]string{"../README.md"}, mds...) {
		body, err := os.ReadFile(md)
		require.NoError(t, err)
		texts = append(texts, text{where: md, body: string(body)})
	}
	for path := range apis {
		dir := filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(path, repoModule), "/")))
		body, err := os.ReadFile(filepath.Join(dir, "doc.go"))
		if os.IsNotExist(err) {
			continue
		}
		require.NoError(t, err)
		texts = append(texts, text{where: filepath.Join(dir, "doc.go"), body: string(body), self: path})
	}
	slices.SortFunc(texts, func(a, b text) int { return strings.Compare(a.where, b.where) })

	var stale []string
	for _, tx := range texts {
		for n, line := range strings.Split(tx.body, "\n") {
			for _, m := range qualified.FindAllStringSubmatch(line, -1) {
				pkg, name, member := m[1], m[2], m[3]
				path, ok := resolve[pkg]
				if !ok || !strings.HasPrefix(path, repoModule) || otherPackages[m[0]] {
					continue // not a package of this repository
				}
				a, ok := apis[path]
				if !ok {
					stale = append(stale, locateName(tx, n, m[0], "no package "+path))
					continue
				}
				if !a.has(name, member) {
					stale = append(stale, locateName(tx, n, m[0], "go doc "+path+" has no "+strings.TrimSuffix(name+"."+member, ".")))
				}
			}
		}
	}
	if len(stale) > 0 {
		t.Errorf("names that are not this repository's API (rename them, or say what they are now):\n%s", strings.Join(stale, "\n"))
	}
}

func locateName(tx text, line int, name, why string) string {
	rel := tx.where
	if r, err := filepath.Rel(".", tx.where); err == nil {
		rel = r
	}
	return fmt.Sprintf("%s:%d: %s: %s", rel, line+1, name, why)
}

// packageMember is where a path ends and a Go name of its package begins: runtime/mcp.Elicit.
var packageMember = regexp.MustCompile(`\.[A-Z]`)

// TestPathsExist checks that every path of this repository that the README, the guides and
// the package docs name (examples/weather, runtime/decode/doc.go, `go test ./gen/...`) is
// there: a folder moved or a file renamed fails here.
func TestPathsExist(t *testing.T) {
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	var tops []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			tops = append(tops, regexp.QuoteMeta(e.Name()))
		}
	}
	tops = append(tops, `\.ci`)
	// A path starts at a top-level folder, after a space, a quote, a backtick, a parenthesis
	// or "./"; "..." and globs end at the folder before them.
	path := regexp.MustCompile("(?:^|[\\s`'\"(\\[]|\\./)((?:" + strings.Join(tops, "|") + `)/[A-Za-z0-9_./-]*[A-Za-z0-9_])`)
	texts, err := filepath.Glob("*.md")
	require.NoError(t, err)
	texts = append(texts, "../README.md")
	docs, err := filepath.Glob("../*/doc.go")
	require.NoError(t, err)
	texts = append(texts, docs...)
	for _, pattern := range []string{"../*/*/doc.go", "../*/*/*/doc.go", "../*/*/*/*/doc.go"} {
		more, err := filepath.Glob(pattern)
		require.NoError(t, err)
		texts = append(texts, more...)
	}
	// Paths the texts name that are not this repository's.
	notOurs := map[string]bool{
		"cmd/weather-server": true, // the user's server, in docs/clients.md
		"internal/json":      true, // the go-sdk's, in docs/benchmarks.md
	}
	var missing []string
	for _, name := range texts {
		body, err := os.ReadFile(name)
		require.NoError(t, err)
		for n, line := range strings.Split(string(body), "\n") {
			for _, m := range path.FindAllStringSubmatch(line, -1) {
				p := strings.TrimSuffix(strings.Split(m[1], "...")[0], "/")
				if i := packageMember.FindStringIndex(p); i != nil {
					p = p[:i[0]] // runtime/mcp.ServeStdio: the package
				}
				if notOurs[p] {
					continue
				}
				_, err := os.Stat(filepath.Join(root, filepath.FromSlash(p)))
				if err != nil && strings.HasSuffix(name, "doc.go") { // testdata/x: the package's
					_, err = os.Stat(filepath.Join(filepath.Dir(name), filepath.FromSlash(p)))
				}
				if err != nil {
					missing = append(missing, fmt.Sprintf("%s:%d: %s is not in the repository", name, n+1, p))
				}
			}
		}
	}
	if len(missing) > 0 {
		t.Errorf("paths that are gone (say where they are now):\n%s", strings.Join(missing, "\n"))
	}
}
