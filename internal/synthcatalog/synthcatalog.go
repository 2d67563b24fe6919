// Package synthcatalog writes a synthetic package of realistic tools, for measuring what
// toolgen's output costs as a catalog grows (internal/benchmarks TestCatalogCost) and for
// testing the generator at scale. Each tool has its own argument struct with nested structs,
// string enums, patterns, formats, maps, times, pointers and slices of structs, a structured
// result, and a doc comment; half of the tools are methods.
package synthcatalog

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Write writes package "catalog" with n tools into dir (created when missing), plus a
// go.mod of module "synth" that requires toolgen from repoRoot through a replace directive,
// and cmd/with and cmd/without: two programs, one registering the tools and one using only
// the handwritten code, so their sizes tell the binary cost of the generated code.
func Write(dir, repoRoot string, n int, distinct bool) error {
	pkg := filepath.Join(dir, "catalog")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		return err
	}
	files := map[string]string{
		"go.mod":              goMod(repoRoot),
		"catalog/shared.go":   shared,
		"catalog/tools.go":    tools(n, distinct),
		"cmd/with/main.go":    withMain,
		"cmd/without/main.go": withoutMain,
	}
	if sum, err := os.ReadFile(filepath.Join(repoRoot, "go.sum")); err == nil {
		files["go.sum"] = string(sum) // toolgen's sums cover what the catalog needs
	}
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func goMod(repoRoot string) string {
	return fmt.Sprintf("module synth\n\ngo 1.26.0\n\nrequire github.com/toolgen-go/toolgen v0.0.0\n\nreplace github.com/toolgen-go/toolgen => %s\n", repoRoot)
}

const shared = `// Package catalog is a synthetic catalog of back-office tools.
package catalog

import "time"

// Priority is how urgent a request is.
type Priority string

const (
	Low    Priority = "low"    // whenever there is time
	Medium Priority = "medium" // within the day
	High   Priority = "high"   // now
)

// Status is where a record stands.
type Status string

const (
	Open   Status = "open"   // being worked on
	Closed Status = "closed" // done
)

// Address is a postal address.
type Address struct {
	// Street and number.
	Street string ` + "`json:\"street\" tool:\"minLength=1,maxLength=200\"`" + `
	// City name.
	City string ` + "`json:\"city\" tool:\"minLength=1\"`" + `
	// Postal code, five digits.
	Zip string ` + "`json:\"zip\" tool:\"pattern='^[0-9]{5}$'\"`" + `
	// ISO 3166 country code, e.g. DE.
	Country string ` + "`json:\"country\" tool:\"minLength=2,maxLength=2\"`" + `
}

// Record is what a tool returns.
type Record struct {
	// ID of the record.
	ID string ` + "`json:\"id\"`" + `
	// Status of the record.
	Status Status ` + "`json:\"status\"`" + `
	// Total amount.
	Total float64 ` + "`json:\"total\"`" + `
	// When the record was created.
	Created time.Time ` + "`json:\"created\"`" + `
	// Lines of the record.
	Lines []Line ` + "`json:\"lines,omitempty\"`" + `
}

// Line is one line of a record.
type Line struct {
	// Product code.
	SKU string ` + "`json:\"sku\"`" + `
	// Quantity.
	Qty int ` + "`json:\"qty\"`" + `
}

// Service holds what the method tools need.
type Service struct{ Name string }
`

// tools writes the n tools: each with its own argument and item types. Their properties
// repeat across tools (an email, an address, a priority) as an API's do, unless distinct:
// then every property of a tool has a description of its own, and no property's schema is
// the same in two tools (the nested Address type's still are).
func tools(n int, distinct bool) string {
	var b strings.Builder
	b.WriteString("package catalog\n\nimport (\n\t\"context\"\n\t\"time\"\n)\n\n//go:generate go tool toolgen\n")
	nouns := []string{"invoice", "order", "shipment", "ticket", "customer", "payment", "refund", "project", "deployment", "secret"}
	verbs := []string{"create", "update", "archive", "review", "export"}
	for i := range n {
		noun, verb := nouns[i%len(nouns)], verbs[(i/len(nouns))%len(verbs)]
		name := fmt.Sprintf("%s%s%d", upper(verb), upper(noun), i)
		suffix := ""
		if distinct {
			suffix = " (" + name + ")"
		}
		fmt.Fprintf(&b, `
// %[1]sItem is one item of %[1]s.
type %[1]sItem struct {
	// Product code, three letters and four digits%[3]s.
	SKU string `+"`json:\"sku\" tool:\"pattern='^[A-Z]{3}-[0-9]{4}$'\"`"+`
	// Quantity ordered%[3]s.
	Qty int `+"`json:\"qty\" tool:\"minimum=1,maximum=1000\"`"+`
	// Unit price%[3]s.
	Price float64 `+"`json:\"price\" tool:\"exclusiveMinimum=0\"`"+`
}

// %[1]sArgs are the arguments of %[1]s.
type %[1]sArgs struct {
	// ID of the %[2]s%[3]s.
	ID string `+"`json:\"id\" tool:\"format=uuid\"`"+`
	// Email of whoever asks%[3]s.
	Email string `+"`json:\"email\" tool:\"format=email\"`"+`
	// How urgent it is%[3]s.
	Priority Priority `+"`json:\"priority,omitempty\" tool:\"default=medium\"`"+`
	// How many copies%[3]s.
	Count int `+"`json:\"count,omitempty\" tool:\"minimum=1,maximum=100\"`"+`
	// Free tags%[3]s.
	Tags []string `+"`json:\"tags,omitempty\" tool:\"maxItems=10,minLength=1,maxLength=32\"`"+`
	// Labels by key%[3]s.
	Labels map[string]string `+"`json:\"labels,omitempty\"`"+`
	// Where it goes%[3]s.
	Address Address `+"`json:\"address\"`"+`
	// Items of the %[2]s%[3]s.
	Items []%[1]sItem `+"`json:\"items\" tool:\"minItems=1,maxItems=50\"`"+`
	// Only records since this time%[3]s.
	Since time.Time `+"`json:\"since,omitempty\"`"+`
	// A note for the record%[3]s.
	Note *string `+"`json:\"note\"`"+`
}
`, name, noun, suffix)
		recv := ""
		if i%2 == 1 {
			recv = "(s *Service) "
		}
		fmt.Fprintf(&b, `
// %[1]s %[3]ss a %[2]s and returns the record. Use it when the user asks to %[3]s a %[2]s.
//
// The record lists every item with its quantity.
//
//tool:timeout 10s
func %[4]s%[1]s(ctx context.Context, args %[1]sArgs) (Record, error) {
	return Record{ID: args.ID, Status: Open, Created: time.Unix(0, 0).UTC()}, nil
}
`, name, noun, verb, recv)
	}
	// Handlers keeps every handler (and so its argument types) in both programs, so that
	// their difference is the generated code alone, not the handwritten code it calls.
	b.WriteString("\n// Handlers lists the handlers, for the program built without the generated code.\nvar Handlers = []any{")
	for i := range n {
		noun, verb := nouns[i%len(nouns)], verbs[(i/len(nouns))%len(verbs)]
		name := fmt.Sprintf("%s%s%d", upper(verb), upper(noun), i)
		if i%2 == 1 {
			name = "(*Service)." + name
		}
		fmt.Fprintf(&b, "\n\t%s,", name)
	}
	b.WriteString("\n}\n")
	return b.String()
}

func upper(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

const withMain = `package main

import (
	"fmt"
	"io"

	"github.com/toolgen-go/toolgen/runtime"
	"synth/catalog"
)

func main() {
	reg := runtime.NewRegistry()
	tools := append(catalog.Tools(), new(catalog.Service).Tools()...)
	if err := reg.Add(tools...); err != nil {
		panic(err)
	}
	fmt.Fprintln(io.Discard, catalog.Handlers...) // as the program without the generated code does
	fmt.Println(len(reg.Names()))
}
`

// withoutMain keeps the handwritten handlers (and their argument and result types) alive
// without the generated code, so the difference in size is the generated code's.
const withoutMain = `package main

import (
	"fmt"
	"io"

	"github.com/toolgen-go/toolgen/runtime"
	"synth/catalog"
)

func main() {
	reg := runtime.NewRegistry()
	fmt.Fprintln(io.Discard, catalog.Handlers...)
	fmt.Println(len(reg.Names()))
}
`
