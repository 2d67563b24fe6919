// Package icon checks the icons of tools (MCP icons, 2025-11-25): what //tool:icon may name
// at generate time and what a mounted server may send at run time, with one set of rules.
package icon

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"strings"
)

// MaxBytes bounds an icon's image: a file //tool:icon embeds, and the decoded data: URI of
// an icon, generated or sent by a mounted server. 64 KiB holds a detailed 256x256 PNG; a
// larger icon belongs behind an https URL.
const MaxBytes = 64 << 10

// MaxURLBytes bounds an https icon URL.
const MaxURLBytes = 2 << 10

// MaxSrcBytes bounds an icon's src of either kind: a data: URI of MaxBytes of image, in
// base64, with its prefix.
const MaxSrcBytes = MaxBytes/3*4 + 4 + 64

// Types are the image types an icon may be, by file extension: those MCP clients must
// (PNG, JPEG) or should (SVG, WebP) render, and GIF.
var Types = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
	".svg": "image/svg+xml", ".webp": "image/webp", ".gif": "image/gif",
}

// Known reports whether mime is one of Types' values.
func Known(mime string) bool {
	for _, t := range Types {
		if t == mime {
			return true
		}
	}
	return false
}

// TypeNames lists the accepted types, for messages.
const TypeNames = "image/png, image/jpeg, image/svg+xml, image/webp, image/gif"

// TypeOf returns the image type of a file name or URL path by its extension, or "".
func TypeOf(name string) string {
	return Types[strings.ToLower(path.Ext(name))]
}

// Sniff returns the image type data's content shows, or "" when it is none of Types.
func Sniff(data []byte) string {
	switch t := http.DetectContentType(data); t {
	case "image/png", "image/jpeg", "image/webp", "image/gif":
		return t
	}
	text := bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	if bytes.HasPrefix(text, []byte("<")) && bytes.Contains(text, []byte("<svg")) {
		return "image/svg+xml" // XML that holds an svg element
	}
	return ""
}

// DataURI returns data as a base64 data: URI of type mime.
func DataURI(mime string, data []byte) string {
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data)
}

var sizePattern = regexp.MustCompile(`^(any|[1-9][0-9]{0,4}x[1-9][0-9]{0,4})$`)

// ValidSize reports whether s is an icon size: WIDTHxHEIGHT in pixels ("48x48") or "any".
func ValidSize(s string) bool { return sizePattern.MatchString(s) }

// ValidTheme reports whether s is an icon theme.
func ValidTheme(s string) bool { return s == "light" || s == "dark" }

// CheckSrc checks an icon's src: an https URL with a host, or a base64 data: URI of one of
// Types, its image at most MaxBytes, whose content is what its type says. It returns the
// type the src names (the data: URI's, or the URL path's extension's; "" when the URL's path
// has none).
func CheckSrc(src string) (mime string, err error) {
	switch {
	case len(src) > MaxSrcBytes:
		return "", fmt.Errorf("longer than %d bytes", MaxSrcBytes)
	case strings.HasPrefix(src, "data:"):
		return checkData(src)
	case strings.HasPrefix(strings.ToLower(src), "https://"):
		if len(src) > MaxURLBytes {
			return "", fmt.Errorf("URL longer than %d bytes", MaxURLBytes)
		}
		u, err := url.Parse(src)
		if err != nil || u.Host == "" || u.User != nil {
			return "", errors.New("not a valid https URL with a host (and no user name)")
		}
		return TypeOf(u.Path), nil
	}
	return "", errors.New("an icon is an https URL or a data: URI")
}

func checkData(src string) (string, error) {
	header, payload, ok := strings.Cut(strings.TrimPrefix(src, "data:"), ",")
	mime, isBase64 := strings.CutSuffix(header, ";base64")
	if !ok || !isBase64 {
		return "", errors.New("a data: URI icon is data:TYPE;base64,DATA")
	}
	if !Known(mime) {
		return "", fmt.Errorf("unknown image type %q (one of %s)", mime, TypeNames)
	}
	if base64.StdEncoding.DecodedLen(len(payload)) > MaxBytes+2 {
		return "", fmt.Errorf("its image is over %d bytes", MaxBytes)
	}
	data, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		return "", errors.New("its data is not valid base64")
	}
	if len(data) > MaxBytes {
		return "", fmt.Errorf("its image is over %d bytes", MaxBytes)
	}
	if got := Sniff(data); got != mime {
		return "", fmt.Errorf("its data is not an image of type %s", mime)
	}
	return mime, nil
}
