package web

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"sync"
	"unicode/utf8"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"golang.org/x/net/html"

	"github.com/toolgen-go/toolgen/runtime"
)

// The defaults of the conversion budget (see the package doc).
const (
	DefaultMaxElements    = 20000     // HTML elements converted to Markdown per page
	DefaultMaxHTMLBytes   = 1 << 20   // bytes of HTML converted per page, scripts and styles aside
	DefaultMaxTextBytes   = 128 << 10 // bytes of text among them
	DefaultMaxConversions = 4         // pages converted at once per Toolkit
)

// budget is what one page's conversion may take.
type budget struct {
	elements, html, text int
}

func (k *Toolkit) budget() budget {
	return budget{
		elements: cmp.Or(k.MaxElements, DefaultMaxElements),
		html:     cmp.Or(k.MaxHTMLBytes, DefaultMaxHTMLBytes),
		text:     cmp.Or(k.MaxTextBytes, DefaultMaxTextBytes),
	}
}

// maxTokenBytes bounds what the tokenizer of cutHTML buffers for one token (it grows its
// buffer to hold the token it reads): a longer script is skipped without it, a longer tag or
// comment ends the page, and a longer text is cut by the text budget anyway.
const maxTokenBytes = 1 << 20

// cutHTML returns the part of an HTML body that fits the budget, for the parser, and whether
// the budget cut it. A tokenizer pass counts elements (start tags, comments, doctypes), bytes
// and bytes of text, and cuts the body before the first tag past the budget, or inside the
// text that passes it, so the parser and the converter never see more; html.Parse closes what
// the cut leaves open. The content of scripts and styles, which the converter drops, is
// neither counted nor kept. The pass holds one token of at most maxTokenBytes (or the text
// budget), and a copy of the body from the first script on.
func cutHTML(body []byte, b budget) ([]byte, bool) {
	maxToken := max(maxTokenBytes, b.text+1)
	z := newTokenizer(body, maxToken)
	off, size, elements, text := 0, 0, 0, 0 // size counts what is kept
	var out []byte                          // nil while what is kept is body[:off]
	keep := func(raw []byte) {
		if out != nil {
			out = append(out, raw...)
		}
	}
	kept := func(cut bool, last []byte) ([]byte, bool) {
		if out == nil {
			return body[:off+len(last)], cut // last, when set, starts at off
		}
		return append(out, last...), cut
	}
	script := "" // "script" or "style" when the token before opened one: its text is code
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if z.Err() != html.ErrBufferExceeded {
				return kept(false, nil) // the end: a bytes.Reader fails no other way
			}
			// A token longer than maxToken starts at off.
			switch {
			case script != "":
				end := closingTag(body[off:], script)
				if end < 0 {
					return kept(false, nil) // the rest is the script
				}
				if out == nil {
					out = append(make([]byte, 0, len(body)), body[:off]...)
				}
				off += end
				script = ""
				z = newTokenizer(body[off:], maxToken)
				continue
			case body[off] == '<':
				return kept(true, nil)
			}
			return kept(true, cutText(body[off:], min(b.text-text, b.html-size)))
		}
		raw := z.Raw()
		switch tt {
		case html.StartTagToken, html.SelfClosingTagToken, html.CommentToken, html.DoctypeToken, html.EndTagToken:
			if tt != html.EndTagToken {
				elements++
			}
			if elements > b.elements || size+len(raw) > b.html {
				return kept(true, nil)
			}
		case html.TextToken:
			if script != "" {
				if out == nil { // left out from here on
					out = append(make([]byte, 0, len(body)), body[:off]...)
				}
				off += len(raw)
				continue // a longer script comes as maxToken bytes of text, then the error
			}
			if text+len(raw) > b.text || size+len(raw) > b.html {
				return kept(true, cutText(raw, min(b.text-text, b.html-size)))
			}
			text += len(raw)
		}
		keep(raw)
		off += len(raw)
		size += len(raw)
		script = ""
		if tt == html.StartTagToken {
			if name, _ := z.TagName(); string(name) == "script" || string(name) == "style" {
				script = string(name)
			}
		}
	}
}

func newTokenizer(body []byte, maxBuf int) *html.Tokenizer {
	z := html.NewTokenizer(bytes.NewReader(body))
	z.SetMaxBuf(maxBuf)
	return z
}

// cutText returns the first n bytes of text at most, cut at a character boundary.
func cutText(text []byte, n int) []byte {
	n = min(n, len(text))
	for n > 0 && n < len(text) && !utf8.RuneStart(text[n]) {
		n--
	}
	return text[:n]
}

// closingTag returns the offset in b of the tag that ends a script or style (name): "</"
// then name in any case, then a space, "/" or ">"; or -1.
func closingTag(b []byte, name string) int {
	for i := 0; ; {
		j := bytes.Index(b[i:], []byte("</"))
		if j < 0 {
			return -1
		}
		at := i + j
		rest := b[at+2:]
		if len(rest) > len(name) && bytes.EqualFold(rest[:len(name)], []byte(name)) && bytes.IndexByte([]byte("\t\n\f\r />"), rest[len(name)]) >= 0 {
			return at
		}
		i = at + 2
	}
}

// markdown is the converter of every Toolkit: the library's base and CommonMark plugins, and
// a renderer that stops the conversion when the call's ctx ends (the library never looks at
// it): every element is then rendered as nothing, its children unvisited.
var markdown = sync.OnceValue(func() *converter.Converter {
	conv := converter.NewConverter(converter.WithPlugins(base.NewBasePlugin(), commonmark.NewCommonmarkPlugin()))
	conv.Register.Renderer(func(ctx converter.Context, _ converter.Writer, _ *html.Node) converter.RenderStatus {
		if ctx.Err() != nil {
			return converter.RenderSuccess
		}
		return converter.RenderTryNext
	}, 0)
	return conv
})

// htmlText converts an HTML page to Markdown within the budget; cut says what was left out,
// for the model, or is "".
func htmlText(ctx context.Context, f fetched, b budget) (text, cut string, err error) {
	body, wasCut := cutHTML(f.body, b)
	doc, err := html.Parse(bytes.NewReader(body))
	if err == nil {
		if depth := listDepth(doc); depth > maxListDepth {
			return "", "", runtime.ModelErrorf(runtime.KindLimit, "the page at %s nests lists %d deep, past the %d this tool converts", f.url, depth, maxListDepth)
		}
		if pruneTree(doc, b) || wasCut {
			cut = fmt.Sprintf("Note: the page is longer than web_fetch converts (%d HTML elements, %d bytes of HTML, %d of text, "+
				"scripts and styles aside): only its start was converted, and the rest is left out.\n", b.elements, b.html, b.text)
		}
		var md []byte
		md, err = markdown().ConvertNode(doc, converter.WithDomain(f.url), converter.WithContext(ctx))
		if ctx.Err() != nil {
			return "", "", ctx.Err() // what was converted is a part of the page, not the page
		}
		if err == nil {
			return string(md), cut, nil
		}
	}
	return "", "", runtime.ModelErrorf(runtime.KindUnavailable, "the HTML of %s could not be converted: %v", f.url, err)
}

// pruneTree cuts the parsed document where it passes the budget, weighing each element and
// each byte of text once per level of lists, quotes and tables around it (and the element
// itself): the converter indents, prefixes or numbers their content once per level, so its
// cost grows with the depth (20,000 paragraphs inside 30 ordered lists took 914 MB, against
// 24 MB for the same at the top). It reports whether it cut anything.
func pruneTree(doc *html.Node, b budget) (cut bool) {
	elements, text := 0, 0
	walkNesting(doc, func(n *html.Node, depth int) bool {
		weight := depth + 1
		switch n.Type {
		case html.ElementNode:
			if elements += weight; elements > b.elements {
				cutFrom(n, true)
				cut = true
			}
		case html.TextNode:
			if text += weight * len(n.Data); text > b.text {
				left := (b.text - (text - weight*len(n.Data))) / weight
				n.Data = string(cutText([]byte(n.Data), left))
				cutFrom(n, false)
				cut = true
			}
		}
		return !cut
	})
	return cut
}

// cutFrom removes everything after n in document order, and n itself when with is set.
func cutFrom(n *html.Node, with bool) {
	for m := n; m.Parent != nil; m = m.Parent {
		for m.NextSibling != nil {
			m.Parent.RemoveChild(m.NextSibling)
		}
	}
	if with && n.Parent != nil {
		n.Parent.RemoveChild(n)
	}
}

// converting takes one of the Toolkit's conversion slots, waiting for one while ctx lasts,
// and returns the function that gives it back.
func (k *Toolkit) converting(ctx context.Context) (release func(), err error) {
	k.slotsOnce.Do(func() { k.slots = make(chan struct{}, cmp.Or(k.MaxConversions, DefaultMaxConversions)) })
	select {
	case k.slots <- struct{}{}:
		return func() { <-k.slots }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
