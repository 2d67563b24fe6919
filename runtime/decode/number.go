package decode

import (
	"math/big"
	"math/bits"
)

// number is a JSON number literal read exactly as sign × 0.d₁d₂…dₙ × 10^point, where d₁…dₙ
// are its significant digits (no leading or trailing zeros). The digits are not copied: they
// are the bytes text[first..last] without the decimal point, which may fall between them.
//
// Reading one costs the length of its text whatever its exponent: point saturates far beyond
// any value a Go type holds, so 1e999999999 is as cheap as 1e9, and every decision made on a
// number (integral or not, within a bound or not, a multiple or not) is made on the digits and
// the point, never by computing 10^exponent.
type number struct {
	text        []byte // the mantissa: digits and perhaps a point
	first, last int    // indexes in text of the first and last significant digits; first > last for zero
	dot         int    // index of the point in text, or len(text) when there is none
	neg         bool
	point       int64
}

// maxExponent saturates exponents: far beyond what any comparison needs (a number's point is
// compared only with others of at most a few million digits), small enough never to overflow.
const maxExponent = 1 << 40

// parseNumber reads a JSON number literal; ok is false when raw is not JSON number syntax.
func parseNumber(raw []byte) (x number, ok bool) {
	i := 0
	if i < len(raw) && raw[i] == '-' {
		x.neg = true
		i++
	}
	start := i
	for i < len(raw) && raw[i] >= '0' && raw[i] <= '9' {
		i++
	}
	if i == start || raw[start] == '0' && i-start > 1 {
		return number{}, false
	}
	x.dot = i - start
	if i < len(raw) && raw[i] == '.' {
		i++
		fracStart := i
		for i < len(raw) && raw[i] >= '0' && raw[i] <= '9' {
			i++
		}
		if i == fracStart {
			return number{}, false
		}
	}
	x.text = raw[start:i]
	var exp int64
	if i < len(raw) && (raw[i] == 'e' || raw[i] == 'E') {
		i++
		negExp := false
		if i < len(raw) && (raw[i] == '+' || raw[i] == '-') {
			negExp = raw[i] == '-'
			i++
		}
		expStart := i
		for ; i < len(raw) && raw[i] >= '0' && raw[i] <= '9'; i++ {
			if exp < maxExponent {
				exp = exp*10 + int64(raw[i]-'0')
			}
		}
		if i == expStart {
			return number{}, false
		}
		exp = min(exp, maxExponent)
		if negExp {
			exp = -exp
		}
	}
	if i != len(raw) {
		return number{}, false
	}
	x.first, x.last = 0, len(x.text)-1
	for x.first < len(x.text) && (x.text[x.first] == '0' || x.text[x.first] == '.') {
		x.first++
	}
	if x.first == len(x.text) { // zero
		x.first, x.last = 1, 0
		return x, true
	}
	for x.text[x.last] == '0' || x.text[x.last] == '.' {
		x.last--
	}
	if x.first < x.dot {
		x.point = int64(x.dot - x.first)
	} else {
		x.point = -int64(x.first - x.dot - 1)
	}
	x.point += exp
	return x, true
}

// parseNumberString is parseNumber of a decimal written by toolgen (a keyword's text).
func parseNumberString(s string) (number, bool) { return parseNumber([]byte(s)) }

func (x *number) zero() bool { return x.first > x.last }

// digits is the count of significant digits.
func (x *number) digits() int64 {
	n := x.last - x.first + 1
	if x.first < x.dot && x.dot < x.last {
		n--
	}
	return int64(n)
}

// integral reports whether x is a whole number.
func (x *number) integral() bool { return x.zero() || x.digits() <= x.point }

// magnitude returns |x| for an integral x, and false when it exceeds a uint64.
func (x *number) magnitude() (uint64, bool) {
	if x.zero() {
		return 0, true
	}
	if x.point > 20 {
		return 0, false
	}
	var m uint64
	for i := x.first; i <= x.last; i++ {
		if x.text[i] == '.' {
			continue
		}
		hi, lo := bits.Mul64(m, 10)
		lo, carry := bits.Add64(lo, uint64(x.text[i]-'0'), 0)
		if hi != 0 || carry != 0 {
			return 0, false
		}
		m = lo
	}
	for k := x.point - x.digits(); k > 0; k-- {
		hi, lo := bits.Mul64(m, 10)
		if hi != 0 {
			return 0, false
		}
		m = lo
	}
	return m, true
}

// cmp compares x and y exactly: -1, 0 or +1.
func (x *number) cmp(y *number) int {
	sx, sy := x.sign(), y.sign()
	switch {
	case sx != sy:
		if sx < sy {
			return -1
		}
		return 1
	case sx == 0:
		return 0
	}
	c := x.cmpMagnitude(y)
	if sx < 0 {
		return -c
	}
	return c
}

func (x *number) sign() int {
	switch {
	case x.zero():
		return 0
	case x.neg:
		return -1
	}
	return 1
}

// cmpMagnitude compares |x| and |y|, both non-zero.
func (x *number) cmpMagnitude(y *number) int {
	if x.point != y.point {
		if x.point < y.point {
			return -1
		}
		return 1
	}
	i, j := x.first, y.first
	for {
		if i <= x.last && x.text[i] == '.' {
			i++
		}
		if j <= y.last && y.text[j] == '.' {
			j++
		}
		switch {
		case i > x.last && j > y.last:
			return 0
		case i > x.last: // y has more digits, none of them trailing zeros
			return -1
		case j > y.last:
			return 1
		case x.text[i] != y.text[j]:
			if x.text[i] < y.text[j] {
				return -1
			}
			return 1
		}
		i++
		j++
	}
}

// divisor is a positive decimal m = mant × 10^exp (mant without trailing zeros) ready to test
// numbers for being multiples of it.
type divisor struct {
	mant    *big.Int
	small   uint64 // mant when it fits a uint64, else 0
	exp     int64
	enough  int64 // powers of ten beyond which 10^k adds no factor mant lacks
	invalid bool  // zero or not a number: divides nothing
}

func newDivisor(m string) divisor {
	x, ok := parseNumberString(m)
	if !ok || x.zero() {
		return divisor{invalid: true}
	}
	var d divisor
	d.mant = new(big.Int)
	d.mant.SetString(string(x.significand()), 10)
	if d.mant.IsUint64() {
		d.small = d.mant.Uint64()
	}
	d.exp = x.point - x.digits()
	// mant has at most log2(mant) factors of 2 or 5.
	d.enough = int64(d.mant.BitLen()) + 1
	return d
}

// significand returns the significant digits as text (allocates; used for keyword texts).
func (x *number) significand() []byte {
	out := make([]byte, 0, x.digits())
	for i := x.first; i <= x.last; i++ {
		if x.text[i] != '.' {
			out = append(out, x.text[i])
		}
	}
	return out
}

// divides reports whether x is a whole multiple of d, exactly, in time linear in x's digits.
//
// x = X × 10^e with X free of trailing zeros. When e < d.exp, X / (mant × 10^(d.exp-e)) would
// need X to end in a zero, so x is no multiple. Otherwise x is one exactly when mant divides
// X × 10^k (k = e - d.exp), and raising k beyond d.enough adds no factor of 2 or 5 that mant
// could still need.
func (d *divisor) divides(x *number) bool {
	if d.invalid {
		return false
	}
	if x.zero() {
		return true
	}
	k := x.point - x.digits() - d.exp
	if k < 0 {
		return false
	}
	k = min(k, d.enough)
	if d.small != 0 {
		var r uint64
		for i := x.first; i <= x.last; i++ {
			if c := x.text[i]; c != '.' {
				r = mulAddMod(r, 10, uint64(c-'0'), d.small)
			}
		}
		for ; k > 0 && r != 0; k-- {
			r = mulAddMod(r, 10, 0, d.small)
		}
		return r == 0
	}
	// A divisor beyond 19 digits: nineteen digits at a time.
	r, chunk, scale := new(big.Int), new(big.Int), new(big.Int)
	var acc, pow uint64 = 0, 1
	flush := func() {
		r.Mul(r, scale.SetUint64(pow))
		r.Add(r, chunk.SetUint64(acc))
		r.Mod(r, d.mant)
		acc, pow = 0, 1
	}
	for i := x.first; i <= x.last; i++ {
		if c := x.text[i]; c != '.' {
			acc, pow = acc*10+uint64(c-'0'), pow*10
			if pow == 1e19 {
				flush()
			}
		}
	}
	for ; k > 0; k-- {
		acc, pow = acc*10, pow*10
		if pow == 1e19 {
			flush()
		}
	}
	flush()
	return r.Sign() == 0
}

// mulAddMod returns (r×f + a) mod m, for r < m.
func mulAddMod(r, f, a, m uint64) uint64 {
	hi, lo := bits.Mul64(r, f)
	lo, carry := bits.Add64(lo, a, 0)
	hi += carry
	_, rem := bits.Div64(hi%m, lo, m)
	return rem
}
