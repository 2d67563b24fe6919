package disclosure

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgen-go/toolgen/runtime"
)

// The level-1 catalog heads each package's tools with its description, the tools of no
// package last; within a package, categories group as usual.
func TestCatalogHeadsPackagesWithTheirDescription(t *testing.T) {
	billing := "Tools for the invoices of the billing system."
	tools := []runtime.Tool{
		{Name: "get_time", Description: "Says the time."},
		{Name: "get_invoice", Description: "Gets an invoice.", PackageDescription: billing},
		{Name: "void_invoice", Description: "Voids an invoice.", PackageDescription: billing, Category: "write"},
		{Name: "read_file", Description: "Reads a file.", PackageDescription: "The workspace's\nfiles."},
	}
	assert.Equal(t, "Tools for the invoices of the billing system.\nwrite:\n- void_invoice: Voids an invoice.\n\nother:\n- get_invoice: Gets an invoice.\n\n"+
		"The workspace's files.\n- read_file: Reads a file.\n\n"+
		"Other tools:\n- get_time: Says the time.", Catalog(tools))
}

// A tool's warnings reach its catalog line: the model reads them before it chooses the tool.
func TestCatalogShowsWarnings(t *testing.T) {
	tools := []runtime.Tool{{Name: "drop_table", Description: "Drops a table.", Warnings: []string{"it locks the\ndatabase", "It cannot be undone.", "Ask first."}}}
	assert.Equal(t, "- drop_table: Drops a table. Warning: it locks the database; It cannot be undone. Ask first.", Catalog(tools))
}
