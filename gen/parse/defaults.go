package parse

import (
	"encoding/json"
	"math/big"
	"regexp"
	"strconv"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/runtime/decode"
)

// brokenKeywords lists the keywords of c the default lit breaks, in the order the schema
// writes them, each as its tag item and what is wrong: "maximum=50 (it is greater than 50)".
// The list is empty when the default meets them all. A default is shipped in the schema and handed to the handler
// when the property is left out, so it must be a value the decoder would accept if sent:
// numbers compare as the decimals the schema holds (the default as emitted, after conversion
// to the field's type), lengths count code points, patterns are RE2 and formats are the
// decoder's checkers. The enum is checked where the default is read (defaultValue).
func brokenKeywords(lit model.Literal, c *model.Constraints) []string {
	var broken []string
	breaks := func(cond bool, keyword, problem string) {
		if cond {
			broken = append(broken, keyword+" ("+problem+")")
		}
	}
	var s string
	if json.Unmarshal([]byte(lit.JSON), &s) == nil {
		n := utf8.RuneCountInString(s)
		breaks(c.MinLength != nil && n < *c.MinLength, "minLength="+itoa(c.MinLength), "it has "+characters(n))
		breaks(c.MaxLength != nil && n > *c.MaxLength, "maxLength="+itoa(c.MaxLength), "it has "+characters(n))
		if c.Pattern != "" {
			// The tag parser compiled the pattern already; one that did not compile was reported.
			re, err := regexp.Compile(c.Pattern)
			breaks(err == nil && !re.MatchString(s), "pattern="+c.Pattern, "it does not match")
		}
		if check, describe, ok := decode.FormatFunc(c.Format); ok {
			breaks(!check(s), "format="+c.Format, "it is not "+describe)
		}
		return broken
	}
	value, ok := new(big.Rat).SetString(lit.JSON)
	if !ok {
		return nil // a bool: no keyword but enum applies
	}
	// cmp compares the default with a bound; the tag parser checked the bound's JSON number
	// grammar, so it parses.
	cmp := func(n *model.Number) int {
		r, _ := new(big.Rat).SetString(n.Text)
		return value.Cmp(r)
	}
	if n := c.Minimum; n != nil {
		breaks(cmp(n) < 0, "minimum="+n.Text, "it is less than "+n.Text)
	}
	if n := c.Maximum; n != nil {
		breaks(cmp(n) > 0, "maximum="+n.Text, "it is greater than "+n.Text)
	}
	if n := c.ExclusiveMinimum; n != nil {
		breaks(cmp(n) <= 0, "exclusiveMinimum="+n.Text, "it is not greater than "+n.Text)
	}
	if n := c.ExclusiveMaximum; n != nil {
		breaks(cmp(n) >= 0, "exclusiveMaximum="+n.Text, "it is not less than "+n.Text)
	}
	if n := c.MultipleOf; n != nil {
		m, _ := new(big.Rat).SetString(n.Text)
		breaks(m.Sign() > 0 && !new(big.Rat).Quo(value, m).IsInt(), "multipleOf="+n.Text, "it is not a multiple of "+n.Text)
	}
	return broken
}

func itoa(n *int) string {
	if n == nil {
		return ""
	}
	return strconv.Itoa(*n)
}

func characters(n int) string {
	if n == 1 {
		return "1 character"
	}
	return strconv.Itoa(n) + " characters"
}
