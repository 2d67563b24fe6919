// Package web gives a model the web: web_fetch {url, max_bytes} reads a page, web_search
// {query, num} searches.
//
// # web_fetch
//
// An HTTP(S) GET with a time limit ([Toolkit.Timeout], 30s), a cap on the bytes read
// ([Toolkit.MaxBytes], 5 MiB; the model may ask for less with max_bytes) and at most
// [Toolkit.MaxRedirects] redirects (5). HTML becomes Markdown (through
// github.com/JohannesKaufmann/html-to-markdown/v2, relative links made absolute), a PDF
// becomes its plain text (through github.com/ledongthuc/pdf, a pure-Go reader; a PDF cut by
// the size cap is refused, as is one the reader cannot parse), text and JSON pass as they are,
// and other content is refused with its type and size. The result is capped at 32 KiB: a
// longer page goes to the registry's result store, and the model reads the first part and
// how to get the rest.
//
// HTML is converted within a budget: at most [Toolkit.MaxElements] elements (tags and
// comments, 20,000), [Toolkit.MaxHTMLBytes] bytes of HTML (1 MiB) and [Toolkit.MaxTextBytes]
// bytes of text (128 KiB), the content of scripts and styles aside (it is dropped). Inside
// lists, block quotes and tables an element or a byte of text counts once per level, since
// the converter indents or prefixes their content once per level. A longer page is cut
// there, and the model reads a note saying so. The page is cut before it is parsed (a
// tokenizer pass holding one token of at most 1 MiB), so the parser and the converter never
// see more than the budget, and lists, quotes and tables nested more than 32 deep are
// refused. The library does not watch its context: a renderer of ours does, at every
// element, so a conversion stops when its call's ctx ends. At most [Toolkit.MaxConversions]
// pages (4; HTML and PDF) are converted at once per Toolkit; other calls wait for a slot
// within their timeout.
//
// What a hostile page costs: at most MaxBytes read (compressed bodies are capped after
// decompression), the time limit, and the conversion of one budget. On 5 MiB pages shaped to
// cost the converter most (every element a link, text of Markdown's special characters,
// paragraphs inside 30 ordered lists) a whole fetch allocated at most 59 MB and its
// conversion took a fraction of a second; the tests hold it under 80 MiB (before the budget a
// flat 4 MiB page allocated 900 MB in 10.8 s). So the Toolkit's conversions cost at most
// MaxConversions times that at once. The PDF reader is not
// hardened, so its panics are recovered, and a PDF whose compressed streams expand past 64 MiB
// in all is refused before the reader sees it (a compression bomb costs that much
// decompression into nothing, not memory). Other filters than Flate are left to the reader.
//
// Only http and https URLs with a host and without credentials are fetched. The address
// guard is on by default: the dialer's Control hook, which runs after DNS resolution on the
// very address about to be connected, refuses loopback, private, link-local (cloud metadata
// among them), carrier-grade NAT, multicast, unspecified and reserved addresses. Because it
// checks the connection and not the URL, it also covers redirects and names that resolve, or
// are rebound, to such addresses. No proxy is used (a proxy from the environment would be
// the address checked). [Toolkit.Allow] lets chosen networks through (a test server on
// 127.0.0.1, an intranet); [Toolkit.AllowPrivate] turns the guard off.
//
// # web_search
//
// web_search asks the [Toolkit.Searcher] and returns each result's title, URL and snippet:
// [Toolkit.SearchResults] of them (10) unless the model asks for another number, and at most
// [Toolkit.MaxSearchResults] (20). Bocha's call form is read as written: count for num, and
// freshness noLimit, oneDay, oneWeek, oneMonth, oneYear. Three presets speak their services'
// documented HTTP APIs: [Serper] (Google results, POST /search with X-API-KEY, key from
// SERPER_API_KEY; country gl and language hl settable), [Firecrawl] (POST /v2/search with a
// bearer token, key from FIRECRAWL_API_KEY) and [Bocha] (POST /v1/web-search with a bearer
// token, key from BOCHA_API_KEY). Each takes a BaseURL, for a proxy or a test server.
// Without a Searcher, web_search answers that search is not configured.
//
// Firecrawl also scrapes: with [Toolkit.Scraper] set to web.Firecrawl{}, web_fetch reads
// pages through POST /v2/scrape (JavaScript rendered, PDFs read on Firecrawl's side) instead
// of fetching them itself, as Markdown or, with Format "html", as HTML.
package web

//go:generate go tool toolgen

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
)

// Toolkit holds the settings of web_fetch and the searcher of web_search. Its zero value
// fetches with the defaults and the guard on, and has no searcher.
type Toolkit struct {
	// Searcher answers web_search; nil: web_search says search is not configured.
	Searcher Searcher
	// Scraper, when set, reads pages for web_fetch instead of a direct GET (web.Firecrawl
	// does both); the address guard then does not apply, as the service fetches the page.
	Scraper Scraper

	// Allow lists networks web_fetch may reach although the guard blocks them.
	Allow []netip.Prefix
	// AllowPrivate turns the address guard off: only for trusted models on trusted networks.
	AllowPrivate bool
	MaxBytes     int64         // the most bytes read of a body: 0 means DefaultMaxBytes
	MaxRedirects int           // 0 means DefaultMaxRedirects
	Timeout      time.Duration // the whole fetch: 0 means DefaultTimeout
	UserAgent    string        // "" means "toolgen-web-fetch/1"

	// MaxElements is the most HTML elements (tags, comments) of a page converted to
	// Markdown: 0 means DefaultMaxElements. The rest of the page is cut, with a note.
	MaxElements int
	// MaxHTMLBytes is the most bytes of HTML (scripts and styles aside) of a page converted
	// to Markdown: 0 means DefaultMaxHTMLBytes. The rest of the page is cut, with a note.
	MaxHTMLBytes int
	// MaxTextBytes is the most bytes of text among them: 0 means DefaultMaxTextBytes.
	MaxTextBytes int
	// MaxConversions is how many pages (HTML or PDF) this Toolkit converts at once: 0 means
	// DefaultMaxConversions. Other calls wait for a slot within their timeout.
	MaxConversions int

	// SearchResults is how many results web_search returns when the model asks for no number:
	// 0 means DefaultSearchResults (10, as the XML agent's seed).
	SearchResults int
	// MaxSearchResults is the most results web_search returns, whatever the model asks: 0
	// means DefaultMaxSearchResults (20). The schema allows up to 100, the hard ceiling.
	MaxSearchResults int

	once sync.Once
	http *http.Client

	slotsOnce sync.Once
	slots     chan struct{} // a conversion slot each
}

// FetchArgs are the arguments of web_fetch.
type FetchArgs struct {
	// URL of the page, http or https.
	URL string `json:"url" tool:"format=uri,maxLength=4096"`
	// MaxBytes is the most bytes of the page to read; 0 means the host's limit.
	MaxBytes int64 `json:"max_bytes,omitempty" tool:"default=0,minimum=0"`
}

// WebFetch fetches a web page or PDF and returns its content as Markdown or text.
//
// Use it to read a page found with web_search or named by the user.
//
//tool:name web_fetch
//tool:hints readonly,openworld
//tool:timeout 60s
//tool:maxresult 32KiB
//tool:example {"url":"https://go.dev/doc/go1.26"}
func (k *Toolkit) WebFetch(ctx context.Context, args FetchArgs) (string, error) {
	limit := cmp.Or(k.MaxBytes, DefaultMaxBytes)
	if args.MaxBytes > 0 && args.MaxBytes < limit {
		limit = args.MaxBytes
	}
	page, text, cut, err := k.read(ctx, args.URL, limit)
	if err != nil {
		return "", err
	}
	head := "URL: " + page.url + "\n"
	if page.truncated {
		head += fmt.Sprintf("Note: only the first %d bytes of the page were read.\n", limit)
	}
	return head + cut + "\n" + text, nil
}

// read fetches a page and renders it, directly or through the Scraper; cut is the note on
// what the conversion budget left out, or "".
func (k *Toolkit) read(ctx context.Context, rawURL string, limit int64) (page fetched, text, cut string, err error) {
	if k.Scraper == nil {
		page, err := k.get(ctx, rawURL, limit)
		if err != nil {
			return page, "", "", err
		}
		text, cut, err := k.render(ctx, page)
		return page, text, cut, err
	}
	if u, err := url.Parse(rawURL); err != nil || checkURL(u) != nil {
		return fetched{}, "", "", runtime.ModelErrorf(runtime.KindInvalidInput, "cannot fetch %q: only http and https URLs with a host and no credentials", rawURL)
	}
	md, final, err := k.Scraper.Scrape(ctx, rawURL)
	if err != nil {
		return fetched{}, "", "", &runtime.ModelError{Kind: runtime.KindUnavailable, Message: fmt.Sprintf("fetching %s failed; try again later", rawURL), Err: err}
	}
	page = fetched{url: final}
	if int64(len(md)) > limit {
		md, page.truncated = strings.ToValidUTF8(md[:limit], ""), true
	}
	return page, md, "", nil
}

// SearchArgs are the arguments of web_search.
type SearchArgs struct {
	// Query to search for, as typed into a search engine.
	Query string `json:"query" tool:"minLength=1,maxLength=500"`
	// How many results to return; 0 means the host's default (10 unless set), and more than
	// the host's limit (20 unless set) returns that many.
	Num int `json:"num,omitempty" tool:"default=0,minimum=0,maximum=100"`
	// Count is num under Bocha's name, for calls written that way; num wins when both are set.
	Count int `json:"count,omitempty" tool:"default=0,minimum=0,maximum=100"`
	// Freshness keeps only results published within the last day, week, month or year
	// (Bocha's noLimit, oneDay, oneWeek, oneMonth and oneYear are read as the same).
	Freshness Freshness `json:"freshness,omitempty" tool:"default=any"`
}

// Freshness limits search results by age.
type Freshness string

const (
	FreshnessAny   Freshness = "any"   // any age
	FreshnessDay   Freshness = "day"   // the last 24 hours
	FreshnessWeek  Freshness = "week"  // the last 7 days
	FreshnessMonth Freshness = "month" // the last month
	FreshnessYear  Freshness = "year"  // the last year

	// Bocha's names of the same, accepted as written.
	FreshnessNoLimit  Freshness = "noLimit"  // any age
	FreshnessOneDay   Freshness = "oneDay"   // the last 24 hours
	FreshnessOneWeek  Freshness = "oneWeek"  // the last 7 days
	FreshnessOneMonth Freshness = "oneMonth" // the last month
	FreshnessOneYear  Freshness = "oneYear"  // the last year
)

// canonical returns f under toolgen's name: Bocha's names are read as ours.
func (f Freshness) canonical() Freshness {
	switch f {
	case "", FreshnessNoLimit:
		return FreshnessAny
	case FreshnessOneDay:
		return FreshnessDay
	case FreshnessOneWeek:
		return FreshnessWeek
	case FreshnessOneMonth:
		return FreshnessMonth
	case FreshnessOneYear:
		return FreshnessYear
	}
	return f
}

// Defaults of web_search's result count, when the Toolkit sets none.
const (
	DefaultSearchResults    = 10
	DefaultMaxSearchResults = 20
)

// SearchResults are the results of web_search, best first.
type SearchResults struct {
	Results []SearchResult `json:"results"`
}

// WebSearch searches the web and returns the title, URL and snippet of each result.
//
// Use it to find pages about a topic; read a page with web_fetch.
//
//tool:name web_search
//tool:hints readonly,openworld
//tool:timeout 30s
//tool:example {"query":"html to markdown go library","num":5}
//tool:example {"query":"go 1.26 release notes","freshness":"noLimit","count":10}
func (k *Toolkit) WebSearch(ctx context.Context, args SearchArgs) (SearchResults, error) {
	if k.Searcher == nil {
		return SearchResults{}, runtime.Permanent(runtime.ModelErrorf(runtime.KindUnavailable, "web search is not configured here: work from what you know, or fetch a URL you know"))
	}
	num := cmp.Or(args.Num, args.Count, k.SearchResults, DefaultSearchResults)
	num = min(num, cmp.Or(k.MaxSearchResults, DefaultMaxSearchResults))
	freshness := args.Freshness.canonical()
	var results []SearchResult
	var err error
	if fresh, ok := k.Searcher.(FreshSearcher); ok {
		results, err = fresh.SearchFresh(ctx, args.Query, num, freshness)
	} else if freshness != FreshnessAny {
		return SearchResults{}, runtime.Permanent(runtime.ModelErrorf(runtime.KindUnavailable, "this search cannot limit results by age: search again without freshness"))
	} else {
		results, err = k.Searcher.Search(ctx, args.Query, num)
	}
	if err != nil {
		return SearchResults{}, &runtime.ModelError{Kind: runtime.KindUnavailable, Message: "the search failed; try again later", Err: err}
	}
	if len(results) > num {
		results = results[:num]
	}
	return SearchResults{Results: append([]SearchResult{}, results...)}, nil
}
