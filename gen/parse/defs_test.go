package parse_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

const defsMisplaced = `package m

import "context"

// Status is an enum, which has no $defs entry.
//
//tool:defs
type Status string

const Active Status = "active"

// Money is a struct, where //tool:defs applies.
//
//tool:defs
type Money struct{ Amount int ` + "`json:\"amount\"`" + ` }

// Cash is an alias, which has no declaration of its own.
//
//tool:defs
type Cash = Money

type A struct {
	S Status ` + "`json:\"s\"`" + `
	M Money  ` + "`json:\"m\"`" + `
	C Cash   ` + "`json:\"c\"`" + `
}

// Pay pays.
//
//tool:name pay
func Pay(ctx context.Context, a A) (string, error) { return "", nil }
`

// TestDefsRefusedWhereItCannotApply: //tool:defs on a non-struct type or an alias was
// silently ignored; it is an error at the directive, with a hint, and on a struct it is not.
func TestDefsRefusedWhereItCannotApply(t *testing.T) {
	r := parseFiles(t, map[string]string{"m.go": defsMisplaced})
	// The directive is on the line above its type, at column 1.
	directive := func(typ, message string) string {
		return fmt.Sprintf("m.go:%d:1: %s", lineOf(t, defsMisplaced, typ)-1, message)
	}
	wantErrors(t, r, []string{
		directive("type Status", "//tool:defs on Status, a string type: only a struct type's schema goes under $defs"),
		directive("type Cash", "//tool:defs on alias Cash, which has no schema of its own"),
	})
	msgs := r.messages()
	assert.Contains(t, msgs, "remove //tool:defs")
	assert.Contains(t, msgs, "put //tool:defs on the declaration of Money")
}
