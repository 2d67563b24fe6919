package parse_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgen-go/toolgen/gen/model"
)

const tagsSource = `package m

import (
	"context"
	"time"
)

type Unit string

const (
	Celsius    Unit = "celsius"
	Fahrenheit Unit = "fahrenheit"
)

type Args struct {
	City   string            ` + "`json:\"city\" tool:\"minLength=1,maxLength=64,pattern='^[A-Z][a-z]+(, [A-Z]+)?$',title=City\"`" + `
	Unit   Unit              ` + "`json:\"unit,omitempty\" tool:\"default=celsius\"`" + `
	Days   int               ` + "`json:\"days\" tool:\"minimum=0,maximum=7,default=3,example=5\"`" + `
	Tags   []string          ` + "`json:\"tags\" tool:\"maxItems=10,uniqueItems,minLength=1,enum=a|b|c\"`" + `
	Grid   [][]float64       ` + "`json:\"grid\" tool:\"minItems=1,multipleOf=0.5\"`" + `
	Labels map[string]string ` + "`json:\"labels\" tool:\"maxProperties=5,format=email\"`" + `
	Ptr    *int              ` + "`json:\"ptr\" tool:\"required,minimum=-1\"`" + `
	Opt    string            ` + "`json:\"opt\" tool:\"optional,nullable,deprecated\"`" + `
	Wait   time.Duration     ` + "`json:\"wait\" tool:\"default=90s\"`" + `
	When   time.Time         ` + "`json:\"when\" tool:\"optional,example=2024-01-02T03:04:05Z\"`" + `
	Ratio  float32           ` + "`json:\"ratio\" tool:\"default=0.1,exclusiveMaximum=1\"`" + `
	Flag   bool              ` + "`json:\"flag\" tool:\"default=true\"`" + `
	Zero   string            ` + "`json:\"zero,omitzero\"`" + `
	Step   float64           ` + "`json:\"step\" tool:\"multipleOf=0.1,minimum=0.3,default=0.3\"`" + `
	Host   string            ` + "`json:\"host\" tool:\"minLength=9,pattern=^[a-z.]+$,format=hostname,default=localhost\"`" + `
}

// Tagged has tags.
//
//tool:name tagged
func Tagged(ctx context.Context, a Args) (string, error) { return "", nil }

type Bad struct {
	Days    int               ` + "`tool:\"minLength=1\"`" + `
	Unit    Unit              ` + "`tool:\"default=kelvin\"`" + `
	Range   int               ` + "`tool:\"minimum=5,maximum=1\"`" + `
	Len     string            ` + "`tool:\"minLength=5,maxLength=1\"`" + `
	Items   []int             ` + "`tool:\"minItems=3,maxItems=1\"`" + `
	Re      string            ` + "`tool:\"pattern='(?=x)'\"`" + `
	Def     []string          ` + "`tool:\"default=a\"`" + `
	Fixed   [3]int            ` + "`tool:\"maxItems=3\"`" + `
	Both    string            ` + "`tool:\"required,optional\"`" + `
	Num     int               ` + "`tool:\"default=abc\"`" + `
	Sure    bool              ` + "`tool:\"default=ture\"`" + `
	Unsure  bool              ` + "`tool:\"default=fasle\"`" + `
	Maybe   bool              ` + "`tool:\"default=maybe\"`" + `
	Count   uint              ` + "`tool:\"default=-1\"`" + `
	Typo    string            ` + "`tool:\"minLenght=1\"`" + `
	Uniq    [][]int           ` + "`tool:\"uniqueItems\"`" + `
	Small   int8              ` + "`tool:\"enum=1|300\"`" + `
	Outside string            ` + "`tool:\"enum=a|b,default=c\"`" + `
	Time    time.Time         ` + "`tool:\"minLength=3\"`" + `
	Esc    string            "json:\"esc\" tool:\"enum=x|y,default=z\""
	Over    int               ` + "`tool:\"maximum=50,default=100\"`" + `
	Low     *int              ` + "`tool:\"minimum=1,default=0\"`" + `
	Above   float64           ` + "`tool:\"exclusiveMinimum=0,default=0\"`" + `
	Rounds  float32           ` + "`tool:\"exclusiveMaximum=1,default=0.99999999999999999999\"`" + `
	Mult    int               ` + "`tool:\"multipleOf=5,default=12\"`" + `
	Short   string            ` + "`tool:\"minLength=3,default=ab\"`" + `
	Long    string            ` + "`tool:\"maxLength=2,default=abc\"`" + `
	Shape   string            ` + "`tool:\"pattern=^[a-z]+$,default=ABC\"`" + `
	Mail    string            ` + "`tool:\"format=email,default=nobody\"`" + `
}

// BadTags has bad tags.
//
//tool:name bad
func BadTags(ctx context.Context, a Bad) (string, error) { return "", nil }
`

func TestTagConstraints(t *testing.T) {
	r := parseFiles(t, map[string]string{"m.go": tagsSource})
	args := r.tool(t, "tagged").Args
	badLine := lineOf(t, tagsSource, "type Bad struct")
	for _, e := range r.errors() {
		if lineNum(e) < badLine {
			t.Errorf("unexpected error in the good struct: %s", e)
		}
	}

	city := field(t, args, "city")
	if c := city.Constraints; *c.MinLength != 1 || *c.MaxLength != 64 || c.Pattern != "^[A-Z][a-z]+(, [A-Z]+)?$" || c.Title != "City" || !city.Required {
		t.Errorf("city: %+v required %t", c, city.Required)
	}
	unit := field(t, args, "unit")
	if unit.Required || unit.Constraints.Default == nil || unit.Constraints.Default.JSON != `"celsius"` {
		t.Errorf("unit: a default on an enum type, not required: %+v", unit)
	}
	days := field(t, args, "days")
	if c := days.Constraints; c.Minimum.Text != "0" || c.Maximum.Text != "7" || c.Maximum.Value != 7 ||
		c.Default.JSON != "3" || len(c.Examples) != 1 || c.Examples[0].JSON != "5" || days.Required {
		t.Errorf("days: %+v", days)
	}
	// Container keywords stay on the field, element keywords go to Items.
	tags := field(t, args, "tags").Constraints
	if *tags.MaxItems != 10 || !tags.UniqueItems || tags.MinLength != nil || tags.Items == nil ||
		*tags.Items.MinLength != 1 || literals(tags.Items.Enum) != `"a"|"b"|"c"` {
		t.Errorf("tags: %+v items %+v", tags, tags.Items)
	}
	grid := field(t, args, "grid").Constraints
	if *grid.MinItems != 1 || grid.Items == nil || grid.Items.Items == nil || grid.Items.Items.MultipleOf.Text != "0.5" {
		t.Errorf("grid: multipleOf should sit two levels down: %+v", grid)
	}
	labels := field(t, args, "labels").Constraints
	if *labels.MaxProperties != 5 || labels.Items == nil || labels.Items.Format != "email" {
		t.Errorf("labels: %+v", labels)
	}
	ptr := field(t, args, "ptr")
	if !ptr.Required || !ptr.Nullable || ptr.Constraints.Minimum.Text != "-1" {
		t.Errorf("ptr: required forces a pointer; minimum goes through it: %+v", ptr)
	}
	opt := field(t, args, "opt")
	if opt.Required || !opt.Nullable || !opt.Constraints.Deprecated {
		t.Errorf("opt: %+v", opt)
	}
	if d := field(t, args, "wait").Constraints.Default; d == nil || d.JSON != `"1m30s"` {
		t.Errorf("duration default %+v, want the canonical \"1m30s\"", d)
	}
	if e := field(t, args, "when").Constraints.Examples; len(e) != 1 || e[0].JSON != `"2024-01-02T03:04:05Z"` {
		t.Errorf("time example %+v", e)
	}
	if c := field(t, args, "ratio").Constraints; c.Default.JSON != "0.1" || c.ExclusiveMaximum.Text != "1" {
		t.Errorf("ratio: %+v", c)
	}
	if d := field(t, args, "flag").Constraints.Default; d.JSON != "true" {
		t.Errorf("bool default %+v", d)
	}
	if z := field(t, args, "zero"); z.Required || !z.OmitZero {
		t.Errorf("omitzero makes a field optional: %+v", z)
	}
	// Defaults that meet every keyword of their field: a decimal multiple, a bound reached.
	if d := field(t, args, "step").Constraints.Default; d == nil || d.JSON != "0.3" {
		t.Errorf("step: default %+v", d)
	}
	if d := field(t, args, "host").Constraints.Default; d == nil || d.JSON != `"localhost"` {
		t.Errorf("host: default %+v", d)
	}
}

// lineNum reads LINE from "m.go:LINE:COL: ...".
func lineNum(e string) int {
	parts := strings.SplitN(e, ":", 3)
	if len(parts) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(parts[1])
	return n
}

func literals(ls []model.Literal) string {
	var s []string
	for _, l := range ls {
		s = append(s, l.JSON)
	}
	return strings.Join(s, "|")
}

func TestTagDiagnostics(t *testing.T) {
	src := tagsSource
	r := parseFiles(t, map[string]string{"m.go": src})
	wantErrors(t, r, []string{
		// The interpreted string literal maps offsets through its escapes: default=z is at
		// the column of z in the source.
		at(t, src, `Esc    string`, `z\""`, "default \"z\" of field Esc is not in its enum"),
		at(t, src, "Days    int", "minLength", "minLength does not apply to int (field Days)"),
		at(t, src, "Unit    Unit", "kelvin", `default of field Unit: "kelvin" is not a value of Unit`),
		at(t, src, "Range   int", "Range", "minimum 5 is greater than maximum 1 in field Range"),
		at(t, src, "Len     string", "Len", "minLength 5 is greater than maxLength 1 in field Len"),
		at(t, src, "Items   []int", "Items", "minItems 3 is greater than maxItems 1 in field Items"),
		at(t, src, "Re      string", "(?=x)", "pattern of field Re does not compile"),
		at(t, src, "Def     []string", "default", "default does not apply to []string (field Def)"),
		at(t, src, "Fixed   [3]int", "maxItems", "maxItems does not apply to the fixed-length array [3]int (field Fixed)"),
		at(t, src, "Both    string", "optional", "field Both is tagged both required and optional"),
		at(t, src, "Num     int", "abc", `default of field Num: "abc" is not an integer`),
		at(t, src, "Sure    bool", "ture", `default of field Sure: "ture" is not true or false; did you mean true?`),
		at(t, src, "Unsure  bool", "fasle", `default of field Unsure: "fasle" is not true or false; did you mean false?`),
		at(t, src, "Maybe   bool", "maybe", `default of field Maybe: "maybe" is not true or false`),
		at(t, src, "Count   uint", "-1", `default of field Count: -1 is out of range for uint`),
		at(t, src, "Typo    string", "minLenght", `unknown tag key "minLenght"; did you mean minLength?`),
		at(t, src, "Uniq    [][]int", "uniqueItems", "uniqueItems needs scalar items"),
		at(t, src, "Small   int8", "300", `enum member "300" of field Small: 300 is out of range for int8`),
		at(t, src, "Outside string", "c\"", `default "c" of field Outside is not in its enum`),
		at(t, src, "Time    time.Time", "minLength", "minLength does not apply to time.Time (field Time)"),
		// A default breaking any keyword of its field is an error at the default.
		at(t, src, "Over    int", "100", "default 100 of field Over breaks maximum=50 (it is greater than 50)"),
		at(t, src, "Low     *int", "0\"", "default 0 of field Low breaks minimum=1 (it is less than 1)"),
		at(t, src, "Above   float64", "0\"", "default 0 of field Above breaks exclusiveMinimum=0 (it is not greater than 0)"),
		at(t, src, "Rounds  float32", "0.9", "default 1 of field Rounds breaks exclusiveMaximum=1 (it is not less than 1)"),
		at(t, src, "Mult    int", "12", "default 12 of field Mult breaks multipleOf=5 (it is not a multiple of 5)"),
		at(t, src, "Short   string", "ab\"", `default "ab" of field Short breaks minLength=3 (it has 2 characters)`),
		at(t, src, "Long    string", "abc", `default "abc" of field Long breaks maxLength=2 (it has 3 characters)`),
		at(t, src, "Shape   string", "ABC", `default "ABC" of field Shape breaks pattern=^[a-z]+$ (it does not match)`),
		at(t, src, "Mail    string", "nobody", `default "nobody" of field Mail breaks format=email (it is not an email address such as "user@example.com")`),
	})
	// wantErrors matches prefixes: the old wording went on with " of int".
	assert.NotContains(t, r.messages(), "integer of")
}
