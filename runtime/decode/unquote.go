package decode

import (
	"bytes"
	"errors"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

var errBadString = errors.New("invalid string literal")

// unquote returns the value of a JSON string literal (raw includes the quotes), as
// encoding/json decodes it: escapes resolved, invalid UTF-8 and lone surrogates replaced by
// U+FFFD, raw control characters refused. A string without escapes or non-ASCII bytes is
// copied once; any other is written once into a buffer of the literal's size (the value is
// never longer than its literal), which then becomes the string without a second copy.
func unquote(raw []byte) (string, error) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", errBadString
	}
	body := raw[1 : len(raw)-1]
	i := plainRun(body)
	if i == len(body) {
		return string(body), nil
	}
	buf := make([]byte, i, len(body)+utf8.UTFMax)
	copy(buf, body[:i])
	for i < len(body) {
		c := body[i]
		switch {
		case c == '\\':
			if i+1 >= len(body) {
				return "", errBadString
			}
			switch e := body[i+1]; e {
			case '"', '\\', '/':
				buf = append(buf, e)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, ok := hex4(body[i+2:])
				if !ok {
					return "", errBadString
				}
				i += 6
				if utf16.IsSurrogate(r) {
					// A pair makes one rune; a lone half becomes U+FFFD, as in encoding/json.
					if r2, ok := hex4(body[min(i+2, len(body)):]); ok && i+1 < len(body) && body[i] == '\\' && body[i+1] == 'u' {
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							i += 6
							buf = utf8.AppendRune(buf, dec)
							continue
						}
					}
					r = utf8.RuneError
				}
				buf = utf8.AppendRune(buf, r)
				continue
			default:
				return "", errBadString
			}
			i += 2
		case c < 0x20:
			return "", errBadString
		case c < utf8.RuneSelf:
			n := plainRun(body[i:])
			buf = append(buf, body[i:i+n]...)
			i += n
		default:
			r, size := utf8.DecodeRune(body[i:])
			if r == utf8.RuneError && size == 1 {
				buf = utf8.AppendRune(buf, utf8.RuneError)
			} else {
				buf = append(buf, body[i:i+size]...)
			}
			i += size
		}
	}
	// buf is never written again, so it can back the string directly.
	return unsafe.String(unsafe.SliceData(buf), len(buf)), nil
}

// special marks the bytes that end a plain run: the escape character, control characters
// (invalid in JSON strings) and the first byte of a multi-byte UTF-8 sequence (checked).
var special = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c == '\\' || c < 0x20 || c >= utf8.RuneSelf
	}
	return t
}()

// plainRun returns the length of the leading run of b that needs no decoding, eight bytes a
// step while it can.
func plainRun(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if special[b[i]] || special[b[i+1]] || special[b[i+2]] || special[b[i+3]] ||
			special[b[i+4]] || special[b[i+5]] || special[b[i+6]] || special[b[i+7]] {
			break
		}
	}
	for ; i < len(b) && !special[b[i]]; i++ {
	}
	return i
}

// hex4 reads the four hex digits of a \u escape.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// literalRunes counts the code points of the string the body of a JSON string literal
// decodes to, as unquote decodes it, without building the string: maxLength is decided before
// a string past it is copied.
func literalRunes(body []byte) int {
	n := 0
	for i := 0; i < len(body); {
		j := bytes.IndexByte(body[i:], '\\')
		if j < 0 {
			return n + utf8.RuneCount(body[i:])
		}
		n += utf8.RuneCount(body[i : i+j])
		i += j
		n++
		if i+1 >= len(body) || body[i+1] != 'u' {
			i += 2
			continue
		}
		r, _ := hex4(body[min(i+2, len(body)):])
		i += 6
		if utf16.IsSurrogate(r) && i+1 < len(body) && body[i] == '\\' && body[i+1] == 'u' {
			if r2, ok := hex4(body[min(i+2, len(body)):]); ok && utf16.DecodeRune(r, r2) != utf8.RuneError {
				i += 6
			}
		}
	}
	return n
}

// validText returns b, text the reader decoded (a property name: its escapes resolved, its
// bytes kept), as encoding/json would have it: each byte that is not valid UTF-8 replaced by
// U+FFFD.
func validText(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	out := make([]byte, 0, len(b)+2*utf8.UTFMax)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			out = utf8.AppendRune(out, utf8.RuneError)
		} else {
			out = append(out, b[:size]...)
		}
		b = b[size:]
	}
	return string(out)
}
