package provider

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/gen/diag"
	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/gen/schema"
	"github.com/toolgen-go/toolgen/internal/mcptool"
	"github.com/toolgen-go/toolgen/runtime"
)

// Explain writes what toolgen sends tool t to each of the given providers, for
// `toolgen -explain TOOL -provider P`: every variant indented, whether it is strict, what the
// runtime undoes (null means absent, renames), every keyword moved into the description or
// dropped, and every finding, each with its source position (relative to dir). MCP shows the
// canonical schemas, the title and the annotations runtime/mcp sends.
func Explain(w io.Writer, t *model.Tool, providers []string, dir string) {
	canonical := schema.Input(t)
	variants, findings := Convert(canonical, providers)
	pos := func(ptr string) string {
		p := Locate(t, ptr)
		p.Filename = diag.Relative(dir, p.Filename)
		return p.String()
	}
	for _, p := range providers {
		fmt.Fprintf(w, "== tool %s, provider %s ==\n", t.Name, p)
		for _, f := range findings {
			if f.Variant != "" && strings.Contains(f.Variant, p) && !slices.Contains(variantsOf[p], f.Variant) {
				writeFinding(w, pos, f)
			}
		}
		if p == MCP {
			fmt.Fprintf(w, "inputSchema:\n%s", schema.Indent(canonical))
			if out := schema.Output(t); out != nil {
				fmt.Fprintf(w, "outputSchema:\n%s", schema.Indent(out))
			}
			if t.Title != "" {
				fmt.Fprintf(w, "title: %s\n", t.Title)
			}
			fmt.Fprintf(w, "annotations: %s\n", mcptool.JSON(runtimeHints(t.Hints)))
			continue
		}
		for _, key := range variantsOf[p] {
			v, ok := variants[key]
			if !ok {
				fmt.Fprintf(w, "variant %s: none\n", key)
			} else {
				fmt.Fprintf(w, "variant %s (strict: %t):\n%s", key, v.Strict, schema.Indent(v.Schema))
				if len(v.NullMeansAbsent) > 0 {
					fmt.Fprintf(w, "null means absent: %s\n", strings.Join(v.NullMeansAbsent, ", "))
				}
				for _, r := range v.Renames {
					fmt.Fprintf(w, "renamed: %q at %q is sent as %q\n", r.From, "/"+strings.TrimPrefix(r.Path, "/"), r.To)
				}
				for _, l := range v.Loops {
					fmt.Fprintf(w, "recursive: %q repeats %q\n", l.Path, l.Target)
				}
				if len(v.Moved) > 0 {
					fmt.Fprintf(w, "moved into the description (the decoder still enforces them):\n")
					for _, m := range v.Moved {
						fmt.Fprintf(w, "\t%s: %s\n", pos(m), m)
					}
				}
			}
			for _, f := range findings {
				if f.Variant == key {
					writeFinding(w, pos, f)
				}
			}
		}
	}
}

func writeFinding(w io.Writer, pos func(string) string, f Finding) {
	sev := map[diag.Severity]string{diag.Error: "error", diag.Warning: "warning", diag.Note: "note"}[f.Severity]
	fmt.Fprintf(w, "%s: %s: %s\n", pos(f.Pointer), sev, f.Message)
	if f.Hint != "" {
		fmt.Fprintf(w, "\thint: %s\n", f.Hint)
	}
}

// runtimeHints is the runtime.Hints the generated code declares for hints.
func runtimeHints(h model.Hints) runtime.Hints {
	return runtime.Hints{ReadOnly: h.ReadOnly, Idempotent: h.Idempotent, Destructive: h.Destructive, OpenWorld: h.OpenWorld}
}
