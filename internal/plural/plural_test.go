package plural_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgen-go/toolgen/internal/plural"
)

func TestOf(t *testing.T) {
	for _, c := range []struct {
		n          int
		noun, want string
	}{
		{1, "line", "1 line"}, {0, "line", "0 lines"}, {2, "matching line", "2 matching lines"},
		{1, "entry", "1 entry"}, {3, "entry", "3 entries"}, {2, "property", "2 properties"},
		{2, "day", "2 days"}, {2, "match", "2 matches"}, {2, "box", "2 boxes"}, {2, "bus", "2 buses"},
		{2, "wish", "2 wishes"}, {-1, "byte", "-1 byte"}, {16, "question", "16 questions"},
	} {
		assert.Equal(t, c.want, plural.Of(c.n, c.noun))
	}
	assert.Equal(t, "time", plural.Noun(1, "time"))
	assert.Equal(t, "times", plural.Noun(5, "time"))
}
