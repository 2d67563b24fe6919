package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolgen-go/toolgen/annotations"
	"github.com/toolgen-go/toolgen/gen"
	"github.com/toolgen-go/toolgen/gen/diag"
	"github.com/toolgen-go/toolgen/gen/parse"
	"github.com/toolgen-go/toolgen/gen/provider"
	genreport "github.com/toolgen-go/toolgen/gen/report"
	"github.com/toolgen-go/toolgen/internal/suggest"
)

// Exit codes, as documented in the package doc.
const (
	exitOK    = 0
	exitUser  = 1 // errors in the code, or stale files under -check
	exitUsage = 2 // bad flags, or a failure that is not the user's code
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the process: tests call it directly.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("toolgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		output     = fs.String("output", gen.DefaultOutput, "name of the generated file in each package")
		schemas    = fs.String("schemas", "", "also write <tool>.schema.json files into this directory")
		tags       = fs.String("tags", "", "comma-separated extra build tags for loading")
		check      = fs.Bool("check", false, "write nothing; print a diff and exit 1 when generated files are stale")
		strict     = fs.Bool("strict", false, "treat warnings as errors")
		helpDirs   = fs.Bool("help-directives", false, "print the reference of every //tool: directive and tool:\"...\" tag key")
		debugModel = fs.Bool("debug-model", false, "print the parsed model instead of generating (for bug reports)")
		verbose    = fs.Bool("v", false, "list the files written or removed")
		providers  = fs.String("providers", strings.Join(provider.All, ","), "comma-separated providers whose schema variants are checked and derived")
		explain    = fs.String("explain", "", "write nothing; print what `TOOL` is sent to each provider (see -provider)")
		explainFor = fs.String("provider", "", "with -explain: only this `provider` (default: all of -providers)")
		report     = fs.Bool("report", false, "write nothing; print what each tool's definition costs per provider, in bytes and estimated tokens")
		tests      = fs.Bool("tests", false, "also write generated tests (tools_gen_test.go) of every package, as //tool:tests in a package doc comment does")
		clientCfg  clientFlags
	)
	clientCfg.register(fs)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: toolgen [flags] [packages]\n")
		fmt.Fprintf(stderr, "       toolgen -client DIR [-package NAME] (-from FILE | -stdio COMMAND | -url URL) [flags]\n\n")
		fmt.Fprintf(stderr, "toolgen generates LLM tools from Go funcs with //tool: directives.\n")
		fmt.Fprintf(stderr, "With no packages it processes the package in the current directory, as go generate runs it.\n")
		fmt.Fprintf(stderr, "Documentation: https://pkg.go.dev/github.com/toolgen-go/toolgen/cmd/toolgen\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if clientCfg.dir != "" {
		if fs.NArg() > 0 {
			fmt.Fprintf(stderr, "toolgen: -client takes no packages, got %s\n", strings.Join(fs.Args(), " "))
			return exitUsage
		}
		if set["tests"] {
			fmt.Fprintf(stderr, "toolgen: -tests writes the tests of tool packages; a -client package has no handlers to test\n")
			return exitUsage
		}
		return runClient(ctx, &clientCfg, set, *output, *check, *strict, *verbose, stdout, stderr)
	}
	for _, name := range clientOnly {
		if set[name] {
			fmt.Fprintf(stderr, "toolgen: -%s needs -client DIR\n", name)
			return exitUsage
		}
	}
	if *helpDirs {
		fmt.Fprint(stdout, annotations.Help())
		return exitOK
	}
	enabled, err := provider.Parse(*providers)
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: -providers: %v\n", err)
		return exitUsage
	}
	explained := enabled
	if *explainFor != "" {
		if *explain == "" {
			fmt.Fprintf(stderr, "toolgen: -provider needs -explain TOOL\n")
			return exitUsage
		}
		if explained, err = provider.Parse(*explainFor); err != nil || len(explained) != 1 {
			fmt.Fprintf(stderr, "toolgen: -provider: want one of %s, got %q\n", strings.Join(provider.All, ", "), *explainFor)
			return exitUsage
		}
	}
	dir, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return exitUsage
	}
	cfg := gen.Config{
		Dir:        dir,
		Patterns:   fs.Args(),
		Output:     *output,
		SchemasDir: *schemas,
		Strict:     *strict,
		Providers:  enabled,
		Tests:      *tests,
	}
	if *tags != "" {
		cfg.Tags = strings.Split(*tags, ",")
	}
	res, err := gen.Generate(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return exitUsage
	}
	shown := shownDir(dir)
	res.Diagnostics.Print(stderr, shown)
	if *explain != "" {
		return explainTool(stdout, stderr, res, *explain, explained, shown, *strict)
	}
	if *report {
		genreport.Write(stdout, genreport.Measure(res.Packages, enabled), enabled)
		if res.Failed(*strict) {
			return exitUser
		}
		return exitOK
	}
	if res.Failed(*strict) {
		return exitUser
	}
	if *debugModel {
		for _, p := range res.Packages {
			parse.Dump(stdout, p)
		}
		return exitOK
	}
	if *check {
		if d := res.Diff(shown); d != "" {
			fmt.Fprint(stdout, d)
			fmt.Fprintln(stderr, "toolgen: generated files are stale; run go generate")
			return exitUser
		}
		return exitOK
	}
	changed, err := res.Write()
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return exitUsage
	}
	// Under go generate (which sets GOFILE) the package asked for its tools: finding none is
	// worth a line even without -v, as a handler missing its directive is the usual cause.
	if len(res.Packages) == 0 && !*verbose && os.Getenv("GOFILE") != "" {
		fmt.Fprintf(stderr, "toolgen: no tools in %s: no func, method or type has a //tool: directive in its doc comment\n", os.Getenv("GOPACKAGE"))
	}
	if *verbose {
		if len(res.Packages) == 0 {
			patterns := "."
			if len(cfg.Patterns) > 0 {
				patterns = strings.Join(cfg.Patterns, " ")
			}
			fmt.Fprintf(stderr, "toolgen: no tools in %s: no func, method or type has a //tool: directive in its doc comment\n", patterns)
		}
		for _, f := range changed {
			verb := "wrote"
			if f.Content == nil {
				verb = "removed"
			}
			fmt.Fprintf(stderr, "toolgen: %s %s\n", verb, diag.Relative(shown, f.Path))
		}
	}
	return exitOK
}

// shownDir is the directory the paths toolgen prints are relative to. Run by hand it is the
// current directory, as the go command prints paths. Run by go generate (GOFILE is set) the
// current directory is the package's, not the one the user typed the command in, which no
// variable tells: a path relative to the package (notes.go:96) would not say which of the
// packages one go generate ./... run generates it is about. Paths are then relative to the
// module root: where go generate ./... is usually run, and there exactly what go vet ./...
// prints (toolkit/web/notes.go:96), which editors and CI problem matchers resolve against the
// workspace; from elsewhere they still name one file. Absolute paths would be unambiguous too,
// but long, and they would print the machine's layout (home and CI directories) into logs.
func shownDir(cwd string) string {
	if os.Getenv("GOFILE") == "" {
		return cwd
	}
	for d := cwd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return cwd // not in a module: go generate would not have run
		}
	}
}

// explainTool prints what the tool named name is sent to each provider. It writes nothing, and
// exits 1 when the tool is unknown or the code has errors (the explanation is printed anyway
// when the tool was parsed, since the errors may be what it explains).
func explainTool(stdout, stderr io.Writer, res *gen.Result, name string, providers []string, dir string, strict bool) int {
	var names []string
	for _, p := range res.Packages {
		for _, t := range p.Tools {
			if t.Name == name {
				provider.Explain(stdout, t, providers, dir)
				if res.Failed(strict) {
					return exitUser
				}
				return exitOK
			}
			names = append(names, t.Name)
		}
	}
	msg := fmt.Sprintf("toolgen: -explain: no tool named %q", name)
	if s := suggest.Closest(name, names); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	fmt.Fprintln(stderr, msg)
	return exitUser
}
