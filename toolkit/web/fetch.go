package web

import (
	"bytes"
	"cmp"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"github.com/toolgen-go/toolgen/internal/netguard"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/ledongthuc/pdf"
	"golang.org/x/net/html"

	"github.com/toolgen-go/toolgen/internal/plural"
	"github.com/toolgen-go/toolgen/runtime"
)

// The defaults of the fetch limits.
const (
	DefaultMaxBytes     = 5 << 20
	DefaultMaxRedirects = 5
	DefaultTimeout      = 30 * time.Second
)

// client returns the toolkit's HTTP client, built once: no proxy (a proxy would make the
// guard check the proxy's address, not the page's), the address guard in the dialer, and
// the redirect limit.
func (k *Toolkit) client() *http.Client {
	k.once.Do(func() {
		dialer := &net.Dialer{Timeout: 10 * time.Second}
		if !k.AllowPrivate {
			dialer.Control = netguard.Control(k.Allow)
		}
		transport := &http.Transport{
			DialContext:           dialer.DialContext,
			TLSHandshakeTimeout:   10 * time.Second,
			ResponseHeaderTimeout: 20 * time.Second,
			MaxIdleConns:          16,
			IdleConnTimeout:       30 * time.Second,
			ForceAttemptHTTP2:     true,
		}
		maxRedirects := cmp.Or(k.MaxRedirects, DefaultMaxRedirects)
		k.http = &http.Client{
			Transport: transport,
			CheckRedirect: func(req *http.Request, via []*http.Request) error {
				if len(via) > maxRedirects {
					return errors.New("more than " + plural.Of(maxRedirects, "redirect"))
				}
				return checkURL(req.URL)
			},
		}
	})
	return k.http
}

// checkURL refuses what web_fetch never requests: other schemes, no host, credentials.
func checkURL(u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("only http and https URLs can be fetched, not %q", u.Scheme)
	}
	if u.Hostname() == "" {
		return errors.New("the URL has no host")
	}
	if u.User != nil {
		return errors.New("URLs with credentials (user:password@) are not fetched")
	}
	return nil
}

// fetched is a page as web_fetch read it.
type fetched struct {
	url         string // after redirects
	contentType string
	body        []byte
	truncated   bool // the body was longer than the cap
}

// get fetches rawURL, reading at most limit bytes of its body.
func (k *Toolkit) get(ctx context.Context, rawURL string, limit int64) (fetched, error) {
	u, err := url.Parse(rawURL)
	if err == nil {
		err = checkURL(u)
	}
	if err != nil {
		return fetched{}, runtime.ModelErrorf(runtime.KindInvalidInput, "cannot fetch %q: %v", rawURL, err)
	}
	ctx, cancel := context.WithTimeout(ctx, cmp.Or(k.Timeout, DefaultTimeout))
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return fetched{}, runtime.ModelErrorf(runtime.KindInvalidInput, "cannot fetch %q: %v", rawURL, err)
	}
	req.Header.Set("User-Agent", cmp.Or(k.UserAgent, "toolgen-web-fetch/1"))
	req.Header.Set("Accept", "text/html,application/xhtml+xml,text/plain,text/markdown,application/pdf;q=0.9,*/*;q=0.5")
	resp, err := k.client().Do(req)
	if err != nil {
		return fetched{}, fetchError(rawURL, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		kind := runtime.KindUnavailable
		if resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone {
			kind = runtime.KindNotFound
		} else if resp.StatusCode >= 400 && resp.StatusCode < 500 {
			kind = runtime.KindPermission
		}
		return fetched{}, runtime.ModelErrorf(kind, "fetching %s failed: HTTP %s", resp.Request.URL, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return fetched{}, fetchError(rawURL, err)
	}
	f := fetched{url: resp.Request.URL.String(), contentType: resp.Header.Get("Content-Type"), body: body}
	if int64(len(body)) > limit {
		f.body, f.truncated = body[:limit], true
	}
	return f, nil
}

// fetchError words a failed request for the model: the guard's refusal as a permission
// error, the rest as unavailable. url.Error already names the URL.
func fetchError(rawURL string, err error) error {
	if errors.Is(err, ErrBlockedAddress) {
		return runtime.ModelErrorf(runtime.KindPermission,
			"cannot fetch %s: it is (or redirects to) a local, private or reserved network address, which web_fetch does not reach", rawURL)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return runtime.ModelErrorf(runtime.KindTimeout, "fetching %s took too long", rawURL)
	}
	var uerr *url.Error
	if errors.As(err, &uerr) {
		err = uerr.Err
	}
	return &runtime.ModelError{Kind: runtime.KindUnavailable, Message: fmt.Sprintf("fetching %s failed: %v", rawURL, err), Err: err}
}

// render turns a fetched body into text for the model: HTML to Markdown, PDF to plain text,
// text as it is; other content is refused. HTML and PDF are converted in one of the
// Toolkit's conversion slots, HTML within its budget; cut says what the budget left out.
func (k *Toolkit) render(ctx context.Context, f fetched) (text, cut string, err error) {
	media := mediaType(f)
	switch {
	case media == "text/html" || media == "application/xhtml+xml":
		release, err := k.converting(ctx)
		if err != nil {
			return "", "", err
		}
		defer release()
		return htmlText(ctx, f, k.budget())
	case media == "application/pdf":
		if f.truncated {
			return "", "", runtime.ModelErrorf(runtime.KindLimit, "the PDF at %s is larger than the size limit, and a cut PDF cannot be read: ask for a larger max_bytes if the limit allows", f.url)
		}
		release, err := k.converting(ctx)
		if err != nil {
			return "", "", err
		}
		defer release()
		text, err := pdfText(f)
		return text, "", err
	case strings.HasPrefix(media, "text/") || media == "application/json" || strings.HasSuffix(media, "+json") ||
		media == "application/xml" || strings.HasSuffix(media, "+xml"):
		return strings.ToValidUTF8(string(f.body), "\uFFFD"), "", nil
	}
	return "", "", runtime.ModelErrorf(runtime.KindInvalidInput, "%s is %s content (%s), which web_fetch cannot show as text", f.url, media, plural.Of(len(f.body), "byte"))
}

// mediaType is the body's media type: the header's, or sniffed when the header has none.
func mediaType(f fetched) string {
	if t, _, err := mime.ParseMediaType(f.contentType); err == nil && t != "application/octet-stream" {
		return t
	}
	if bytes.HasPrefix(f.body, []byte("%PDF-")) {
		return "application/pdf"
	}
	t, _, _ := mime.ParseMediaType(http.DetectContentType(f.body))
	return t
}

// pdfText extracts the text of a PDF. The parser is not hardened against hostile files, so
// a panic in it becomes an error.
func pdfText(f fetched) (text string, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = runtime.ModelErrorf(runtime.KindInvalidInput, "the PDF at %s could not be read", f.url)
		}
	}()
	if !pdfExpandsWithin(f.body, maxPDFExpansion) {
		return "", runtime.ModelErrorf(runtime.KindLimit, "the PDF at %s expands to more than %d MiB when decompressed, so it was not read", f.url, maxPDFExpansion>>20)
	}
	r, err := pdf.NewReader(bytes.NewReader(f.body), int64(len(f.body)))
	if err != nil {
		return "", runtime.ModelErrorf(runtime.KindInvalidInput, "the PDF at %s could not be read: %v", f.url, err)
	}
	plain, err := r.GetPlainText()
	if err != nil {
		return "", runtime.ModelErrorf(runtime.KindInvalidInput, "the text of the PDF at %s could not be read: %v", f.url, err)
	}
	// The extracted text is bounded by the PDF's size times a small factor; cap it anyway.
	out, err := io.ReadAll(io.LimitReader(plain, 4*int64(len(f.body))+4096))
	if err != nil {
		return "", runtime.ModelErrorf(runtime.KindInvalidInput, "the text of the PDF at %s could not be read: %v", f.url, err)
	}
	return strings.ToValidUTF8(string(out), "\uFFFD"), nil
}

// maxPDFExpansion bounds what the compressed streams of a PDF may expand to, in all, before
// the reader (which decompresses each stream whole) is given the file.
const maxPDFExpansion = 64 << 20

// pdfExpandsWithin reports whether the Flate streams of a PDF ("stream" … data) expand to at
// most limit bytes in all. It decompresses each into nothing, stopping as soon as the sum
// passes the limit, so a compression bomb costs the limit's worth of work, not its size in
// memory. Streams that are not zlib data are left to the reader.
func pdfExpandsWithin(body []byte, limit int64) bool {
	var total int64
	for off := 0; ; {
		i := bytes.Index(body[off:], []byte("stream"))
		if i < 0 {
			return true
		}
		at := off + i
		off = at + len("stream")
		if bytes.HasSuffix(body[:at], []byte("end")) {
			continue // "endstream"
		}
		data := bytes.TrimPrefix(bytes.TrimPrefix(body[off:], []byte("\r")), []byte("\n"))
		zr, err := zlib.NewReader(bytes.NewReader(data))
		if err != nil {
			continue
		}
		n, _ := io.Copy(io.Discard, io.LimitReader(zr, limit-total+1))
		total += n
		if total > limit {
			return false
		}
	}
}

// maxListDepth bounds the nesting of lists, quotes and tables a page may have: the Markdown
// converter indents every line of a nested list once per level and does not watch its
// context, so 200 levels of lists in under 1 MB took 15 s and 16 MB of output. Real pages
// stay far below it.
const maxListDepth = 32

// listDepth returns how deep lists, block quotes and tables nest in a parsed document. It
// measures the tree the converter walks, not the tags as written: the parser ignores an end
// tag with no open element to close ("<ul><li></ol>" nests), which a count of tags would take
// as closing one.
func listDepth(doc *html.Node) int {
	deepest := 0
	walkNesting(doc, func(n *html.Node, depth int) bool {
		if nests(n) {
			deepest = max(deepest, depth+1)
		}
		return true
	})
	return deepest
}

// walkNesting calls visit for each node of a document in order, with the number of lists,
// block quotes and tables around it, until visit returns false. It follows sibling and
// parent links, so a deep tree costs no stack.
func walkNesting(doc *html.Node, visit func(n *html.Node, depth int) bool) {
	depth := 0
	for n := doc; n != nil; {
		if !visit(n, depth) {
			return
		}
		if nests(n) {
			depth++
		}
		if n.FirstChild != nil {
			n = n.FirstChild
			continue
		}
		// Leave n and every ancestor that has no next sibling, then go to the next sibling.
		for n != doc && n.NextSibling == nil {
			if nests(n) {
				depth--
			}
			n = n.Parent
		}
		if n == doc {
			return
		}
		if nests(n) {
			depth--
		}
		n = n.NextSibling
	}
}

// nesting are the elements whose depth listDepth counts.
var nesting = map[string]bool{"ul": true, "ol": true, "dl": true, "blockquote": true, "table": true}

// nests reports whether n is one of the nesting elements.
func nests(n *html.Node) bool { return n.Type == html.ElementNode && nesting[n.Data] }

// ErrBlockedAddress is wrapped by the error of a connection the address guard refused.
var ErrBlockedAddress = netguard.ErrBlocked
