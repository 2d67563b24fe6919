// Package handwritten holds the benchmark's hand-written limit: a decoder for each of the
// three benchmark tools' arguments (testdata/benchdata's README has their contracts), written
// by hand as one pass over the document with go-faster/jx, every constraint checked as its
// value is read and the patterns compiled to code. It is what a person writing the fastest
// validating decoder for one struct would write, with none of a generator's generality: it
// stops at the first problem (toolgen's Bind reports every problem with its path), and its
// error says only what failed. It copies the document once and its strings share that copy
// (an escaped string is decoded apart). Bind is measured against it (docs/benchmarks.md).
package handwritten

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/go-faster/jx"

	"github.com/toolgen-go/toolgen/examples/email/email"
	"github.com/toolgen-go/toolgen/examples/orders/orders"
	"github.com/toolgen-go/toolgen/examples/weather/weather"
)

// Weather decodes get_weather's arguments: city (required, at least 1 character), unit
// (celsius or fahrenheit, default celsius), days (0 to 7).
func Weather(data []byte) (*weather.WeatherArgs, error) {
	r := newReader(data)
	d := r.d
	defer jx.PutDecoder(d)
	args := &weather.WeatherArgs{Unit: weather.Celsius}
	var sawCity bool
	err := d.ObjBytes(func(d *jx.Decoder, key []byte) error {
		switch string(key) {
		case "city":
			s, err := r.str()
			if err != nil {
				return err
			}
			if s == "" {
				return errors.New("city: too short")
			}
			args.City, sawCity = s, true
		case "unit":
			s, err := d.StrBytes()
			if err != nil {
				return err
			}
			switch string(s) {
			case "celsius":
				args.Unit = weather.Celsius
			case "fahrenheit":
				args.Unit = weather.Fahrenheit
			default:
				return errors.New("unit: not an allowed value")
			}
		case "days":
			n, err := d.Int()
			if err != nil {
				return err
			}
			if n < 0 || n > 7 {
				return errors.New("days: out of range")
			}
			args.Days = n
		default:
			return fmt.Errorf("%s: unknown property", key)
		}
		return nil
	})
	if err == nil && !sawCity {
		err = errors.New("city: required")
	}
	if err != nil {
		return nil, err
	}
	return args, nil
}

// Email decodes send_email's arguments: to (an email), subject (1 to 200 characters), body
// (1 to 10,000), cc (at most 20 emails), priority (1 to 5, default 3).
func Email(data []byte) (*email.SendEmailArgs, error) {
	r := newReader(data)
	d := r.d
	defer jx.PutDecoder(d)
	args := &email.SendEmailArgs{Priority: 3}
	var saw uint8
	err := d.ObjBytes(func(d *jx.Decoder, key []byte) error {
		var err error
		switch string(key) {
		case "to":
			saw |= 1
			args.To, err = r.email("to")
		case "subject":
			saw |= 2
			args.Subject, err = r.text("subject", 1, 200)
		case "body":
			saw |= 4
			args.Body, err = r.text("body", 1, 10000)
		case "cc":
			args.CC, err = list(d, "cc", 0, 20, func(d *jx.Decoder) (string, error) { return r.email("cc") })
		case "priority":
			var n int
			if n, err = d.Int(); err == nil && (n < 1 || n > 5) {
				err = errors.New("priority: out of range")
			}
			args.Priority = n
		default:
			err = fmt.Errorf("%s: unknown property", key)
		}
		return err
	})
	if err == nil && saw != 7 {
		err = errors.New("a required property is missing")
	}
	if err != nil {
		return nil, err
	}
	return args, nil
}

// Order decodes create_order's arguments (testdata/benchdata's README, "large").
func Order(data []byte) (*orders.CreateOrderArgs, error) {
	r := newReader(data)
	d := r.d
	defer jx.PutDecoder(d)
	args := &orders.CreateOrderArgs{}
	var saw uint8
	err := d.ObjBytes(func(d *jx.Decoder, key []byte) error {
		var err error
		switch string(key) {
		case "customer":
			saw |= 1
			err = r.customer(&args.Customer)
		case "items":
			saw |= 2
			args.Items, err = list(d, "items", 1, 100, r.item)
		case "shipping":
			saw |= 4
			err = r.shipping(&args.Shipping)
		case "notes":
			args.Notes, err = r.text("notes", 0, 2000)
		default:
			err = fmt.Errorf("%s: unknown property", key)
		}
		return err
	})
	if err == nil && saw != 7 {
		err = errors.New("a required property is missing")
	}
	if err != nil {
		return nil, err
	}
	return args, nil
}

func (r *reader) customer(c *orders.Customer) error {
	var saw uint8
	err := r.d.ObjBytes(func(d *jx.Decoder, key []byte) error {
		var err error
		switch string(key) {
		case "id":
			saw |= 1
			c.ID, err = r.text("customer.id", 1, 64)
		case "name":
			saw |= 2
			c.Name, err = r.text("customer.name", 1, 200)
		case "email":
			saw |= 4
			c.Email, err = r.email("customer.email")
		default:
			err = fmt.Errorf("customer.%s: unknown property", key)
		}
		return err
	})
	if err == nil && saw != 7 {
		err = errors.New("customer: a required property is missing")
	}
	return err
}

func (r *reader) item(*jx.Decoder) (orders.Item, error) {
	var it orders.Item
	var saw uint8
	err := r.d.ObjBytes(func(d *jx.Decoder, key []byte) error {
		var err error
		switch string(key) {
		case "sku":
			saw |= 1
			if it.SKU, err = r.str(); err == nil && !isSKU(it.SKU) {
				err = errors.New("sku: does not match the pattern")
			}
		case "name":
			saw |= 2
			it.Name, err = r.text("name", 1, 200)
		case "qty":
			saw |= 4
			if it.Qty, err = d.Int(); err == nil && (it.Qty < 1 || it.Qty > 1000) {
				err = errors.New("qty: out of range")
			}
		case "price":
			saw |= 8
			if it.Price, err = d.Float64(); err == nil && it.Price <= 0 {
				err = errors.New("price: must be more than 0")
			}
		case "tags":
			it.Tags, err = list(d, "tags", 0, 10, func(d *jx.Decoder) (string, error) { return r.text("tags", 1, 32) })
		default:
			err = fmt.Errorf("%s: unknown property", key)
		}
		return err
	})
	if err == nil && saw != 15 {
		err = errors.New("item: a required property is missing")
	}
	return it, err
}

func (r *reader) shipping(s *orders.Shipping) error {
	var saw uint8
	err := r.d.ObjBytes(func(d *jx.Decoder, key []byte) error {
		var err error
		switch string(key) {
		case "lines":
			saw |= 1
			s.Lines, err = list(d, "lines", 1, 3, func(d *jx.Decoder) (string, error) { return r.text("lines", 1, 100) })
		case "city":
			saw |= 2
			s.City, err = r.text("city", 1, 100)
		case "postal_code":
			saw |= 4
			s.PostalCode, err = r.text("postal_code", 1, 20)
		case "country":
			saw |= 8
			var b []byte
			if b, err = d.StrBytes(); err == nil {
				switch c := orders.Country(b); c {
				case orders.US, orders.CA, orders.GB, orders.DE, orders.FR, orders.JP, orders.AU, orders.NL, orders.SE, orders.BR:
					s.Country = c
				default:
					err = errors.New("country: not an allowed value")
				}
			}
		default:
			err = fmt.Errorf("%s: unknown property", key)
		}
		return err
	})
	if err == nil && saw != 15 {
		err = errors.New("shipping: a required property is missing")
	}
	return err
}

// text reads a string of min to max characters (code points).
func (r *reader) text(name string, min, max int) (string, error) {
	s, err := r.str()
	if err != nil {
		return "", err
	}
	// A string of at most max bytes has at most max characters: count only when it may matter.
	if n := len(s); n < min || n > max {
		if n = utf8.RuneCountInString(s); n < min || n > max {
			return "", fmt.Errorf("%s: length out of range", name)
		}
	}
	return s, nil
}

// reader reads one document from a copy of its own, which its strings share.
type reader struct {
	d   *jx.Decoder
	buf []byte
}

func newReader(data []byte) *reader {
	r := &reader{d: jx.GetDecoder(), buf: bytes.Clone(data)}
	r.d.ResetBytes(r.buf)
	return r
}

// str reads a string as a part of the copy, its escapes (if any) decoded in place: a decoded
// escape is never longer than the escape.
func (r *reader) str() (string, error) {
	if r.d.Next() != jx.String {
		return "", errors.New("not a string")
	}
	raw, err := r.d.Raw() // a part of r.buf, quotes included, checked as JSON
	if err != nil {
		return "", err
	}
	b := raw[1 : len(raw)-1]
	if bytes.IndexByte(b, '\\') >= 0 {
		b = unescape(b)
	}
	if !utf8.Valid(b) {
		return "", errors.New("not UTF-8")
	}
	return unsafe.String(unsafe.SliceData(b), len(b)), nil
}

// unescape decodes the escapes of a JSON string's contents b, which Raw checked, into b
// itself, and returns the decoded part.
func unescape(b []byte) []byte {
	w := 0
	for i := 0; i < len(b); {
		if b[i] != '\\' {
			b[w] = b[i]
			w, i = w+1, i+1
			continue
		}
		c := b[i+1]
		i += 2
		switch c {
		case 'b':
			c = '\b'
		case 'f':
			c = '\f'
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 't':
			c = '\t'
		case 'u':
			r := hex4(b[i:])
			i += 4
			if utf16.IsSurrogate(r) && i+6 <= len(b) && b[i] == '\\' && b[i+1] == 'u' {
				if pair := utf16.DecodeRune(r, hex4(b[i+2:])); pair != utf8.RuneError {
					r, i = pair, i+6
				}
			}
			w += utf8.EncodeRune(b[w:], r)
			continue
		}
		b[w] = c // '"', '\\', '/' and the letters above
		w++
	}
	return b[:w]
}

// hex4 is the value of four hex digits.
func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		default:
			c -= 'A' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// list reads an array of min to max elements, each read by elem.
func list[T any](d *jx.Decoder, name string, least, most int, elem func(*jx.Decoder) (T, error)) ([]T, error) {
	out := make([]T, 0, min(most, 8))
	err := d.Arr(func(d *jx.Decoder) error {
		if len(out) == most {
			return fmt.Errorf("%s: too many items", name)
		}
		v, err := elem(d)
		out = append(out, v)
		return err
	})
	if err == nil && len(out) < least {
		err = fmt.Errorf("%s: too few items", name)
	}
	return out, err
}

// email reads a string matching ^[^\s@]+@[^\s@]+\.[^\s@]+$.
func (r *reader) email(name string) (string, error) {
	s, err := r.str()
	if err == nil && !isEmail(s) {
		err = fmt.Errorf("%s: not an email address", name)
	}
	return s, err
}

// isEmail is ^[^\s@]+@[^\s@]+\.[^\s@]+$ compiled by hand: one @ with a character before
// it, after it a dot with a character on each side, no white space (RE2's \s).
func isEmail(s string) bool {
	at := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\f', '\r':
			return false
		case '@':
			if at >= 0 {
				return false
			}
			at = i
		}
	}
	return at > 0 && at+2 < len(s)-1 && strings.IndexByte(s[at+2:len(s)-1], '.') >= 0
}

// isSKU is ^[A-Z]{3}-[0-9]{4}$ compiled by hand.
func isSKU(s string) bool {
	if len(s) != 8 || s[3] != '-' {
		return false
	}
	for i, c := range []byte(s) {
		switch {
		case i < 3 && c >= 'A' && c <= 'Z', i > 3 && c >= '0' && c <= '9', i == 3:
		default:
			return false
		}
	}
	return true
}
