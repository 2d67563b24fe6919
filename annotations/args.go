package annotations

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/internal/suggest"
)

// The argument parsers below take the trimmed argument text and its byte offset in the
// comment, and return problems whose offsets point at the offending word.

// word is one argument word and its byte offset in the comment.
type word struct {
	text string
	at   int
}

// words splits s (at offset at) into words separated by white space.
func words(s string, at int) []word {
	var out []word
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			i += size
			continue
		}
		start := i
		for i < len(s) {
			r, size := utf8.DecodeRuneInString(s[i:])
			if unicode.IsSpace(r) {
				break
			}
			i += size
		}
		out = append(out, word{s[start:i], at + start})
	}
	return out
}

// single returns the only word of args, or a problem at the first extra word.
func single(d *Directive, args string, at int) (word, []Problem) {
	ws := words(args, at)
	if len(ws) > 1 {
		return ws[0], []Problem{{Offset: ws[1].at, Message: "unexpected argument " + strconv.Quote(ws[1].text),
			Hint: "write " + d.Usage()}}
	}
	return ws[0], nil
}

// NamePattern is the rule for tool names: what Anthropic, Gemini and MCP accept. OpenAI takes
// at most 64 characters; gen/provider warns about longer names when OpenAI is among the
// providers.
const NamePattern = `^[a-zA-Z_][a-zA-Z0-9_-]{0,127}$`

// MaxNameLength is the longest tool name NamePattern allows.
const MaxNameLength = 128

var toolNamePattern = regexp.MustCompile(NamePattern)

// IsValidName reports whether name is a valid tool name (NamePattern).
func IsValidName(name string) bool { return toolNamePattern.MatchString(name) }

// SuggestName turns s into a valid tool name for a hint, or "" when nothing of s survives.
func SuggestName(s string) string {
	var b strings.Builder
	for _, r := range strings.Trim(s, "\"`'") {
		switch {
		case r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-'):
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "_"):
			b.WriteByte('_')
		}
	}
	name := strings.TrimRight(b.String(), "_")
	if name == "" {
		return ""
	}
	if c := name[0]; '0' <= c && c <= '9' || c == '-' {
		name = "_" + name
	}
	if len(name) > MaxNameLength {
		name = name[:MaxNameLength]
	}
	return name
}

// parseNameOf returns the parser of a name with the tool-name rule: a tool's, a namespace's.
func parseNameOf(what string) func(*Directive, string, int) (any, []Problem) {
	return func(_ *Directive, args string, at int) (any, []Problem) {
		if IsValidName(args) {
			return args, nil
		}
		p := Problem{Offset: at, Message: "invalid " + what + " " + strconv.Quote(args),
			Hint: "a " + strings.TrimPrefix(what, "tool ") + " is 1 to 128 letters, digits, _ or -, not starting with a digit or -"}
		if fixed := SuggestName(args); fixed != "" {
			p.Hint += ", e.g. " + fixed
		}
		return nil, []Problem{p}
	}
}

func parseText(_ *Directive, args string, _ int) (any, []Problem) { return args, nil }

var listItemPattern = regexp.MustCompile(`^[a-zA-Z0-9_.:-]+$`)

// parseList parses comma and/or space separated names (tags, filters).
func parseList(what string) func(*Directive, string, int) (any, []Problem) {
	return func(d *Directive, args string, at int) (any, []Problem) {
		items, problems := listWords(d, args, at, what)
		return distinct(items, what, problems, func(w word) *Problem {
			if listItemPattern.MatchString(w.text) {
				return nil
			}
			return &Problem{Offset: w.at, Message: "invalid " + what + " " + strconv.Quote(w.text), Hint: "use letters, digits and _ . : -"}
		})
	}
}

// distinct returns the texts of ws, each once, after the problems found so far: those check
// reports, and a word repeated ("duplicate WHAT"). With any problem the value is nil.
func distinct(ws []word, what string, problems []Problem, check func(word) *Problem) (any, []Problem) {
	var out []string
	seen := map[string]bool{}
	for _, w := range ws {
		if p := check(w); p != nil {
			problems = append(problems, *p)
			continue
		}
		if seen[w.text] {
			problems = append(problems, Problem{Offset: w.at, Message: "duplicate " + what + " " + strconv.Quote(w.text)})
			continue
		}
		seen[w.text] = true
		out = append(out, w.text)
	}
	if len(problems) > 0 {
		return nil, problems
	}
	return out, nil
}

// listWords splits a list whose items are separated by commas, white space, or both. An empty
// item between commas is a problem: it is usually a word lost in an edit.
func listWords(d *Directive, args string, at int, what string) ([]word, []Problem) {
	var out []word
	var problems []Problem
	start := 0
	for i := 0; i <= len(args); i++ {
		if i < len(args) && args[i] != ',' {
			continue
		}
		part := words(args[start:i], at+start)
		if len(part) == 0 {
			problems = append(problems, Problem{Offset: at + start, Message: "empty " + what + " in the list",
				Hint: "write " + d.Usage()})
		}
		out = append(out, part...)
		start = i + 1
	}
	return out, problems
}

// parseDuration parses a positive Go duration.
func parseDuration(s string, at int, what string) (time.Duration, *Problem) {
	v, err := time.ParseDuration(s)
	if err != nil {
		return 0, notADuration(s, at, what)
	}
	if v <= 0 {
		return 0, &Problem{Offset: at, Message: what + " must be positive, got " + s}
	}
	return v, nil
}

// notADuration explains text that is not in Go duration syntax, suggesting the duration the
// user most likely meant ("10 seconds" → 10s).
func notADuration(text string, at int, what string) *Problem {
	p := &Problem{Offset: at, Message: what + " " + strconv.Quote(text) + " is not a Go duration",
		Hint: "use Go duration syntax, e.g. 10s, 1m30s or 500ms"}
	if s := suggestDuration(text); s != "" {
		p.Hint = "did you mean " + s + "?"
		// A bare number of a hundred or more is as likely milliseconds (delay=100).
		if n, err := strconv.ParseFloat(strings.TrimSpace(text), 64); err == nil && n >= 100 {
			p.Hint = "did you mean " + strings.TrimSpace(text) + "ms or " + s + "?"
		}
	}
	return p
}

// durationUnits maps unit words people write to Go's duration units.
var durationUnits = map[string]string{
	"ns": "ns", "nanosecond": "ns", "nanoseconds": "ns",
	"us": "us", "µs": "µs", "microsecond": "us", "microseconds": "us",
	"ms": "ms", "msec": "ms", "msecs": "ms", "millis": "ms", "millisecond": "ms", "milliseconds": "ms",
	"s": "s", "sec": "s", "secs": "s", "second": "s", "seconds": "s",
	"m": "m", "min": "m", "mins": "m", "minute": "m", "minutes": "m",
	"h": "h", "hr": "h", "hrs": "h", "hour": "h", "hours": "h",
}

// suggestDuration turns "10 seconds", "10sec", "1.5 min" or a bare "10" into the Go duration
// meant (10s, 10s, 1.5m, 10s), or "" when it cannot tell.
func suggestDuration(text string) string {
	t := strings.ToLower(strings.Join(strings.Fields(text), ""))
	i := 0
	for i < len(t) && ('0' <= t[i] && t[i] <= '9' || t[i] == '.') {
		i++
	}
	number, unit := t[:i], t[i:]
	if _, err := strconv.ParseFloat(number, 64); err != nil {
		return ""
	}
	if unit == "" {
		unit = "s"
	}
	if u, ok := durationUnits[unit]; ok {
		return number + u
	}
	return ""
}

func parseTimeout(d *Directive, args string, at int) (any, []Problem) {
	if ws := words(args, at); len(ws) > 1 {
		if s := suggestDuration(args); s != "" {
			return nil, []Problem{*notADuration(args, at, "timeout")}
		}
	}
	w, problems := single(d, args, at)
	if problems != nil {
		return nil, problems
	}
	if w.text == "none" {
		return Timeout{None: true}, nil
	}
	v, p := parseDuration(w.text, w.at, "timeout")
	if p != nil {
		if strings.EqualFold(w.text, "none") || w.text == "0" {
			p.Hint = "write none to disable the timeout"
		}
		return nil, []Problem{*p}
	}
	return Timeout{Duration: v}, nil
}

var retryKeys = []string{"max", "delay", "backoff", "maxdelay"}

func parseRetry(d *Directive, args string, at int) (any, []Problem) {
	r := Retry{Max: DefaultRetryMax, Delay: DefaultRetryDelay, Backoff: DefaultRetryBackoff, MaxDelay: DefaultRetryMaxDelay}
	var problems []Problem
	seen := map[string]bool{}
	maxDelayAt := -1
	for _, w := range words(args, at) {
		key, value, ok := strings.Cut(w.text, "=")
		valueAt := w.at + len(key) + 1
		switch {
		case !ok:
			p := Problem{Offset: w.at, Message: "expected key=value, got " + strconv.Quote(w.text),
				Hint: "write " + d.Usage()}
			if c := suggest.Closest(key, retryKeys); c != "" {
				p.Hint = "write " + c + "=VALUE"
			}
			problems = append(problems, p)
			continue
		case !slices.Contains(retryKeys, key):
			p := Problem{Offset: w.at, Message: "unknown retry setting " + strconv.Quote(key),
				Hint: "the settings are max, delay, backoff and maxdelay"}
			if c := suggest.Closest(key, retryKeys); c != "" {
				p.Hint = "did you mean " + c + "?"
			}
			problems = append(problems, p)
			continue
		case seen[key]:
			problems = append(problems, Problem{Offset: w.at, Message: "duplicate retry setting " + key})
			continue
		case value == "":
			problems = append(problems, Problem{Offset: valueAt, Message: "missing value for " + key})
			continue
		}
		seen[key] = true
		switch key {
		case "max":
			n, err := strconv.Atoi(value)
			if err != nil || n < 1 {
				problems = append(problems, Problem{Offset: valueAt,
					Message: "retry max must be a whole number of retries, at least 1, got " + value})
			}
			r.Max = n
		case "delay", "maxdelay":
			v, p := parseDuration(value, valueAt, "retry "+key)
			if p != nil {
				problems = append(problems, *p)
			}
			if key == "delay" {
				r.Delay = v
			} else {
				r.MaxDelay, maxDelayAt = v, valueAt
			}
		case "backoff":
			f, err := strconv.ParseFloat(value, 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 1 {
				problems = append(problems, Problem{Offset: valueAt,
					Message: "retry backoff must be a number of at least 1, got " + value,
					Hint:    "1 waits delay between every retry; 2 doubles the wait each time"})
			}
			r.Backoff = f
		}
	}
	if len(problems) == 0 && r.MaxDelay < r.Delay {
		off := maxDelayAt
		if off < 0 {
			off = at // maxdelay is the default: blame the whole line
		}
		problems = append(problems, Problem{Offset: off,
			Message: fmt.Sprintf("retry maxdelay %v is shorter than delay %v", r.MaxDelay, r.Delay),
			Hint:    "set maxdelay to at least delay"})
	}
	if len(problems) > 0 {
		return nil, problems
	}
	return r, nil
}

func parseConfirm(_ *Directive, args string, _ int) (any, []Problem) {
	return Confirm{Reason: args}, nil
}

func parseTask(_ *Directive, args string, at int) (any, []Problem) {
	switch args {
	case "":
		return Task{}, nil
	case "required":
		return Task{Required: true}, nil
	}
	p := Problem{Offset: at, Message: "unexpected argument " + strconv.Quote(args),
		Hint: "//tool:task takes no argument, or required to refuse clients that cannot run tasks"}
	if c := suggest.Closest(strings.ToLower(args), []string{"required"}); c != "" {
		p.Hint = "did you mean " + c + "?"
	}
	return nil, []Problem{p}
}

var riskLevels = []string{"low", "medium", "high"}

func parseRisk(d *Directive, args string, at int) (any, []Problem) {
	w, problems := single(d, args, at)
	if problems != nil {
		return nil, problems
	}
	if slices.Contains(riskLevels, w.text) {
		return w.text, nil
	}
	p := Problem{Offset: w.at, Message: "invalid risk " + strconv.Quote(w.text), Hint: "use low, medium or high"}
	if c := suggest.Closest(w.text, riskLevels); c != "" {
		p.Hint = "did you mean " + c + "?"
	}
	return nil, []Problem{p}
}

var hintNames = []string{"readonly", "idempotent", "destructive", "openworld"}

func parseHints(d *Directive, args string, at int) (any, []Problem) {
	items, problems := listWords(d, args, at, "hint")
	var h Hints
	seen := map[string]bool{}
	for _, w := range items {
		var flag *bool
		switch w.text {
		case "readonly":
			flag = &h.ReadOnly
		case "idempotent":
			flag = &h.Idempotent
		case "destructive":
			flag = &h.Destructive
		case "openworld":
			flag = &h.OpenWorld
		default:
			p := Problem{Offset: w.at, Message: "unknown hint " + strconv.Quote(w.text),
				Hint: "the hints are readonly, idempotent, destructive and openworld"}
			// MCP spells them readOnlyHint, openWorldHint: drop the suffix before comparing.
			if c := suggest.Closest(strings.TrimSuffix(strings.ToLower(w.text), "hint"), hintNames); c != "" {
				p.Hint = "did you mean " + c + "?"
			}
			problems = append(problems, p)
			continue
		}
		if seen[w.text] {
			problems = append(problems, Problem{Offset: w.at, Message: "duplicate hint " + w.text})
		}
		seen[w.text] = true
		*flag = true
	}
	if len(problems) > 0 {
		return nil, problems
	}
	return h, nil
}

// parseExample parses `["SCENARIO"] JSON [=> EXPECTED]`.
func parseExample(d *Directive, args string, at int) (any, []Problem) {
	var ex Example
	rest, restAt := args, at
	if rest[0] == '"' || rest[0] == '`' {
		quoted, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return nil, []Problem{{Offset: restAt, Message: "unterminated or invalid scenario string",
				Hint: `write the scenario as a Go string, e.g. "Weather in Tokyo"`}}
		}
		ex.Scenario, _ = strconv.Unquote(quoted) // QuotedPrefix accepted it
		trimmed := strings.TrimLeftFunc(rest[len(quoted):], unicode.IsSpace)
		restAt += len(rest) - len(trimmed)
		rest = trimmed
		if rest == "" {
			return nil, []Problem{{Offset: restAt, Message: "missing JSON arguments after the scenario",
				Hint: "write " + d.Usage()}}
		}
	}

	end, p := jsonValueEnd(rest)
	if p != nil {
		if p.Offset == 0 && ex.Scenario == "" && unicode.IsLetter(rune(rest[0])) {
			p.Hint = `quote the scenario as a Go string: "Weather in Tokyo" {"city":"Tokyo"}`
		}
		p.Offset += restAt
		return nil, []Problem{*p}
	}
	ex.JSON, ex.JSONOffset = rest[:end], restAt

	after := strings.TrimLeftFunc(rest[end:], unicode.IsSpace)
	afterAt := restAt + len(rest) - len(after)
	if after == "" {
		return ex, nil
	}
	expected, ok := strings.CutPrefix(after, "=>")
	if !ok {
		return nil, []Problem{{Offset: afterAt, Message: "unexpected text after the JSON arguments",
			Hint: "write => before the expected result: " + d.Usage()}}
	}
	ex.Expected = strings.TrimSpace(expected)
	if ex.Expected == "" {
		return nil, []Problem{{Offset: afterAt, Message: "missing expected result after =>"}}
	}
	return ex, nil
}

// jsonValueEnd returns the length of the JSON value at the start of s, or a problem whose
// offset (into s) points at the bad byte.
func jsonValueEnd(s string) (int, *Problem) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	if err == nil {
		return int(dec.InputOffset()), nil
	}
	p := &Problem{Message: "invalid JSON arguments: " + strings.TrimPrefix(err.Error(), "json: ")}
	var syntax *json.SyntaxError
	switch {
	case errors.As(err, &syntax):
		p.Offset = max(int(syntax.Offset)-1, 0) // Offset counts the bytes read, the bad one included
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		p.Message = "invalid JSON arguments: the value is not complete"
		p.Offset = len(s)
	}
	p.Hint = `write one JSON value, usually an object: {"city":"Tokyo"}`
	return 0, p
}

func parseRelated(d *Directive, args string, at int) (any, []Problem) {
	ws := words(args, at)
	name := ws[0]
	if !IsValidName(name.text) {
		return nil, []Problem{{Offset: name.at, Message: "invalid tool name " + strconv.Quote(name.text),
			Hint: "write " + d.Usage() + ", NAME being the related tool's name"}}
	}
	relation := strings.TrimSpace(args[len(name.text):])
	return Related{Name: name.text, Relation: relation}, nil
}

// parsePrerequisite reads CONDITION [| check TOOL] [| else ACTION].
func parsePrerequisite(d *Directive, args string, at int) (any, []Problem) {
	parts := strings.Split(args, "|")
	pr := Prerequisite{Condition: strings.TrimSpace(parts[0])}
	var problems []Problem
	if pr.Condition == "" {
		problems = append(problems, Problem{Offset: at, Message: "//tool:prerequisite needs a condition before the first |",
			Hint: "write " + d.Usage()})
	}
	off := at + len(parts[0]) + 1
	for _, part := range parts[1:] {
		lead := len(part) - len(strings.TrimLeft(part, " \t"))
		text := strings.TrimSpace(part)
		word, rest, _ := strings.Cut(text, " ")
		rest = strings.TrimSpace(rest)
		switch {
		case word == "check" && pr.Check == "" && IsValidName(rest):
			pr.Check, pr.CheckOffset = rest, off+lead+len("check ")
		case word == "else" && pr.Else == "" && rest != "":
			pr.Else = rest
		default:
			p := Problem{Offset: off + lead, Message: "//tool:prerequisite part " + strconv.Quote(text) + " is neither check TOOL nor else ACTION, once each",
				Hint: "write " + d.Usage()}
			if c := suggest.Closest(word, []string{"check", "else"}); c != "" && c != word {
				p.Hint = "did you mean " + c + "?"
			}
			problems = append(problems, p)
		}
		off += len(part) + 1
	}
	if problems != nil {
		return nil, problems
	}
	return pr, nil
}

// parseWorkflowStep reads STEP [| tool TOOL] [| when CONDITION].
func parseWorkflowStep(d *Directive, args string, at int) (any, []Problem) {
	parts := strings.Split(args, "|")
	step := WorkflowStep{Name: strings.TrimSpace(parts[0])}
	var problems []Problem
	if step.Name == "" {
		problems = append(problems, Problem{Offset: at, Message: "//tool:workflow needs a step before the first |",
			Hint: "write " + d.Usage()})
	}
	off := at + len(parts[0]) + 1
	for _, part := range parts[1:] {
		lead := len(part) - len(strings.TrimLeft(part, " \t"))
		text := strings.TrimSpace(part)
		word, rest, _ := strings.Cut(text, " ")
		rest = strings.TrimSpace(rest)
		switch {
		case word == "tool" && step.Tool == "" && IsValidName(rest):
			step.Tool, step.ToolOffset = rest, off+lead+len("tool ")
		case word == "when" && step.Condition == "" && rest != "":
			step.Condition = rest
		default:
			p := Problem{Offset: off + lead, Message: "//tool:workflow part " + strconv.Quote(text) + " is neither tool TOOL nor when CONDITION, once each",
				Hint: "write " + d.Usage()}
			if c := suggest.Closest(word, []string{"tool", "when"}); c != "" && c != word {
				p.Hint = "did you mean " + c + "?"
			}
			problems = append(problems, p)
		}
		off += len(part) + 1
	}
	if problems != nil {
		return nil, problems
	}
	return step, nil
}

// parseLint reads [-]RULE[,[-]RULE...].
func parseLint(d *Directive, args string, at int) (any, []Problem) {
	ws, problems := listWords(d, args, at, "rule")
	var out []LintSetting
	names := make([]string, len(LintRules))
	for i, r := range LintRules {
		names[i] = r.Name
	}
	for _, w := range ws {
		name, off := strings.CutPrefix(w.text, "-")
		if !slices.Contains(names, name) {
			p := Problem{Offset: w.at, Message: "unknown lint rule " + strconv.Quote(name),
				Hint: "the rules are " + strings.Join(names, ", ")}
			if c := suggest.Closest(name, names); c != "" {
				p.Hint = "did you mean " + c + "?"
			}
			problems = append(problems, p)
			continue
		}
		out = append(out, LintSetting{Rule: name, On: !off})
	}
	if problems != nil {
		return nil, problems
	}
	return out, nil
}

var metaKeyPattern = regexp.MustCompile(`^[a-zA-Z0-9_.-]+$`)

func parseMeta(d *Directive, args string, at int) (any, []Problem) {
	key, value, ok := strings.Cut(args, "=")
	if !ok {
		return nil, []Problem{{Offset: at, Message: "expected key=value, got " + strconv.Quote(args),
			Hint: "write " + d.Usage()}}
	}
	key = strings.TrimRightFunc(key, unicode.IsSpace)
	if !metaKeyPattern.MatchString(key) {
		return nil, []Problem{{Offset: at, Message: "invalid meta key " + strconv.Quote(key),
			Hint: "use letters, digits and _ . -"}}
	}
	value = strings.TrimSpace(value)
	if value == "" {
		return nil, []Problem{{Offset: at + len(args), Message: "missing value for meta key " + key}}
	}
	return Meta{Key: key, Value: value}, nil
}

// sizeUnits are the byte multipliers //tool:maxresult and //tool:maxargs accept: SI units are powers of 1000,
// IEC units powers of 1024, as the units say.
var sizeUnits = map[string]int64{
	"": 1, "B": 1,
	"kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9,
	"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30,
}

var sizeUnitNames = []string{"B", "KB", "MB", "GB", "KiB", "MiB", "GiB", "kB"}

// parseSize reads the SIZE of //tool:maxresult and //tool:maxargs.
func parseSize(d *Directive, args string, at int) (any, []Problem) {
	w, problems := single(d, args, at)
	if problems != nil {
		return nil, problems
	}
	digits := 0
	for digits < len(w.text) && '0' <= w.text[digits] && w.text[digits] <= '9' {
		digits++
	}
	if digits == 0 {
		return nil, []Problem{{Offset: w.at, Message: "invalid size " + strconv.Quote(w.text),
			Hint: "write a whole number of bytes with an optional unit, e.g. 4096, 4KiB or 1MB"}}
	}
	unit := w.text[digits:]
	mult, ok := sizeUnits[unit]
	if !ok {
		p := Problem{Offset: w.at + digits, Message: "unknown size unit " + strconv.Quote(unit),
			Hint: "use B, KB, MB, GB (powers of 1000) or KiB, MiB, GiB (powers of 1024)"}
		if c := suggest.Closest(unit, sizeUnitNames); c != "" {
			p.Hint = "did you mean " + w.text[:digits] + c + "?"
		}
		return nil, []Problem{p}
	}
	n, err := strconv.ParseInt(w.text[:digits], 10, 64)
	if err != nil || n > math.MaxInt64/mult {
		return nil, []Problem{{Offset: w.at, Message: "size " + w.text + " is too large"}}
	}
	if n == 0 {
		return nil, []Problem{{Offset: w.at, Message: "size must be positive, got " + w.text}}
	}
	return n * mult, nil
}

// parseCount parses a whole number >= 1 (maxcalls, modelretries).
func parseCount(d *Directive, args string, at int) (any, []Problem) {
	w, problems := single(d, args, at)
	if problems != nil {
		return nil, problems
	}
	n, err := strconv.Atoi(w.text)
	if err != nil || n < 1 {
		return nil, []Problem{{Offset: w.at, Message: "//tool:" + d.Name + " needs a whole number of at least 1, got " + strconv.Quote(w.text)}}
	}
	return n, nil
}

func parseDefer(_ *Directive, args string, at int) (any, []Problem) {
	switch args {
	case "":
		return Defer{}, nil
	case "off":
		return Defer{Off: true}, nil
	}
	return nil, []Problem{{Offset: at, Message: "unexpected argument " + strconv.Quote(args),
		Hint: "//tool:defer takes no argument, or off to opt a tool out of its package's default"}}
}

var callerNames = []string{"direct", "code"}

func parseCallers(d *Directive, args string, at int) (any, []Problem) {
	items, problems := listWords(d, args, at, "caller")
	var c Callers
	for _, w := range items {
		switch w.text {
		case "direct":
			c.Direct = true
		case "code":
			c.Code = true
		default:
			p := Problem{Offset: w.at, Message: "unknown caller " + strconv.Quote(w.text),
				Hint: "the callers are direct and code"}
			if s := suggest.Closest(strings.ToLower(w.text), callerNames); s != "" {
				p.Hint = "did you mean " + s + "?"
			}
			problems = append(problems, p)
		}
	}
	if len(problems) > 0 {
		return nil, problems
	}
	return c, nil
}

// parseScopes parses //tool:scopes: OAuth scope tokens separated by spaces (RFC 6749 §3.3:
// scope-token = 1*( %x21 / %x23-5B / %x5D-7E )). A comma is a scope character, so it is not a
// separator here, but a token that begins or ends with one is a list written with commas, as
// //tool:tags takes it, and is refused rather than read as a scope no server issues.
func parseScopes(d *Directive, args string, at int) (any, []Problem) {
	ws := words(args, at) // never empty: the parser refuses a directive without arguments
	return distinct(ws, "scope", nil, func(w word) *Problem {
		if bad := strings.IndexFunc(w.text, func(r rune) bool { return !isScopeChar(r) }); bad >= 0 {
			r, _ := utf8.DecodeRuneInString(w.text[bad:])
			return &Problem{Offset: w.at + bad, Message: fmt.Sprintf("invalid scope %s: %q is not a scope character", strconv.Quote(w.text), r),
				Hint: `a scope token (RFC 6749 section 3.3) is printable ASCII but space, " and \`}
		}
		if strings.HasPrefix(w.text, ",") || strings.HasSuffix(w.text, ",") {
			return &Problem{Offset: w.at, Message: "invalid scope " + strconv.Quote(w.text),
				Hint: "scopes are separated by spaces, not commas: " + d.Usage()}
		}
		return nil
	})
}

// isScopeChar reports whether r may appear in an OAuth scope token (RFC 6749 §3.3): %x21,
// %x23-5B or %x5D-7E, that is printable ASCII but space, '"' and '\'.
func isScopeChar(r rune) bool {
	return r == 0x21 || r >= 0x23 && r <= 0x5B || r >= 0x5D && r <= 0x7E
}

var mimePattern = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9!#$&^_.+-]*/[a-zA-Z0-9][a-zA-Z0-9!#$&^_.+-]*$`)

func parseResource(d *Directive, args string, at int) (any, []Problem) {
	ws := words(args, at)
	if len(ws) == 0 {
		return nil, []Problem{{Offset: at, Message: "missing URI", Hint: "write " + d.Usage()}}
	}
	r := Resource{URI: ws[0].text}
	var problems []Problem
	if !strings.Contains(r.URI, ":") {
		problems = append(problems, Problem{Offset: ws[0].at, Message: "invalid resource URI " + strconv.Quote(r.URI),
			Hint: "a URI has a scheme, e.g. file:///docs/{name} or app://config"})
	}
	if open, closed := strings.Count(r.URI, "{"), strings.Count(r.URI, "}"); open != closed {
		problems = append(problems, Problem{Offset: ws[0].at, Message: "unbalanced braces in resource URI " + strconv.Quote(r.URI)})
	}
	for _, w := range ws[1:] {
		key, value, ok := strings.Cut(w.text, "=")
		switch {
		case !ok || key != "mime":
			p := Problem{Offset: w.at, Message: "unexpected argument " + strconv.Quote(w.text), Hint: "write " + d.Usage()}
			if c := suggest.Closest(key, []string{"mime"}); ok && c != "" {
				p.Hint = "did you mean " + c + "=?"
			}
			problems = append(problems, p)
		case !mimePattern.MatchString(value):
			problems = append(problems, Problem{Offset: w.at + len("mime="), Message: "invalid MIME type " + strconv.Quote(value),
				Hint: "write type/subtype, e.g. text/plain or application/json"})
		default:
			r.MIMEType = value
		}
	}
	if problems != nil {
		return nil, problems
	}
	return r, nil
}
