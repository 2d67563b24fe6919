package decode

import (
	"math"
	"math/big"
	"regexp"
	goruntime "runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The references below compute with math/big on the decimal text: slow, obviously right.

var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// referenceSized reports whether math/big can evaluate s quickly: a JSON number whose
// exponent is modest (math/big computes 10^exponent).
func referenceSized(s string) bool {
	if !jsonNumber.MatchString(s) {
		return true // not a number: every side refuses it without arithmetic
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		return err == nil && e > -2000 && e < 2000
	}
	return true
}

func ratOf(s string) (*big.Rat, bool) {
	if !jsonNumber.MatchString(s) {
		return nil, false
	}
	return new(big.Rat).SetString(s)
}

func ratMultiple(raw, m string) bool {
	x, ok1 := ratOf(raw)
	y, ok2 := ratOf(m)
	if !ok1 || !ok2 || y.Sign() == 0 {
		return false
	}
	return x.Quo(x, y).IsInt()
}

// ratInt is the reference of ReadInt: the exact integer, and whether it lies within the range.
func ratInt(raw string, min, max int64) (v int64, ok bool) {
	x, valid := ratOf(raw)
	if !valid || !x.IsInt() {
		return 0, false
	}
	n := x.Num()
	if n.Cmp(big.NewInt(min)) < 0 || n.Cmp(big.NewInt(max)) > 0 {
		return 0, false
	}
	return n.Int64(), true
}

func ratUint(raw string, max uint64) (v uint64, ok bool) {
	x, valid := ratOf(raw)
	if !valid || !x.IsInt() {
		return 0, false
	}
	n := x.Num()
	if n.Sign() < 0 || n.Cmp(new(big.Int).SetUint64(max)) > 0 {
		return 0, false
	}
	return n.Uint64(), true
}

func readInt(raw string, min, max int64) (int64, bool) {
	d := Acquire([]byte(raw))
	defer Release(d)
	var ps Problems
	v, ok, err := ReadInt(d, &ps, nil, min, max)
	if err != nil || ok != (ps.Len() == 0) {
		return 0, false
	}
	return v, ok
}

func readUint(raw string, max uint64) (uint64, bool) {
	d := Acquire([]byte(raw))
	defer Release(d)
	var ps Problems
	v, ok, err := ReadUint(d, &ps, nil, max)
	if err != nil || ok != (ps.Len() == 0) {
		return 0, false
	}
	return v, ok
}

var intCases = []string{
	"0", "-0", "1", "-1", "12", "2.0", "1e2", "1E+2", "100e-2", "1.5", "0.5", "-0.0",
	"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
	"9223372036854775807.0", "-9223372036854775808.0", "9223372036854775806.9",
	"1234567890123456789", "1234567890123456789.0", "1234567890123456789.5", "12345678901234567890.0",
	"18446744073709551615", "18446744073709551616", "18446744073709551615.0", "1.8446744073709551615e19",
	"92233720368547758.07e2", "9.223372036854775807e18", "9.2233720368547758071e18",
	"127", "128", "-128", "-129", "255", "256", "32767", "32768", "65535", "65536",
	"2147483647", "2147483648", "4294967295", "4294967296",
	"1e400", "-1e400", "1e-400", "1e999999", "-1e999999", "1e-999999", "0e999999", "0.0e-999999",
	"100000000000000000000000000000e-29", "1000000000000000000000e-20",
}

var intKinds = []struct {
	min, max int64
	umax     uint64
}{
	{math.MinInt8, math.MaxInt8, math.MaxUint8}, {math.MinInt16, math.MaxInt16, math.MaxUint16},
	{math.MinInt32, math.MaxInt32, math.MaxUint32}, {math.MinInt64, math.MaxInt64, math.MaxUint64},
}

// Integers are exact or refused, for every kind: never rounded, never clamped.
func TestIntegersNeverChangeSilently(t *testing.T) {
	for _, raw := range intCases {
		if !referenceSized(raw) {
			continue // below
		}
		for _, k := range intKinds {
			wantV, wantOK := ratInt(raw, k.min, k.max)
			v, ok := readInt(raw, k.min, k.max)
			assert.Equal(t, wantOK, ok, "ReadInt(%s) in [%d, %d]", raw, k.min, k.max)
			assert.Equal(t, wantV, v, "ReadInt(%s) in [%d, %d]", raw, k.min, k.max)

			wantU, wantUOK := ratUint(raw, k.umax)
			u, uok := readUint(raw, k.umax)
			assert.Equal(t, wantUOK, uok, "ReadUint(%s) at most %d", raw, k.umax)
			assert.Equal(t, wantU, u, "ReadUint(%s) at most %d", raw, k.umax)
		}
	}
	// The cases the issue names, spelled out.
	_, ok := readInt("-9223372036854775809", math.MinInt64, math.MaxInt64)
	assert.False(t, ok, "-9223372036854775809 is out of range")
	_, ok = readInt("1234567890123456789.5", math.MinInt64, math.MaxInt64)
	assert.False(t, ok)
	v, ok := readInt("1234567890123456789.0", math.MinInt64, math.MaxInt64)
	assert.True(t, ok)
	assert.Equal(t, int64(1234567890123456789), v)
	v, ok = readInt("9223372036854775807.0", math.MinInt64, math.MaxInt64)
	assert.True(t, ok)
	assert.Equal(t, int64(math.MaxInt64), v)
	u, ok := readUint("18446744073709551615.0", math.MaxUint64)
	assert.True(t, ok)
	assert.Equal(t, uint64(math.MaxUint64), u)
	// Huge exponents are decided on the digits: 0e999999 is 0, 1e-999999 no integer.
	v, ok = readInt("0e999999", math.MinInt64, math.MaxInt64)
	assert.True(t, ok)
	assert.Zero(t, v)
	_, ok = readInt("1e-999999", math.MinInt64, math.MaxInt64)
	assert.False(t, ok)
}

var compareCases = []struct {
	raw, limit string
	want       int
}{
	{"5.000000000000000000001", "5", 1}, {"4.999999999999999999999", "5", -1}, {"5.0", "5", 0},
	{"1e-400", "0", 1}, {"-1e-400", "0", -1}, {"-0", "0", 0}, {"0.1", "0.1", 0}, {"1e2", "100", 0},
	{"x", "1", 0}, {"1e999999", "1e308", 1}, {"-1e999999", "-1e308", -1}, {"1e-999999", "0", 1},
	{"1e-999999", "1e-999998", -1}, {"0.99999999999999999999", "1", -1}, {"123.45", "1.2345e2", 0},
	{"0.005", "5e-3", 0}, {"-0.5", "-0.25", -1}, {"10", "9.99", 1}, {"1.10", "1.1", 0},
}

func TestCompareNumberIsExactAtAnyExponent(t *testing.T) {
	for _, c := range compareCases {
		assert.Equal(t, c.want, compareNumber([]byte(c.raw), c.limit), "compare(%s, %s)", c.raw, c.limit)
	}
}

func compareFloatBits(v float64, raw []byte, bits int, limit float64, limitText string) (int, int) {
	if bits == 32 {
		return CompareFloat32(v, raw, limit, limitText)
	}
	return CompareFloat64(v, raw, limit, limitText)
}

func TestCompareFloatHoldsTheGoValueToTheBound(t *testing.T) {
	for _, c := range []struct {
		raw        string
		bits       int
		limit      string
		sent, held int
	}{
		{"1e-400", 64, "0", 1, 0},                  // rounds to 0
		{"0.99999999999999999999", 64, "1", -1, 0}, // rounds to 1
		{"1e-50", 32, "0", 1, 0},                   // a float32 underflows sooner
		{"0.1", 32, "0.1", 0, 0},                   // float32(0.1) is the float32 of the bound
		{"0.10000000001", 32, "0.1", 1, 0},         // and so is this
		{"0.5", 64, "0", 1, 1},
		{"-0.5", 32, "0", -1, -1},
	} {
		v, err := strconv.ParseFloat(c.raw, c.bits)
		require.NoError(t, err)
		limit, _ := strconv.ParseFloat(c.limit, 64)
		sent, held := compareFloatBits(v, []byte(c.raw), c.bits, limit, c.limit)
		assert.Equal(t, c.sent, sent, "%s vs %s as sent", c.raw, c.limit)
		assert.Equal(t, c.held, held, "%s vs %s as a %d-bit float", c.raw, c.limit, c.bits)
	}
}

// FuzzNumber holds the exact number paths to math/big: integers of every kind, comparisons
// with a bound (of the decimal and of the float it becomes) and multipleOf.
func FuzzNumber(f *testing.F) {
	for _, c := range intCases {
		f.Add(c, "1")
	}
	for _, c := range compareCases {
		f.Add(c.raw, c.limit)
	}
	for _, c := range multipleCases {
		f.Add(c.raw, c.m)
	}
	f.Fuzz(func(t *testing.T, raw, limit string) {
		if !jsonNumber.MatchString(raw) || !referenceSized(raw) || !referenceSized(limit) || len(raw) > 2000 {
			return // the reader's syntax checks are jx's, fuzzed by jx
		}
		for _, k := range intKinds {
			wantV, wantOK := ratInt(raw, k.min, k.max)
			if v, ok := readInt(raw, k.min, k.max); v != wantV || ok != wantOK {
				t.Fatalf("ReadInt(%s) in [%d, %d] = %d, %v; math/big says %d, %v", raw, k.min, k.max, v, ok, wantV, wantOK)
			}
			wantU, wantUOK := ratUint(raw, k.umax)
			if u, ok := readUint(raw, k.umax); u != wantU || ok != wantUOK {
				t.Fatalf("ReadUint(%s) to %d = %d, %v; math/big says %d, %v", raw, k.umax, u, ok, wantU, wantUOK)
			}
		}
		x, ok1 := ratOf(raw)
		y, ok2 := ratOf(limit)
		if !ok1 || !ok2 {
			return
		}
		if got, want := compareNumber([]byte(raw), limit), x.Cmp(y); got != want {
			t.Fatalf("compare(%s, %s) = %d; math/big says %d", raw, limit, got, want)
		}
		if y.Sign() > 0 {
			if got, want := MultipleOf(limit).Divides([]byte(raw)), ratMultiple(raw, limit); got != want {
				t.Fatalf("%s multiple of %s = %v; math/big says %v", raw, limit, got, want)
			}
		}
		lf, err := strconv.ParseFloat(limit, 64)
		if err != nil {
			return
		}
		for _, bits := range []int{32, 64} {
			v, err := strconv.ParseFloat(raw, bits)
			if err != nil {
				continue
			}
			sent, held := compareFloatBits(v, []byte(raw), bits, lf, limit)
			if sent != x.Cmp(y) {
				t.Fatalf("CompareFloat%d(%s, %s) sent = %d; math/big says %d", bits, raw, limit, sent, x.Cmp(y))
			}
			bound := lf
			if bits == 32 {
				bound = float64(float32(lf))
			}
			if math.IsInf(bound, 0) {
				continue
			}
			if want := new(big.Rat).SetFloat64(v).Cmp(new(big.Rat).SetFloat64(bound)); held != want {
				t.Fatalf("CompareFloat%d(%s, %s) held = %d; math/big says %d", bits, raw, limit, held, want)
			}
		}
	})
}

// A number's cost does not grow with its exponent: deciding 1e999999 reads its three digits.
// Measured in bytes allocated, not time: math/big builds 10^999999, 415 KB, for each of them.
func TestHugeExponentsAreDecidedOnTheDigits(t *testing.T) {
	m := MultipleOf("0.5")
	for _, raw := range []string{"1e999999", "-1e999999", "1e-999999", "1.5e999999999999999999999", "7e-999999999"} {
		x, ok := parseNumber([]byte(raw))
		require.True(t, ok, raw)
		assert.LessOrEqual(t, x.digits(), int64(2), raw)
		var before, after goruntime.MemStats
		goruntime.ReadMemStats(&before)
		for range 10 {
			readInt(raw, math.MinInt64, math.MaxInt64)
			readUint(raw, math.MaxUint64)
			compareNumber([]byte(raw), "1")
			m.Divides([]byte(raw))
		}
		goruntime.ReadMemStats(&after)
		assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<10), raw)
	}
	v, ok := readInt("0.0e-999999", math.MinInt64, math.MaxInt64)
	assert.True(t, ok)
	assert.Zero(t, v)
	assert.True(t, m.Divides([]byte("3e999999")))
	assert.False(t, m.Divides([]byte("3e-999999")))
	assert.True(t, MultipleOf("7").Divides([]byte("7e999999")))
	assert.False(t, MultipleOf("7").Divides([]byte("3e999999")))
	assert.True(t, MultipleOf("123456789012345678901234567890").Divides([]byte("123456789012345678901234567890e999999")))
	assert.False(t, MultipleOf("123456789012345678901234567891").Divides([]byte("123456789012345678901234567890e999999")))
	assert.True(t, MultipleOf("1e-999999").Divides([]byte("3")))
}

// ReadInt is exported with any range, not only a kind's: a range that leaves out zero holds for
// literals with a fraction or exponent (-5.0, 2e1, 0e0) as it does for plain ones.
func TestReadIntRangeWithoutZero(t *testing.T) {
	ranges := [][2]int64{{1, 10}, {-10, -1}, {5, math.MaxInt64}, {math.MinInt64, -5}}
	for _, raw := range []string{"-5.0", "-5e0", "5.0", "2e1", "-2e1", "0e0", "0.0", "1e1", "-1e1", "7.00", "-7.00"} {
		for _, r := range ranges {
			wantV, wantOK := ratInt(raw, r[0], r[1])
			v, ok := readInt(raw, r[0], r[1])
			assert.Equal(t, wantOK, ok, "ReadInt(%s) in [%d, %d]", raw, r[0], r[1])
			assert.Equal(t, wantV, v, "ReadInt(%s) in [%d, %d]", raw, r[0], r[1])
		}
	}
}
