package decode

import (
	"maps"
	"net/netip"
	"slices"
	"strings"
)

// This file holds the checkers behind the `format=` constraint. Generated decoders call them
// after a string has been decoded, and the emitted schema carries the same "format" keyword.
// Each checker follows the RFC that JSON Schema 2020-12 names for its format, as the official
// JSON Schema Test Suite reads it (internal/jsonschemasuite runs the suite's format tests
// through generated code): RFC 3339 for date-time, date, time and duration (appendix A),
// RFC 5321 for email, RFC 1123 and IDNA2008 (RFC 5890-5893) for hostname and idn-hostname
// (format_idna.go), dotted quads and RFC 4291 for ipv4 and ipv6, RFC 3986 for uri and
// uri-reference and RFC 3987 for iri and iri-reference (format_uri.go), RFC 4122 for uuid.
//
// They are stricter than github.com/santhosh-tekuri/jsonschema/v6, the validator gen/agreement
// holds the decoder to, where that validator departs from the RFCs (a space in a uri, "+1" as
// an IPv4 octet, "P1Y2D"), and accept the few things the RFCs allow and it refuses (a
// quoted-pair in an email's local part, an IPvFuture host, non-ASCII userinfo in an IRI);
// gen/agreement documents the difference, and format_test.go lists the second kind. Valid input costs no
// allocation, except internationalized names (a hostname with an "xn--" label, an idn-hostname
// with any non-ASCII label), which go through golang.org/x/net/idna.

// formatSpec is one entry of the format registry.
type formatSpec struct {
	check    func(string) bool
	describe string
	name     string // of check, which generated code calls
}

// formats is the registry of every format name a `format=` constraint may use; FormatFunc reads
// it, and its keys are the names annotations.Formats lists.
var formats = map[string]formatSpec{
	"date-time":     {IsDateTime, `an RFC 3339 date-time such as "2024-01-02T15:04:05Z"`, "IsDateTime"},
	"date":          {IsDate, `an RFC 3339 full-date such as "2024-01-02"`, "IsDate"},
	"time":          {IsTime, `an RFC 3339 full-time such as "15:04:05Z"`, "IsTime"},
	"duration":      {IsDuration, `an ISO 8601 duration such as "P3DT4H30M"`, "IsDuration"},
	"email":         {IsEmail, `an email address such as "user@example.com"`, "IsEmail"},
	"hostname":      {IsHostname, `a hostname such as "api.example.com"`, "IsHostname"},
	"idn-hostname":  {IsIDNHostname, `a hostname, Unicode allowed, such as "bücher.example"`, "IsIDNHostname"},
	"ipv4":          {IsIPv4, `an IPv4 address such as "192.0.2.1"`, "IsIPv4"},
	"ipv6":          {IsIPv6, `an IPv6 address such as "2001:db8::1"`, "IsIPv6"},
	"uri":           {IsURI, `an absolute URI such as "https://example.com/path"`, "IsURI"},
	"uri-reference": {IsURIReference, `a URI or a relative reference such as "/path?q=1"`, "IsURIReference"},
	"iri":           {IsIRI, `an absolute IRI, Unicode allowed, such as "https://example.com/café"`, "IsIRI"},
	"iri-reference": {IsIRIReference, `an IRI or a relative reference, Unicode allowed, such as "/café"`, "IsIRIReference"},
	"uuid":          {IsUUID, `a UUID such as "123e4567-e89b-12d3-a456-426614174000"`, "IsUUID"},
}

// FormatFunc returns the checker for a JSON Schema format name and a short phrase describing a
// valid value, for error messages read by a model ("must be an RFC 3339 date-time such as …").
// ok is false for a name toolgen does not support.
func FormatFunc(name string) (check func(string) bool, describe string, ok bool) {
	spec, ok := formats[name]
	return spec.check, spec.describe, ok
}

// FormatChecker returns the name of the exported function of this package that checks a
// format, which generated code calls (IsDateTime for "date-time"); ok is false for a name
// toolgen does not support.
func FormatChecker(name string) (fn string, ok bool) {
	spec, ok := formats[name]
	return spec.name, ok
}

// FormatNames returns the supported format names, sorted.
func FormatNames() []string {
	return slices.Sorted(maps.Keys(formats))
}

// IsDateTime reports whether s is an RFC 3339 date-time: a full-date, "T" or "t", and a
// full-time, e.g. "2024-01-02T15:04:05.5+01:00". A leap second is accepted only at 23:59:60 UTC.
func IsDateTime(s string) bool {
	// Shortest form: yyyy-mm-ddThh:mm:ssZ.
	if len(s) < 20 {
		return false
	}
	if s[10] != 't' && s[10] != 'T' {
		return false
	}
	return IsDate(s[:10]) && IsTime(s[11:])
}

// IsDate reports whether s is an RFC 3339 full-date, "yyyy-mm-dd", naming a day that exists
// (February 29 only in leap years).
func IsDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for _, i := range [...]int{0, 1, 2, 3, 5, 6, 8, 9} {
		if !isDigit(s[i]) {
			return false
		}
	}
	year := digitsValue(s[0:4])
	month := digitsValue(s[5:7])
	day := digitsValue(s[8:10])
	if month < 1 || month > 12 {
		return false
	}
	return day >= 1 && day <= daysIn(month, year)
}

// daysIn returns the number of days of month (1-12) in year, by the proleptic Gregorian
// calendar.
func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// IsTime reports whether s is an RFC 3339 full-time: "hh:mm:ss", an optional fraction, and "Z"
// or a numeric offset, e.g. "15:04:05.123-07:00", every field two digits. A leap second
// (ss = 60) is accepted only when the time is 23:59 in UTC.
func IsTime(s string) bool {
	// Shortest form: hh:mm:ssZ.
	if len(s) < 9 || s[2] != ':' || s[5] != ':' {
		return false
	}
	h, ok1 := twoDigits(s[0:2])
	m, ok2 := twoDigits(s[3:5])
	sec, ok3 := twoDigits(s[6:8])
	if !ok1 || !ok2 || !ok3 || h > 23 || m > 59 || sec > 60 {
		return false
	}
	rest := s[8:]

	// Optional fraction of a second: a dot and at least one digit.
	if len(rest) > 0 && rest[0] == '.' {
		n := leadingDigits(rest[1:])
		if n == 0 {
			return false
		}
		rest = rest[1+n:]
	}

	if rest != "z" && rest != "Z" {
		// Numeric offset: [+-]hh:mm.
		if len(rest) != 6 || rest[3] != ':' {
			return false
		}
		var sign int
		switch rest[0] {
		case '+':
			sign = -1 // local time ahead of UTC: subtract the offset to get UTC
		case '-':
			sign = +1
		default:
			return false
		}
		zh, ok1 := twoDigits(rest[1:3])
		zm, ok2 := twoDigits(rest[4:6])
		if !ok1 || !ok2 || zh > 23 || zm > 59 {
			return false
		}
		hm := h*60 + m + sign*(zh*60+zm)
		if hm < 0 {
			hm += 24 * 60
		}
		h, m = hm/60, hm%60
	}

	return sec < 60 || (h == 23 && m == 59)
}

// twoDigits reads a two-byte field of ASCII digits.
func twoDigits(f string) (int, bool) {
	if !isDigit(f[0]) || !isDigit(f[1]) {
		return 0, false
	}
	return int(f[0]-'0')*10 + int(f[1]-'0'), true
}

// IsDuration reports whether s is a duration as RFC 3339 appendix A defines it: "P" then weeks
// alone ("P2W"), or date elements, time elements after "T", or both. The elements are
// consecutive, in order, each an integer count with its unit: years, months, days ("P1Y2M",
// "P2M3D", "P3D", but not "P1Y3D"), then hours, minutes, seconds ("PT1H2M", "PT2M3S", but not
// "PT1H3S"). This is not Go's time.Duration syntax.
func IsDuration(s string) bool {
	s, ok := strings.CutPrefix(s, "P")
	if !ok || s == "" {
		return false
	}
	if weeks, ok := strings.CutSuffix(s, "W"); ok {
		return weeks != "" && leadingDigits(weeks) == len(weeks)
	}
	date, clock, hasT := strings.Cut(s, "T")
	if date == "" && !hasT || !durationRun(date, "YMD") {
		return false
	}
	return !hasT || clock != "" && durationRun(clock, "HMS")
}

// durationRun reports whether s is a run of <digits><unit> elements whose units are
// consecutive letters of units, in order: "1Y2M" and "2M3D" for "YMD", not "1Y3D".
func durationRun(s, units string) bool {
	next := -1 // the index in units the next element must have; -1 before the first
	for s != "" {
		n := leadingDigits(s)
		if n == 0 || n == len(s) {
			return false
		}
		j := strings.IndexByte(units, s[n])
		if j < 0 || next >= 0 && j != next {
			return false
		}
		next = j + 1
		s = s[n+1:]
	}
	return true
}

// IsEmail reports whether s is an email address as RFC 5321 section 4.1.2 defines a Mailbox: a
// local part, "@", and a domain. The local part is a dot-string of the usual characters
// ("first.last+tag") or a quoted string ("\"joe bloggs\""), at most 64 bytes; the domain is a
// hostname (IsHostname) or an address literal ("[192.0.2.1]", "[IPv6:2001:db8::1]"). The whole
// address is at most 254 bytes.
func IsEmail(s string) bool {
	if len(s) > 254 {
		return false
	}
	// The domain holds no '@', so the last one ends the local part (a quoted one may hold '@').
	at := strings.LastIndexByte(s, '@')
	if at < 1 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	if len(local) > 64 || !isEmailLocal(local) {
		return false
	}
	if len(domain) >= 2 && domain[0] == '[' && domain[len(domain)-1] == ']' {
		literal := domain[1 : len(domain)-1]
		if addr, ok := strings.CutPrefix(literal, "IPv6:"); ok {
			return IsIPv6(addr)
		}
		return IsIPv4(literal)
	}
	return IsHostname(domain)
}

// isEmailLocal reports whether local is an RFC 5321 Local-part: a Dot-string (atoms of atext
// joined by single dots) or a Quoted-string (printable ASCII between quotes, '"' and '\'
// escaped with '\').
func isEmailLocal(local string) bool {
	if len(local) >= 2 && local[0] == '"' && local[len(local)-1] == '"' {
		q := local[1 : len(local)-1]
		for i := 0; i < len(q); i++ {
			c := q[i]
			switch {
			case c == '\\':
				// quoted-pairSMTP: a backslash and any printable ASCII.
				i++
				if i == len(q) || q[i] < 32 || q[i] > 126 {
					return false
				}
			case c == '"' || c < 32 || c > 126:
				return false
			}
		}
		return true
	}
	if local[0] == '.' || local[len(local)-1] == '.' || strings.Contains(local, "..") {
		return false
	}
	for i := 0; i < len(local); i++ {
		// Every allowed character is ASCII, so a byte test rejects every other rune.
		if !isEmailLocalByte(local[i]) {
			return false
		}
	}
	return true
}

// isEmailLocalByte reports whether c may appear in an unquoted local part: atext or a dot.
func isEmailLocalByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte(".!#$%&'*+-/=?^_`{|}~", c) >= 0
}

// IsIPv4 reports whether s is a dotted-quad IPv4 address such as "192.0.2.1": four decimal
// numbers from 0 to 255 in ASCII digits, without signs or leading zeros.
func IsIPv4(s string) bool {
	for part := 0; part < 4; part++ {
		field, rest, more := strings.Cut(s, ".")
		if more != (part < 3) || !isIPv4Field(field) {
			return false
		}
		s = rest
	}
	return true
}

// isIPv4Field reports whether f is a dec-octet of RFC 3986: "0" to "255", no leading zero.
func isIPv4Field(f string) bool {
	if len(f) == 0 || len(f) > 3 || leadingDigits(f) != len(f) || len(f) > 1 && f[0] == '0' {
		return false
	}
	return digitsValue(f) <= 255
}

// IsIPv6 reports whether s is an IPv6 address in any textual form of RFC 4291 section 2.2
// ("2001:db8::1", "::ffff:192.0.2.1"), without a zone, brackets or prefix length.
func IsIPv6(s string) bool {
	// With a '%' netip either fails or returns a zoned address; both are rejected, and
	// checking first keeps a zone from being interned.
	if strings.IndexByte(s, ':') < 0 || strings.IndexByte(s, '%') >= 0 {
		return false
	}
	_, err := netip.ParseAddr(s)
	return err == nil
}

// IsUUID reports whether s is a UUID in its 36-character hyphenated form,
// "123e4567-e89b-12d3-a456-426614174000", in either case. Version and variant bits are not
// checked.
func IsUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !isHex(c) {
				return false
			}
		}
	}
	return true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// leadingDigits returns how many ASCII digits s starts with.
func leadingDigits(s string) int {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	return n
}

// digitsValue returns the value of s, which holds only ASCII digits and is short enough not
// to overflow.
func digitsValue(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}
