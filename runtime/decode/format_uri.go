package decode

import (
	"strings"
	"unicode/utf8"
)

// The checkers of uri, uri-reference, iri and iri-reference parse by the ABNF of RFC 3986
// (URI-reference, URI) and RFC 3987 (IRI-reference, IRI): one pass over the string, without
// allocating. An IP-literal's IPv6 address is checked as IsIPv6 checks one.

// IsURI reports whether s is a URI of RFC 3986: a scheme, ":", and a hierarchical part with an
// optional query and fragment ("https://example.com/a?b#c", "urn:isbn:0451450523"). Only the
// characters RFC 3986 allows may appear, others percent-encoded: no spaces, quotes, "<>", "{}",
// "|", "\", "^", "`" or non-ASCII. Relative references ("/path", "//host/path") are not URIs.
func IsURI(s string) bool { return parseURI(s, false, false) }

// IsURIReference reports whether s is a URI-reference of RFC 3986: a URI (IsURI) or a
// relative reference ("/path", "//host/path", "../a?b", "#frag", the empty string).
func IsURIReference(s string) bool { return parseURI(s, false, true) }

// IsIRI reports whether s is an IRI of RFC 3987: a URI (IsURI) in which non-ASCII characters
// may also appear unencoded ("https://example.com/café"), private-use ones only in the query.
func IsIRI(s string) bool { return parseURI(s, true, false) }

// IsIRIReference reports whether s is an IRI-reference of RFC 3987: an IRI (IsIRI) or a
// relative reference in which non-ASCII characters may appear ("/café", "#ƒrägmênt").
func IsIRIReference(s string) bool { return parseURI(s, true, true) }

// Classes of the ASCII bytes in URI components (RFC 3986 section 2 and 3).
const (
	uriUnreserved = 1 << iota // ALPHA DIGIT - . _ ~
	uriSubDelim               // ! $ & ' ( ) * + , ; =
	uriColon                  // :
	uriAt                     // @
	uriSlash                  // /
	uriQuestion               // ?
	uriPercent                // % (the start of pct-encoded)

	uriUserinfo = uriUnreserved | uriSubDelim | uriColon | uriPercent
	uriRegName  = uriUnreserved | uriSubDelim | uriPercent
	uriPchar    = uriUnreserved | uriSubDelim | uriColon | uriAt | uriPercent
	uriPath     = uriPchar | uriSlash
	uriQuery    = uriPchar | uriSlash | uriQuestion // also the fragment
)

var uriClass = func() (t [128]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = uriUnreserved, uriUnreserved
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = uriUnreserved
	}
	for _, c := range "-._~" {
		t[c] = uriUnreserved
	}
	for _, c := range "!$&'()*+,;=" {
		t[c] = uriSubDelim
	}
	t[':'], t['@'], t['/'], t['?'], t['%'] = uriColon, uriAt, uriSlash, uriQuestion, uriPercent
	return t
}()

// parseURI checks s against URI (or URI-reference when ref is set) of RFC 3986, or IRI and
// IRI-reference of RFC 3987 when iri is set.
func parseURI(s string, iri, ref bool) bool {
	// A scheme is what comes before the first ':' that precedes any '/', '?' and '#'. Without
	// one, s is a relative reference, whose first segment holds no ':' (path-noscheme); with
	// one that is not a valid scheme ("1a:b", ":x"), s is neither.
	rest := s
	if i := strings.IndexAny(s, ":/?#"); i >= 0 && s[i] == ':' {
		if !isScheme(s[:i]) {
			return false
		}
		rest = s[i+1:]
	} else if !ref {
		return false
	}

	if hier, fragment, ok := strings.Cut(rest, "#"); ok {
		if !uriChars(fragment, uriQuery, iri, false) {
			return false
		}
		rest = hier
	}
	if hier, query, ok := strings.Cut(rest, "?"); ok {
		if !uriChars(query, uriQuery, iri, true) {
			return false
		}
		rest = hier
	}
	if after, ok := strings.CutPrefix(rest, "//"); ok {
		authority, path := after, ""
		if i := strings.IndexByte(after, '/'); i >= 0 {
			authority, path = after[:i], after[i:]
		}
		return isAuthority(authority, iri) && uriChars(path, uriPath, iri, false)
	}
	// path-absolute, path-rootless, path-noscheme or path-empty: the rules above leave only
	// the characters to check.
	return uriChars(rest, uriPath, iri, false)
}

// isScheme reports whether s is a scheme: a letter, then letters, digits, '+', '-' and '.'.
func isScheme(s string) bool {
	if s == "" || !('a' <= s[0] && s[0] <= 'z' || 'A' <= s[0] && s[0] <= 'Z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || uriClass[c]&uriUnreserved == 0 && c != '+' || c == '_' || c == '~' {
			return false
		}
	}
	return true
}

// isAuthority reports whether s is [ userinfo "@" ] host [ ":" port ], host an IP-literal in
// brackets or a reg-name (an IPv4 address is a reg-name too).
func isAuthority(s string, iri bool) bool {
	if userinfo, hostport, ok := strings.Cut(s, "@"); ok {
		if !uriChars(userinfo, uriUserinfo, iri, false) {
			return false
		}
		s = hostport
	}
	host, port := s, ""
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 || !isIPLiteral(s[1:end]) {
			return false
		}
		host = ""
		switch rest := s[end+1:]; {
		case rest == "":
		case rest[0] == ':':
			port = rest[1:]
		default:
			return false
		}
	} else if i := strings.IndexByte(s, ':'); i >= 0 {
		host, port = s[:i], s[i+1:]
	}
	return leadingDigits(port) == len(port) && uriChars(host, uriRegName, iri, false)
}

// isIPLiteral reports whether s, the inside of brackets, is an IPv6 address or an IPvFuture
// ("v1.x"): "v", hex digits, ".", then unreserved, sub-delims and ':'.
func isIPLiteral(s string) bool {
	if len(s) > 0 && (s[0] == 'v' || s[0] == 'V') {
		version, rest, ok := strings.Cut(s[1:], ".")
		if !ok || version == "" || rest == "" {
			return false
		}
		for i := 0; i < len(version); i++ {
			if !isHex(version[i]) {
				return false
			}
		}
		for i := 0; i < len(rest); i++ {
			if c := rest[i]; c >= utf8.RuneSelf || uriClass[c]&(uriUnreserved|uriSubDelim|uriColon) == 0 {
				return false
			}
		}
		return true
	}
	return IsIPv6(s)
}

// uriChars reports whether every character of s is of the classes allowed, a '%' starting a
// percent-encoded byte. With iri, the ucschar of RFC 3987 are allowed too, and the iprivate
// ones when private is set (in a query).
func uriChars(s string, allowed uint8, iri, private bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if uriClass[c]&allowed == 0 {
				return false
			}
			if c == '%' {
				if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
					return false
				}
				i += 3
				continue
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !iri || size == 1 || !(isUCSChar(r) || private && isIPrivate(r)) {
			return false
		}
		i += size
	}
	return true
}

// isUCSChar reports whether r is a ucschar of RFC 3987: a non-ASCII character outside the
// controls, surrogates, private use, specials and the last two code points of each plane.
func isUCSChar(r rune) bool {
	switch {
	case r >= 0xA0 && r <= 0xD7FF, r >= 0xF900 && r <= 0xFDCF, r >= 0xFDF0 && r <= 0xFFEF:
		return true
	case r >= 0x10000 && r <= 0xDFFFD:
		return r&0xFFFF <= 0xFFFD
	case r >= 0xE1000 && r <= 0xEFFFD:
		return true
	}
	return false
}

// isIPrivate reports whether r is an iprivate of RFC 3987: a private-use character.
func isIPrivate(r rune) bool {
	return r >= 0xE000 && r <= 0xF8FF || r >= 0xF0000 && r <= 0xFFFFD || r >= 0x100000 && r <= 0x10FFFD
}
