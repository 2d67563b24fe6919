package client

import (
	"fmt"
	"go/token"
)

// Generate reads a tools/list document and renders the client package name from it. The error
// is for a document that is not a listing, or an invalid package name; problems in its tools
// are in Problems, and src is nil when one is an error (under strict, a warning).
func Generate(listing []byte, name string, strict bool) (src []byte, problems *Problems, err error) {
	if !token.IsIdentifier(name) || token.IsKeyword(name) || name == "_" {
		return nil, nil, fmt.Errorf("package name %q is not a Go identifier", name)
	}
	l, err := ParseListing(listing)
	if err != nil {
		return nil, nil, err
	}
	pkg, problems := Build(l, name)
	if problems.HasErrors(strict) {
		return nil, problems, nil
	}
	src, err = Emit(pkg)
	return src, problems, err
}
