// Package suggest finds the closest known name to a misspelled one, for "did you mean" hints
// in generation errors (directives, tag keys) and in argument problems (unknown properties).
package suggest

import (
	"fmt"
	"strings"
)

// Closest returns the candidate nearest to word, or "" when none is near enough to be a likely
// typo. Case differences count as small edits, so "Name" suggests "name" and "citty" suggests
// "city". Ties go to the earlier candidate, which keeps hints deterministic.
func Closest(word string, candidates []string) string {
	best, bestDist := "", -1
	lw := ""
	for _, c := range candidates {
		// The distance is at least the difference in length, so a word far longer or shorter
		// than a candidate (a 10 MB name) is not compared with it at all. Lower-casing may
		// change a text's length up to threefold (the Kelvin sign is three bytes, k one),
		// hence the slack.
		if farApart(len(word), len(c)) || farApart(len(c), len(word)) {
			continue
		}
		if lw == "" {
			lw = strings.ToLower(word)
		}
		k := limit(word, c)
		d := distanceWithin(lw, strings.ToLower(c), k)
		if d > k {
			continue
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// limit is how many edits still look like a typo: about a third of the longer word, at least
// one and at most three, so short names do not match everything.
func limit(a, b string) int {
	n := max(len(a), len(b))
	return min(max(n/3, 1), 3)
}

// distanceWithin is the optimal string alignment distance (Levenshtein plus adjacent
// transpositions, the commonest typo) on bytes, names here being ASCII, when it is at most
// k, and k+1 otherwise. Only the cells within k of the diagonal are computed, and a row whose
// every cell is over k ends the search, so two names of n bytes cost about n·(2k+1) steps,
// not n² (two 40 KB names took seconds).
func distanceWithin(a, b string, k int) int {
	if a == b {
		return 0
	}
	far := k + 1
	if len(a)-len(b) > k || len(b)-len(a) > k {
		return far
	}
	// Three rows suffice for the transposition look-back. Cells just outside a row's band are
	// set to far, so the next row never reads what an older row left there.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = min(j, far)
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-k), min(len(b), i+k)
		cur[lo-1] = far // outside the band
		if lo == 1 {
			cur[0] = min(i, far)
		}
		rowMin := cur[lo-1]
		for j := lo; j <= hi; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost, far)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if hi < len(b) {
			cur[hi+1] = far
		}
		if rowMin >= far {
			return far
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// Quoted quotes name for a message and adds a "did you mean" hint when a candidate is close:
// `"get_wether" (did you mean "get_weather"?)`.
func Quoted(name string, candidates []string) string {
	if near := Closest(name, candidates); near != "" {
		return fmt.Sprintf("%q (did you mean %q?)", name, near)
	}
	return fmt.Sprintf("%q", name)
}

// farApart reports whether texts of a and b bytes, lower-cased, differ in length by more than
// any limit allows.
func farApart(a, b int) bool { return a > 5*b+9 }
