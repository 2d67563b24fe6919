package web

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
)

// SearchResult is one result of a web search.
type SearchResult struct {
	// Title of the page.
	Title string `json:"title"`
	// URL of the page.
	URL string `json:"url"`
	// Snippet is the search engine's excerpt of the page.
	Snippet string `json:"snippet"`
}

// Searcher runs a web search and returns up to num results, best first.
type Searcher interface {
	Search(ctx context.Context, query string, num int) ([]SearchResult, error)
}

// FreshSearcher is a Searcher that can keep only recent results (web_search's freshness);
// Serper and Firecrawl are. With another Searcher, a call asking for freshness is refused
// rather than answered with results of any age.
type FreshSearcher interface {
	SearchFresh(ctx context.Context, query string, num int, freshness Freshness) ([]SearchResult, error)
}

// timeBound is the Google tbs parameter of a freshness, which Serper and Firecrawl both take.
func timeBound(f Freshness) string {
	switch f {
	case FreshnessDay, FreshnessWeek, FreshnessMonth, FreshnessYear:
		return "qdr:" + string(f[:1])
	}
	return ""
}

// searchClient is the client of the search presets when they have none: the search service
// is the host's choice, not the model's, so no address guard.
var searchClient = &http.Client{Timeout: 30 * time.Second}

// maxSearchResponse bounds what is read of a search service's answer.
const maxSearchResponse = 4 << 20

// Serper searches Google through serper.dev: POST {BaseURL}/search with {"q","num"} and the
// key in X-API-KEY; the results are the answer's "organic" entries (title, link, snippet).
type Serper struct {
	APIKey  string       // "" means the SERPER_API_KEY environment variable
	BaseURL string       // "" means https://google.serper.dev
	Client  *http.Client // nil: a client with a 30s limit
	Country string       // Google's gl, such as "us" or "de": "" leaves it to Serper
	Locale  string       // Google's hl, the interface language, such as "en": "" leaves it to Serper
	// Num, when set, is the number of results asked of Serper whatever web_search asks, for
	// a host that pays per result page (web_search still returns at most what it was asked).
	Num int
}

func (s Serper) Search(ctx context.Context, query string, num int) ([]SearchResult, error) {
	return s.SearchFresh(ctx, query, num, FreshnessAny)
}

// SearchFresh is Search keeping only results of the freshness asked for.
func (s Serper) SearchFresh(ctx context.Context, query string, num int, freshness Freshness) ([]SearchResult, error) {
	key := cmp.Or(s.APIKey, os.Getenv("SERPER_API_KEY"))
	if key == "" {
		return nil, errors.New("web: Serper: no API key (set SERPER_API_KEY)")
	}
	var answer struct {
		Organic []struct {
			Title   string `json:"title"`
			Link    string `json:"link"`
			Snippet string `json:"snippet"`
		} `json:"organic"`
	}
	body := map[string]any{"q": query, "num": cmp.Or(s.Num, num)}
	if tbs := timeBound(freshness); tbs != "" {
		body["tbs"] = tbs
	}
	if s.Country != "" {
		body["gl"] = s.Country
	}
	if s.Locale != "" {
		body["hl"] = s.Locale
	}
	endpoint := strings.TrimSuffix(cmp.Or(s.BaseURL, "https://google.serper.dev"), "/") + "/search"
	if err := postJSON(ctx, s.Client, endpoint, map[string]string{"X-API-KEY": key}, body, &answer); err != nil {
		return nil, fmt.Errorf("web: Serper: %w", err)
	}
	out := make([]SearchResult, 0, len(answer.Organic))
	for _, r := range answer.Organic {
		out = append(out, SearchResult{Title: r.Title, URL: r.Link, Snippet: r.Snippet})
	}
	return out, nil
}

// Firecrawl searches through firecrawl.dev: POST {BaseURL}/v2/search with {"query","limit"}
// and the key as a bearer token; the results are the answer's data.web entries (title, url,
// description). The v1 answer, where data is the list itself, is read too.
type Firecrawl struct {
	APIKey  string       // "" means the FIRECRAWL_API_KEY environment variable
	BaseURL string       // "" means https://api.firecrawl.dev
	Client  *http.Client // nil: a client with a 30s limit
	// Format is what Scrape returns: "markdown" ("" means it) or "html", the page's cleaned
	// HTML as Firecrawl renders it.
	Format string
}

type firecrawlResult struct {
	Title       string `json:"title"`
	URL         string `json:"url"`
	Description string `json:"description"`
}

func (f Firecrawl) Search(ctx context.Context, query string, num int) ([]SearchResult, error) {
	return f.SearchFresh(ctx, query, num, FreshnessAny)
}

// SearchFresh is Search keeping only results of the freshness asked for.
func (f Firecrawl) SearchFresh(ctx context.Context, query string, num int, freshness Freshness) ([]SearchResult, error) {
	key := cmp.Or(f.APIKey, os.Getenv("FIRECRAWL_API_KEY"))
	if key == "" {
		return nil, errors.New("web: Firecrawl: no API key (set FIRECRAWL_API_KEY)")
	}
	var answer struct {
		Success bool            `json:"success"`
		Error   string          `json:"error"`
		Data    json.RawMessage `json:"data"`
	}
	body := map[string]any{"query": query, "limit": num}
	if tbs := timeBound(freshness); tbs != "" {
		body["tbs"] = tbs
	}
	endpoint := strings.TrimSuffix(cmp.Or(f.BaseURL, "https://api.firecrawl.dev"), "/") + "/v2/search"
	if err := postJSON(ctx, f.Client, endpoint, map[string]string{"Authorization": "Bearer " + key}, body, &answer); err != nil {
		return nil, fmt.Errorf("web: Firecrawl: %w", err)
	}
	if !answer.Success {
		return nil, fmt.Errorf("web: Firecrawl: search failed: %s", answer.Error)
	}
	var results []firecrawlResult
	var v2 struct {
		Web []firecrawlResult `json:"web"`
	}
	if err := json.Unmarshal(answer.Data, &v2); err == nil {
		results = v2.Web
	} else if err := json.Unmarshal(answer.Data, &results); err != nil {
		return nil, fmt.Errorf("web: Firecrawl: unexpected answer: %w", err)
	}
	out := make([]SearchResult, 0, len(results))
	for _, r := range results {
		out = append(out, SearchResult{Title: r.Title, URL: r.URL, Snippet: r.Description})
	}
	return out, nil
}

// postJSON posts body as JSON to endpoint and decodes the JSON answer into out.
func postJSON(ctx context.Context, client *http.Client, endpoint string, headers map[string]string, body, out any) error {
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(data))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := cmp.Or(client, searchClient).Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, maxSearchResponse))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("HTTP %s: %.200s", resp.Status, answer)
	}
	return json.Unmarshal(answer, out)
}

// SearcherFromEnv returns the search preset whose key is in the environment: Serper when
// SERPER_API_KEY is set, else Firecrawl when FIRECRAWL_API_KEY is, else Bocha when
// BOCHA_API_KEY is, else nil.
func SearcherFromEnv() Searcher {
	switch {
	case os.Getenv("SERPER_API_KEY") != "":
		return Serper{}
	case os.Getenv("FIRECRAWL_API_KEY") != "":
		return Firecrawl{}
	case os.Getenv("BOCHA_API_KEY") != "":
		return Bocha{}
	}
	return nil
}

// Scraper fetches a page through a scraping service and returns it as Markdown, with the URL
// it was read from (after redirects).
type Scraper interface {
	Scrape(ctx context.Context, url string) (markdown, finalURL string, err error)
}

// Scrape reads a page through Firecrawl: POST {BaseURL}/v2/scrape with {"url","formats":
// ["markdown"]}; the page is the answer's data.markdown, its URL data.metadata.sourceURL.
// Firecrawl renders JavaScript and reads PDFs on its side.
func (f Firecrawl) Scrape(ctx context.Context, pageURL string) (string, string, error) {
	key := cmp.Or(f.APIKey, os.Getenv("FIRECRAWL_API_KEY"))
	if key == "" {
		return "", "", errors.New("web: Firecrawl: no API key (set FIRECRAWL_API_KEY)")
	}
	var answer struct {
		Success bool   `json:"success"`
		Error   string `json:"error"`
		Data    struct {
			Markdown string `json:"markdown"`
			HTML     string `json:"html"`
			Metadata struct {
				SourceURL  string `json:"sourceURL"`
				StatusCode int    `json:"statusCode"`
			} `json:"metadata"`
		} `json:"data"`
	}
	format := cmp.Or(f.Format, "markdown")
	if format != "markdown" && format != "html" {
		return "", "", fmt.Errorf("web: Firecrawl: Format %q: must be \"markdown\" or \"html\"", f.Format)
	}
	body := map[string]any{"url": pageURL, "formats": []string{format}}
	endpoint := strings.TrimSuffix(cmp.Or(f.BaseURL, "https://api.firecrawl.dev"), "/") + "/v2/scrape"
	if err := postJSON(ctx, f.Client, endpoint, map[string]string{"Authorization": "Bearer " + key}, body, &answer); err != nil {
		return "", "", fmt.Errorf("web: Firecrawl: %w", err)
	}
	if !answer.Success {
		return "", "", fmt.Errorf("web: Firecrawl: scrape failed: %s", answer.Error)
	}
	if code := answer.Data.Metadata.StatusCode; code >= 400 {
		return "", "", fmt.Errorf("web: Firecrawl: the page answered HTTP %d", code)
	}
	page := answer.Data.Markdown
	if format == "html" {
		page = answer.Data.HTML
	}
	return page, cmp.Or(answer.Data.Metadata.SourceURL, pageURL), nil
}

// Bocha searches through bochaai.com: POST {BaseURL}/v1/web-search with {"query",
// "freshness","count","summary"} and the key as a bearer token; the results are the answer's
// data.webPages.value entries (name, url, snippet, or the summary when asked for).
type Bocha struct {
	APIKey  string       // "" means the BOCHA_API_KEY environment variable
	BaseURL string       // "" means https://api.bochaai.com
	Client  *http.Client // nil: a client with a 30s limit
	Summary bool         // ask for Bocha's longer summary of each page, used as the snippet
}

func (b Bocha) Search(ctx context.Context, query string, num int) ([]SearchResult, error) {
	return b.SearchFresh(ctx, query, num, FreshnessAny)
}

// bochaFreshness is Bocha's name of a freshness.
var bochaFreshness = map[Freshness]string{FreshnessAny: "noLimit", FreshnessDay: "oneDay", FreshnessWeek: "oneWeek", FreshnessMonth: "oneMonth", FreshnessYear: "oneYear"}

// SearchFresh is Search keeping only results of the freshness asked for.
func (b Bocha) SearchFresh(ctx context.Context, query string, num int, freshness Freshness) ([]SearchResult, error) {
	key := cmp.Or(b.APIKey, os.Getenv("BOCHA_API_KEY"))
	if key == "" {
		return nil, errors.New("web: Bocha: no API key (set BOCHA_API_KEY)")
	}
	var answer struct {
		Code int    `json:"code"`
		Msg  string `json:"msg"`
		Data struct {
			WebPages struct {
				Value []struct {
					Name    string `json:"name"`
					URL     string `json:"url"`
					Snippet string `json:"snippet"`
					Summary string `json:"summary"`
				} `json:"value"`
			} `json:"webPages"`
		} `json:"data"`
	}
	body := map[string]any{"query": query, "count": num, "freshness": cmp.Or(bochaFreshness[freshness.canonical()], "noLimit"), "summary": b.Summary}
	endpoint := strings.TrimSuffix(cmp.Or(b.BaseURL, "https://api.bochaai.com"), "/") + "/v1/web-search"
	if err := postJSON(ctx, b.Client, endpoint, map[string]string{"Authorization": "Bearer " + key}, body, &answer); err != nil {
		return nil, fmt.Errorf("web: Bocha: %w", err)
	}
	if answer.Code != 0 && answer.Code != http.StatusOK {
		return nil, fmt.Errorf("web: Bocha: search failed: code %d: %.200s", answer.Code, answer.Msg)
	}
	out := make([]SearchResult, 0, len(answer.Data.WebPages.Value))
	for _, r := range answer.Data.WebPages.Value {
		snippet := r.Snippet
		if b.Summary && r.Summary != "" {
			snippet = r.Summary
		}
		out = append(out, SearchResult{Title: r.Name, URL: r.URL, Snippet: snippet})
	}
	return out, nil
}
