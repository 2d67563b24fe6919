package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/internal/testcost"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/web"
)

var loopback1 = netip.MustParsePrefix("127.0.0.1/32")

// serve starts a test server on addr (host:0) with h.
func serve(t *testing.T, addr string, h http.Handler) *httptest.Server {
	t.Helper()
	l, err := net.Listen("tcp", addr)
	require.NoError(t, err)
	srv := &httptest.Server{Listener: l, Config: &http.Server{Handler: h}}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

func newRegistry(t *testing.T, k *web.Toolkit) *runtime.Registry {
	t.Helper()
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(k.Tools()...))
	return reg
}

func fetch(t *testing.T, reg *runtime.Registry, url string, maxBytes int) runtime.Result {
	t.Helper()
	args := fmt.Sprintf(`{"url":%q}`, url)
	if maxBytes > 0 {
		args = fmt.Sprintf(`{"url":%q,"max_bytes":%d}`, url, maxBytes)
	}
	return reg.Invoke(t.Context(), runtime.Call{Name: "web_fetch", Args: []byte(args)})
}

func site() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<html><head><title>T</title><script>evil()</script></head><body><h1>Release notes</h1><p>Go is <b>fast</b>. See <a href="/more">more</a>.</p></body></html>`)
	})
	mux.HandleFunc("/plain", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, strings.Repeat("0123456789", 100))
	})
	mux.HandleFunc("/doc.pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		w.Write(minimalPDF("Hello from a PDF"))
	})
	mux.HandleFunc("/broken.pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		io.WriteString(w, "%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer garbage")
	})
	mux.HandleFunc("/image", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("\x89PNG\r\n\x1a\n0000"))
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, strings.Repeat("all work and no play\n", 4000))
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	mux.HandleFunc("/to-file", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
	})
	return mux
}

func TestFetchConvertsPages(t *testing.T) {
	srv := serve(t, "127.0.0.1:0", site())
	reg := newRegistry(t, &web.Toolkit{Allow: []netip.Prefix{loopback1}})

	res := fetch(t, reg, srv.URL+"/page", 0)
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, "URL: "+srv.URL+"/page\n\n# Release notes\n\nGo is **fast**. See [more]("+srv.URL+"/more).", res.Text)

	res = fetch(t, reg, srv.URL+"/doc.pdf", 0)
	require.False(t, res.IsError, res.Text)
	assert.Contains(t, res.Text, "Hello from a PDF")

	res = fetch(t, reg, srv.URL+"/plain", 25)
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, "URL: "+srv.URL+"/plain\nNote: only the first 25 bytes of the page were read.\n\n0123456789012345678901234", res.Text)
}

func TestFetchRefusals(t *testing.T) {
	srv := serve(t, "127.0.0.1:0", site())
	reg := newRegistry(t, &web.Toolkit{Allow: []netip.Prefix{loopback1}, MaxRedirects: 3})
	for _, c := range []struct {
		url  string
		kind runtime.ErrorKind
		want string
	}{
		{srv.URL + "/image", runtime.KindInvalidInput, "/image is image/png content (12 bytes), which web_fetch cannot show as text"},
		{srv.URL + "/broken.pdf", runtime.KindInvalidInput, "the PDF at " + srv.URL + "/broken.pdf could not be read"},
		{srv.URL + "/missing", runtime.KindNotFound, "HTTP 404 Not Found"},
		{srv.URL + "/loop", runtime.KindUnavailable, "more than 3 redirects"},
		{srv.URL + "/to-file", runtime.KindUnavailable, `only http and https URLs can be fetched, not "file"`},
		{"file:///etc/passwd", runtime.KindInvalidInput, `only http and https URLs can be fetched, not "file"`},
		{"http://user:pw@" + srv.Listener.Addr().String() + "/page", runtime.KindInvalidInput, "URLs with credentials"},
	} {
		res := fetch(t, reg, c.url, 0)
		require.True(t, res.IsError, c.url)
		assert.Equal(t, c.kind, res.Kind, c.url)
		assert.Contains(t, res.Text, c.want)
	}

	// A PDF cut by the size cap is refused rather than misread.
	res := fetch(t, reg, srv.URL+"/doc.pdf", 100)
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, "larger than the size limit")
}

// A long page is capped for the model; the rest goes to the registry's store.
func TestFetchOutputIsCapped(t *testing.T) {
	srv := serve(t, "127.0.0.1:0", site())
	reg := newRegistry(t, &web.Toolkit{Allow: []netip.Prefix{loopback1}})
	res := fetch(t, reg, srv.URL+"/big", 0)
	require.False(t, res.IsError, res.Text)
	require.NotNil(t, res.Offloaded)
	assert.LessOrEqual(t, len(res.Text), 32<<10)
	assert.Greater(t, res.Offloaded.Size, 80000)
}

func TestGuardRefusesLocalAddressesByDefault(t *testing.T) {
	target := serve(t, "127.0.0.1:0", site())
	// The redirector listens on 127.0.0.2, which the tests allow; its redirects go to
	// 127.0.0.1, which they do not.
	redirector := serve(t, "127.0.0.2:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+"/page", http.StatusFound)
	}))
	_, port, _ := net.SplitHostPort(target.Listener.Addr().String())

	guarded := newRegistry(t, &web.Toolkit{})
	for _, url := range []string{
		target.URL + "/page",                      // loopback itself
		"http://localhost:" + port + "/page",      // a name resolving to loopback
		"http://[::ffff:127.0.0.1]:" + port + "/", // loopback as an IPv4-mapped IPv6 address
	} {
		res := fetch(t, guarded, url, 0)
		require.True(t, res.IsError, url)
		assert.Equal(t, runtime.KindPermission, res.Kind, url)
		assert.Contains(t, res.Text, "local, private or reserved network address", url)
	}

	only2 := newRegistry(t, &web.Toolkit{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.2/32")}})
	res := fetch(t, only2, redirector.URL+"/", 0)
	require.True(t, res.IsError, "a redirect to 127.0.0.1 is refused")
	assert.Equal(t, runtime.KindPermission, res.Kind)
	res = fetch(t, only2, "http://localhost:"+port+"/page", 0)
	require.True(t, res.IsError, "localhost is not 127.0.0.2")

	// With 127.0.0.1 allowed too, the same redirect and name go through.
	both := newRegistry(t, &web.Toolkit{Allow: []netip.Prefix{loopback1, netip.MustParsePrefix("127.0.0.2/32")}})
	res = fetch(t, both, redirector.URL+"/", 0)
	require.False(t, res.IsError, res.Text)
	assert.Contains(t, res.Text, "# Release notes")
	res = fetch(t, both, "http://localhost:"+port+"/page", 0)
	require.False(t, res.IsError, res.Text)

	// AllowPrivate turns the guard off.
	res = fetch(t, newRegistry(t, &web.Toolkit{AllowPrivate: true}), target.URL+"/page", 0)
	require.False(t, res.IsError, res.Text)
}

// fakeSearch answers like a search API and records what it was sent.
type fakeSearch struct {
	method, path, auth string
	body               map[string]any
	answer             string
}

func (f *fakeSearch) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.method, f.path = r.Method, r.URL.Path
	f.auth = r.Header.Get("X-API-KEY") + r.Header.Get("Authorization")
	if r.Header.Get("Content-Type") != "application/json" {
		http.Error(w, "want JSON", http.StatusUnsupportedMediaType)
		return
	}
	json.NewDecoder(r.Body).Decode(&f.body)
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, f.answer)
}

func search(t *testing.T, s web.Searcher, args string) runtime.Result {
	t.Helper()
	return newRegistry(t, &web.Toolkit{Searcher: s}).Invoke(t.Context(), runtime.Call{Name: "web_search", Args: []byte(args)})
}

func TestSerper(t *testing.T) {
	fake := &fakeSearch{answer: `{"searchParameters":{"q":"go","type":"search"},"organic":[
		{"title":"The Go Programming Language","link":"https://go.dev/","snippet":"Go is an open source language.","position":1},
		{"title":"Go on GitHub","link":"https://github.com/golang/go","snippet":"The Go repository.","position":2},
		{"title":"Third","link":"https://example.com/3","snippet":"three","position":3}]}`}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	t.Setenv("SERPER_API_KEY", "serper-key")

	res := search(t, web.Serper{BaseURL: srv.URL}, `{"query":"go","num":2}`)
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, "POST /search serper-key", fake.method+" "+fake.path+" "+fake.auth)
	assert.Equal(t, map[string]any{"q": "go", "num": float64(2)}, fake.body)
	assert.JSONEq(t, `{"results":[
		{"title":"The Go Programming Language","url":"https://go.dev/","snippet":"Go is an open source language."},
		{"title":"Go on GitHub","url":"https://github.com/golang/go","snippet":"The Go repository."}]}`, string(res.Structured))

	// A failing service: the model reads that the search failed, the operator why.
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"message":"Unauthorized."}`, http.StatusUnauthorized)
	}))
	defer refusing.Close()
	res = search(t, web.Serper{BaseURL: refusing.URL, APIKey: "wrong"}, `{"query":"go"}`)
	require.True(t, res.IsError)
	assert.Equal(t, "the search failed; try again later", res.Text)
	assert.ErrorContains(t, cause(t, res), "HTTP 401 Unauthorized")
	assert.NotContains(t, res.Text, "wrong")
}

func TestFirecrawl(t *testing.T) {
	for name, answer := range map[string]string{
		"v2": `{"success":true,"data":{"web":[{"url":"https://www.firecrawl.dev/","title":"Firecrawl","description":"Web data for AI.","position":1}]}}`,
		"v1": `{"success":true,"data":[{"url":"https://www.firecrawl.dev/","title":"Firecrawl","description":"Web data for AI."}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			fake := &fakeSearch{answer: answer}
			srv := httptest.NewServer(fake)
			defer srv.Close()
			t.Setenv("FIRECRAWL_API_KEY", "fc-key")
			res := search(t, web.Firecrawl{BaseURL: srv.URL}, `{"query":"firecrawl"}`)
			require.False(t, res.IsError, res.Text)
			assert.Equal(t, "POST /v2/search Bearer fc-key", fake.method+" "+fake.path+" "+fake.auth)
			assert.Equal(t, map[string]any{"query": "firecrawl", "limit": float64(10)}, fake.body, "the default count is 10")
			assert.JSONEq(t, `{"results":[{"title":"Firecrawl","url":"https://www.firecrawl.dev/","snippet":"Web data for AI."}]}`, string(res.Structured))
		})
	}
}

func TestSearchWithoutKeyOrSearcher(t *testing.T) {
	t.Setenv("SERPER_API_KEY", "")
	t.Setenv("FIRECRAWL_API_KEY", "")
	for _, s := range []web.Searcher{web.Serper{}, web.Firecrawl{}} {
		res := search(t, s, `{"query":"go"}`)
		require.True(t, res.IsError)
		assert.ErrorContains(t, cause(t, res), "no API key")
	}
	res := search(t, nil, `{"query":"go"}`)
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, "web search is not configured here")
	assert.Equal(t, 1, res.Attempts)
}

// cause is the operator's error behind a model error.
func cause(t *testing.T, res runtime.Result) error {
	t.Helper()
	var me *runtime.ModelError
	require.ErrorAs(t, res.Err, &me)
	return me.Err
}

func TestSearcherFromEnv(t *testing.T) {
	t.Setenv("SERPER_API_KEY", "")
	t.Setenv("FIRECRAWL_API_KEY", "")
	assert.Nil(t, web.SearcherFromEnv())
	t.Setenv("FIRECRAWL_API_KEY", "fc")
	assert.Equal(t, web.Firecrawl{}, web.SearcherFromEnv())
	t.Setenv("SERPER_API_KEY", "s")
	assert.Equal(t, web.Serper{}, web.SearcherFromEnv())
}

func TestFirecrawlScraper(t *testing.T) {
	fake := &fakeSearch{answer: `{"success":true,"data":{"markdown":"# Hello\n\nFrom Firecrawl.","metadata":{"title":"Hello","sourceURL":"https://example.com/final","statusCode":200}}}`}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	reg := newRegistry(t, &web.Toolkit{Scraper: web.Firecrawl{APIKey: "fc-key", BaseURL: srv.URL}})

	res := fetch(t, reg, "https://example.com/start", 0)
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, "POST /v2/scrape Bearer fc-key", fake.method+" "+fake.path+" "+fake.auth)
	assert.Equal(t, map[string]any{"url": "https://example.com/start", "formats": []any{"markdown"}}, fake.body)
	assert.Equal(t, "URL: https://example.com/final\n\n# Hello\n\nFrom Firecrawl.", res.Text)

	res = fetch(t, reg, "https://example.com/start", 7)
	assert.Equal(t, "URL: https://example.com/final\nNote: only the first 7 bytes of the page were read.\n\n# Hello", res.Text)

	res = fetch(t, reg, "file:///etc/passwd", 0)
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, "only http and https URLs")
}

// TestHostilePagesAreCut: 5 MiB pages shaped to cost the converter most (a flat page of
// paragraphs took 10.8 s and 900 MB when 4 MiB) are cut to the conversion budget, with a
// note, and a fetch allocates at most 80 MiB in all, the body's reading included.
func TestHostilePagesAreCut(t *testing.T) {
	shapes := map[string]string{
		"paragraphs": "<p>x",
		"links":      `<p><a href="/x">*_</a>`,
		"specials":   "*_[]",
		"deep lists": "<ol><li>",
	}
	srv := serve(t, "127.0.0.1:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		unit := shapes[r.URL.Query().Get("shape")]
		w.Header().Set("Content-Type", "text/html")
		if unit == "<ol><li>" { // 30 levels of lists, then paragraphs
			io.WriteString(w, strings.Repeat(unit, 30))
			unit = "<p>*_"
		}
		io.WriteString(w, strings.Repeat(unit, (5<<20)/len(unit)))
	}))
	reg := newRegistry(t, &web.Toolkit{Allow: []netip.Prefix{loopback1}})
	for name := range shapes {
		var res runtime.Result
		bytes := testcost.Allocated(func() { res = fetch(t, reg, srv.URL+"/?shape="+url.QueryEscape(name), 0) })
		require.False(t, res.IsError, res.Text)
		note := "\nNote: the page is longer than web_fetch converts (20000 HTML elements, 1048576 bytes of HTML, 131072 of text, scripts and styles aside): only its start was converted, and the rest is left out.\n"
		assert.True(t, strings.Contains(res.Text, note), "%s: no note in %.300q", name, res.Text)
		assert.Less(t, bytes, uint64(80<<20), "%s: %d bytes allocated", name, bytes)
		t.Logf("%s: %d bytes allocated", name, bytes)
	}
}

// searchFunc is a Searcher that cannot limit results by age.
type searchFunc func(ctx context.Context, query string, num int) ([]web.SearchResult, error)

func (f searchFunc) Search(ctx context.Context, query string, num int) ([]web.SearchResult, error) {
	return f(ctx, query, num)
}

func TestSearchFreshness(t *testing.T) {
	fake := &fakeSearch{answer: `{"organic":[]}`}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	res := search(t, web.Serper{BaseURL: srv.URL, APIKey: "k"}, `{"query":"go","freshness":"week"}`)
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, map[string]any{"q": "go", "num": float64(10), "tbs": "qdr:w"}, fake.body)

	fc := &fakeSearch{answer: `{"success":true,"data":{"web":[]}}`}
	fcSrv := httptest.NewServer(fc)
	defer fcSrv.Close()
	res = search(t, web.Firecrawl{BaseURL: fcSrv.URL, APIKey: "k"}, `{"query":"go","freshness":"day"}`)
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, "qdr:d", fc.body["tbs"])

	// A searcher that cannot: refused, never answered with results of any age.
	plain := searchFunc(func(context.Context, string, int) ([]web.SearchResult, error) {
		return []web.SearchResult{{Title: "old"}}, nil
	})
	res = search(t, plain, `{"query":"go","freshness":"year"}`)
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, "cannot limit results by age")
	res = search(t, plain, `{"query":"go"}`)
	require.False(t, res.IsError, res.Text)
	res = search(t, plain, `{"query":"go","freshness":"decade"}`)
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, `/freshness: must be one of "any", "day", "week", "month", "year"`)
}

// The XML agent's Bocha-style call is accepted as written (freshness "noLimit", count), and
// Bocha answers it, tested against a fake of its API.
func TestBocha(t *testing.T) {
	fake := &fakeSearch{answer: `{"code":200,"msg":null,"data":{"webPages":{"value":[
		{"name":"Go","url":"https://go.dev/","snippet":"Go is a language.","summary":"Go is an open source language by Google."},
		{"name":"Go blog","url":"https://go.dev/blog","snippet":"The blog."}]}}}`}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	t.Setenv("BOCHA_API_KEY", "bocha-key")

	res := search(t, web.Bocha{BaseURL: srv.URL}, `{"query":"go","freshness":"noLimit","count":1}`)
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, "POST /v1/web-search Bearer bocha-key", fake.method+" "+fake.path+" "+fake.auth)
	assert.Equal(t, map[string]any{"query": "go", "count": float64(1), "freshness": "noLimit", "summary": false}, fake.body)
	assert.JSONEq(t, `{"results":[{"title":"Go","url":"https://go.dev/","snippet":"Go is a language."}]}`, string(res.Structured))

	res = search(t, web.Bocha{BaseURL: srv.URL, Summary: true}, `{"query":"go","freshness":"oneWeek"}`)
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, "oneWeek", fake.body["freshness"])
	assert.Equal(t, float64(10), fake.body["count"], "the default count is 10")
	assert.Contains(t, string(res.Structured), "by Google", "the summary is the snippet when asked for")

	failing := &fakeSearch{answer: `{"code":401,"msg":"invalid api key"}`}
	bad := httptest.NewServer(failing)
	defer bad.Close()
	res = search(t, web.Bocha{BaseURL: bad.URL}, `{"query":"go"}`)
	require.True(t, res.IsError)
	assert.ErrorContains(t, cause(t, res), "invalid api key")
}

// The host sets web_search's default and limit of results, and Serper's country, language and
// number of results asked.
func TestSearchCountsAndSerperSettingsAreTheHosts(t *testing.T) {
	fake := &fakeSearch{answer: `{"organic":[]}`}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	serper := web.Serper{BaseURL: srv.URL, APIKey: "k", Country: "de", Locale: "en"}
	invoke := func(k *web.Toolkit, args string) {
		t.Helper()
		res := newRegistry(t, k).Invoke(t.Context(), runtime.Call{Name: "web_search", Args: []byte(args)})
		require.False(t, res.IsError, res.Text)
	}
	invoke(&web.Toolkit{Searcher: serper}, `{"query":"go"}`)
	assert.Equal(t, map[string]any{"q": "go", "num": float64(10), "gl": "de", "hl": "en"}, fake.body)
	invoke(&web.Toolkit{Searcher: serper}, `{"query":"go","num":50}`)
	assert.Equal(t, float64(20), fake.body["num"], "at most 20 unless the host says")
	invoke(&web.Toolkit{Searcher: serper, SearchResults: 3, MaxSearchResults: 40}, `{"query":"go"}`)
	assert.Equal(t, float64(3), fake.body["num"])
	invoke(&web.Toolkit{Searcher: serper, SearchResults: 3, MaxSearchResults: 40}, `{"query":"go","num":50}`)
	assert.Equal(t, float64(40), fake.body["num"])
	serper.Num = 100
	invoke(&web.Toolkit{Searcher: serper}, `{"query":"go","num":2}`)
	assert.Equal(t, float64(100), fake.body["num"], "Serper.Num is asked whatever the model asks")
}

func TestFirecrawlScraperHTML(t *testing.T) {
	fake := &fakeSearch{answer: `{"success":true,"data":{"html":"<h1>Hello</h1>","markdown":"# Hello","metadata":{"sourceURL":"https://example.com/","statusCode":200}}}`}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	reg := newRegistry(t, &web.Toolkit{Scraper: web.Firecrawl{APIKey: "fc-key", BaseURL: srv.URL, Format: "html"}})
	res := fetch(t, reg, "https://example.com/", 0)
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, map[string]any{"url": "https://example.com/", "formats": []any{"html"}}, fake.body)
	assert.Equal(t, "URL: https://example.com/\n\n<h1>Hello</h1>", res.Text)
}
