package decode

import (
	"testing"
)

var multipleCases = []struct {
	raw, m string
	want   bool
}{
	{"0.3", "0.1", true}, {"0.35", "0.1", false}, {"10", "2.5", true}, {"1e3", "7", false},
	{"7", "0", false}, {"0", "0.5", true}, {"-0", "3", true}, {"-1.5", "0.5", true},
	{"12.5", "0.5", true}, {"12.25", "0.5", false}, {"3.27", "0.01", true}, {"3.275", "0.01", false},
	{"1e-400", "1e-400", true}, {"1e400", "3", false}, {"3e400", "3", true},
	{"18446744073709551615", "5", true}, {"18446744073709551616", "2", true},
	{"123456789012345678901234567890", "10", true}, {"0.000000000000000000001", "1e-21", true},
	{"1E+2", "25", true}, {"100.000", "0.001", true}, {"1.10", "0.11", true},
	{"9.223372036854775807e18", "7", true}, {"5e-20", "1e-20", true}, {"5e-20", "1e-19", false},
	{"1", "1e-30", true}, {"1", "3e-30", false}, {"1.5", "1.5e0", true},
	{"x", "1", false},
}

func TestMultipleDividesAsMathBig(t *testing.T) {
	for _, c := range multipleCases {
		if got := ratMultiple(c.raw, c.m); got != c.want {
			t.Errorf("math/big: %s multiple of %s = %v", c.raw, c.m, got)
		}
		if got := MultipleOf(c.m).Divides([]byte(c.raw)); got != c.want {
			t.Errorf("MultipleOf(%s).Divides(%s) = %v", c.m, c.raw, got)
		}
	}
}

func TestDecimal(t *testing.T) {
	for _, c := range []struct {
		s    string
		mant uint64
		exp  int
		ok   bool
	}{
		{"0", 0, 0, true}, {"-0.000", 0, 0, true}, {"1500", 15, 2, true}, {"100.5", 1005, -1, true},
		{"0.0500", 5, -2, true}, {"-12e-3", 12, -3, true}, {"1E+2", 1, 2, true},
		{"18446744073709551615", 18446744073709551615, 0, true}, {"18446744073709551616", 0, 0, false},
		{"184467440737095516150000", 18446744073709551615, 4, true},
		{"1e401", 0, 0, false}, {"", 0, 0, false}, {"-", 0, 0, false}, {"1e", 0, 0, false}, {"1.e2", 0, 0, false},
	} {
		mant, exp, ok := decimal([]byte(c.s))
		if mant != c.mant || exp != c.exp || ok != c.ok {
			t.Errorf("decimal(%q) = %d, %d, %v; want %d, %d, %v", c.s, mant, exp, ok, c.mant, c.exp, c.ok)
		}
	}
}

func TestMultipleDoesNotAllocate(t *testing.T) {
	m, raw := MultipleOf("0.01"), []byte("1234.56")
	if n := testing.AllocsPerRun(100, func() { m.Divides(raw) }); n != 0 {
		t.Errorf("Divides allocates %v times", n)
	}
}

func FuzzMultiple(f *testing.F) {
	for _, c := range multipleCases {
		f.Add(c.raw, c.m)
	}
	f.Fuzz(func(t *testing.T, raw, m string) {
		if _, _, ok := decimal([]byte(m)); !ok {
			return // MultipleOf takes what toolgen validated: JSON numbers
		}
		if !referenceSized(raw) || !referenceSized(m) {
			return // math/big would take too long; FuzzNumber covers huge exponents
		}
		if want, got := ratMultiple(raw, m), MultipleOf(m).Divides([]byte(raw)); got != want {
			t.Errorf("MultipleOf(%s).Divides(%s) = %v, math/big says %v", m, raw, got, want)
		}
	})
}

func BenchmarkMultipleOf(b *testing.B) {
	raw := []byte("1234.56")
	b.Run("math/big", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ratMultiple(string(raw), "0.01")
		}
	})
	m := MultipleOf("0.01")
	b.Run("Multiple", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m.Divides(raw)
		}
	})
}
