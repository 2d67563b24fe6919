package icon

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

const png = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"

func TestSniff(t *testing.T) {
	for data, want := range map[string]string{
		png:                                      "image/png",
		"\xff\xd8\xff\xe0\x00\x10JFIF":           "image/jpeg",
		"GIF89a....":                             "image/gif",
		"RIFF\x00\x00\x00\x00WEBPVP8 ":           "image/webp",
		`<?xml version="1.0"?><svg/>`:            "image/svg+xml",
		"\xef\xbb\xbf  <svg viewBox='0 0 1 1'/>": "image/svg+xml",
		"<html><body>no image</body></html>":     "",
		"svg but not markup <svg":                "",
		"":                                       "",
	} {
		assert.Equal(t, want, Sniff([]byte(data)), "%q", data)
	}
}

func TestCheckSrc(t *testing.T) {
	pngURI := DataURI("image/png", []byte(png))
	for src, want := range map[string]string{
		"https://example.com/a.svg": "image/svg+xml",
		"HTTPS://example.com/icon":  "",
		pngURI:                      "image/png",
	} {
		got, err := CheckSrc(src)
		assert.NoError(t, err, src)
		assert.Equal(t, want, got, src)
	}
	for _, src := range []string{
		"http://example.com/a.png", "https:///a.png", "https://user:pw@example.com/a.png", "ftp://x/a.png",
		"javascript:alert(1)", "data:image/png,raw", "data:text/html;base64,PGI+", "data:image/png;base64,!!!",
		"data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(png)),
		"data:image/png;base64," + base64.StdEncoding.EncodeToString([]byte(png+strings.Repeat("\x00", MaxBytes))),
		"https://example.com/" + strings.Repeat("a", MaxURLBytes),
	} {
		_, err := CheckSrc(src)
		assert.Error(t, err, "%.60s", src)
	}
}

func TestSizesAndThemes(t *testing.T) {
	for _, s := range []string{"48x48", "any", "1x1", "16384x16384"} {
		assert.True(t, ValidSize(s), s)
	}
	for _, s := range []string{"", "48", "0x48", "48X48", "48x48 ", "123456x1", "all"} {
		assert.False(t, ValidSize(s), s)
	}
	assert.True(t, ValidTheme("light") && ValidTheme("dark"))
	assert.False(t, ValidTheme("Light") || ValidTheme(""))
}
