package tooleval

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/toolgen-go/toolgen/runtime"
)

// DefaultSimilarity is the score from which Run reports two tools as too close: tuned so
// that two tools describing the same thing for different times (current weather and a
// forecast, each without saying when to use it) are reported, and tools sharing only a domain
// word ("customer") are not.
const DefaultSimilarity = 0.5

// Similar is a pair of tools whose names and descriptions share most of their words.
type Similar struct {
	A, B string
	// Score is the cosine similarity of the two texts' word counts, from 0 (no word in
	// common) to 1 (the same words, as often).
	Score float64
	// Shared are the words both use, most telling first.
	Shared []string
}

// Advice says what to do about the pair.
func (s Similar) Advice() string {
	return fmt.Sprintf("they share %s; say in each description when to use it rather than the other", strings.Join(s.Shared, ", "))
}

// SimilarDescriptions returns the pairs of tools whose name and description score at least
// min (DefaultSimilarity when zero), highest first. Words are compared without case, without
// common English words, and each weighted by how few tools use it, so words every tool has
// ("the", "returns", the product's name) do not make tools alike. It needs no model: a lint.
// Its cost is quadratic in the number of tools, about 1 ms for 200 short descriptions.
func SimilarDescriptions(tools []runtime.Tool, min float64) []Similar {
	if min <= 0 {
		min = DefaultSimilarity
	}
	counts := make([]map[string]float64, len(tools))
	usedBy := map[string]int{}
	for i, t := range tools {
		counts[i] = wordCounts(t.Name + " " + t.Description)
		for w := range counts[i] {
			usedBy[w]++
		}
	}
	// Inverse document frequency: a word in every tool says nothing about which to pick.
	for _, c := range counts {
		for w, n := range c {
			c[w] = n * math.Log(1+float64(len(tools))/float64(usedBy[w]))
		}
	}
	var pairs []Similar
	for i := range tools {
		for j := i + 1; j < len(tools); j++ {
			score, shared := cosine(counts[i], counts[j])
			if score >= min {
				pairs = append(pairs, Similar{A: tools[i].Name, B: tools[j].Name, Score: math.Round(score*100) / 100, Shared: shared})
			}
		}
	}
	sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].Score > pairs[j].Score })
	return pairs
}

func cosine(a, b map[string]float64) (float64, []string) {
	var dot, na, nb float64
	type weighted struct {
		word string
		w    float64
	}
	var shared []weighted
	for w, x := range a {
		na += x * x
		if y, ok := b[w]; ok {
			dot += x * y
			shared = append(shared, weighted{w, x * y})
		}
	}
	for _, y := range b {
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0, nil
	}
	sort.Slice(shared, func(i, j int) bool {
		if shared[i].w != shared[j].w {
			return shared[i].w > shared[j].w
		}
		return shared[i].word < shared[j].word
	})
	words := make([]string, 0, min(len(shared), 5))
	for _, s := range shared[:min(len(shared), 5)] {
		words = append(words, s.word)
	}
	return dot / math.Sqrt(na*nb), words
}

// wordCounts splits text into lower-case words (snake_case and camelCase names split too),
// leaving out stop words.
func wordCounts(text string) map[string]float64 {
	counts := map[string]float64{}
	var word strings.Builder
	flush := func() {
		w := word.String()
		word.Reset()
		if len(w) > 1 && !stopWords[w] {
			counts[strings.TrimSuffix(w, "s")]++
		}
	}
	prevLower := false
	for _, r := range text {
		switch {
		case unicode.IsUpper(r) && prevLower:
			flush()
			word.WriteRune(unicode.ToLower(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			word.WriteRune(unicode.ToLower(r))
		default:
			flush()
		}
		prevLower = unicode.IsLower(r)
	}
	flush()
	return counts
}

var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an and are as at be by can for from get given has have how if in into is it its
		of on or that the their them then this to use used uses using was when which with you your returns return one all any`) {
		m[w] = true
	}
	return m
}()
