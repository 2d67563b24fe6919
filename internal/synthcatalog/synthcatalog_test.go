package synthcatalog_test

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/internal/buildtest"
	"github.com/toolgen-go/toolgen/internal/synthcatalog"
)

var (
	sizes    = flag.String("catalog", "", "measure catalogs of these sizes (e.g. 10,100,1000) and print the README's table")
	distinct = flag.Bool("distinct", false, "with -catalog: tools share no property (each has descriptions of its own)")
)

// buildToolgen builds cmd/toolgen into dir.
func buildToolgen(t *testing.T, dir string) (bin, root string) {
	t.Helper()
	buildtest.Require(t, "builds toolgen and a catalog")
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	bin = filepath.Join(dir, "toolgen")
	out, err := exec.Command("go", "build", "-o", bin, filepath.Join(root, "cmd", "toolgen")).CombinedOutput()
	require.NoError(t, err, "%s", out)
	return bin, root
}

// TestSmallCatalogBuildsAndRuns generates a catalog of 6 tools, builds the program that
// registers them and runs it: the synthetic catalog the cost table measures is valid input,
// with properties shared between tools (schemas in pieces) and without.
func TestSmallCatalogBuildsAndRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	dir := t.TempDir()
	bin, root := buildToolgen(t, dir)
	for _, distinct := range []bool{false, true} {
		mod := filepath.Join(dir, fmt.Sprint("m", distinct))
		c, err := synthcatalog.Measure(mod, root, bin, 6, distinct)
		require.NoError(t, err)
		require.Positive(t, c.GeneratedBytes)
		gen, err := os.ReadFile(filepath.Join(mod, "catalog", "tools_gen.go"))
		require.NoError(t, err)
		require.Equal(t, !distinct, strings.Contains(string(gen), "const toolgenPartEmail = "), "shared properties are parts")
		out, err := exec.Command(filepath.Join(mod, "with.bin")).CombinedOutput()
		require.NoError(t, err, "%s", out)
		require.Equal(t, "6", strings.TrimSpace(string(out)), "the program registers every tool")

		// The schemas the tools carry, joined from their pieces, are the ones toolgen wrote.
		require.NoError(t, os.MkdirAll(filepath.Join(mod, "cmd", "schemas"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(mod, "cmd", "schemas", "main.go"), []byte(printSchemas), 0o644))
		cmd := exec.Command("go", "run", "./cmd/schemas")
		cmd.Dir = mod
		out, err = cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		cmd = exec.Command(bin, "-schemas", filepath.Join(dir, "schemas"), "./catalog")
		cmd.Dir = mod
		want, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", want)
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		require.Len(t, lines, 6)
		for _, line := range lines {
			name, schema, _ := strings.Cut(line, " ")
			file, err := os.ReadFile(filepath.Join(dir, "schemas", name+".schema.json"))
			require.NoError(t, err)
			require.JSONEq(t, string(file), schema, name)
		}
	}
}

// printSchemas prints each tool's name and input schema on a line.
const printSchemas = `package main

import (
	"fmt"

	"synth/catalog"
)

func main() {
	for _, t := range append(catalog.Tools(), new(catalog.Service).Tools()...) {
		fmt.Println(t.Name, string(t.InputSchema))
	}
}
`

// TestCatalogCost prints what catalogs of the sizes given by -catalog cost (the README's
// table). go test ./internal/synthcatalog -run TestCatalogCost -catalog 10,100,1000 -v
// (add -distinct for tools that share no property).
func TestCatalogCost(t *testing.T) {
	if *sizes == "" {
		t.Skip("pass -catalog 10,100,1000")
	}
	dir := t.TempDir()
	bin, root := buildToolgen(t, dir)
	t.Logf("| tools | toolgen | generated Go | per tool | go build with it | without | ratio | binary growth | per tool | per added tool |")
	t.Logf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	var prev *synthcatalog.Cost
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(s)
		require.NoError(t, err)
		c, err := synthcatalog.Measure(filepath.Join(dir, s), root, bin, n, *distinct)
		require.NoError(t, err)
		// The binary a tool adds beyond the fixed cost of the runtime packages the generated
		// code links (the decoder, the encoder): the slope from the previous size.
		marginal := "–"
		if prev != nil {
			marginal = fmt.Sprintf("%.1f KB", float64(c.BinaryGrowth-prev.BinaryGrowth)/float64(n-prev.Tools)/1000)
		}
		t.Logf("| %d | %.2f s | %s, %dk lines | %.1f KB | %.1f s | %.2f s | %.1f× | %s | %.1f KB | %s |",
			n, c.Toolgen.Seconds(), mb(c.GeneratedBytes), c.GeneratedLines/1000, float64(c.GeneratedBytes)/float64(n)/1000,
			c.BuildWith.Seconds(), c.BuildWithout.Seconds(), c.BuildWith.Seconds()/c.BuildWithout.Seconds(),
			mb(c.BinaryGrowth), float64(c.BinaryGrowth)/float64(n)/1000, marginal)
		prev = &c
	}
}

func mb(n int64) string { return fmt.Sprintf("%.2f MB", float64(n)/1e6) }
