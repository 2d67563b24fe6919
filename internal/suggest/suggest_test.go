package suggest

import "testing"

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
