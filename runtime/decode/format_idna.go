package decode

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// The hostname checkers: RFC 1123 for ASCII names, and IDNA2008 (RFC 5890-5893) for the
// internationalized labels of both formats. golang.org/x/net/idna implements UTS #46 with its
// registration profile: Punycode, the UTS #46 character status, hyphens, a leading combining
// mark, the CONTEXTJ rules for joiners, the Bidi rule across the name, and the DNS lengths.
// UTS #46 accepts characters IDNA2008 does not (symbols and punctuation, its "NV8" status,
// which the package does not apply), and it has no CONTEXTO rules; idnaLabel adds both from
// RFC 5892.

// maxHostname is the longest hostname, in bytes of its ASCII form, RFC 1123 allows.
const maxHostname = 253

// maxIDNHostname bounds the input of IsIDNHostname before any IDNA processing: a valid name's
// Unicode form is at most about four bytes per byte of its 253-byte ASCII form.
const maxIDNHostname = 4 * maxHostname

// IsHostname reports whether s is a hostname as RFC 1123 section 2.1 defines it: labels of 1 to
// 63 ASCII letters, digits and hyphens, neither starting nor ending with a hyphen, joined by
// single dots, at most 253 characters in all, without a trailing dot. A label starting with
// "xn--" (in any case) is an IDNA A-label: it must be the Punycode of a valid U-label, as
// IsIDNHostname judges one.
func IsHostname(s string) bool {
	if len(s) == 0 || len(s) > maxHostname {
		return false
	}
	aLabels := false
	for rest := s; ; {
		label, tail, more := strings.Cut(rest, ".")
		if !isLDHLabel(label) {
			return false
		}
		aLabels = aLabels || hasACEPrefix(label)
		if !more {
			break
		}
		rest = tail
	}
	return !aLabels || idnName(asciiLower(s))
}

// IsIDNHostname reports whether s is an internationalized hostname of RFC 5890: labels that
// are ASCII hostname labels (see IsHostname) or U-labels valid under IDNA2008, joined by dots
// (also U+3002, U+FF0E and U+FF61), without a trailing one, at most 63 bytes per label and 253
// in all once each U-label is written as its A-label ("bücher.example" is
// "xn--bcher-kva.example"). U-labels are lower case and in Unicode NFC, as IDNA2008 requires.
// A string over 1012 bytes is refused before any IDNA processing, so the cost is bounded
// whatever the string's length.
func IsIDNHostname(s string) bool {
	if len(s) == 0 || len(s) > maxIDNHostname {
		return false
	}
	if isASCII(s) {
		return IsHostname(s)
	}
	if !utf8.ValidString(s) {
		return false
	}
	// The ideographic full stops separate labels as '.' does (RFC 3490 section 3.1).
	s = strings.NewReplacer("\u3002", ".", "\uff0e", ".", "\uff61", ".").Replace(s)
	var b strings.Builder
	for rest := s; ; {
		label, tail, more := strings.Cut(rest, ".")
		if isASCII(label) {
			// An ASCII label is a hostname label, in any case.
			if !isLDHLabel(label) {
				return false
			}
			label = asciiLower(label)
		}
		b.WriteString(label)
		if !more {
			break
		}
		b.WriteByte('.')
		rest = tail
	}
	return idnName(b.String())
}

// idnName reports whether name, labels joined by '.' and ASCII labels in lower case, is valid
// under IDNA2008: x/net/idna's registration profile accepts it, every A-label is the canonical
// Punycode of its U-label, and every U-label passes idnaLabel.
func idnName(name string) bool {
	unicodeForm, err := idna.Registration.ToUnicode(name)
	if err != nil {
		return false
	}
	asciiForm, err := idna.Registration.ToASCII(unicodeForm)
	if err != nil {
		return false
	}
	in, u, a := name, unicodeForm, asciiForm
	for {
		inLabel, inRest, more := strings.Cut(in, ".")
		uLabel, uRest, _ := strings.Cut(u, ".")
		aLabel, aRest, _ := strings.Cut(a, ".")
		// An A-label that decodes and re-encodes to other text is not canonical ("xn---9uc").
		if hasACEPrefix(inLabel) && inLabel != aLabel || !isASCII(uLabel) && !idnaLabel(uLabel) {
			return false
		}
		if !more {
			return true
		}
		in, u, a = inRest, uRest, aRest
	}
}

// idnaLabel applies the rules of IDNA2008 that UTS #46 leaves out to a U-label: every code
// point is PVALID by RFC 5892's derivation (a letter, digit or mark in lower case, which UTS #46
// has checked, and not in the blocks and exceptions RFC 5892 disallows) or satisfies its
// CONTEXTO rule (RFC 5892 appendix A.3 to A.9). The CONTEXTJ rules are x/net/idna's.
func idnaLabel(label string) bool {
	for i, r := range label {
		switch r {
		case 0x00DF, 0x03C2, 0x06FD, 0x06FE, 0x0F0B, 0x3007: // PVALID by exception
			continue
		case 0x0640, 0x07FA, 0x302E, 0x302F, 0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x303B: // DISALLOWED by exception
			return false
		case 0x200C, 0x200D: // CONTEXTJ
			continue
		case 0x00B7: // MIDDLE DOT: between two 'l'
			if !strings.HasPrefix(label[i+2:], "l") || !strings.HasSuffix(label[:i], "l") {
				return false
			}
			continue
		case 0x0375: // GREEK LOWER NUMERAL SIGN (KERAIA): before a Greek character
			next, _ := utf8.DecodeRuneInString(label[i+2:])
			if !unicode.Is(unicode.Greek, next) {
				return false
			}
			continue
		case 0x05F3, 0x05F4: // HEBREW PUNCTUATION GERESH, GERSHAYIM: after a Hebrew character
			prev, _ := utf8.DecodeLastRuneInString(label[:i])
			if !unicode.Is(unicode.Hebrew, prev) {
				return false
			}
			continue
		case 0x30FB: // KATAKANA MIDDLE DOT: in a label with Hiragana, Katakana or Han
			if !strings.ContainsFunc(label, func(r rune) bool {
				return r != 0x30FB && (unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Han))
			}) {
				return false
			}
			continue
		}
		switch {
		case r < utf8.RuneSelf:
			continue // a-z, 0-9 and '-': x/net/idna applied the hostname rules
		case r >= 0x0660 && r <= 0x0669: // ARABIC-INDIC DIGITS: not with the extended ones
			if strings.ContainsFunc(label, func(r rune) bool { return r >= 0x06F0 && r <= 0x06F9 }) {
				return false
			}
		case r >= 0x06F0 && r <= 0x06F9: // EXTENDED ARABIC-INDIC DIGITS: not with the others
			if strings.ContainsFunc(label, func(r rune) bool { return r >= 0x0660 && r <= 0x0669 }) {
				return false
			}
		case r >= 0x1100 && r <= 0x11FF, r >= 0xA960 && r <= 0xA97F, r >= 0xD7B0 && r <= 0xD7FF:
			return false // Hangul Jamo (RFC 5892 section 2.9 and 2.10)
		case r >= 0x20D0 && r <= 0x20FF, r >= 0x1D100 && r <= 0x1D24F:
			return false // the ignorable blocks of RFC 5892 section 2.8
		case !unicode.In(r, unicode.Ll, unicode.Lo, unicode.Lm, unicode.Mn, unicode.Mc, unicode.Nd):
			return false // not LetterDigits (RFC 5892 section 2.1): symbols, punctuation, …
		}
	}
	return true
}

// isLDHLabel reports whether label is 1 to 63 ASCII letters, digits and hyphens, neither
// first nor last a hyphen.
func isLDHLabel(label string) bool {
	if len(label) < 1 || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
		return false
	}
	for i := 0; i < len(label); i++ {
		c := label[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// hasACEPrefix reports whether an ASCII label starts with "xn--", in any case.
func hasACEPrefix(label string) bool {
	return len(label) >= 4 && label[2] == '-' && label[3] == '-' && strings.EqualFold(label[:2], "xn")
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// asciiLower returns s with its ASCII letters in lower case and nothing else changed.
func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}
