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
