package decode

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/runtime"
)

func TestPathString(t *testing.T) {
	var root *Path
	items := root.Key("items")
	first := items.Index(0)
	odd := first.Key("a/b~c")
	for _, c := range []struct {
		p    *Path
		want string
	}{{root, ""}, {&items, "/items"}, {&first, "/items/0"}, {&odd, "/items/0/a~1b~0c"}} {
		if got := c.p.String(); got != c.want {
			t.Errorf("path = %q, want %q", got, c.want)
		}
	}
}

// problemsOf decodes one value with read and returns the problems recorded.
func problemsOf(t *testing.T, doc string, read func(d *Decoder, ps *Problems, p *Path) error) []runtime.Problem {
	t.Helper()
	d := Acquire([]byte(doc))
	defer Release(d)
	var ps Problems
	p := (*Path)(nil).Key("v")
	if err := read(d, &ps, &p); err != nil {
		t.Fatalf("%s: syntax error %v", doc, err)
	}
	return ps.list
}

func TestReadIntFollowsJSONSchemaIntegers(t *testing.T) {
	cases := []struct {
		doc     string
		want    int64
		problem string
	}{
		{"12", 12, ""},
		{"-7", -7, ""},
		{"2.0", 2, ""}, // JSON Schema: a number with a zero fraction is an integer
		{"1e2", 100, ""},
		{"-0", 0, ""},
		{"1.5", 0, "/v: must be an integer, got 1.5"},
		{"128", 0, "/v: must be at most 127, got 128"},
		{"-129", 0, "/v: must be at least -128, got -129"},
		{"1e400", 0, "/v: must be at most 127, got 1e400"},
		{`"3"`, 0, `/v: must be an integer, got "3"`},
		{"null", 0, "/v: must be an integer, got null"},
	}
	for _, c := range cases {
		var got int64
		problems := problemsOf(t, c.doc, func(d *Decoder, ps *Problems, p *Path) error {
			v, _, err := ReadInt(d, ps, p, -128, 127)
			got = v
			return err
		})
		if c.problem == "" {
			if len(problems) != 0 || got != c.want {
				t.Errorf("%s: got %d %v, want %d", c.doc, got, problems, c.want)
			}
			continue
		}
		if len(problems) != 1 || problems[0].String() != c.problem {
			t.Errorf("%s: problems %v, want %q", c.doc, problems, c.problem)
		}
	}
}

func TestReadIntExtremes(t *testing.T) {
	for _, doc := range []string{"9223372036854775807", "-9223372036854775808"} {
		problems := problemsOf(t, doc, func(d *Decoder, ps *Problems, p *Path) error {
			v, ok, err := ReadInt(d, ps, p, math.MinInt64, math.MaxInt64)
			if !ok || strconv.FormatInt(v, 10) != doc {
				t.Errorf("%s read as %d, %v", doc, v, ok)
			}
			return err
		})
		if len(problems) != 0 {
			t.Errorf("%s: %v", doc, problems)
		}
	}
	problems := problemsOf(t, "9223372036854775808", func(d *Decoder, ps *Problems, p *Path) error {
		_, _, err := ReadInt(d, ps, p, math.MinInt64, math.MaxInt64)
		return err
	})
	if len(problems) != 1 || problems[0].Message != "must be at most 9223372036854775807, got 9223372036854775808" {
		t.Errorf("one past MaxInt64: %v", problems)
	}
}

func TestCountPlural(t *testing.T) {
	var ps Problems
	ps.Count(nil, "at most", 3, 4, "property")
	ps.Count(nil, "at least", 1, 0, "item")
	if ps.list[0].Message != "must have at most 3 properties, got 4" || ps.list[1].Message != "must have at least 1 item, got 0" {
		t.Errorf("got %v", ps.list)
	}
}

func TestReadUint(t *testing.T) {
	problems := problemsOf(t, "-1", func(d *Decoder, ps *Problems, p *Path) error {
		_, _, err := ReadUint(d, ps, p, 255)
		return err
	})
	if len(problems) != 1 || problems[0].Message != "must be at least 0, got -1" {
		t.Errorf("problems %v", problems)
	}
	problems = problemsOf(t, "18446744073709551615", func(d *Decoder, ps *Problems, p *Path) error {
		v, ok, err := ReadUint(d, ps, p, 1<<64-1)
		if !ok || v != 1<<64-1 {
			t.Errorf("max uint64 read as %d, %v", v, ok)
		}
		return err
	})
	if len(problems) != 0 {
		t.Errorf("problems %v", problems)
	}
}

func TestReadDurationAndTime(t *testing.T) {
	var dur time.Duration
	problemsOf(t, `"1h30m"`, func(d *Decoder, ps *Problems, p *Path) error {
		v, _, err := ReadDuration(d, ps, p)
		dur = v
		return err
	})
	if dur != 90*time.Minute {
		t.Errorf("duration %v", dur)
	}
	var at time.Time
	problems := problemsOf(t, `"2024-12-31t23:59:60z"`, func(d *Decoder, ps *Problems, p *Path) error {
		v, _, err := ReadTime(d, ps, p)
		at = v
		return err
	})
	// RFC 3339 allows a lower-case t and z and a leap second, which Go's parser refuses.
	if len(problems) != 0 || !at.Equal(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("leap second: %v %v", at, problems)
	}
}

// Problems past MaxProblems are counted in one last line, in the singular for one.
func TestProblemsAreCapped(t *testing.T) {
	for extra, want := range map[int]string{7: "… and 7 more problems", 1: "… and 1 more problem"} {
		var ps Problems
		for i := range MaxProblems + extra {
			p := (*Path)(nil).Index(i)
			ps.Add(&p, "bad")
		}
		var ae *runtime.ArgsError
		if !errors.As(ps.Err(), &ae) || len(ae.Problems) != MaxProblems+1 {
			t.Fatalf("got %v", ps.Err())
		}
		if last := ae.Problems[MaxProblems].Message; last != want {
			t.Errorf("last problem %q, want %q", last, want)
		}
		if ps.Len() != MaxProblems+extra {
			t.Errorf("Len %d", ps.Len())
		}
	}
}

func TestUnknownSuggests(t *testing.T) {
	var ps Problems
	ps.Unknown(nil, []byte("citty"), []string{"city", "unit"})
	ps.Unknown(nil, []byte("zzz"), []string{"city", "unit"})
	ps.Unknown(nil, []byte("x"), nil)
	want := []string{
		`/citty: unknown property, did you mean "city"?`,
		`/zzz: unknown property; expected one of "city", "unit"`,
		"/x: unknown property; this object takes no properties",
	}
	for i, w := range want {
		if got := ps.list[i].String(); got != w {
			t.Errorf("problem %d = %q, want %q", i, got, w)
		}
	}
}

func TestNoArgs(t *testing.T) {
	for _, ok := range []string{"{}", " { } "} {
		if err := NoArgs([]byte(ok)); err != nil {
			t.Errorf("NoArgs(%q) = %v", ok, err)
		}
	}
	for doc, want := range map[string]string{
		`{"x":1}`: "/x: unknown property; this object takes no properties",
		`[1]`:     "must be an object, got an array",
		`{} {}`:   "found more data after it",
		`{`:       "not valid JSON",
		`null`:    "must be an object, got null",
		``:        "not valid JSON: there is no text; send the arguments as one JSON object",
		` `:       "not valid JSON: there is no text; send the arguments as one JSON object",
	} {
		if err := NoArgs([]byte(doc)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("NoArgs(%q) = %v, want %q", doc, err, want)
		}
	}
}

func TestCompareNumberIsExact(t *testing.T) {
	for _, c := range []struct {
		raw, limit string
		want       int
	}{
		{"5.000000000000000000001", "5", 1}, {"4.999999999999999999999", "5", -1}, {"5.0", "5", 0},
		{"1e-400", "0", 1}, {"-1e-400", "0", -1}, {"-0", "0", 0}, {"0.1", "0.1", 0}, {"1e2", "100", 0},
		{"x", "1", 0},
	} {
		if got := compareNumber([]byte(c.raw), c.limit); got != c.want {
			t.Errorf("compareNumber(%s, %s) = %d, want %d", c.raw, c.limit, got, c.want)
		}
	}
}

func ExampleProblems_Err() {
	var ps Problems
	city := (*Path)(nil).Key("city")
	ps.Length(&city, "at least", 1, 0)
	ps.Missing(nil, "unit")
	fmt.Println(ps.Err())
	// Output:
	// invalid arguments:
	// - /city: must be at least 1 character long, got 0
	// - /unit: required property is missing
}

// A long value is cut for the message, never inside a character.
func TestShownCutsWholeCharacters(t *testing.T) {
	for _, s := range []string{strings.Repeat("é", 30), strings.Repeat("a", 39) + "日本語", strings.Repeat("🙂", 12)} {
		got := Shown([]byte(s))
		if !utf8.ValidString(got) || !strings.HasSuffix(got, "…") || !strings.HasPrefix(s, strings.TrimSuffix(got, "…")) {
			t.Errorf("Shown(%q) = %q: want a valid prefix followed by …", s, got)
		}
	}
}

// What a problem echoes is capped, however large the value, key or nesting the model sent: the
// depth of a recursive type and a 1 MB property name once made messages of 70 KB.
func TestProblemTextIsCapped(t *testing.T) {
	var ps Problems
	var p *Path
	paths := make([]Path, 5000)
	for i := range paths {
		paths[i] = p.Key("children")
		p = &paths[i]
	}
	ps.Add(p, "deep")
	key := strings.Repeat("k", 1<<20)
	ps.Unknown(nil, []byte(key), []string{"name"})
	ps.Add(nil, "is not accepted: "+strings.Repeat("echo ", 100_000))
	d := Acquire([]byte(`"` + strings.Repeat("x", 1<<20) + `"`))
	defer Release(d)
	if _, _, err := ReadTime(d, &ps, nil); err != nil {
		t.Fatal(err)
	}
	for range 1000 {
		ps.Add(p, strings.Repeat("m", MaxProblemMessage))
	}
	err := ps.Err()
	if err == nil {
		t.Fatal("no problems")
	}
	text := err.Error()
	if len(text) > MaxProblemsText+4<<10 {
		t.Errorf("problem text is %d bytes", len(text))
	}
	for _, pr := range err.(*runtime.ArgsError).Problems[:4] {
		if len(pr.Path) > 260 || len(pr.Message) > MaxProblemMessage+3 {
			t.Errorf("problem not capped: path %d bytes, message %d bytes", len(pr.Path), len(pr.Message))
		}
	}
	first := err.(*runtime.ArgsError).Problems[0].Path
	if !strings.HasPrefix(first, "/children/children/") || !strings.HasSuffix(first, "/children") || !strings.Contains(first, "/…/") {
		t.Errorf("deep path shown as %q", first)
	}
	if !strings.Contains(text, "more problems") {
		t.Errorf("dropped problems not counted: %q", text[len(text)-100:])
	}
	// The JSON reader's errors may quote the input (a megabyte-long number, say).
	d2 := Acquire([]byte(`{"v":1` + strings.Repeat("0", 1<<20) + `}`))
	defer Release(d2)
	_, rerr := ReadAny(d2)
	if msg := SyntaxError(rerr).Error(); rerr == nil || len(msg) > MaxProblemMessage+100 {
		t.Errorf("reader error shown in %d bytes", len(msg))
	}
}
