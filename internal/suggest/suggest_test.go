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
