package runtime

import (
	"fmt"
	"unicode/utf8"
)

// Registry messages repeat what the model sent (a tool name, a decoder's complaint) so it can
// correct its call; a hostile call must not make them grow with its size.
const (
	// MaxToolNameLength is the longest tool name a registry accepts (Add refuses longer ones).
	// A call naming a longer tool is unknown at once: no "did you mean" search runs on it.
	MaxToolNameLength = 128
	// maxEchoedName is the bytes of an unknown tool name a message repeats.
	maxEchoedName = 100
	// maxEchoedText is the bytes of a bind error's text (other than an *ArgsError, whose
	// problems are capped where they are made) a message repeats.
	maxEchoedText = 2000
)

// echoed returns s, or, when it is longer than limit bytes, its first bytes up to a
// character boundary followed by an ellipsis and its length, so the model knows it was cut.
func echoed(s string, limit int) string {
	head, cut := cutText(s, limit)
	if !cut {
		return s
	}
	return fmt.Sprintf("%s… (%d bytes in all)", head, len(s))
}

// quotedName quotes a tool name from a call for a message, cut to maxEchoedName bytes.
func quotedName(name string) string {
	head, cut := cutText(name, maxEchoedName)
	if !cut {
		return fmt.Sprintf("%q", name)
	}
	return fmt.Sprintf("%q… (%d bytes)", head, len(name))
}

// cutText returns the first bytes of s, at most limit, ending at a character boundary, and
// whether it cut anything.
func cutText(s string, limit int) (string, bool) {
	if len(s) <= limit {
		return s, false
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut], true
}
