package emit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/annotations"
	"github.com/toolgen-go/toolgen/runtime/decode"
)

// toolimplFuncs returns the names of the functions runtime/toolimpl declares, which generated
// code may call.
func toolimplFuncs(t *testing.T) map[string]bool {
	t.Helper()
	const dir = "../../runtime/toolimpl"
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, e.Name()), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil {
				names[fn.Name.Name] = true
			}
		}
	}
	return names
}

// The formats a tag may name (annotations), the checkers the decoder has (runtime/decode) and
// the checker names the emitter writes must be one set: a format missing from any of them
// would be accepted by the parser and then fail to generate or to build.
func TestFormatTablesAgree(t *testing.T) {
	registry := slices.Sorted(slices.Values(annotations.Formats))
	if got := decode.FormatNames(); !slices.Equal(got, registry) {
		t.Errorf("runtime/decode supports %v, the annotations registry lists %v", got, registry)
	}
	inToolimpl := toolimplFuncs(t)
	for _, name := range annotations.Formats {
		fn, describe, ok := formatFunc(name)
		if !ok || fn == "" || describe == "" {
			t.Errorf("format %q has no checker in the emitter's table", name)
			continue
		}
		// The name generated code calls is the function the registry checks with.
		check, _, _ := decode.FormatFunc(name)
		if got := runtime.FuncForPC(reflect.ValueOf(check).Pointer()).Name(); got != "github.com/toolgen-go/toolgen/runtime/decode."+fn {
			t.Errorf("format %q: generated code calls toolimpl.%s, which calls decode.%[2]s, the registry checks with %s", name, fn, got)
		}
		if !inToolimpl[fn] {
			t.Errorf("format %q: generated code calls toolimpl.%s, which runtime/toolimpl does not declare", name, fn)
		}
	}
}
