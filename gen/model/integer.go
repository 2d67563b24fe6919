package model

import (
	"math"
	"math/big"
)

// IntegerBound holds a numeric bound of an integer type (KindInt or KindUint) as the whole
// number k that decides the same integers: n >= k for a minimum, n > k for an exclusive
// minimum, n <= k for a maximum, n < k for an exclusive maximum (minimum=0.5 is 1,
// exclusiveMaximum=100.5 is 101). Always reports that every value of the type's 64-bit range
// meets it, never that none does; otherwise k is within that range. text is the keyword as
// written, a JSON number.
func IntegerBound(unsigned bool, text string, lower, exclusive bool) (k *big.Int, always, never bool) {
	lo, hi := IntegerRange(unsigned)
	r, ok := new(big.Rat).SetString(text)
	if !ok {
		return nil, false, true
	}
	k = new(big.Int).Div(r.Num(), r.Denom()) // Euclidean: rounds down, the denominator being positive
	if !r.IsInt() && lower != exclusive {    // a minimum or an exclusive maximum: round up
		k.Add(k, big.NewInt(1))
	}
	switch {
	case lower && !exclusive:
		return k, k.Cmp(lo) <= 0, k.Cmp(hi) > 0
	case lower:
		return k, k.Cmp(lo) < 0, k.Cmp(hi) >= 0
	case !exclusive:
		return k, k.Cmp(hi) >= 0, k.Cmp(lo) < 0
	default:
		return k, k.Cmp(hi) > 0, k.Cmp(lo) <= 0
	}
}

// IntegerRange is the range of a 64-bit signed or unsigned integer.
func IntegerRange(unsigned bool) (lo, hi *big.Int) {
	if unsigned {
		return new(big.Int), new(big.Int).SetUint64(math.MaxUint64)
	}
	return big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)
}

// IntegerKeywordNoValue returns the first numeric keyword of c that no integer of a 64-bit
// range meets (a minimum above it, a maximum below it, a multipleOf whose numerator is beyond
// it), as keyword and text, or ok false when there is none.
func IntegerKeywordNoValue(unsigned bool, c *Constraints) (keyword, text string, ok bool) {
	for _, b := range []struct {
		n                *Number
		keyword          string
		lower, exclusive bool
	}{
		{c.Minimum, "minimum", true, false}, {c.ExclusiveMinimum, "exclusiveMinimum", true, true},
		{c.Maximum, "maximum", false, false}, {c.ExclusiveMaximum, "exclusiveMaximum", false, true},
	} {
		if b.n == nil {
			continue
		}
		if _, _, never := IntegerBound(unsigned, b.n.Text, b.lower, b.exclusive); never {
			return b.keyword, b.n.Text, true
		}
	}
	if m := c.MultipleOf; m != nil {
		// An integer is a multiple of p/q (in lowest terms) exactly when it is one of p.
		_, hi := IntegerRange(unsigned)
		if r, ok := new(big.Rat).SetString(m.Text); !ok || r.Num().Sign() <= 0 || r.Num().Cmp(hi) > 0 {
			return "multipleOf", m.Text, true
		}
	}
	return "", "", false
}
