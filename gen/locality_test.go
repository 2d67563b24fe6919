package gen_test

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pmezard/go-difflib/difflib"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/gen"
)

// Adding one field to an argument type changes the generated file where that field is, and
// nowhere else: every generated name derives from what it names (a type, a field's rule by its
// content), so no other declaration is renamed or renumbered and a -check diff stays short.
// The package is examples/orders, which has nested structs, enums, defaults, patterns and
// rules several fields share.
func TestGeneratedDiffIsLocal(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: loads packages")
	}
	root := repoRoot(t)
	src, err := os.ReadFile(filepath.Join(root, "examples", "orders", "orders", "orders.go"))
	require.NoError(t, err)
	const anchor = "type CreateOrderArgs struct {\n"
	require.Contains(t, string(src), anchor, "the test adds its field to CreateOrderArgs of examples/orders")

	cases := []struct{ name, field string }{
		// A new rule, a new default and a new value, inserted before every other field.
		{"int with bounds and a default", "\t// Priority of the order, 1 (urgent) to 5.\n\tPriority int `json:\"priority,omitempty\" tool:\"minimum=1,maximum=5,default=3\"`\n"},
		// A new pattern, which has a matcher function of its own.
		{"string with a pattern", "\t// Coupon code, if any.\n\tCoupon *string `json:\"coupon,omitempty\" tool:\"pattern=^[A-Z0-9]{8}$\"`\n"},
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string][]byte{"go.mod": []byte(goMod(caseModule, root)), "orders/orders.go": src})
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	writeFiles(t, dir, map[string][]byte{"go.sum": sum})
	before := generateOne(t, dir)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			changed := strings.Replace(string(src), anchor, anchor+c.field, 1)
			writeFiles(t, dir, map[string][]byte{"orders/orders.go": []byte(changed)})
			after := generateOne(t, dir)
			diff := unifiedDiff("before", "after", before, after)

			removed := 0
			for _, line := range difflib.SplitLines(diff) {
				if strings.HasPrefix(line, "-") && !strings.HasPrefix(line, "---") {
					removed++
				}
			}
			// The field's own lines: the property names, the schemas that hold it, the list
			// of members with a default. Before names were derived, this was over a hundred.
			assert.LessOrEqual(t, removed, 8, "lines removed or changed:\n%s", diff)

			old, now := declarations(t, before), declarations(t, after)
			var changedDecls, added []string
			for n, text := range old {
				if now[n] != text {
					changedDecls = append(changedDecls, n)
				}
			}
			for n := range now {
				if _, ok := old[n]; !ok {
					added = append(added, n)
				}
			}
			slices.Sort(changedDecls)
			slices.Sort(added)
			// What holds the field: its type's table and property names, the schemas and
			// schema lists that describe it, the encoder of the result that embeds it, the
			// stale-type guard (func _) that spells the type.
			assert.LessOrEqual(t, len(changedDecls), 7, "declarations changed, renamed or removed: %v; added: %v\n%s", changedDecls, added, diff)
			for _, n := range changedDecls {
				_, kept := now[n]
				assert.True(t, kept, "declaration %s was renamed or removed; added: %v", n, added)
			}
			t.Logf("%d lines removed or changed, declarations changed: %v, added: %v", removed, changedDecls, added)
			assert.LessOrEqual(t, len(added), 4, "only the new field's value, rule, default or matcher are new: %v", added)
		})
	}
}

// generateOne runs the generator on the package orders of the module in dir and returns its
// generated file.
func generateOne(t *testing.T, dir string) []byte {
	t.Helper()
	res, err := gen.Generate(context.Background(), gen.Config{Dir: dir, Patterns: []string{"./orders"}})
	require.NoError(t, err)
	var out strings.Builder
	res.Diagnostics.Print(&out, dir)
	require.False(t, res.Failed(false), "%s", out.String())
	for _, f := range res.Files {
		if strings.HasSuffix(f.Path, ".go") && f.Content != nil {
			return f.Content
		}
	}
	t.Fatalf("no generated file; files: %v", res.Files)
	return nil
}

// declarations maps each package-level name a generated file declares to the text of its
// declaration.
func declarations(t *testing.T, src []byte) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "tools_gen.go", src, parser.SkipObjectResolution|parser.ParseComments)
	require.NoError(t, err)
	text := func(n ast.Node) string {
		return string(src[fset.Position(n.Pos()).Offset:fset.Position(n.End()).Offset])
	}
	decls := map[string]string{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				decls[d.Name.Name] += text(d)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						decls[n.Name] += text(s)
					}
				case *ast.TypeSpec:
					decls[s.Name.Name] += text(s)
				}
			}
		}
	}
	return decls
}
