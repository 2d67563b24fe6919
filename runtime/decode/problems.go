package decode

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/internal/plural"
	"github.com/toolgen-go/toolgen/internal/suggest"
	"github.com/toolgen-go/toolgen/runtime"
)

// MaxProblems caps the problems kept for one call: a model that sends ten thousand bad items
// needs the first few and a count, not a message larger than its context.
const MaxProblems = 50

// Caps on the text of problems, whatever the model sent: every value a message shows is cut
// (Shown), and so is any message (an UnmarshalText error may echo its input) and path; once
// the problems kept add up to MaxProblemsText bytes, further ones are only counted.
const (
	MaxProblemMessage = 512
	MaxProblemsText   = 8 << 10
)

// Problems collects what is wrong with one call's arguments. The zero value is ready to use;
// nothing is allocated until the first problem.
type Problems struct {
	list    []runtime.Problem
	dropped int
	text    int // bytes of the paths and messages in list
}

// Add records a problem at p.
func (ps *Problems) Add(p *Path, message string) {
	if ps.full() {
		ps.dropped++
		return
	}
	if len(message) > MaxProblemMessage {
		message = cutText(message, MaxProblemMessage) + "…"
	}
	path := p.String()
	ps.text += len(path) + len(message)
	ps.list = append(ps.list, runtime.Problem{Path: path, Message: message})
}

// reserved is the room kept past MaxProblems for problems of whole containers (too many
// items): reported after their items, they would otherwise be lost in the count whenever the
// items had problems of their own, and they say what to fix first.
const reserved = 10

// addReserved records a problem of a whole container, in the reserved room when the list is
// full. Its message is short and its path capped, so the room adds at most a few KB.
func (ps *Problems) addReserved(p *Path, message string) {
	if !ps.full() || len(ps.list) >= MaxProblems+reserved {
		ps.Add(p, message)
		return
	}
	path := p.String()
	ps.text += len(path) + len(message)
	ps.list = append(ps.list, runtime.Problem{Path: path, Message: message})
}

// full reports whether further problems are only counted.
func (ps *Problems) full() bool { return len(ps.list) >= MaxProblems || ps.text >= MaxProblemsText }

// Len is the number of problems found, including those beyond MaxProblems.
func (ps *Problems) Len() int { return len(ps.list) + ps.dropped }

// Err returns nil when no problem was found, else an *runtime.ArgsError listing them.
func (ps *Problems) Err() error {
	if ps.Len() == 0 {
		return nil
	}
	list := ps.list
	if ps.dropped > 0 {
		list = append(list, runtime.Problem{Message: "… and " + strconv.Itoa(ps.dropped) + " more " + plural.Noun(ps.dropped, "problem")})
	}
	return &runtime.ArgsError{Problems: list}
}

// Missing records that the required property name of the object at p is absent.
func (ps *Problems) Missing(p *Path, name string) {
	q := p.Key(name)
	ps.Add(&q, "required property is missing")
}

// Duplicate records that the property at p appears twice in its object. JSON parsers disagree
// on which value wins, so a duplicate is refused rather than silently dropping one value.
func (ps *Problems) Duplicate(p *Path) {
	ps.Add(p, "property appears more than once")
}

// Unknown records a property of the object at p that the schema does not define, suggesting
// the closest known name.
func (ps *Problems) Unknown(p *Path, key []byte, known []string) {
	if ps.full() {
		ps.dropped++ // counted only: no copy of the key, no suggestion
		return
	}
	k := string(key)
	q := p.Key(k)
	if guess := suggest.Closest(k, known); guess != "" {
		ps.Add(&q, "unknown property, did you mean "+strconv.Quote(guess)+"?")
		return
	}
	if len(known) == 0 {
		ps.Add(&q, "unknown property; this object takes no properties")
		return
	}
	ps.Add(&q, "unknown property; expected one of "+quoteList(known))
}

// NotOneOf records a value outside an enum; allowed is the list as the message shows it
// (generated code precomputes it with QuoteList).
func (ps *Problems) NotOneOf(p *Path, allowed string, got string) {
	ps.Add(p, "must be one of "+allowed+", got "+Shown([]byte(got)))
}

// QuoteList renders names as `"a", "b", "c"` for messages.
func QuoteList(names ...string) string { return quoteList(names) }

func quoteList(names []string) string {
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(n))
	}
	return b.String()
}

// Shown renders a received value for a message: short values verbatim, long ones cut, never
// inside a character, so the model reads valid UTF-8.
func Shown(raw []byte) string {
	const limit = 40
	if len(raw) <= limit {
		return string(raw)
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(raw[cut]) {
		cut--
	}
	return string(raw[:cut]) + "…"
}

// quotedShown is Shown of strconv.Quote(s), without quoting all of a long s first.
func quotedShown(s string) string {
	return Shown([]byte(strconv.Quote(cutText(s, 64))))
}

// cutText returns s cut to at most n bytes, at a character boundary.
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
