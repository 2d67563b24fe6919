package jsonpointer

import (
	"slices"
	"testing"
)

func TestEscapeRoundTrip(t *testing.T) {
	for _, name := range []string{"", "a", "a/b", "~", "~1", "~0/~1", "Größe", "a~b/c"} {
		esc := Escape(name)
		if got := Unescape(esc); got != name {
			t.Errorf("Unescape(Escape(%q)) = %q (escaped %q)", name, got, esc)
		}
		if got := Tokens("/x/" + esc); !slices.Equal(got, []string{"x", name}) {
			t.Errorf("Tokens(%q) = %q", "/x/"+esc, got)
		}
		ref := DefRef(name)
		if got, ok := DefName(ref); !ok || got != name {
			t.Errorf("DefName(DefRef(%q) = %q) = %q, %v", name, ref, got, ok)
		}
	}
	if got := Unescape("~01"); got != "~1" {
		t.Errorf(`Unescape("~01") = %q, want "~1"`, got)
	}
}

func TestDefRef(t *testing.T) {
	for name, want := range map[string]string{
		"Size":                  "#/$defs/Size",
		"units.Unit":            "#/$defs/units.Unit",
		"Größe":                 "#/$defs/Gr%C3%B6%C3%9Fe",
		"a/b~c":                 "#/$defs/a~1b~0c",
		"example.com.a.b.Thing": "#/$defs/example.com.a.b.Thing",
		"sp ace":                "#/$defs/sp%20ace",
	} {
		if got := DefRef(name); got != want {
			t.Errorf("DefRef(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestRefs(t *testing.T) {
	for _, c := range []struct {
		ref, pointer string
		ok           bool
	}{
		{"#", "", true},
		{"#/$defs/Gr%C3%B6%C3%9Fe", "/$defs/Größe", true},
		{"#/properties/a~1b", "/properties/a~1b", true},
		{"other.json#/a", "", false},
		{"#anchor", "", false},
		{"#/bad%zz", "", false},
	} {
		p, ok := RefPointer(c.ref)
		if p != c.pointer || ok != c.ok {
			t.Errorf("RefPointer(%q) = %q, %v; want %q, %v", c.ref, p, ok, c.pointer, c.ok)
		}
	}
	for _, ref := range []string{"#", "#/$defs", "#/$defs/A/B", "#/properties/A", "x#/$defs/A"} {
		if name, ok := DefName(ref); ok {
			t.Errorf("DefName(%q) = %q, true; want false", ref, name)
		}
	}
	if got := Tokens(""); got != nil {
		t.Errorf(`Tokens("") = %q, want none`, got)
	}
}
