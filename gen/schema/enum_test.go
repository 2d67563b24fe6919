package schema

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/toolgen-go/toolgen/gen/model"
)

func enumOf(n int) (typeEnum []string, tagEnum []model.Literal) {
	for i := range n {
		typeEnum = append(typeEnum, strconv.Quote("v"+strconv.Itoa(i)))
		tagEnum = append(tagEnum, model.Literal{JSON: strconv.Quote("v" + strconv.Itoa(n-1-i))})
	}
	return typeEnum, tagEnum
}

func TestRestrictEnumByValue(t *testing.T) {
	got := restrictEnum([]string{`"café"`, `1`, `true`}, []model.Literal{{JSON: `"caf\u00e9"`}, {JSON: `1.0`}, {JSON: `"café"`}, {JSON: `2`}, {JSON: `true`}}, true)
	assert.Equal(t, []string{`"caf\u00e9"`, `1.0`, `true`, `null`}, got)
}

// An enum of n values costs about n operations, not n² (10,000 values took 186 s): counted as
// allocations, which double, not quadruple, when n doubles.
func TestRestrictEnumIsLinear(t *testing.T) {
	cost := func(n int) float64 {
		typeEnum, tagEnum := enumOf(n)
		return testing.AllocsPerRun(1, func() { restrictEnum(typeEnum, tagEnum, false) })
	}
	small, large := cost(1000), cost(4000)
	assert.Less(t, large/small, 6.0, "4× the values cost %.0f× the allocations", large/small)
}

func BenchmarkRestrictEnum10000(b *testing.B) {
	typeEnum, tagEnum := enumOf(10_000)
	b.ReportAllocs()
	for b.Loop() {
		restrictEnum(typeEnum, tagEnum, false)
	}
}

// Integers past 2^53 are distinct values although their float64s are one: an int64 enum keeps
// them all, as the decoder does.
func TestRestrictEnumKeepsLargeIntegersApart(t *testing.T) {
	got := restrictEnum(nil, []model.Literal{{JSON: `9007199254740992`}, {JSON: `9007199254740993`}, {JSON: `9007199254740993.0`}, {JSON: `1e400`}, {JSON: `10e399`}}, false)
	assert.Equal(t, []string{`9007199254740992`, `9007199254740993`, `1e400`}, got)
}
