package variant

import (
	"strings"
	"testing"
)

func TestVariantRestore(t *testing.T) {
	v := Variant{
		NullMeansAbsent: []string{"/unit", "/items/*/note", "/tree/next", "/a~1b"},
		Renames:         []Rename{{Path: "/tree", From: "child-nodes", To: "child_nodes"}},
		Loops:           []Loop{{Path: "/tree/next", Target: "/tree"}, {Path: "/tree/child-nodes/*", Target: "/tree"}},
	}
	cases := []struct{ in, want string }{
		{`{"city":"Paris","unit":null}`, `{"city":"Paris"}`},
		{`{"unit":"celsius"}`, `{"unit":"celsius"}`},
		{`{"city":null}`, `{"city":null}`}, // not optional: the decoder decides
		{`{"items":[{"note":null,"n":1},{"note":"x"}]}`, `{"items":[{"n":1},{"note":"x"}]}`},
		{`{"a/b":null,"n":12345678901234567890}`, `{"n":12345678901234567890}`},
		{`{"tree":{"child_nodes":[{"child_nodes":[],"next":null}],"next":{"next":null,"child_nodes":[]}}}`,
			`{"tree":{"child-nodes":[{"child-nodes":[]}],"next":{"child-nodes":[]}}}`},
		{`{"x":"<a&b>","u":"\u00e9"}`, `{"x":"\u003ca\u0026b\u003e","u":"é"}`},
		{`[null,{"unit":null}]`, `[null,{"unit":null}]`},
		{`null`, `null`},
	}
	for _, c := range cases {
		got, err := v.Restore([]byte(c.in))
		if err != nil || string(got) != c.want {
			t.Errorf("Restore(%s) = %s, %v; want %s", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{`{"unit":`, `{"a":1}x`, `{"a" 1}`, ``, strings.Repeat("[", 20000) + strings.Repeat("]", 20000)} {
		got, err := v.Restore([]byte(bad))
		if err == nil || string(got) != bad {
			t.Errorf("Restore(%.40s) = %.40s, %v; want the input back and an error", bad, got, err)
		}
	}
	// Nothing to undo: the arguments come back as they are, not even re-encoded.
	in := []byte(`{"x": "<a>", "unit": null}`)
	if got, err := (Variant{}).Restore(in); err != nil || &got[0] != &in[0] {
		t.Errorf("Restore without work = %s, %v; want the same slice", got, err)
	}
}
