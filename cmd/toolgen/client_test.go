package main

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/internal/buildtest"
	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

var roundtripClient = filepath.Join("..", "..", "gen", "client", "internal", "roundtrip", "catalogclient")

func runToolgen(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestClientFromFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "catalogclient")
	code, _, stderr := runToolgen(t, "-client", dir, "-from", filepath.Join(roundtripClient, "tools.json"), "-v")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stderr, "wrote ")
	got, err := os.ReadFile(filepath.Join(dir, DefaultClientOutput))
	require.NoError(t, err)
	want, err := os.ReadFile(filepath.Join(roundtripClient, "client_gen.go"))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "package name from the directory, the same client as the committed one")

	code, stdout, _ := runToolgen(t, "-client", dir, "-from", filepath.Join(roundtripClient, "tools.json"), "-check")
	assert.Equal(t, exitOK, code, stdout)

	require.NoError(t, os.WriteFile(filepath.Join(dir, DefaultClientOutput), append(got, "// edited\n"...), 0o644))
	code, stdout, stderr = runToolgen(t, "-client", dir, "-from", filepath.Join(roundtripClient, "tools.json"), "-check")
	assert.Equal(t, exitUser, code)
	assert.Contains(t, stdout, "-// edited")
	assert.Contains(t, stderr, "stale")

	code, _, stderr = runToolgen(t, "-client", dir, "-package", "other", "-output", "api_gen.go", "-from", filepath.Join(roundtripClient, "tools.json"))
	require.Equal(t, exitOK, code, stderr)
	other, err := os.ReadFile(filepath.Join(dir, "api_gen.go"))
	require.NoError(t, err)
	assert.Contains(t, string(other), "\npackage other\n")
}

func TestClientProblems(t *testing.T) {
	dir := t.TempDir()
	listing := filepath.Join(dir, "tools.json")
	require.NoError(t, os.WriteFile(listing, []byte(`{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"strng"},"y":{"oneOf":[{"type":"string"},{"type":"integer"}]}}}}]}`), 0o644))
	code, _, stderr := runToolgen(t, "-client", dir, "-from", listing)
	assert.Equal(t, exitUser, code)
	assert.Contains(t, stderr, listing+`#/tools/0/inputSchema/properties/x/type: unknown type "strng"; did you mean "string"?`)
	assert.Contains(t, stderr, listing+"#/tools/0/inputSchema/properties/y/oneOf: warning: oneOf of 2 schemas is not typed")
	assert.NoFileExists(t, filepath.Join(dir, DefaultClientOutput))

	require.NoError(t, os.WriteFile(listing, []byte(`{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"y":{"oneOf":[{"type":"string"},{"type":"integer"}]}}}}]}`), 0o644))
	code, _, _ = runToolgen(t, "-client", dir, "-from", listing, "-strict")
	assert.Equal(t, exitUser, code, "a warning fails under -strict")
	code, _, _ = runToolgen(t, "-client", dir, "-from", listing)
	assert.Equal(t, exitOK, code, "a warning alone does not fail")
}

func TestClientUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-client", "x"}, "exactly one of -from FILE, -stdio COMMAND, -url URL"},
		{[]string{"-client", "x", "-from", "a", "-url", "http://h"}, "exactly one of"},
		{[]string{"-client", "x", "-from", "a", "-save", "b"}, "-save writes what -stdio or -url read"},
		{[]string{"-client", "x", "-from", "a", "-header", "A: b"}, "-header needs -url"},
		{[]string{"-client", "x", "-from", "a", "-schemas", "d"}, "-schemas does not apply to -client"},
		{[]string{"-client", "x", "-from", "a", "./..."}, "-client takes no packages"},
		{[]string{"-from", "a"}, "-from needs -client DIR"},
		{[]string{"-client", "x", "-url", "ftp://h"}, "-url: want an http or https URL"},
		{[]string{"-client", "x", "-url", "http://h", "-header", "no colon secret"}, "want NAME: VALUE"},
		{[]string{"-client", "x", "-from", "a", "-output", "../a.go"}, "-output must be a file name"},
		{[]string{"-client", "x", "-from", "a", "-package", "func"}, "not a Go identifier"},
	} {
		code, _, stderr := runToolgen(t, c.args...)
		assert.Equal(t, exitUsage, code, "%v: %s", c.args, stderr)
		assert.Contains(t, stderr, c.want, "%v", c.args)
		assert.NotContains(t, stderr, "secret", "a header's value is not repeated")
	}
}

// TestClientFromHTTP lists a streamable HTTP server's tools with an auth header and saves the
// listing; the client generated from the saved file is the one generated from the server.
func TestClientFromHTTP(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(weather.Tools()...))
	srv := httptest.NewServer(toolmcp.HTTPHandler(reg, toolmcp.WithBearerAuth(toolmcp.StaticToken("0123456789abcdef-token", "me"), nil)))
	t.Cleanup(srv.Close)
	dir := filepath.Join(t.TempDir(), "weatherclient")
	save := filepath.Join(dir, "tools.json")
	code, _, stderr := runToolgen(t, "-client", dir, "-url", srv.URL, "-header", "Authorization: Bearer 0123456789abcdef-token", "-save", save)
	require.Equal(t, exitOK, code, stderr)
	saved, err := os.ReadFile(save)
	require.NoError(t, err)
	assert.Contains(t, string(saved), `"name": "get_weather"`)
	src, err := os.ReadFile(filepath.Join(dir, DefaultClientOutput))
	require.NoError(t, err)
	assert.Contains(t, string(src), "func (c *Client) GetWeather(ctx context.Context, args GetWeatherArgs) (GetWeatherResult, error)")
	code, stdout, stderr := runToolgen(t, "-client", dir, "-from", save, "-check")
	assert.Equal(t, exitOK, code, "%s%s", stdout, stderr)

	code, _, stderr = runToolgen(t, "-client", dir, "-url", srv.URL, "-timeout", "30s")
	assert.Equal(t, exitUsage, code)
	assert.NotContains(t, stderr, "0123456789abcdef")
}

// TestClientFromStdio runs the round trip's server as a process (go run) and checks that the
// committed client is fresh for what it lists: the check CI makes of catalogclient.
func TestClientFromStdio(t *testing.T) {
	buildtest.Require(t, "runs a server with go run")
	code, stdout, stderr := runToolgen(t, "-client", roundtripClient, "-package", "catalogclient",
		"-stdio", "go run ../../gen/client/internal/roundtrip/server", "-save", filepath.Join(roundtripClient, "tools.json"), "-check")
	assert.Equal(t, exitOK, code, "%s%s", stdout, stderr)
}
