// Package report measures what a catalog costs in a model's context, for toolgen -report:
// per tool and per provider, the bytes of the tool's definition exactly as the adapters send
// it, and an estimate of its tokens. A team sees which tools are expensive and which to defer
// (//tool:defer), and what the whole catalog costs in every request.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/gen/provider"
	"github.com/toolgen-go/toolgen/gen/schema"
	"github.com/toolgen-go/toolgen/internal/mcptool"
	"github.com/toolgen-go/toolgen/internal/plural"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/anthropic"
	"github.com/toolgen-go/toolgen/runtime/gemini"
	"github.com/toolgen-go/toolgen/runtime/openai"
	"github.com/toolgen-go/toolgen/runtime/variant"
)

// BytesPerToken is the estimate of tokens used: about four bytes a token, the usual figure
// for English and JSON with the providers' tokenizers. It is an estimate, not a count.
const BytesPerToken = 4

// Row is one tool's cost: the bytes of its definition per provider (absent when the
// provider could not declare it).
type Row struct {
	Tool     string
	Deferred bool
	Bytes    map[string]int
}

// Tokens estimates the tokens of n bytes.
func Tokens(n int) int { return (n + BytesPerToken - 1) / BytesPerToken }

// Tool returns the runtime.Tool the generated code declares for t, without its handler:
// what the adapters read to declare it.
func Tool(t *model.Tool, providers []string) runtime.Tool {
	variants, _ := provider.Convert(schema.Input(t), providers)
	rt := runtime.Tool{
		Name: t.Name, Title: t.Title, Description: t.Description, Detail: t.Detail,
		Tags: t.Tags, Category: t.Category,
		Hints:     runtime.Hints{ReadOnly: t.Hints.ReadOnly, Idempotent: t.Hints.Idempotent, Destructive: t.Hints.Destructive, OpenWorld: t.Hints.OpenWorld},
		Deferred:  t.Deferred,
		Namespace: t.Namespace,
		Callers:   runtime.Callers{Direct: t.Callers.Direct, Code: t.Callers.Code},
		Scopes:    t.Scopes,
		Variants:  variants,
	}
	rt.InputSchema = schema.Input(t)
	if out := schema.Output(t); out != nil {
		rt.OutputSchema = out
	}
	for _, e := range t.Examples {
		rt.Examples = append(rt.Examples, runtime.Example{Scenario: e.Scenario, Args: json.RawMessage(e.Args), Expected: e.Expected})
	}
	return rt
}

// definitions is how each provider's adapter declares one tool; the report measures its
// bytes. OpenAI is measured on the Responses API, which carries the most fields.
var definitions = map[string]func(runtime.Tool) ([]byte, error){
	provider.OpenAI: func(t runtime.Tool) ([]byte, error) {
		t.Namespace, t.Deferred = "", false // measured alone, outside its namespace and search
		return unwrap(openai.ResponsesToolsJSON([]runtime.Tool{t}))
	},
	provider.Anthropic: func(t runtime.Tool) ([]byte, error) {
		t.Deferred = false
		return unwrap(anthropic.ToolsJSON([]runtime.Tool{t}))
	},
	provider.Gemini: func(t runtime.Tool) ([]byte, error) {
		decls, err := gemini.Declarations([]runtime.Tool{t})
		if err != nil {
			return nil, err
		}
		return json.Marshal(decls[0])
	},
	provider.MCP: mcpDefinition,
}

// unwrap returns the one element of a JSON array of one definition.
func unwrap(array []byte, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	var items []json.RawMessage
	if err := json.Unmarshal(array, &items); err != nil || len(items) != 1 {
		return nil, fmt.Errorf("want one definition, got %s", array)
	}
	return items[0], nil
}

// mcpDefinition is the tools/list entry runtime/mcp sends for t.
func mcpDefinition(t runtime.Tool) ([]byte, error) {
	def := struct {
		Name         string          `json:"name"`
		Title        string          `json:"title,omitempty"`
		Description  string          `json:"description,omitempty"`
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
		Annotations  json.RawMessage `json:"annotations,omitempty"`
	}{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: t.InputSchema, Annotations: mcptool.JSON(t.Hints)}
	if strings.HasPrefix(string(variant.WithoutSchemaKeyword(t.OutputSchema)), `{"type":"object"`) {
		def.OutputSchema = t.OutputSchema
	}
	return json.Marshal(def)
}

// Measure returns a row per tool of pkgs for the providers.
func Measure(pkgs []*model.Package, providers []string) []Row {
	var rows []Row
	for _, p := range pkgs {
		for _, t := range p.Tools {
			rt := Tool(t, providers)
			row := Row{Tool: t.Name, Deferred: t.Deferred, Bytes: map[string]int{}}
			for _, name := range providers {
				if def, err := definitions[name](rt); err == nil {
					row.Bytes[name] = len(def)
				}
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// Write prints rows as a table: a column of bytes and estimated tokens per provider, a total,
// and the total of the tools declared up front when deferred tools are left out.
func Write(w io.Writer, rows []Row, providers []string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	total, upFront := map[string]int{}, map[string]int{}
	deferred := 0
	width := len("up front (000 deferred left out)")
	for _, r := range rows {
		width = max(width, len(r.Tool)+len(" (deferred)"))
	}
	left := func(s string) string { return s + strings.Repeat(" ", width-len(s)) } // AlignRight pads on the left
	fmt.Fprintf(tw, "%s\t", left("tool"))
	for _, p := range providers {
		fmt.Fprintf(tw, "%s bytes\t~tokens\t", p)
	}
	fmt.Fprintln(tw)
	for _, r := range rows {
		name := r.Tool
		if r.Deferred {
			name += " (deferred)"
			deferred++
		}
		fmt.Fprintf(tw, "%s\t", left(name))
		for _, p := range providers {
			n, ok := r.Bytes[p]
			if !ok {
				fmt.Fprint(tw, "-\t-\t")
				continue
			}
			fmt.Fprintf(tw, "%d\t%d\t", n, Tokens(n))
			total[p] += n
			if !r.Deferred {
				upFront[p] += n
			}
		}
		fmt.Fprintln(tw)
	}
	line := func(label string, sums map[string]int) {
		fmt.Fprintf(tw, "%s\t", left(label))
		for _, p := range providers {
			fmt.Fprintf(tw, "%d\t%d\t", sums[p], Tokens(sums[p]))
		}
		fmt.Fprintln(tw)
	}
	line("total ("+plural.Of(len(rows), "tool")+")", total)
	if deferred > 0 {
		line(fmt.Sprintf("up front (%d deferred left out)", deferred), upFront)
	}
	tw.Flush()
	fmt.Fprintf(w, "\ntokens are estimated as bytes/%d; OpenAI is measured on the Responses API\n", BytesPerToken)
}
