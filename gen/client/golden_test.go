package client_test

import (
	"bytes"
	"context"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"

	"github.com/toolgen-go/toolgen/gen/client"
	"github.com/toolgen-go/toolgen/internal/buildtest"
)

// TestGolden generates the client of each testdata/*.txtar's tools.json and compares it and the
// problems with the archive's client_gen.go and problems (-update rewrites them). Every
// generated file must parse; TestGoldenBuilds compiles them.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			require.NoError(t, err)
			src, problems := generateArchive(t, ar)
			if src != nil {
				_, err := parser.ParseFile(token.NewFileSet(), "client_gen.go", src, parser.ParseComments)
				require.NoError(t, err, "the generated file does not parse")
			}
			if *update {
				ar.Files = []txtar.File{archiveFile(ar, "tools.json")}
				if problems != "" {
					ar.Files = append(ar.Files, txtar.File{Name: "problems", Data: []byte(problems)})
				}
				if src != nil {
					ar.Files = append(ar.Files, txtar.File{Name: "client_gen.go", Data: src})
				}
				require.NoError(t, os.WriteFile(file, txtar.Format(ar), 0o644))
				return
			}
			assert.Equal(t, string(archiveFile(ar, "problems").Data), problems)
			assert.Equal(t, string(archiveFile(ar, "client_gen.go").Data), string(src))
		})
	}
}

func archiveFile(ar *txtar.Archive, name string) txtar.File {
	for _, f := range ar.Files {
		if f.Name == name {
			return f
		}
	}
	return txtar.File{Name: name}
}

func generateArchive(t *testing.T, ar *txtar.Archive) (src []byte, problems string) {
	t.Helper()
	src, list, err := client.Generate(archiveFile(ar, "tools.json").Data, "goldenclient", false)
	require.NoError(t, err)
	var b bytes.Buffer
	list.Print(&b, "tools.json")
	return src, b.String()
}

// TestGoldenBuilds compiles and vets every golden client in a scratch module that requires
// only the go-sdk, as a user's module would.
func TestGoldenBuilds(t *testing.T) {
	buildtest.Require(t, "compiles the generated clients")
	files, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	require.NoError(t, err)
	dir := t.TempDir()
	sum, err := os.ReadFile(filepath.Join("..", "..", "go.sum"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/clients\n\ngo 1.26\n\nrequire github.com/modelcontextprotocol/go-sdk "+sdkVersion(t)+"\n"), 0o644))
	built := 0
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		require.NoError(t, err)
		src := archiveFile(ar, "client_gen.go").Data
		if src == nil {
			continue
		}
		pkgDir := filepath.Join(dir, strings.TrimSuffix(filepath.Base(file), ".txtar"))
		require.NoError(t, os.MkdirAll(pkgDir, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(pkgDir, "client_gen.go"), src, 0o644))
		built++
	}
	require.NotZero(t, built)
	ctx, cancel := context.WithTimeout(context.Background(), 10*60e9)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "vet", "-mod=mod", "./...")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
}

// sdkVersion is the go-sdk version this module requires.
func sdkVersion(t *testing.T) string {
	data, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	require.NoError(t, err)
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "github.com/modelcontextprotocol/go-sdk" {
			return f[1]
		}
	}
	t.Fatal("go.mod does not require the go-sdk")
	return ""
}

func requireParses(t *testing.T, src []byte) {
	t.Helper()
	_, err := parser.ParseFile(token.NewFileSet(), "client_gen.go", src, parser.ParseComments)
	require.NoError(t, err, "the generated file does not parse:\n%s", src)
}
