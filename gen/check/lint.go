package check

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/annotations"
	"github.com/toolgen-go/toolgen/gen/diag"
	"github.com/toolgen-go/toolgen/gen/model"
)

// The authoring rules of annotations.LintRules. Each finding is a warning (an error under
// -strict) whose hint says how to turn the rule off.
const (
	ruleSnakeCase            = "snake-case"
	ruleDescriptionLength    = "description-length"
	ruleDetailLength         = "detail-length"
	ruleParameterDescription = "parameter-description"
	ruleOptionalDefault      = "optional-default"

	maxDetail = 2000 // characters
)

var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// offWith is the end of a lint warning's hint: how to turn the rule off.
func offWith(rule string) string {
	return "; or turn the rule off with //tool:lint -" + rule
}

// checkLint applies the rules about the tool itself; parameterWalker applies those about its
// parameters.
func checkLint(p *model.Package, t *model.Tool, diags *diag.List) {
	if model.LintOn(p, t, ruleSnakeCase) && annotations.IsValidName(t.Name) && !snakeCase.MatchString(t.Name) {
		hint := "name it in lower case with underscores between words"
		if s := snakeCaseOf(t.Name); s != "" {
			hint = "name it //tool:name " + s
		}
		diags.Warnf(t.Pos, "tool name %q is not snake_case", t.Name).WithHint("%s%s", hint, offWith(ruleSnakeCase))
	}
	if n := utf8.RuneCountInString(strings.TrimSpace(t.Detail)); n > maxDetail && model.LintOn(p, t, ruleDetailLength) {
		diags.Warnf(t.Pos, "detail of tool %s is %d characters long, over %d", t.Name, n, maxDetail).
			WithHint("the detail is what the model reads before a first call (level 2): keep what it needs to call the tool well%s", offWith(ruleDetailLength))
	}
}

// snakeCaseOf turns getWeather, Get-Weather or GET_WEATHER into get_weather; "" when the
// result would not be snake_case either.
func snakeCaseOf(name string) string {
	var b strings.Builder
	prevLower := false
	for _, r := range name {
		switch {
		case r == '-' || r == '_':
			b.WriteByte('_')
			prevLower = false
			continue
		case 'A' <= r && r <= 'Z':
			if prevLower {
				b.WriteByte('_')
			}
			b.WriteRune(r + 'a' - 'A')
			prevLower = false
			continue
		}
		b.WriteRune(r)
		prevLower = true
	}
	s := strings.Trim(b.String(), "_")
	for strings.Contains(s, "__") {
		s = strings.ReplaceAll(s, "__", "_")
	}
	if !snakeCase.MatchString(s) {
		return ""
	}
	return s
}
