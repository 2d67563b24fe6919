package decode

import (
	"maps"
	"net/netip"
	"net/url"
	"slices"
	"strings"
)

// This file holds the checkers behind the `format=` constraint. Generated decoders call them
// after a string has been decoded, and the emitted schema carries the same "format" keyword, so
// each checker accepts exactly what github.com/santhosh-tekuri/jsonschema/v6 (v6.0.3) accepts
// with format assertion on: its logic is ported rule for rule, quirks included (an empty local
// part in an email, "+1" as an IPv4 octet), because a differential test holds the generated
// decoder to that validator. Unlike the original, the checkers avoid strings.Split, strconv and
// time.Parse so that valid input costs no allocation.

// formatSpec is one entry of the format registry.
type formatSpec struct {
	check    func(string) bool
	describe string
	name     string // of check, which generated code calls
}

// formats is the registry of every format name a `format=` constraint may use; FormatFunc reads
// it, and its keys are the names DESIGN.md lists.
var formats = map[string]formatSpec{
	"date-time": {IsDateTime, `an RFC 3339 date-time such as "2024-01-02T15:04:05Z"`, "IsDateTime"},
	"date":      {IsDate, `an RFC 3339 full-date such as "2024-01-02"`, "IsDate"},
	"time":      {IsTime, `an RFC 3339 full-time such as "15:04:05Z"`, "IsTime"},
	"duration":  {IsDuration, `an ISO 8601 duration such as "P3DT4H30M"`, "IsDuration"},
	"email":     {IsEmail, `an email address such as "user@example.com"`, "IsEmail"},
	"hostname":  {IsHostname, `a hostname such as "api.example.com"`, "IsHostname"},
	"ipv4":      {IsIPv4, `an IPv4 address such as "192.0.2.1"`, "IsIPv4"},
	"ipv6":      {IsIPv6, `an IPv6 address such as "2001:db8::1"`, "IsIPv6"},
	"uri":       {IsURI, `an absolute URI such as "https://example.com/path"`, "IsURI"},
	"uuid":      {IsUUID, `a UUID such as "123e4567-e89b-12d3-a456-426614174000"`, "IsUUID"},
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
	// The reference parses with time.Parse("2006-01-02", s), which wants exactly four year
	// digits, two month digits and two day digits, then checks the ranges.
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
// calendar time.Parse uses.
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
// or a numeric offset, e.g. "15:04:05.123-07:00". A leap second (ss = 60) is accepted only
// when the time is 23:59 in UTC.
func IsTime(s string) bool {
	// Shortest form: hh:mm:ssZ.
	if len(s) < 9 || s[2] != ':' || s[5] != ':' {
		return false
	}
	h, ok1 := smallAtoi(s[0:2])
	m, ok2 := smallAtoi(s[3:5])
	sec, ok3 := smallAtoi(s[6:8])
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
		zh, ok1 := smallAtoi(rest[1:3])
		zm, ok2 := smallAtoi(rest[4:6])
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

// smallAtoi parses a two-byte field the way the reference does, with strconv.Atoi and a
// non-negativity check: two digits, or a sign and one digit ("+7", and "-0" which is zero).
func smallAtoi(f string) (int, bool) {
	switch {
	case isDigit(f[0]) && isDigit(f[1]):
		return int(f[0]-'0')*10 + int(f[1]-'0'), true
	case f[0] == '+' && isDigit(f[1]):
		return int(f[1] - '0'), true
	case f[0] == '-' && f[1] == '0':
		return 0, true
	}
	return 0, false
}

// IsDuration reports whether s is an ISO 8601 duration as RFC 3339 appendix A defines it:
// "P" then either weeks ("P2W") or date units Y, M, D in order, optionally followed by "T" and
// time units H, M, S in order, each with an integer count ("P1Y2M3DT4H5M6S", "PT36H"). This is
// not Go's time.Duration syntax.
func IsDuration(s string) bool {
	s, ok := strings.CutPrefix(s, "P")
	if !ok || s == "" {
		return false
	}
	if weeks, ok := strings.CutSuffix(s, "W"); ok {
		return weeks != "" && leadingDigits(weeks) == len(weeks)
	}
	date, clock, hasT := strings.Cut(s, "T")
	if !durationUnits(date, "YMD") {
		return false
	}
	if !hasT {
		return true
	}
	// The reference splits on every "T": a second one, or nothing after it, is an error.
	return clock != "" && strings.IndexByte(clock, 'T') < 0 && durationUnits(clock, "HMS")
}

// durationUnits reports whether s is a run of <digits><unit> elements whose units appear in
// units, in that order, each at most once.
func durationUnits(s, units string) bool {
	for s != "" {
		n := leadingDigits(s)
		if n == 0 || n == len(s) {
			return false
		}
		j := strings.IndexByte(units, s[n])
		if j < 0 {
			return false
		}
		units = units[j+1:]
		s = s[n+1:]
	}
	return true
}

// IsEmail reports whether s is an email address: a local part (dot-atom of the usual
// characters, or a quoted string without backslashes or quotes), "@", and a hostname or a
// bracketed address ("[192.0.2.1]", "[IPv6:2001:db8::1]"). Like the reference validator it
// accepts an empty local part.
func IsEmail(s string) bool {
	if len(s) > 254 {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	if at < 0 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	if len(local) > 64 {
		return false
	}

	if len(local) > 1 && local[0] == '"' && local[len(local)-1] == '"' {
		quoted := local[1 : len(local)-1]
		if strings.IndexByte(quoted, '\\') >= 0 || strings.IndexByte(quoted, '"') >= 0 {
			return false
		}
	} else {
		if strings.HasPrefix(local, ".") || strings.HasSuffix(local, ".") || strings.Contains(local, "..") {
			return false
		}
		for i := 0; i < len(local); i++ {
			// Every allowed character is ASCII, so a byte test rejects exactly the
			// runes the reference rejects.
			if !isEmailLocalByte(local[i]) {
				return false
			}
		}
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

// isEmailLocalByte reports whether c may appear in an unquoted local part.
func isEmailLocalByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte(".!#$%&'*+-/=?^_`{|}~", c) >= 0
}

// IsHostname reports whether s is a DNS hostname: dot-separated labels of 1 to 63 ASCII
// letters, digits and hyphens, not starting or ending with a hyphen, at most 253 characters
// in all; one trailing dot is allowed.
func IsHostname(s string) bool {
	s = strings.TrimSuffix(s, ".")
	if len(s) > 253 {
		return false
	}
	for {
		label, rest, more := strings.Cut(s, ".")
		if len(label) < 1 || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
		}
		if !more {
			return true
		}
		s = rest
	}
}

// IsIPv4 reports whether s is a dotted-quad IPv4 address such as "192.0.2.1". Following the
// reference, each part is read with strconv.Atoi semantics: a leading zero is refused, but a
// sign is tolerated ("+1", "-0").
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

// isIPv4Field reports whether f is a decimal between 0 and 255 as the reference reads it.
func isIPv4Field(f string) bool {
	if len(f) > 1 && f[0] == '0' {
		return false
	}
	negative := false
	if len(f) > 0 && (f[0] == '+' || f[0] == '-') {
		negative = f[0] == '-'
		f = f[1:]
	}
	if f == "" || leadingDigits(f) != len(f) {
		return false
	}
	// Leading zeros after a sign are allowed, so sum without overflow by saturating.
	n := 0
	for i := 0; i < len(f); i++ {
		n = n*10 + int(f[i]-'0')
		if n > 255 {
			return false
		}
	}
	return !negative || n == 0
}

// IsIPv6 reports whether s is an IPv6 address in any textual form net/netip accepts
// ("2001:db8::1", "::ffff:192.0.2.1"), without a zone.
func IsIPv6(s string) bool {
	// With a '%' netip either fails or returns a zoned address; both are rejected, and
	// checking first keeps a zone from being interned.
	if strings.IndexByte(s, ':') < 0 || strings.IndexByte(s, '%') >= 0 {
		return false
	}
	_, err := netip.ParseAddr(s)
	return err == nil
}

// IsURI reports whether s is an absolute URI (it has a scheme) that net/url parses, with any
// IPv6 host literal bracketed and valid.
//
// This one checker allocates: the reference's acceptance is defined by net/url's parser, and
// reimplementing it would trade exactness for a few allocations.
func IsURI(s string) bool {
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	if host := u.Hostname(); strings.IndexByte(host, ':') >= 0 {
		if strings.IndexByte(u.Host, '[') < 0 || strings.IndexByte(u.Host, ']') < 0 || !IsIPv6(host) {
			return false
		}
	}
	return u.IsAbs()
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
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

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
