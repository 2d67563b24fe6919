package web

import (
	"bytes"
	"compress/zlib"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"
)

// pdfWithStream returns a minimal PDF-shaped body holding one Flate stream of n zero bytes.
func pdfWithStream(t *testing.T, n int) []byte {
	t.Helper()
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	zero := make([]byte, 1<<20)
	for left := n; left > 0; left -= len(zero) {
		_, err := w.Write(zero[:min(left, len(zero))])
		assert.NoError(t, err)
	}
	assert.NoError(t, w.Close())
	body := []byte("%PDF-1.4\n1 0 obj\n<< /Length 0 /Filter /FlateDecode >>\nstream\r\n")
	body = append(body, z.Bytes()...)
	return append(body, []byte("\nendstream\nendobj\n%%EOF\n")...)
}

func TestPDFCompressionBombIsRefused(t *testing.T) {
	small := pdfWithStream(t, 1<<20)
	assert.True(t, pdfExpandsWithin(small, maxPDFExpansion), "1 MiB of content is read")

	bomb := pdfWithStream(t, 200<<20) // about 200 KB on the wire
	assert.Less(t, len(bomb), 1<<20)
	assert.False(t, pdfExpandsWithin(bomb, maxPDFExpansion), "200 MiB of content is refused")

	_, err := pdfText(fetched{url: "https://example.test/bomb.pdf", body: bomb})
	assert.ErrorContains(t, err, "expands to more than 64 MiB")
}

func TestDeeplyNestedListsAreRefused(t *testing.T) {
	page := "<html><body>" + strings.Repeat("<ul><li>x", 200) + strings.Repeat("</li></ul>", 200) + "</body></html>"
	assert.Equal(t, 200, depthOf(t, page))
	_, _, err := new(Toolkit).render(t.Context(), fetched{url: "https://example.test/", contentType: "text/html", body: []byte(page)})
	assert.ErrorContains(t, err, "nests lists 200 deep")

	// End tags that close nothing are ignored by the parser: the lists still nest, and within a
	// table cell a "</ul>" cannot close the list around the table.
	for _, unit := range []string{"<ul><li>x</ol>", "<ul><li><table><tr><td></ul>"} {
		page := strings.Repeat(unit, 40)
		_, _, err := new(Toolkit).render(t.Context(), fetched{url: "https://example.test/", contentType: "text/html", body: []byte(page)})
		assert.ErrorContains(t, err, "past the 32 this tool converts", unit)
	}

	normal := "<ul><li>a<ul><li>b</li></ul></li></ul><table><tr><td>c</td></tr></table>"
	assert.Equal(t, 2, depthOf(t, normal))
	md, _, err := new(Toolkit).render(t.Context(), fetched{url: "https://example.test/", contentType: "text/html", body: []byte(normal)})
	assert.NoError(t, err)
	assert.Contains(t, md, "b")
}

func depthOf(t *testing.T, page string) int {
	doc, err := html.Parse(strings.NewReader(page))
	require.NoError(t, err)
	return listDepth(doc)
}
