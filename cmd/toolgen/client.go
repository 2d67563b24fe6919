package main

import (
	"context"
	"flag"
	"fmt"
	"go/token"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/gen"
	"github.com/toolgen-go/toolgen/gen/client"
	"github.com/toolgen-go/toolgen/gen/diag"
)

// DefaultClientOutput is the name of the file -client writes in its directory.
const DefaultClientOutput = "client_gen.go"

// clientFlags are the flags of -client mode.
type clientFlags struct {
	dir, pkg, from, stdio, url, save string
	headers                          headerFlag
	timeout                          time.Duration
}

// clientOnly are the flags that mean nothing without -client, and toolsOnly those that mean
// nothing with it; mixing them is a usage error rather than a flag silently ignored.
var (
	clientOnly = []string{"package", "from", "stdio", "url", "header", "save", "timeout"}
	toolsOnly  = []string{"schemas", "tags", "providers", "explain", "provider", "report", "help-directives", "debug-model"}
)

func (c *clientFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.dir, "client", "", "generate a typed Go client of an MCP server's tools into `DIR` (with -from, -stdio or -url)")
	fs.StringVar(&c.pkg, "package", "", "with -client: the package `name` (default: DIR's base name)")
	fs.StringVar(&c.from, "from", "", "with -client: read the tools from a saved tools/list `FILE`")
	fs.StringVar(&c.stdio, "stdio", "", "with -client: list the tools of the stdio server that `COMMAND` (split at spaces, no shell) starts")
	fs.StringVar(&c.url, "url", "", "with -client: list the tools of the streamable HTTP server at `URL`")
	fs.Var(&c.headers, "header", "with -url: send `NAME: VALUE` with every request (repeatable)")
	fs.StringVar(&c.save, "save", "", "with -stdio or -url: also write the tools/list document read to `FILE`, for -from")
	fs.DurationVar(&c.timeout, "timeout", time.Minute, "with -stdio or -url: how long connecting and listing may take")
}

// headerFlag collects -header values. A malformed one is counted, not refused by Set: the
// flag package would repeat the value, which may be a secret, in its error.
type headerFlag struct {
	h   http.Header
	bad int
}

func (f *headerFlag) String() string { return "" }

func (f *headerFlag) Set(v string) error {
	name, value, ok := strings.Cut(v, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.ContainsAny(name, " \t") {
		f.bad++
		return nil
	}
	if f.h == nil {
		f.h = http.Header{}
	}
	f.h.Add(name, strings.TrimSpace(value))
	return nil
}

// runClient is toolgen -client: read a server's tools, generate the client package, and write
// it (or, with check, diff it against what is on disk).
func runClient(ctx context.Context, c *clientFlags, set map[string]bool, output string, check, strict, verbose bool, stdout, stderr io.Writer) int {
	for _, name := range toolsOnly {
		if set[name] {
			fmt.Fprintf(stderr, "toolgen: -%s does not apply to -client\n", name)
			return exitUsage
		}
	}
	sources := 0
	for _, s := range []string{c.from, c.stdio, c.url} {
		if s != "" {
			sources++
		}
	}
	if sources != 1 {
		fmt.Fprintf(stderr, "toolgen: -client needs exactly one of -from FILE, -stdio COMMAND, -url URL\n")
		return exitUsage
	}
	if c.save != "" && c.from != "" {
		fmt.Fprintf(stderr, "toolgen: -save writes what -stdio or -url read; with -from the file is already saved\n")
		return exitUsage
	}
	if c.headers.bad > 0 {
		fmt.Fprintf(stderr, "toolgen: -header: want NAME: VALUE (%d malformed; values not shown)\n", c.headers.bad)
		return exitUsage
	}
	if set["header"] && c.url == "" {
		fmt.Fprintf(stderr, "toolgen: -header needs -url\n")
		return exitUsage
	}
	if !set["output"] {
		output = DefaultClientOutput
	}
	if output != filepath.Base(output) || !strings.HasSuffix(output, ".go") {
		fmt.Fprintf(stderr, "toolgen: -output must be a file name ending in .go, got %q\n", output)
		return exitUsage
	}
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return exitUsage
	}
	dir := c.dir
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(cwd, dir)
	}
	pkg := c.pkg
	if pkg == "" {
		pkg = packageName(filepath.Base(dir))
	}
	if !token.IsIdentifier(pkg) || token.IsKeyword(pkg) || pkg == "_" {
		fmt.Fprintf(stderr, "toolgen: -package: %q is not a Go identifier\n", pkg)
		return exitUsage
	}

	var data []byte
	source := c.from
	switch {
	case c.from != "":
		data, err = readBounded(c.from)
	default:
		source, data, err = fetchListing(ctx, c, stderr)
	}
	if err != nil { // a server's error may hold its own text: escaped, as problems are
		fmt.Fprintf(stderr, "toolgen: %s\n", client.EscapeControls(err.Error()))
		return exitUsage
	}
	src, problems, err := client.Generate(data, pkg, strict)
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: %s: %s\n", client.EscapeControls(source), client.EscapeControls(err.Error()))
		return exitUsage
	}
	shown := shownDir(cwd)
	problems.Print(stderr, source)
	if src == nil {
		return exitUser
	}
	res := &gen.Result{Files: []gen.File{{Path: filepath.Join(dir, output), Content: src}}}
	if c.save != "" {
		save := c.save
		if !filepath.IsAbs(save) {
			save = filepath.Join(cwd, save)
		}
		res.Files = append(res.Files, gen.File{Path: save, Content: data})
	}
	if check {
		if d := res.Diff(shown); d != "" {
			fmt.Fprint(stdout, d)
			fmt.Fprintln(stderr, "toolgen: the client is stale; run toolgen -client again")
			return exitUser
		}
		return exitOK
	}
	changed, err := res.Write()
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return exitUsage
	}
	if verbose {
		for _, f := range changed {
			fmt.Fprintf(stderr, "toolgen: wrote %s\n", diag.Relative(shown, f.Path))
		}
	}
	return exitOK
}

// fetchListing lists the tools of the server -stdio or -url names. source is what problems
// are reported against: the -save file, which holds the document the pointers point into.
func fetchListing(ctx context.Context, c *clientFlags, stderr io.Writer) (source string, data []byte, err error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var transport mcp.Transport
	if c.stdio != "" {
		args := strings.Fields(c.stdio)
		if len(args) == 0 {
			return "", nil, fmt.Errorf("-stdio: no command")
		}
		cmd := exec.CommandContext(ctx, args[0], args[1:]...)
		cmd.Stderr = stderr // the server's own messages, for when it fails to start
		transport = &mcp.CommandTransport{Command: cmd}
		source = "tools/list of " + args[0]
	} else {
		u, err := url.Parse(c.url)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return "", nil, fmt.Errorf("-url: want an http or https URL")
		}
		transport = client.HTTPTransport(c.url, c.headers.h)
		source = "tools/list of " + u.Host // not the URL: its query may hold a token
	}
	data, err = client.Fetch(ctx, transport)
	if err != nil {
		return "", nil, err
	}
	if c.save != "" {
		source = c.save
	}
	return source, data, nil
}

// readBounded reads a listing file, refusing one over client.MaxListingBytes before reading it.
func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, client.MaxListingBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > client.MaxListingBytes {
		return nil, fmt.Errorf("%s is over the limit of %d bytes", path, client.MaxListingBytes)
	}
	return data, nil
}

// packageName derives a package name from a directory name: its lower-case letters and
// digits, "client" when none is left or it starts with a digit.
func packageName(base string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(base) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	name := b.String()
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		return "client"
	}
	return name
}
