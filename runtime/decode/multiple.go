package decode

import (
	"math/bits"
	"strconv"
)

// Multiple is the decimal of a multipleOf keyword, parsed once: generated code declares one
// per keyword at package level, so a check parses only the number it is given.
type Multiple struct {
	// The decimal is mant × 10^exp exactly, mant without trailing zeros; mant is 0 when the
	// decimal does not fit, and every check then takes the exact path.
	mant uint64
	exp  int
	div  divisor
}

// MultipleOf parses the decimal m of a multipleOf keyword that toolgen validated when it
// generated the code.
func MultipleOf(m string) *Multiple {
	if _, ok := parseNumberString(m); !ok {
		panic("toolgen: invalid generated multipleOf " + strconv.Quote(m))
	}
	out := &Multiple{div: newDivisor(m)}
	if mant, exp, ok := decimal([]byte(m)); ok {
		out.mant, out.exp = mant, exp
	}
	return out
}

// Divides reports whether the JSON number raw is a multiple of m, computed exactly on the
// decimal texts as JSON Schema validators do (0.3 is a multiple of 0.1).
// Numbers of up to 19 significant digits take a path that does not allocate; any other costs
// time linear in its digits, whatever its exponent.
func (m *Multiple) Divides(raw []byte) bool {
	if m.div.invalid {
		return false
	}
	if m.mant != 0 {
		if x, exp, ok := decimal(raw); ok {
			return divides(x, exp, m.mant, m.exp)
		}
	}
	x, ok := parseNumber(raw)
	return ok && m.div.divides(&x)
}

// divides reports whether x × 10^xe is a multiple of m × 10^me (m > 0, neither with
// trailing zeros, exponents within ±maxDecimalExp).
func divides(x uint64, xe int, m uint64, me int) bool {
	if x == 0 {
		return true
	}
	d := xe - me
	if d < 0 {
		// x / (m × 10^-d) must be whole. m × 10^-d ≥ 10^-d, so beyond 19 digits it exceeds
		// any x.
		if -d > 19 {
			return false
		}
		hi, div := bits.Mul64(m, pow10[-d])
		return hi == 0 && x%div == 0
	}
	// x × 10^d mod m, one factor of ten at a time (d ≤ 2 × maxDecimalExp).
	r := x % m
	for ; d > 0 && r != 0; d-- {
		hi, lo := bits.Mul64(r, 10)
		_, r = bits.Div64(hi, lo, m) // hi < m since r < m: no panic
	}
	return r == 0
}

var pow10 = [20]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19}

// maxDecimalExp bounds the exponents decimal accepts, so that divides loops little.
const maxDecimalExp = 400

// decimal reads a JSON number as |mant| × 10^exp with mant free of trailing zeros (0 for
// zero). ok is false when the number is not JSON number syntax, has more significant digits
// than a uint64 holds, or an exponent beyond ±maxDecimalExp.
func decimal(s []byte) (mant uint64, exp int, ok bool) {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	zeros := 0 // zeros read after a significant digit, not yet in mant
	frac := 0  // digits after the point
	take := func(c byte) bool {
		if c == '0' {
			if mant != 0 {
				zeros++
			}
			return true
		}
		for ; zeros > 0; zeros-- {
			if mant > (1<<64-1)/10 {
				return false
			}
			mant *= 10
		}
		hi, lo := bits.Mul64(mant, 10)
		lo, carry := bits.Add64(lo, uint64(c-'0'), 0)
		if hi != 0 || carry != 0 {
			return false
		}
		mant = lo
		return true
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if !take(s[i]) {
			return 0, 0, false
		}
		i++
	}
	if i == start || s[start] == '0' && i-start > 1 {
		return 0, 0, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		start = i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			if !take(s[i]) {
				return 0, 0, false
			}
			i++
			frac++
		}
		if i == start {
			return 0, 0, false
		}
	}
	e := 0
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		neg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			neg = s[i] == '-'
			i++
		}
		start = i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			if e = e*10 + int(s[i]-'0'); e > maxDecimalExp+1000 {
				return 0, 0, false
			}
			i++
		}
		if i == start {
			return 0, 0, false
		}
		if neg {
			e = -e
		}
	}
	if i != len(s) {
		return 0, 0, false
	}
	if mant == 0 {
		return 0, 0, true
	}
	// Trailing zeros were left pending: they raise the exponent instead.
	exp = e - frac + zeros
	if exp > maxDecimalExp || exp < -maxDecimalExp {
		return 0, 0, false
	}
	return mant, exp, true
}
