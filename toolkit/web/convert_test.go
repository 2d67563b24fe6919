package web

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"github.com/toolgen-go/toolgen/internal/testcost"
)

func TestCutHTML(t *testing.T) {
	b := budget{elements: 3, html: 1 << 10, text: 10}
	for _, c := range []struct{ page, want string }{
		{"<p>one</p><p>two</p>", "<p>one</p><p>two</p>"},
		{"<p>a<p>b<p>c<p>d", "<p>a<p>b<p>c"},                                                 // the fourth element is cut
		{"<p>0123456789abc", "<p>0123456789"},                                                // text past 10 bytes is cut
		{"<p>012345678é", "<p>012345678"},                                                    // at a character boundary
		{"<script>x<y</script><p>0123456789", "<script></script><p>0123456789"},              // code is left out
		{"<STYLE>" + strings.Repeat("p{}", 1<<19) + "</style ><p>a", "<STYLE></style ><p>a"}, // longer than a token
		{"<script>" + strings.Repeat("x", 2<<20), "<script>"},
		{"<!-- c --><p>" + strings.Repeat("y", 2<<20), "<!-- c --><p>0123456789"[:13] + "yyyyyyyyyy"},
	} {
		got, _ := cutHTML([]byte(c.page), b)
		assert.Equal(t, c.want, string(got), c.page[:min(len(c.page), 40)])
	}
	got, cut := cutHTML([]byte(`<a href="`+strings.Repeat("u", 2000)+`">x</a>`), b)
	assert.True(t, cut, "a tag past the HTML budget")
	assert.Empty(t, got)
}

// TestPruneTreeWeighsNesting: inside lists and quotes, each element and byte of text weighs
// once per level, so a deep page is cut sooner than a flat one.
func TestPruneTreeWeighsNesting(t *testing.T) {
	b := budget{elements: 1000, html: 1 << 20, text: 1 << 20}
	flat := strings.Repeat("<p>x", 500)
	deep := strings.Repeat("<ul><li>", 9) + strings.Repeat("<p>x", 500)
	for page, cut := range map[string]bool{flat: false, deep: true} {
		doc, err := html.Parse(strings.NewReader(page))
		require.NoError(t, err)
		assert.Equal(t, cut, pruneTree(doc, b))
		paragraphs := 0
		for n := range doc.Descendants() {
			if n.Type == html.ElementNode && n.Data == "p" {
				paragraphs++
			}
		}
		if cut {
			// html, head and body weigh 1 each, the k-th ul k and its li k+1 (99 in all), and
			// each paragraph 10: inside 9 lists.
			assert.Equal(t, (1000-3-99)/10, paragraphs)
		} else {
			assert.Equal(t, 500, paragraphs)
		}
	}
}

// TestConversionStopsWhenItsContextEnds: when the call's ctx ends during the conversion, the
// elements left are not converted (the library never looks at the ctx).
func TestConversionStopsWhenItsContextEnds(t *testing.T) {
	page := fetched{url: "https://example.test/", contentType: "text/html", body: []byte(strings.Repeat(`<p><a href="/x">*_</a>`, 10000))}
	var err error
	whole := testcost.Allocated(func() { _, _, err = htmlText(t.Context(), page, new(Toolkit).budget()) })
	require.NoError(t, err)
	stopped := testcost.Allocated(func() {
		_, _, err = htmlText(&testcost.EndingContext{Context: t.Context(), N: 100}, page, new(Toolkit).budget())
	})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Less(t, stopped, whole/2, "stopped after 100 elements: %d bytes allocated, against %d for the whole page", stopped, whole)
	t.Logf("whole page %d bytes allocated, stopped after 100 elements %d", whole, stopped)
}

// TestConversionSlots: a Toolkit converts at most MaxConversions pages at once; a call finding
// every slot taken waits while its ctx lasts.
func TestConversionSlots(t *testing.T) {
	k := &Toolkit{MaxConversions: 2}
	release1, err := k.converting(t.Context())
	require.NoError(t, err)
	release2, err := k.converting(t.Context())
	require.NoError(t, err)

	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	_, err = k.converting(ctx)
	assert.ErrorIs(t, err, context.DeadlineExceeded, "a third conversion waits")
	page := fetched{url: "https://example.test/", contentType: "text/html", body: []byte("<p>hello")}
	_, _, err = k.render(ctx, page)
	assert.ErrorIs(t, err, context.DeadlineExceeded, "web_fetch's HTML waits for a slot")

	release1()
	md, _, err := k.render(t.Context(), page)
	require.NoError(t, err)
	assert.Equal(t, "hello", md)
	release2()
}
