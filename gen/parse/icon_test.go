package parse_test

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/gen/model"
)

const closeSVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M6 6l12 12M18 6L6 18"/></svg>`

// pngHeader is the signature and IHDR start of a PNG file: enough for its content to read as one.
const pngHeader = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"

const iconSource = `package m

import "context"

// Close closes an issue.
//
//tool:icon icons/close.svg any theme=light
//tool:icon icons/close.png 48x48 96x96
//tool:icon https://example.com/close-dark.png 48x48 theme=dark
func Close(ctx context.Context) (string, error) { return "", nil }
`

// An icon file is embedded as a data: URI of its type; a URL is kept.
func TestIconFilesAreEmbedded(t *testing.T) {
	r := parseFiles(t, map[string]string{"m.go": iconSource, "icons/close.svg": closeSVG, "icons/close.png": pngHeader})
	r.requireNoErrors(t)
	tool := r.tool(t, "close")
	assert.Equal(t, []model.Icon{
		{Src: "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(closeSVG)), MIMEType: "image/svg+xml", Sizes: []string{"any"}, Theme: "light"},
		{Src: "data:image/png;base64," + base64.StdEncoding.EncodeToString([]byte(pngHeader)), MIMEType: "image/png", Sizes: []string{"48x48", "96x96"}},
		{Src: "https://example.com/close-dark.png", MIMEType: "image/png", Sizes: []string{"48x48"}, Theme: "dark"},
	}, tool.Icons)
}

const badIconSource = `package m

import "context"

// Close closes an issue.
//
//tool:icon icons/missing.svg
//tool:icon icons/big.png
//tool:icon icons/fake.png
//tool:icon http://example.com/close.png
//tool:icon ftp://example.com/close.png
//tool:icon icons/close.bmp
//tool:icon ../outside.svg
//tool:icon icons/close.svg 48 theme=blue mime=image/tiff thme=dark
//tool:icon data:image/png;base64,bm90IGEgcG5n
func Close(ctx context.Context) (string, error) { return "", nil }
`

// Every bad icon is an error at its file:line:col: a missing file, one over the bound, one
// whose content is not its type, a URL that is not https, an unknown type, a path leaving
// the package, bad sizes, themes, types and settings, a data: URI that is not its type.
func TestBadIconsAreErrorsAtTheirPosition(t *testing.T) {
	big := pngHeader + strings.Repeat("\x00", 64<<10)
	r := parseFiles(t, map[string]string{"m.go": badIconSource, "icons/big.png": big, "icons/fake.png": "GIF89a not a png", "icons/close.svg": closeSVG})
	src := badIconSource
	want := []string{
		at(t, src, "icons/missing.svg", "icons/", "icon file icons/missing.svg does not exist"),
		at(t, src, "icons/big.png", "icons/", "icon file icons/big.png is over 65536 bytes (64 KiB)"),
		at(t, src, "icons/fake.png", "icons/", "icon file icons/fake.png is not of type image/png: its content is image/gif"),
		at(t, src, "http://", "http://", `invalid icon "http://example.com/close.png": an icon is an https URL or a data: URI`),
		at(t, src, "ftp://", "ftp://", `invalid icon "ftp://example.com/close.png": an icon is an https URL or a data: URI`),
		at(t, src, "close.bmp", "icons/", `unknown image type of icon file "icons/close.bmp"`),
		at(t, src, "../outside", "../", `invalid icon file path "../outside.svg"`),
		at(t, src, "thme=dark", "48 ", `invalid icon size "48"`),
		at(t, src, "thme=dark", "blue", `invalid icon theme "blue"`),
		at(t, src, "thme=dark", "image/tiff", `unknown icon type "image/tiff"`),
		at(t, src, "thme=dark", "thme=", `unexpected argument "thme=dark"; did you mean theme=?`),
		at(t, src, "data:image", "data:", `invalid icon "data:image/png;base64,bm90IGEgcG5n": its data is not an image of type image/png`),
	}
	require.ElementsMatch(t, want, r.errors(), "%s", r.messages())
	assert.NotContains(t, r.messages(), r.dir, "no path of this machine in a message")
}
