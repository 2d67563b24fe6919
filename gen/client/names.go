package client

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// initialisms are written in capitals in Go names, as Go's style asks (user_id → UserID).
var initialisms = map[string]bool{
	"acl": true, "api": true, "ascii": true, "cpu": true, "css": true, "dns": true, "eof": true,
	"guid": true, "html": true, "http": true, "https": true, "id": true, "ip": true, "json": true,
	"qps": true, "ram": true, "rpc": true, "sla": true, "smtp": true, "sql": true, "ssh": true,
	"tcp": true, "tls": true, "ttl": true, "udp": true, "ui": true, "uid": true, "uuid": true,
	"uri": true, "url": true, "utf8": true, "vm": true, "xml": true, "xmpp": true, "xsrf": true,
	"xss": true,
}

// goName turns a wire name into an exported Go identifier: words split at every character
// that is not a letter or digit and where a lower-case letter meets an upper-case one
// (get_weather, get-weather, getWeather → GetWeather), each word capitalized, initialisms in
// capitals (user_id → UserID). A name that does not start with an upper-case letter after that
// (a digit, a letter without case) gets "X" in front; one with no letter or digit at all is
// "X" and the hex of its bytes, so distinct names stay distinct.
func goName(s string) string {
	var b strings.Builder
	for _, w := range words(s) {
		if initialisms[strings.ToLower(w)] {
			b.WriteString(strings.ToUpper(w))
			continue
		}
		r, size := utf8.DecodeRuneInString(w)
		b.WriteRune(unicode.ToUpper(r))
		b.WriteString(w[size:])
	}
	name := b.String()
	if name == "" {
		var hex strings.Builder
		hex.WriteString("X")
		for i := 0; i < len(s); i++ {
			hex.WriteString(strconv.FormatUint(uint64(s[i]), 16))
		}
		return hex.String()
	}
	if r, _ := utf8.DecodeRuneInString(name); !unicode.IsUpper(r) {
		name = "X" + name
	}
	return name
}

// goSuffix is goName for the end of an identifier (an enum value after its type's name),
// which may start with a digit: no "X" is added.
func goSuffix(s string) string {
	name := goName(s)
	if rest, ok := strings.CutPrefix(name, "X"); ok && rest != "" && !strings.HasPrefix(s, "X") && !strings.HasPrefix(s, "x") {
		if r, _ := utf8.DecodeRuneInString(rest); unicode.IsDigit(r) || !unicode.IsUpper(r) && unicode.IsLetter(r) {
			return rest
		}
	}
	return name
}

// words splits s into the words goName capitalizes.
func words(s string) []string {
	var out []string
	start := -1
	var prev rune
	for i, r := range s {
		if !utf8.ValidRune(r) || r == utf8.RuneError || !(unicode.IsLetter(r) || unicode.IsDigit(r)) {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			prev = 0
			continue
		}
		if start >= 0 && unicode.IsLower(prev) && unicode.IsUpper(r) {
			out = append(out, s[start:i])
			start = i
		}
		if start < 0 {
			start = i
		}
		prev = r
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// namespace hands out distinct names in one scope (the package, or one struct's fields). The
// first claim of a name gets it; a later claim of the same name gets it with the first free
// number from 2 on, and the caller reports the rename. Claims are made in the order the
// listing is read (tools by name, then properties in schema order), so the same document gives
// the same names.
type namespace struct {
	owners map[string]string // name → the pointer (or reserved word) holding it
	next   map[string]int    // want → the number its next clash tries first
}

func newNamespace(reserved ...string) *namespace {
	ns := &namespace{owners: map[string]string{}, next: map[string]int{}}
	for _, r := range reserved {
		ns.owners[r] = "the generated " + r
	}
	return ns
}

// claim returns a free name for want, owned by owner, and the owner of want when it was taken.
func (ns *namespace) claim(want, owner string) (got, takenBy string) {
	if _, taken := ns.owners[want]; !taken {
		ns.owners[want] = owner
		return want, ""
	}
	takenBy = ns.owners[want]
	// Numbers already handed out for want are not tried again: a listing of 10,000 names
	// that all become the same Go name would otherwise cost 50 million tries.
	for i := max(ns.next[want], 2); ; i++ {
		got = want + strconv.Itoa(i)
		if _, taken := ns.owners[got]; !taken {
			ns.owners[got] = owner
			ns.next[want] = i + 1
			return got, takenBy
		}
	}
}

// release frees a name for a later claim.
func (ns *namespace) release(name string) { delete(ns.owners, name) }
