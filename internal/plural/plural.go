// Package plural writes counted nouns in messages: "1 line", "3 lines", "1 entry", "2
// entries", so that no message reads "1 lines". It knows the regular English endings, which
// cover the nouns toolgen counts (item, property, tool, match, entry, byte, …).
package plural

import "strconv"

// Of is n followed by noun, in the plural unless n is 1 or -1: Of(1, "line") is "1 line",
// Of(0, "matching line") "0 matching lines". The last word of noun takes the ending.
func Of[N integer](n N, noun string) string {
	return strconv.FormatInt(int64(n), 10) + " " + Noun(n, noun)
}

type integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32
}

// Noun is noun as n of it reads: "line" for 1, "lines" otherwise.
func Noun[N integer](n N, noun string) string {
	if n == 1 || int64(n) == -1 || noun == "" {
		return noun
	}
	return Plural(noun)
}

// Plural is the plural of a noun with a regular ending: property → properties, match →
// matches, item → items.
func Plural(noun string) string {
	n := len(noun)
	switch {
	case n >= 2 && noun[n-1] == 'y' && !isVowel(noun[n-2]):
		return noun[:n-1] + "ies"
	case hasSuffix(noun, "s"), hasSuffix(noun, "x"), hasSuffix(noun, "z"), hasSuffix(noun, "ch"), hasSuffix(noun, "sh"):
		return noun + "es"
	}
	return noun + "s"
}

func isVowel(c byte) bool { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' }

func hasSuffix(s, suffix string) bool {
	return len(s) >= len(suffix) && s[len(s)-len(suffix):] == suffix
}
