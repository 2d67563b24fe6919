package toolsearch

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/toolgen-go/toolgen/runtime"
)

// BM25 parameters: the usual k1 and b.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// Field weights: a word in a tool's name says more about it than one in its description.
// Each occurrence counts its field's weight towards the word's frequency (BM25F's way of
// weighting fields, simplified).
const (
	weightName        = 3
	weightTags        = 2 // tags, category and namespace
	weightDescription = 1 // description and triggers
	weightParameters  = 1 // parameter names
	weightDetail      = 0.5
)

// Index is a BM25 index of tools over their names, descriptions, tags, categories,
// namespaces, triggers and parameter names. It is built from what the generated code compiles
// into each runtime.Tool, without any I/O. An Index is immutable and safe for concurrent use.
type Index struct {
	names    []string
	docs     []map[string]float64 // per tool: term -> weighted frequency
	lengths  []float64
	avgLen   float64
	idf      map[string]float64
	postings map[string][]int // term -> tools holding it
}

// Hit is one tool a search found.
type Hit struct {
	Name  string
	Score float64
}

// NewIndex indexes tools.
func NewIndex(tools []runtime.Tool) *Index {
	ix := &Index{idf: map[string]float64{}, postings: map[string][]int{}}
	var total float64
	for i, t := range tools {
		doc := map[string]float64{}
		add := func(text string, w float64) {
			for _, term := range Terms(text) {
				doc[term] += w
			}
		}
		add(t.Name, weightName)
		add(t.Title, weightName)
		add(strings.Join(t.Tags, " "), weightTags)
		add(t.Category, weightTags)
		add(t.Namespace, weightTags)
		add(t.Description, weightDescription)
		add(strings.Join(t.Triggers, " "), weightDescription)
		add(t.Detail, weightDetail)
		add(strings.Join(parameterNames(t.InputSchema), " "), weightParameters)
		var length float64
		for term, f := range doc {
			length += f
			ix.postings[term] = append(ix.postings[term], i)
		}
		ix.names = append(ix.names, t.Name)
		ix.docs = append(ix.docs, doc)
		ix.lengths = append(ix.lengths, length)
		total += length
	}
	if n := len(tools); n > 0 {
		ix.avgLen = total / float64(n)
		for term, docs := range ix.postings {
			df := float64(len(docs))
			ix.idf[term] = math.Log(1 + (float64(n)-df+0.5)/(df+0.5))
		}
	}
	return ix
}

// Search returns the k tools that match query best, best first (fewer when fewer match). Ties
// go to the name that sorts first, so results are deterministic.
func (ix *Index) Search(query string, k int) []Hit {
	if k <= 0 || len(ix.names) == 0 {
		return nil
	}
	scores := map[int]float64{}
	for _, term := range slices.Compact(sortedTerms(query)) {
		idf := ix.idf[term]
		for _, i := range ix.postings[term] {
			f := ix.docs[i][term]
			norm := bm25K1 * (1 - bm25B + bm25B*ix.lengths[i]/ix.avgLen)
			scores[i] += idf * f * (bm25K1 + 1) / (f + norm)
		}
	}
	hits := make([]Hit, 0, len(scores))
	for i, s := range scores {
		hits = append(hits, Hit{Name: ix.names[i], Score: s})
	}
	slices.SortFunc(hits, func(a, b Hit) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	return hits[:min(k, len(hits))]
}

func sortedTerms(s string) []string {
	t := Terms(s)
	slices.Sort(t)
	return t
}

// Terms splits text into the index's terms: lower-case words split at punctuation, snake_case,
// kebab-case and camelCase boundaries, with stop words left out and a light stemming of
// English endings (invoices → invoice, shipping → ship), so a query finds "list_invoices" by
// "invoice".
func Terms(text string) []string {
	var out []string
	var word []rune
	flush := func() {
		if len(word) > 0 {
			w := string(word)
			if !stopWords[w] {
				w = stem(w)
				if c, ok := verbOf[w]; ok {
					w = c
				}
				out = append(out, w)
			}
			word = word[:0]
		}
	}
	runes := []rune(text)
	for i, r := range runes {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			// a camelCase boundary: "getWeather" → get, weather; "HTTPServer" → http, server
			if unicode.IsUpper(r) && len(word) > 0 {
				prev := runes[i-1]
				nextLower := i+1 < len(runes) && unicode.IsLower(runes[i+1])
				if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
					flush()
				}
			}
			word = append(word, unicode.ToLower(r))
		default:
			flush()
		}
	}
	flush()
	return out
}

// stem removes common English endings. It is deliberately light: the same word in a tool's
// text and in a query must reach the same stem, which matters more than linguistic accuracy.
func stem(w string) string {
	if len(w) <= 3 {
		return w
	}
	for _, suffix := range []struct{ from, to string }{
		{"ies", "y"}, {"sses", "ss"}, {"xes", "x"}, {"ches", "ch"}, {"shes", "sh"},
		{"ing", ""}, {"ed", ""}, {"es", "e"}, {"s", ""},
	} {
		if strings.HasSuffix(w, suffix.from) && len(w)-len(suffix.from) >= 3 {
			if strings.HasSuffix(w, "ss") && suffix.from == "s" {
				return w
			}
			base := w[:len(w)-len(suffix.from)] + suffix.to
			// shipping → shipp → ship: a doubled final consonant is undone after -ing/-ed
			if (suffix.from == "ing" || suffix.from == "ed") && len(base) >= 4 && base[len(base)-1] == base[len(base)-2] && !strings.ContainsRune("aeiouls", rune(base[len(base)-1])) {
				base = base[:len(base)-1]
			}
			return base
		}
	}
	return w
}

// verbOf maps the words people use for what a tool does to the verb tool names use, so
// "remove a cert" finds delete_certificate's "delete" (keys and values are stems).
var verbOf = map[string]string{}

var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be by for from has have how i in is it its
		me my of on or that the this to was what when where which who will with you your can do
		does please want need we our all some one someone single`) {
		stopWords[w] = true
	}
	for verb, words := range map[string]string{
		"list":      "show enumerate",
		"get":       "fetch retrieve read look detail lookup view",
		"create":    "add make new register",
		"update":    "change edit modify rename set",
		"delete":    "remove erase destroy drop purge",
		"search":    "find query",
		"export":    "download csv spreadsheet dump",
		"archive":   "hide shelve",
		"share":     "access invite grant",
		"summarize": "summary stat statistic count total many aggregate report",
	} {
		for _, w := range strings.Fields(words) {
			verbOf[stem(w)] = verb
		}
	}
}

// parameterNames returns the property names of a schema, nested ones included, from the
// schema's JSON: the index reads what the model would see.
func parameterNames(schema json.RawMessage) []string {
	if len(schema) == 0 {
		return nil
	}
	var root any
	if json.Unmarshal(schema, &root) != nil {
		return nil
	}
	var names []string
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if depth > 32 {
			return
		}
		switch n := v.(type) {
		case map[string]any:
			if props, ok := n["properties"].(map[string]any); ok {
				for name, p := range props {
					names = append(names, name)
					walk(p, depth+1)
				}
			}
			for _, key := range []string{"items", "additionalProperties"} {
				if sub, ok := n[key]; ok {
					walk(sub, depth+1)
				}
			}
			if defs, ok := n["$defs"].(map[string]any); ok {
				for _, d := range defs {
					walk(d, depth+1)
				}
			}
		case []any:
			for _, item := range n {
				walk(item, depth+1)
			}
		}
	}
	walk(root, 0)
	slices.Sort(names)
	return names
}
