package decode

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/runtime"
)

// InvalidJSON turns a malformed-JSON error from the reader of data into an argument error:
// the only problem that stops decoding. The reader's own words ("skip: unexpected byte 111
// 'o' at 1") are for a parser's author; the problem says what is wrong, where, and what was
// expected there, in words a model acts on: "the arguments are not valid JSON: unexpected 'o'
// at offset 1 (line 1, column 2), in a literal, which must be true, false or null (strings
// need double quotes), near "no"; send the arguments as one JSON object". Finding the place
// reads data once more, on this error path only.
func InvalidJSON(data []byte, err error) error {
	var ae *runtime.ArgsError
	if errors.As(err, &ae) {
		return err
	}
	var fr *floatRangeError
	if errors.As(err, &fr) {
		// From inline code, which returns ReadAny's errors: valid JSON, but decoding stopped.
		return &runtime.ArgsError{Problems: []runtime.Problem{{Message: "the arguments " + fr.Error()}}}
	}
	msg := ""
	if at, expected, found := locateSyntaxError(data); found && data != nil {
		msg = describeSyntaxError(data, at, expected)
	} else {
		// The reader refused what is JSON to the letter (it nests deeper than the reader
		// goes), or the text is unknown (SyntaxError): the reader's words, cut.
		msg = err.Error()
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			msg = "unexpected end of input"
		}
		msg = cutText(msg, MaxProblemMessage)
	}
	return &runtime.ArgsError{Problems: []runtime.Problem{{Message: "the arguments are not valid JSON: " + msg}}}
}

// What a JSON text expects next, as locateSyntaxError names it in its message.
const (
	expectDocument    = "where the JSON object should start with {"
	expectValue       = "where a value should be (an object, an array, a string in double quotes, a number, true, false or null)"
	expectFirstKey    = "where a property name in double quotes or } should be"
	expectKey         = "where a property name in double quotes should be"
	expectColon       = "where : should follow the property name"
	expectAfterMember = "where , or } should follow a property's value"
	expectFirstItem   = "where an item or ] should be"
	expectItem        = "where an item should be"
	expectAfterItem   = "where , or ] should follow an item"
	expectStringChar  = "inside a string, where a control character must be escaped (\\n, \\t, \\u0000)"
	expectEscape      = "in an escape, which must be \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\u and four hex digits"
	expectNumber      = "in a number (digits, an optional fraction and exponent; no leading zeros, NaN or Infinity)"
	expectLiteral     = "in a literal, which must be true, false or null (strings need double quotes)"
	expectString      = "inside a string, which must end with \""
)

// locateSyntaxError finds where data stops being JSON: the offset of the first byte that
// cannot continue it (len(data) when it ends too early) and what was expected there. found is
// false when data is one JSON value, whatever follows it (Finish reports that). It keeps a
// byte per open container, so its memory is bounded by data.
func locateSyntaxError(data []byte) (at int, expected string, found bool) {
	var stack []byte // '{' or '[' per open container
	i := 0
	space := func() {
		for i < len(data) && isSpace(data[i]) {
			i++
		}
	}
	want := expectDocument
	for {
		// A value starts here.
		space()
		if i >= len(data) {
			return i, want, true
		}
		switch c := data[i]; {
		case c == '{':
			i++
			space()
			if i < len(data) && data[i] == '}' {
				i++
				break
			}
			stack = append(stack, '{')
			if end, ok := scanKey(data, &i, expectFirstKey); !ok {
				return i, end, true
			}
			want = expectValue
			continue
		case c == '[':
			i++
			space()
			if i < len(data) && data[i] == ']' {
				i++
				break
			}
			stack = append(stack, '[')
			want = expectFirstItem
			continue
		case c == '"':
			if end, ok := scanString(data, &i); !ok {
				return i, end, true
			}
		case c == '-' || '0' <= c && c <= '9':
			if !scanNumber(data, &i) {
				return i, expectNumber, true
			}
		case c == 't' || c == 'f' || c == 'n':
			word := map[byte]string{'t': "true", 'f': "false", 'n': "null"}[c]
			for k := 0; k < len(word); k++ {
				if i >= len(data) || data[i] != word[k] {
					return i, expectLiteral, true
				}
				i++
			}
			if i < len(data) && isWordByte(data[i]) {
				return i, expectLiteral, true
			}
		default:
			return i, want, true
		}
		// A value ended: what follows depends on the container it is in.
		for {
			if len(stack) == 0 {
				return 0, "", false
			}
			space()
			if i >= len(data) {
				if stack[len(stack)-1] == '{' {
					return i, expectAfterMember, true
				}
				return i, expectAfterItem, true
			}
			c := data[i]
			if stack[len(stack)-1] == '{' {
				switch c {
				case ',':
					i++
					if end, ok := scanKey(data, &i, expectKey); !ok {
						return i, end, true
					}
					want = expectValue
				case '}':
					i++
					stack = stack[:len(stack)-1]
					continue
				default:
					return i, expectAfterMember, true
				}
			} else {
				switch c {
				case ',':
					i++
					want = expectItem
				case ']':
					i++
					stack = stack[:len(stack)-1]
					continue
				default:
					return i, expectAfterItem, true
				}
			}
			break
		}
	}
}

// scanKey reads a property name and its colon at *i, white space around; want is what a
// missing name was expected as.
func scanKey(data []byte, i *int, want string) (expected string, ok bool) {
	for *i < len(data) && isSpace(data[*i]) {
		*i++
	}
	if *i >= len(data) || data[*i] != '"' {
		return want, false
	}
	if end, ok := scanString(data, i); !ok {
		return end, false
	}
	for *i < len(data) && isSpace(data[*i]) {
		*i++
	}
	if *i >= len(data) || data[*i] != ':' {
		return expectColon, false
	}
	*i++
	return "", true
}

// scanString reads the string starting at *i (its quote).
func scanString(data []byte, i *int) (expected string, ok bool) {
	for *i++; *i < len(data); *i++ {
		switch c := data[*i]; {
		case c == '"':
			*i++
			return "", true
		case c < 0x20:
			return expectStringChar, false
		case c == '\\':
			*i++
			if *i >= len(data) {
				return expectEscape, false
			}
			switch data[*i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				for k := 0; k < 4; k++ {
					*i++
					if *i >= len(data) || !isHex(data[*i]) {
						return expectEscape, false
					}
				}
			default:
				return expectEscape, false
			}
		}
	}
	return expectString, false
}

// scanNumber reads the number at *i; *i is left at the first byte that does not fit.
func scanNumber(data []byte, i *int) bool {
	digits := func() int {
		n := 0
		for *i < len(data) && '0' <= data[*i] && data[*i] <= '9' {
			*i++
			n++
		}
		return n
	}
	if data[*i] == '-' {
		*i++
	}
	switch {
	case *i < len(data) && data[*i] == '0':
		*i++
	case digits() == 0:
		return false
	}
	if *i < len(data) && data[*i] == '.' {
		*i++
		if digits() == 0 {
			return false
		}
	}
	if *i < len(data) && (data[*i] == 'e' || data[*i] == 'E') {
		*i++
		if *i < len(data) && (data[*i] == '+' || data[*i] == '-') {
			*i++
		}
		if digits() == 0 {
			return false
		}
	}
	// A digit, letter or dot right after the number is part of no valid token (01, 1.2.3, 1x).
	return *i >= len(data) || !isWordByte(data[*i]) && data[*i] != '.'
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isWordByte(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c >= utf8.RuneSelf
}

// describeSyntaxError words the error locateSyntaxError found at offset at.
func describeSyntaxError(data []byte, at int, expected string) string {
	line, col := 1, 1
	for _, r := range string(data[:at]) {
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	where := "offset " + strconv.Itoa(at) + " (line " + strconv.Itoa(line) + ", column " + strconv.Itoa(col) + ")" + after(data, at)
	if at >= len(data) {
		if len(bytes.TrimSpace(data)) == 0 {
			return "there is no text; send the arguments as one JSON object"
		}
		return "the text ends too early, at " + where + ", " + expected + "; send the complete JSON object"
	}
	r, size := utf8.DecodeRune(data[at:])
	got := strconv.QuoteRune(r)
	switch {
	case r == utf8.RuneError && size <= 1:
		got = "byte 0x" + strconv.FormatUint(uint64(data[at]), 16)
	case r == 0xfeff:
		got += " (a byte order mark)"
	}
	switch {
	case expected == expectKey && r == '}':
		expected += " (no comma before })"
	case expected == expectItem && r == ']':
		expected += " (no comma before ])"
	}
	return "unexpected " + got + " at " + where + ", " + expected + "; send the arguments as one JSON object"
}

// after shows the text just before offset at, so that the model finds the place in what it
// sent: ", after `…"sku":"AB",`", control characters escaped.
func after(data []byte, at int) string {
	const shown = 24
	if at == 0 {
		return ""
	}
	from := max(at-shown, 0)
	for from > 0 && !utf8.RuneStart(data[from]) {
		from--
	}
	var b strings.Builder
	if from > 0 {
		b.WriteString("…")
	}
	for _, r := range string(data[from:at]) {
		if r < 0x20 || r == 0x7f {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	if strings.Contains(b.String(), "`") {
		return ", after " + strconv.Quote(b.String())
	}
	return ", after `" + b.String() + "`"
}

// SyntaxError is InvalidJSON without the text, for code generated before it (the frozen
// baselines of internal/benchmarks call it): it can say only what the reader said. Generated
// code calls InvalidJSON.
func SyntaxError(err error) error { return InvalidJSON(nil, err) }
