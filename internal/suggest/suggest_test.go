package suggest

import (
	"strings"
	"testing"
)

func TestClosest(t *testing.T) {
	directives := []string{"name", "title", "description", "tags", "timeout", "retry", "related"}
	cases := []struct{ word, want string }{
		{"nmae", "name"},      // transposition
		{"Name", "name"},      // case only
		{"timout", "timeout"}, // deletion
		{"descripton", "description"},
		{"tag", "tags"},
		{"xyz", ""}, // nothing close
		{"relatde", "related"},
		{"", ""},
	}
	for _, c := range cases {
		if got := Closest(c.word, directives); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.word, got, c.want)
		}
	}
	props := []string{"city", "unit", "days"}
	if got := Closest("citty", props); got != "city" {
		t.Errorf("Closest(citty) = %q, want city", got)
	}
	if got := Closest("zzzz", props); got != "" {
		t.Errorf("Closest(zzzz) = %q, want none", got)
	}
}

// A huge word is not compared with short candidates: the cost is the count of candidates, not
// the word's length times theirs (a 10 MB unknown tool name took 2.2 s).
func TestClosestSkipsFarLengths(t *testing.T) {
	word := strings.Repeat("n", 10<<20)
	allocs := testing.AllocsPerRun(2, func() {
		if got := Closest(word, []string{"name", "title"}); got != "" {
			t.Errorf("Closest = %q", got)
		}
	})
	if allocs > 0 {
		t.Errorf("Closest allocated %v times for a word it cannot match", allocs)
	}
	if got := Closest("KELVİN", []string{"kelvin"}); got != "kelvin" {
		t.Errorf("Closest(KELVİN) = %q", got)
	}
}

// fullDistance is the optimal string alignment distance over the whole matrix: the reference
// distanceWithin's band must agree with.
func fullDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// The banded distance is the full one wherever it is within the limit, and over the limit
// exactly when the full one is: every pair of words up to five letters over a three-letter
// alphabet (where edits and transpositions abound), for every limit Closest uses.
func TestBandedDistanceAgreesWithTheFullOne(t *testing.T) {
	var words []string
	var grow func(string)
	grow = func(w string) {
		words = append(words, w)
		if len(w) < 5 {
			for _, c := range "abc" {
				grow(w + string(c))
			}
		}
	}
	grow("")
	for k := 1; k <= 3; k++ {
		for _, a := range words {
			for _, b := range words {
				if got, want := distanceWithin(a, b, k), min(fullDistance(a, b), k+1); got != want {
					t.Fatalf("distanceWithin(%q, %q, %d) = %d, want %d", a, b, k, got, want)
				}
			}
		}
	}
}

// FuzzBandedDistance holds the band to the full matrix for any two short texts.
func FuzzBandedDistance(f *testing.F) {
	f.Add("kitten", "sitting", 3)
	f.Fuzz(func(t *testing.T, a, b string, k int) {
		if len(a) > 64 || len(b) > 64 {
			return
		}
		k = 1 + (k%3+3)%3
		if got, want := distanceWithin(a, b, k), min(fullDistance(a, b), k+1); got != want {
			t.Fatalf("distanceWithin(%q, %q, %d) = %d, want %d", a, b, k, got, want)
		}
	})
}

// Two long names of equal length are compared near the diagonal only: one typo in 40 KB is
// found, and names that differ everywhere are given up on in the first rows.
func TestClosestOnLongNames(t *testing.T) {
	long := strings.Repeat("abcdefghij", 4<<10)
	typo := long[:20000] + "X" + long[20001:]
	if got := Closest(typo, []string{long}); got != long {
		t.Errorf("one typo in 40 KB was not suggested")
	}
	if got := Closest(strings.Repeat("z", len(long)), []string{long}); got != "" {
		t.Errorf("a name differing everywhere was suggested")
	}
}
