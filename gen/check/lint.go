package check

import (
	"regexp"
	"slices"
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
	ruleCategoryPrefix       = "category-prefix"
	ruleDescriptionFields    = "description-fields"
	ruleWhatAndWhen          = "what-and-when" // off unless turned on

	maxDetail = 2000 // characters
)

var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// whenYouNeed and prerequisiteWord find, in a description, what belongs in a trigger and in
// a prerequisite (the OpenAkita specification's advice).
var (
	whenYouNeed      = regexp.MustCompile(`(?i)\bwhen you (?:need|want) to\b[^.;]*`)
	prerequisiteWord = regexp.MustCompile(`(?i)\bprerequisites?\b`)
)

// checkCategoryPrefixes reports, in each category of two tools or more, the tools whose
// names do not start with the prefix most of the category's names share (the first word of
// a snake_case name; on a tie, that of the first tool in position order).
func checkCategoryPrefixes(p *model.Package, diags *diag.List) {
	byCategory := map[string][]*model.Tool{}
	var categories []string
	for _, t := range p.Tools {
		if t.Category == "" || !model.LintOn(p, t, ruleCategoryPrefix) {
			continue
		}
		if byCategory[t.Category] == nil {
			categories = append(categories, t.Category)
		}
		byCategory[t.Category] = append(byCategory[t.Category], t)
	}
	for _, c := range categories {
		tools := byCategory[c]
		if len(tools) < 2 {
			continue
		}
		slices.SortStableFunc(tools, func(a, b *model.Tool) int { return a.Pos.Compare(b.Pos) })
		count := map[string]int{}
		common := ""
		for _, t := range tools {
			pre := namePrefix(t.Name)
			count[pre]++
			if count[pre] > count[common] {
				common = pre
			}
		}
		if count[common] < 2 {
			continue // no prefix is shared: nothing to follow
		}
		for _, t := range tools {
			if namePrefix(t.Name) != common {
				diags.Warnf(t.Pos, "tool %s is in category %q, whose other tools' names start with %s_", t.Name, c, common).
					WithHint("name it //tool:name %s_%s, so the model tells the family by its names%s", common, t.Name, offWith(ruleCategoryPrefix))
			}
		}
	}
}

// namePrefix is the first word of a snake_case name.
func namePrefix(name string) string {
	pre, _, _ := strings.Cut(name, "_")
	return pre
}

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
	if lintOptedIn(p, t, ruleWhatAndWhen) {
		checkWhatAndWhen(t, diags)
	}
	if model.LintOn(p, t, ruleDescriptionFields) {
		if m := whenYouNeed.FindString(t.Description); m != "" {
			diags.Warnf(t.Pos, "description of tool %s says %q: when to use a tool is a trigger", t.Name, m).
				WithHint("move it to //tool:trigger TEXT (runtime.Tool.Triggers), which the model reads as when to call the tool, and keep the description to what the tool does%s", offWith(ruleDescriptionFields))
		}
		if prerequisiteWord.MatchString(t.Description) {
			diags.Warnf(t.Pos, "description of tool %s states a prerequisite", t.Name).
				WithHint("move it to //tool:prerequisite CONDITION [| check TOOL] [| else ACTION] (runtime.Tool.Prerequisites), which names what must hold and what to do otherwise%s", offWith(ruleDescriptionFields))
		}
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

// lintOptedIn reports whether a rule that is off unless turned on is on for t.
func lintOptedIn(p *model.Package, t *model.Tool, rule string) bool {
	if on, ok := t.Lint[rule]; ok {
		return on
	}
	return p.Lint[rule]
}

// whenWords are the words that say when to use a tool; doesWord is the first word of a
// description that says what the tool does: a verb in the third person (Gets, Reads,
// Searches), which the Go convention of starting with the name does not give a tool.
var (
	whenWords = regexp.MustCompile(`(?i)\b(when|whenever|if|before|after|once|unless|until|instead of)\b|\buse (it|this)\b`)
	doesWord  = regexp.MustCompile(`^[A-Z][a-z]+s\b`)
)

// checkWhatAndWhen applies what-and-when: a heuristic over words, explained in its messages.
func checkWhatAndWhen(t *model.Tool, diags *diag.List) {
	first, _, _ := strings.Cut(strings.TrimSpace(t.Description), " ")
	if !doesWord.MatchString(first) || first == "This" {
		diags.Warnf(t.Pos, "description of tool %s may not say what it does: it starts with %q", t.Name, first).
			WithHint("start with what the tool does, a verb (\"Gets the weather of a city\"): a heuristic that reads the first word only; or turn the rule off with //tool:lint -%s", ruleWhatAndWhen)
	}
	if len(t.Triggers) == 0 && !whenWords.MatchString(t.Description) && !whenWords.MatchString(t.Detail) {
		diags.Warnf(t.Pos, "description of tool %s does not say when to use it", t.Name).
			WithHint("say when the model should call it (\"Use it when …\", \"before …\") in the description or detail, or add //tool:trigger TEXT: a heuristic that looks for when, if, before, after, once, unless, until or \"use it\"; or turn the rule off with //tool:lint -%s", ruleWhatAndWhen)
	}
}
