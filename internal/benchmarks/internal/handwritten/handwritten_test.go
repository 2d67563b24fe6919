package handwritten

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The limit enforces the contracts: it takes each valid document and refuses each invalid
// variant, as Bind does, so it is measured doing the same work.
func TestDecodersKeepTheContracts(t *testing.T) {
	decoders := map[string]func([]byte) (any, error){
		"small":  func(b []byte) (any, error) { return Weather(b) },
		"medium": func(b []byte) (any, error) { return Email(b) },
		"large":  func(b []byte) (any, error) { return Order(b) },
	}
	for size, decode := range decoders {
		for _, variant := range []string{"", "_missing", "_wrongtype", "_range"} {
			data, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "testdata", "benchdata", size+variant+".json"))
			require.NoError(t, err)
			_, err = decode(data)
			if variant == "" {
				assert.NoError(t, err, size)
			} else {
				assert.Error(t, err, size+variant)
			}
		}
	}
}

// The hand-compiled patterns match what their regexps match.
func TestPatternsAsTheirRegexps(t *testing.T) {
	email := regexp.MustCompile(`^[^\s@]+@[^\s@]+\.[^\s@]+$`)
	for _, s := range []string{"a@b.c", "a@b.c.", "a@.b.c", "a@b..c", "@b.c", "a@b", "a@@b.c", "a b@c.d", "a@b.c\t", "ab@cd.ef", "a@b.", "a@.c", "é@ü.ö", "a@b.c@d.e", ""} {
		assert.Equal(t, email.MatchString(s), isEmail(s), "%q", s)
	}
	sku := regexp.MustCompile(`^[A-Z]{3}-[0-9]{4}$`)
	for _, s := range []string{"ABC-1234", "abc-1234", "AB-12345", "ABC-123", "ABC-12345", "ABC_1234", "ABC-12a4", strings.Repeat("A", 8)} {
		assert.Equal(t, sku.MatchString(s), isSKU(s), "%q", s)
	}
}

// Strings share the decoder's own copy: the caller may reuse its buffer, and escaped strings
// are decoded.
func TestStringsOutliveTheInput(t *testing.T) {
	data := []byte(`{"city":"Osl\u00f8 \ud83d\ude00 \"q\" \\ \/ \n\t\b\f\r","unit":"fahrenheit","days":2}`)
	args, err := Weather(data)
	require.NoError(t, err)
	plain := []byte(`{"city":"Tokyo"}`)
	args2, err := Weather(plain)
	require.NoError(t, err)
	for i := range plain {
		plain[i] = 'x'
	}
	var want struct{ City string }
	require.NoError(t, json.Unmarshal(data, &want))
	assert.Equal(t, want.City, args.City)
	assert.Equal(t, "Tokyo", args2.City)
	assert.EqualValues(t, "celsius", args2.Unit, "the default")
}
