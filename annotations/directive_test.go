package annotations

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// want is an expected problem. The hint is matched as a substring, so cases say which part of
// the advice matters; an empty hint is not checked.
type want struct {
	offset  int
	message string
	hint    string
}

func checkProblems(t *testing.T, input string, got []Problem, wants []want) {
	t.Helper()
	if len(got) != len(wants) {
		t.Fatalf("%q: got %d problems %+v, want %d %+v", input, len(got), got, len(wants), wants)
	}
	for i, w := range wants {
		g := got[i]
		if g.Offset != w.offset || g.Message != w.message || !strings.Contains(g.Hint, w.hint) {
			t.Errorf("%q: problem %d = {%d %q hint %q}, want {%d %q hint containing %q}",
				input, i, g.Offset, g.Message, g.Hint, w.offset, w.message, w.hint)
		}
		if strings.HasSuffix(g.Message, ".") || g.Message != "" && strings.ToUpper(g.Message[:1]) == g.Message[:1] &&
			!strings.HasPrefix(g.Message, "//") {
			t.Errorf("%q: message %q should be lower case without a trailing period", input, g.Message)
		}
	}
}

// TestDirectiveValues covers every directive's arguments, valid and invalid, with the offsets
// that diagnostics turn into columns.
func TestDirectiveValues(t *testing.T) {
	cases := []struct {
		text     string
		target   Target // OnFunc when zero
		value    any
		problems []want
	}{
		// name: the 12 bytes of "//tool:name " put the argument at offset 12.
		{text: "//tool:name get_weather", value: "get_weather"},
		{text: "//tool:name _x-1", value: "_x-1"},
		{text: "//tool:name get weather", problems: []want{{12, `invalid tool name "get weather"`, "e.g. get_weather"}}},
		{text: "//tool:name 9lives", problems: []want{{12, `invalid tool name "9lives"`, "e.g. _9lives"}}},
		{text: "//tool:name " + strings.Repeat("a", 129), problems: []want{{12, `invalid tool name "` + strings.Repeat("a", 129) + `"`, "1 to 128"}}},
		{text: "//tool:name", problems: []want{{11, "//tool:name needs an argument", "write //tool:name NAME"}}},

		{text: "//tool:title Get the weather", value: "Get the weather"},
		{text: "//tool:description   Gets the weather.  ", value: "Gets the weather."},
		{text: "//tool:category weather", value: "weather"},
		{text: "//tool:trigger the user asks about weather", value: "the user asks about weather"},
		{text: "//tool:prerequisite call login first", value: Prerequisite{Condition: "call login first"}},
		// "//tool:prerequisite " is 20 bytes.
		{text: "//tool:prerequisite the order exists | check get_order | else create it with create_order",
			value: Prerequisite{Condition: "the order exists", Check: "get_order", Else: "create it with create_order", CheckOffset: 45}},
		{text: "//tool:prerequisite the order exists | chek get_order", problems: []want{{39, `//tool:prerequisite part "chek get_order" is neither check TOOL nor else ACTION, once each`, "did you mean check?"}}},
		{text: "//tool:prerequisite | else wait", problems: []want{{20, "//tool:prerequisite needs a condition before the first |", "write"}}},
		{text: "//tool:workflow first find the user", value: WorkflowStep{Name: "first find the user"}},
		// "//tool:workflow " is 16 bytes.
		{text: "//tool:workflow find the user | tool find_user | when only the name is known",
			value: WorkflowStep{Name: "find the user", Tool: "find_user", Condition: "only the name is known", ToolOffset: 37}},
		{text: "//tool:workflow find the user | tol find_user", problems: []want{{32, `//tool:workflow part "tol find_user" is neither tool TOOL nor when CONDITION, once each`, "did you mean tool?"}}},
		{text: "//tool:workflow find the user | tool find-user!", problems: []want{{32, `//tool:workflow part "tool find-user!" is neither tool TOOL nor when CONDITION, once each`, "write"}}},
		{text: "//tool:workflow | tool find_user", problems: []want{{16, "//tool:workflow needs a step before the first |", "write"}}},
		// "//tool:lint " is 12 bytes.
		{text: "//tool:lint -snake-case, optional-default", value: []LintSetting{{Rule: "snake-case"}, {Rule: "optional-default", On: true}}},
		{text: "//tool:lint -snake_case", problems: []want{{12, `unknown lint rule "snake_case"`, "did you mean snake-case?"}}},
		{text: "//tool:warning costs money", value: "costs money"},
		{text: "//tool:warning", problems: []want{{14, "//tool:warning needs an argument", ""}}},

		{text: "//tool:tags weather", value: []string{"weather"}},
		{text: "//tool:tags a, b c,d:e", value: []string{"a", "b", "c", "d:e"}},
		{text: "//tool:tags a,,b", problems: []want{{14, "empty tag in the list", ""}}},
		{text: "//tool:tags a,", problems: []want{{14, "empty tag in the list", ""}}},
		{text: "//tool:tags a/b", problems: []want{{12, `invalid tag "a/b"`, "letters, digits"}}},
		{text: "//tool:tags a b a", problems: []want{{16, `duplicate tag "a"`, ""}}},
		{text: "//tool:filters audit, ratelimit", value: []string{"audit", "ratelimit"}},
		{text: "//tool:filters audit!", problems: []want{{15, `invalid filter "audit!"`, ""}}},

		// timeout: "//tool:timeout " is 15 bytes.
		{text: "//tool:timeout 10s", value: Timeout{Duration: 10 * time.Second}},
		{text: "//tool:timeout 1m30s", value: Timeout{Duration: 90 * time.Second}},
		{text: "//tool:timeout none", value: Timeout{None: true}},
		{text: "//tool:timeout 10", problems: []want{{15, `timeout "10" is not a Go duration`, "did you mean 10s?"}}},
		{text: "//tool:timeout soon", problems: []want{{15, `timeout "soon" is not a Go duration`, "Go duration syntax"}}},
		{text: "//tool:timeout 0", problems: []want{{15, "timeout must be positive, got 0", "write none"}}},
		{text: "//tool:timeout -5s", problems: []want{{15, "timeout must be positive, got -5s", ""}}},
		{text: "//tool:timeout None", problems: []want{{15, `timeout "None" is not a Go duration`, "write none"}}},
		{text: "//tool:timeout 10 seconds", problems: []want{{15, `timeout "10 seconds" is not a Go duration`, "did you mean 10s?"}}},
		{text: "//tool:timeout 500", problems: []want{{15, `timeout "500" is not a Go duration`, "did you mean 500ms or 500s?"}}},
		{text: "//tool:timeout 1.5 min", problems: []want{{15, `timeout "1.5 min" is not a Go duration`, "did you mean 1.5m?"}}},
		{text: "//tool:timeout 10s 20s", problems: []want{{19, `unexpected argument "20s"`, "//tool:timeout DURATION|none"}}},

		// retry: "//tool:retry " is 13 bytes; defaults fill what is left out.
		{text: "//tool:retry", value: Retry{Max: 3, Delay: time.Second, Backoff: 2, MaxDelay: 30 * time.Second}},
		{text: "//tool:retry max=5 delay=2s backoff=1.5 maxdelay=1m",
			value: Retry{Max: 5, Delay: 2 * time.Second, Backoff: 1.5, MaxDelay: time.Minute}},
		{text: "//tool:retry max=1", value: Retry{Max: 1, Delay: time.Second, Backoff: 2, MaxDelay: 30 * time.Second}},
		{text: "//tool:retry maxx=3", problems: []want{{13, `unknown retry setting "maxx"`, "did you mean max?"}}},
		{text: "//tool:retry tries=3", problems: []want{{13, `unknown retry setting "tries"`, "max, delay, backoff and maxdelay"}}},
		{text: "//tool:retry max", problems: []want{{13, `expected key=value, got "max"`, "write max=VALUE"}}},
		{text: "//tool:retry max=0", problems: []want{{17, "retry max must be a whole number of retries, at least 1, got 0", ""}}},
		{text: "//tool:retry max=x delay=1", problems: []want{
			{17, "retry max must be a whole number of retries, at least 1, got x", ""},
			{25, `retry delay "1" is not a Go duration`, "did you mean 1s?"},
		}},
		{text: "//tool:retry max=", problems: []want{{17, "missing value for max", ""}}},
		{text: "//tool:retry max=2 max=3", problems: []want{{19, "duplicate retry setting max", ""}}},
		{text: "//tool:retry backoff=0.5", problems: []want{{21, "retry backoff must be a number of at least 1, got 0.5", ""}}},
		{text: "//tool:retry backoff=NaN", problems: []want{{21, "retry backoff must be a number of at least 1, got NaN", ""}}},
		{text: "//tool:retry delay=5s maxdelay=1s", problems: []want{{31, "retry maxdelay 1s is shorter than delay 5s", ""}}},
		// The default maxdelay (30s) is shorter than this delay: blame the line.
		{text: "//tool:retry delay=1m", problems: []want{{13, "retry maxdelay 30s is shorter than delay 1m0s", "maxdelay"}}},

		{text: "//tool:confirm", value: Confirm{}},
		{text: "//tool:confirm deletes the user's files", value: Confirm{Reason: "deletes the user's files"}},

		{text: "//tool:risk high", value: "high"},
		{text: "//tool:risk low", value: "low"},
		{text: "//tool:risk High", problems: []want{{12, `invalid risk "High"`, "did you mean high?"}}},
		{text: "//tool:risk extreme", problems: []want{{12, `invalid risk "extreme"`, "low, medium or high"}}},
		{text: "//tool:risk low high", problems: []want{{16, `unexpected argument "high"`, ""}}},

		// hints: "//tool:hints " is 13 bytes.
		{text: "//tool:hints readonly,idempotent", value: Hints{ReadOnly: true, Idempotent: true}},
		{text: "//tool:hints destructive openworld", value: Hints{Destructive: true, OpenWorld: true}},
		// Contradictions are the check phase's business.
		{text: "//tool:hints readonly, destructive", value: Hints{ReadOnly: true, Destructive: true}},
		{text: "//tool:hints readOnlyHint", problems: []want{{13, `unknown hint "readOnlyHint"`, "did you mean readonly?"}}},
		{text: "//tool:hints idempotnet", problems: []want{{13, `unknown hint "idempotnet"`, "did you mean idempotent?"}}},
		{text: "//tool:hints fast", problems: []want{{13, `unknown hint "fast"`, "readonly, idempotent, destructive and openworld"}}},
		{text: "//tool:hints readonly,readonly", problems: []want{{22, "duplicate hint readonly", ""}}},

		// example: "//tool:example " is 15 bytes.
		{text: `//tool:example "Weather in Tokyo" {"city":"Tokyo"} => Current weather for Tokyo`,
			value: Example{Scenario: "Weather in Tokyo", JSON: `{"city":"Tokyo"}`, Expected: "Current weather for Tokyo", JSONOffset: 34}},
		{text: `//tool:example {"city":"Tokyo"}`, value: Example{JSON: `{"city":"Tokyo"}`, JSONOffset: 15}},
		{text: "//tool:example `raw \"scenario\"` {}", value: Example{Scenario: `raw "scenario"`, JSON: `{}`, JSONOffset: 32}},
		{text: `//tool:example {"a":[1,2]}=>two`, value: Example{JSON: `{"a":[1,2]}`, Expected: "two", JSONOffset: 15}},
		{text: `//tool:example 3 => three`, value: Example{JSON: `3`, Expected: "three", JSONOffset: 15}},
		{text: `//tool:example "Tokyo {}`, problems: []want{{15, "unterminated or invalid scenario string", ""}}},
		{text: `//tool:example "Tokyo"`, problems: []want{{22, "missing JSON arguments after the scenario", ""}}},
		{text: `//tool:example "Tokyo" {city:"Tokyo"}`, problems: []want{{24, "invalid JSON arguments: invalid character 'c' looking for beginning of object key string", "one JSON value"}}},
		{text: `//tool:example Weather in Tokyo {"city":"Tokyo"}`, problems: []want{{15, "invalid JSON arguments: invalid character 'W' looking for beginning of value", "quote the scenario"}}},
		{text: `//tool:example {"city":}`, problems: []want{{23, "invalid JSON arguments: invalid character '}' looking for beginning of value", ""}}},
		{text: `//tool:example {"city":"Tokyo"`, problems: []want{{30, "invalid JSON arguments: the value is not complete", ""}}},
		{text: `//tool:example {"city":"Tokyo"} Tokyo`, problems: []want{{32, "unexpected text after the JSON arguments", "write => before"}}},
		{text: `//tool:example {} =>  `, problems: []want{{18, "missing expected result after =>", ""}}},

		{text: "//tool:related search_docs", value: Related{Name: "search_docs"}},
		{text: "//tool:related search_docs  use it first", value: Related{Name: "search_docs", Relation: "use it first"}},
		{text: "//tool:related search/docs", problems: []want{{15, `invalid tool name "search/docs"`, "related tool's name"}}},

		// meta: "//tool:meta " is 12 bytes.
		{text: "//tool:meta owner=team-a", value: Meta{Key: "owner", Value: "team-a"}},
		{text: "//tool:meta docs.url = https://example.com/a=b", value: Meta{Key: "docs.url", Value: "https://example.com/a=b"}},
		{text: "//tool:meta owner", problems: []want{{12, `expected key=value, got "owner"`, "KEY=VALUE"}}},
		{text: "//tool:meta the owner=x", problems: []want{{12, `invalid meta key "the owner"`, ""}}},
		{text: "//tool:meta owner=", problems: []want{{18, "missing value for meta key owner", ""}}},

		// maxresult: "//tool:maxresult " is 17 bytes.
		{text: "//tool:maxresult 4096", value: int64(4096)},
		{text: "//tool:maxresult 512B", value: int64(512)},
		{text: "//tool:maxresult 4KB", value: int64(4000)},
		{text: "//tool:maxresult 4kB", value: int64(4000)},
		{text: "//tool:maxresult 4KiB", value: int64(4096)},
		{text: "//tool:maxresult 1MB", value: int64(1000000)},
		{text: "//tool:maxresult 1MiB", value: int64(1 << 20)},
		{text: "//tool:maxresult 2GiB", value: int64(2 << 30)},
		{text: "//tool:maxresult 4kib", problems: []want{{18, `unknown size unit "kib"`, "did you mean 4KiB?"}}},
		{text: "//tool:maxresult 4 KiB", problems: []want{{19, `unexpected argument "KiB"`, ""}}},
		{text: "//tool:maxresult 4parsecs", problems: []want{{18, `unknown size unit "parsecs"`, "KiB"}}},
		{text: "//tool:maxresult lots", problems: []want{{17, `invalid size "lots"`, "4KiB"}}},
		{text: "//tool:maxresult 0", problems: []want{{17, "size must be positive, got 0", ""}}},
		{text: "//tool:maxresult 9999999999999GiB", problems: []want{{17, "size 9999999999999GiB is too large", ""}}},

		{text: "//tool:maxargs 4MiB", value: int64(4 << 20)},
		{text: "//tool:maxargs 0", problems: []want{{15, "size must be positive, got 0", ""}}},
		{text: "//tool:maxargs 4mb", problems: []want{{16, `unknown size unit "mb"`, "did you mean 4MB?"}}},
		{text: "//tool:maxcalls 5", value: 5},
		{text: "//tool:maxcalls 0", problems: []want{{16, `//tool:maxcalls needs a whole number of at least 1, got "0"`, ""}}},
		{text: "//tool:maxcalls many", problems: []want{{16, `//tool:maxcalls needs a whole number of at least 1, got "many"`, ""}}},
		{text: "//tool:modelretries 2", value: 2},
		{text: "//tool:modelretries -1", problems: []want{{20, `//tool:modelretries needs a whole number of at least 1, got "-1"`, ""}}},

		{text: "//tool:sequential", value: true},
		{text: "//tool:sequential  ", value: true},
		{text: "//tool:sequential please", problems: []want{{18, "//tool:sequential takes no arguments", "alone on its line"}}},
		{text: "//tool:client", target: OnType, value: true},
		{text: "//tool:client yes", target: OnType, problems: []want{{14, "//tool:client takes no arguments", ""}}},

		// defer: "//tool:defer " is 13 bytes.
		{text: "//tool:defer", value: Defer{}},
		{text: "//tool:defer off", value: Defer{Off: true}},
		{text: "//tool:task", value: Task{}},
		{text: "//tool:task required", value: Task{Required: true}},
		{text: "//tool:task requird", problems: []want{{12, `unexpected argument "requird"`, "did you mean required?"}}},
		{text: "//tool:task always", problems: []want{{12, `unexpected argument "always"`, "//tool:task takes no argument, or required to refuse clients that cannot run tasks"}}},
		{text: "//tool:defer later", problems: []want{{13, `unexpected argument "later"`, "off"}}},
		{text: "//tool:namespace billing", value: "billing"},
		{text: "//tool:namespace bill ing", problems: []want{{17, `invalid namespace "bill ing"`, "bill_ing"}}},
		// callers: "//tool:callers " is 15 bytes.
		{text: "//tool:callers direct,code", value: Callers{Direct: true, Code: true}},
		{text: "//tool:callers code", value: Callers{Code: true}},
		{text: "//tool:callers cod", problems: []want{{15, `unknown caller "cod"`, "did you mean code?"}}},
		// scopes: "//tool:scopes " is 14 bytes.
		{text: "//tool:scopes repo:write admin", value: []string{"repo:write", "admin"}},
		{text: "//tool:scopes https://example.com/auth/drive a,b !#[]^~", value: []string{"https://example.com/auth/drive", "a,b", "!#[]^~"}},
		{text: "//tool:scopes", problems: []want{{13, "//tool:scopes needs an argument", "SCOPE[ SCOPE...]"}}},
		{text: `//tool:scopes repo "admin"`, problems: []want{{19, `invalid scope "\"admin\"": '"' is not a scope character`, "RFC 6749"}}},
		{text: `//tool:scopes a\b`, problems: []want{{15, `invalid scope "a\\b": '\\' is not a scope character`, "RFC 6749"}}},
		{text: "//tool:scopes café", problems: []want{{17, `invalid scope "café": 'é' is not a scope character`, ""}}},
		{text: "//tool:scopes repo, admin", problems: []want{{14, `invalid scope "repo,"`, "separated by spaces, not commas"}}},
		{text: "//tool:scopes admin admin", problems: []want{{20, `duplicate scope "admin"`, ""}}},
		{text: "//tool:resource test://template/{id}/data mime=application/json", value: Resource{URI: "test://template/{id}/data", MIMEType: "application/json"}},
		{text: "//tool:resource test://static", value: Resource{URI: "test://static"}},
		{text: "//tool:resource config", problems: []want{{16, `invalid resource URI "config"`, "a URI has a scheme, e.g. file:///docs/{name} or app://config"}}},
		{text: "//tool:resource app://x/{id mime=text", problems: []want{{16, `unbalanced braces in resource URI "app://x/{id"`, ""}, {33, `invalid MIME type "text"`, "write type/subtype, e.g. text/plain or application/json"}}},
		{text: "//tool:resource app://x mim=text/plain", problems: []want{{24, `unexpected argument "mim=text/plain"`, "did you mean mime=?"}}},
		{text: "//tool:icon icons/close.svg any theme=dark", value: Icon{Src: "icons/close.svg", File: true, MIMEType: "image/svg+xml", Sizes: []string{"any"}, Theme: "dark", SrcOffset: 12}},
		{text: "//tool:icon https://example.com/i 48x48 mime=image/webp", value: Icon{Src: "https://example.com/i", MIMEType: "image/webp", Sizes: []string{"48x48"}, SrcOffset: 12}},
		{text: "//tool:icon", problems: []want{{11, "//tool:icon needs an argument", "write //tool:icon FILE|URL [SIZE...] [theme=light|dark] [mime=TYPE]"}}},
		{text: "//tool:icon http://example.com/i.png", problems: []want{{12, `invalid icon "http://example.com/i.png": an icon is an https URL or a data: URI`, "use https://: an icon URL a client fetches must be https"}}},
		{text: "//tool:icon /abs/i.png", problems: []want{{12, `invalid icon file path "/abs/i.png"`, "name a file in the package's directory or below it, relative and slash-separated (icons/close.svg)"}}},
		{text: "//tool:icon i.tiff", problems: []want{{12, `unknown image type of icon file "i.tiff"`, "an icon file is .png, .jpg, .svg, .webp or .gif; or say mime=TYPE"}}},
		{text: "//tool:icon i.png 0x1 them=dark", problems: []want{{18, `invalid icon size "0x1"`, "a size is WIDTHxHEIGHT in pixels (48x48) or any (a scalable image)"}, {22, `unexpected argument "them=dark"`, "did you mean theme=?"}}},
	}
	for _, c := range cases {
		target := c.target
		if target == 0 {
			target = OnFunc
		}
		parsed, problems := ParseComment(c.text, target)
		checkProblems(t, c.text, problems, c.problems)
		if parsed == nil {
			t.Errorf("%q: Parsed is nil; a known directive must be returned", c.text)
			continue
		}
		if len(c.problems) > 0 {
			if parsed.Value != nil {
				t.Errorf("%q: Value = %#v alongside problems, want nil", c.text, parsed.Value)
			}
			continue
		}
		if !reflect.DeepEqual(parsed.Value, c.value) {
			t.Errorf("%q: Value = %#v, want %#v", c.text, parsed.Value, c.value)
		}
		name := strings.Fields(strings.TrimPrefix(c.text, "//tool:"))[0]
		if parsed.Directive != Lookup(name) {
			t.Errorf("%q: Directive = %v, want //tool:%s", c.text, parsed.Directive.Name, name)
		}
		if got := c.text[parsed.ArgsOffset:]; strings.TrimSpace(got) != parsed.Args {
			t.Errorf("%q: ArgsOffset %d gives %q, Args is %q", c.text, parsed.ArgsOffset, got, parsed.Args)
		}
	}
}

func TestEveryDirectiveHasAValidCase(t *testing.T) {
	// A directive added to the registry must be exercised here with one valid line.
	samples := map[string]string{
		"name": "get_weather", "title": "T", "description": "D", "tags": "a", "category": "c",
		"timeout": "1s", "retry": "", "confirm": "", "risk": "low", "hints": "readonly",
		"example": "{}", "trigger": "t", "prerequisite": "p", "warning": "w", "related": "other",
		"filters": "f", "meta": "k=v", "maxresult": "1KiB", "maxargs": "4MiB", "maxcalls": "1", "modelretries": "1",
		"sequential": "", "task": "required", "client": "", "defer": "", "namespace": "billing", "callers": "direct", "scopes": "repo:write",
		"workflow": "w", "lint": "-snake-case", "prompt": "", "resource": "app://config mime=application/json", "defs": "",
		"icon":  "icons/close.svg 48x48",
		"tests": "",
	}
	for _, d := range Directives {
		args, ok := samples[d.Name]
		if !ok {
			t.Errorf("//tool:%s has no sample in this test", d.Name)
			continue
		}
		target := OnFunc
		switch {
		case d.Targets&OnFunc != 0:
		case d.Targets&OnType != 0:
			target = OnType
		default:
			target = OnPackage
		}
		text := strings.TrimSpace("//tool:" + d.Name + " " + args)
		if _, problems := ParseComment(text, target); len(problems) > 0 {
			t.Errorf("%q on %v: %+v", text, target, problems)
		}
	}
}

func TestPlacement(t *testing.T) {
	cases := []struct {
		text     string
		target   Target
		problems []want
	}{
		{"//tool:timeout 10s", OnFunc, nil},
		{"//tool:timeout 10s", OnMethod, nil},
		{"//tool:timeout 10s", OnType, []want{{0, "//tool:timeout is not allowed on a type: it belongs in the doc comment of a func or method", ""}}},
		{"//tool:timeout 10s", OnPackage, []want{{0, "//tool:timeout is not allowed on a package: it belongs in the doc comment of a func or method", ""}}},
		{"//tool:sequential", OnType, []want{{0, "//tool:sequential is not allowed on a type: it belongs in the doc comment of a func or method", ""}}},
		{"//tool:name get_weather", OnType, nil},
		{"//tool:example {}", OnType, nil},
		{"//tool:name get_weather", OnPackage, []want{{0, "//tool:name is not allowed on a package: it belongs in the doc comment of a func, method or type", ""}}},
		{"//tool:tags web", OnPackage, nil},
		{"//tool:tests", OnPackage, nil},
		{"//tool:tags web", OnType, nil},
		{"//tool:client", OnType, nil},
		{"//tool:client", OnFunc, []want{{0, "//tool:client is not allowed on a func: it belongs in the doc comment of a type", ""}}},
		{"//tool:name get_weather", 0, []want{{0, "//tool:name is not in a doc comment: it belongs in the doc comment of a func, method or type", "directly above a declaration"}}},
		{"//tool:tags web", 0, []want{{0, "//tool:tags is not in a doc comment: it belongs in the doc comment of a func, method or type, or in the package doc comment", ""}}},
		// Placement and argument problems are reported together.
		{"//tool:timeout soon", OnType, []want{
			{0, "//tool:timeout is not allowed on a type: it belongs in the doc comment of a func or method", ""},
			{15, `timeout "soon" is not a Go duration`, ""},
		}},
	}
	for _, c := range cases {
		parsed, problems := ParseComment(c.text, c.target)
		checkProblems(t, c.text, problems, c.problems)
		if parsed == nil {
			t.Errorf("%q: Parsed is nil for a known directive", c.text)
		} else if len(c.problems) > 0 && parsed.Value != nil {
			t.Errorf("%q: Value set despite problems", c.text)
		}
	}
}

func TestUnknownDirectives(t *testing.T) {
	cases := []struct {
		text string
		want want
	}{
		{"//tool:nmae get_weather", want{0, "unknown directive //tool:nmae", "did you mean //tool:name?"}},
		{"//tool:timout 10s", want{0, "unknown directive //tool:timout", "did you mean //tool:timeout?"}},
		{"//tool:descripton x", want{0, "unknown directive //tool:descripton", "did you mean //tool:description?"}},
		{"//tool:scope repo:write", want{0, "unknown directive //tool:scope", "did you mean //tool:scopes?"}},
		{"//tool:scoeps repo:write", want{0, "unknown directive //tool:scoeps", "did you mean //tool:scopes?"}},
		{"//tool:xyzzy", want{0, "unknown directive //tool:xyzzy", "toolgen -help-directives"}},
		{"//tool:nAme x", want{0, "directive names are lower case: write //tool:name", ""}},
		{"//tool:name=get_weather", want{0, "unknown directive //tool:name=get_weather", "put a space between //tool:name and its arguments: //tool:name NAME"}},
		{"//tool:tags,a", want{0, "unknown directive //tool:tags,a", "put a space between //tool:tags"}},
		{"//tool:", want{0, "missing directive name after //tool:", "-help-directives"}},
	}
	for _, c := range cases {
		parsed, problems := ParseComment(c.text, OnFunc)
		checkProblems(t, c.text, problems, []want{c.want})
		if parsed != nil {
			t.Errorf("%q: Parsed = %+v for an unknown directive", c.text, parsed)
		}
	}
}

func TestNearMisses(t *testing.T) {
	cases := []struct {
		text string
		want want
	}{
		{"// tool:name get_weather", want{0, "not a directive: write //tool:name with no space after //", "gofmt"}},
		{"//  tool:timeout 10s", want{0, "not a directive: write //tool:timeout with no space after //", ""}},
		{"//\ttool:retry", want{0, "not a directive: write //tool:retry with no space after //", ""}},
		{"// tool:nmae x", want{0, "not a directive: write //tool:name with no space after //", ""}},
		{"//tool:Name get_weather", want{0, "directive names are lower case: write //tool:name", ""}},
		{"//tool:TIMEOUT 1s", want{0, "directive names are lower case: write //tool:timeout", ""}},
		{"//tool:Nmae x", want{0, "unknown directive //tool:Nmae", "did you mean //tool:name?"}},
		{"//Tool:name x", want{0, "directive prefixes are lower case: write //tool:name", ""}},
		{"//TOOL:tags a", want{0, "directive prefixes are lower case: write //tool:tags", ""}},
		{"//tools:name x", want{0, "not a directive: the prefix is //tool:, not //tools:", "write //tool:name"}},
		{"//tol:timeout 1s", want{0, "not a directive: the prefix is //tool:, not //tol:", ""}},
		{"//tool: name x", want{0, "not a directive: write //tool:name with no space after the colon", ""}},
		{"// Tool: timeout 10s", want{0, "not a directive: write //tool:timeout with no space after //", ""}},
		{"/*tool:name x*/", want{2, "not a directive: write //tool:name as a // line comment", "line comments"}},
		{"/* tool:sequential */", want{3, "not a directive: write //tool:sequential as a // line comment", ""}},
		{"/*\n  tool:timeout 1s\n*/", want{5, "not a directive: write //tool:timeout as a // line comment", ""}},
	}
	for _, c := range cases {
		parsed, problems := ParseComment(c.text, OnFunc)
		checkProblems(t, c.text, problems, []want{c.want})
		if parsed != nil {
			t.Errorf("%q: Parsed = %+v for a near miss", c.text, parsed)
		}
	}
}

// TestProse makes sure ordinary comments, including ones that mention tools, are not flagged.
func TestProse(t *testing.T) {
	for _, text := range []string{
		"// GetWeather gets the current weather for a city.",
		"//",
		"// Tool: the hammer is a tool.",
		"// tools: see below",
		"// Tools: a list of tools follows",
		"// Tool: nameless things",
		"// Note: name is required.",
		"// Pool: name of the pool.",
		"// tooling: timeout handling",
		"// TODO: retry later",
		"// see http://tool:8080/name",
		"//go:generate go tool toolgen",
		"//go:build !toolgen",
		"//nolint:name",
		"//line foo.go:10",
		"// tool:",
		"//tool",
		"/* block comment about tools */",
		"/*\n Tool: the hammer\n*/",
		"",
		"/",
	} {
		parsed, problems := ParseComment(text, OnFunc)
		if parsed != nil || problems != nil {
			t.Errorf("%q: got %+v, %+v; want an ordinary comment", text, parsed, problems)
		}
	}
}

func TestTargetString(t *testing.T) {
	cases := map[Target]string{
		0:                             "nowhere",
		OnFunc:                        "func",
		OnType:                        "type",
		OnPackage:                     "package",
		OnFunc | OnMethod:             "func or method",
		OnFunc | OnMethod | OnType:    "func, method or type",
		OnMethod | OnType | OnPackage: "method, type or package",
	}
	for target, want := range cases {
		if got := target.String(); got != want {
			t.Errorf("Target(%d).String() = %q, want %q", target, got, want)
		}
	}
}

func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range Directives {
		if seen[d.Name] {
			t.Errorf("//tool:%s registered twice", d.Name)
		}
		seen[d.Name] = true
		if d.Name == "" || strings.Trim(d.Name, "abcdefghijklmnopqrstuvwxyz") != "" {
			t.Errorf("directive name %q must be lower-case letters: Go directives are //[a-z0-9]+:[a-z0-9]", d.Name)
		}
		if Lookup(d.Name) != d {
			t.Errorf("Lookup(%q) does not return the registered directive", d.Name)
		}
		if d.Targets == 0 {
			t.Errorf("//tool:%s may appear nowhere", d.Name)
		}
		if !strings.HasSuffix(d.Help, ".") || len(d.Help) < 20 {
			t.Errorf("//tool:%s needs a help paragraph ending with a period, got %q", d.Name, d.Help)
		}
		if (d.Syntax == "") != d.noArgs {
			t.Errorf("//tool:%s: Syntax %q disagrees with taking arguments (%v)", d.Name, d.Syntax, !d.noArgs)
		}
		if !d.noArgs && d.parse == nil {
			t.Errorf("//tool:%s takes arguments but has no parser", d.Name)
		}
		// Execution policies only make sense where a handler runs.
		if d.Targets&OnType != 0 && d.Targets&OnFunc == 0 && d.Name != "client" && d.Name != "defs" {
			t.Errorf("//tool:%s is allowed on types but not funcs", d.Name)
		}
	}
	if Lookup("Name") != nil || Lookup("") != nil {
		t.Error("Lookup must match exact lower-case names only")
	}
}

func TestIsValidName(t *testing.T) {
	for name, valid := range map[string]bool{
		"get_weather": true, "_private": true, "a": true, "A-b_9": true, strings.Repeat("x", 128): true,
		"": false, "9lives": false, "-x": false, "get weather": false, "a.b": false,
		strings.Repeat("x", 129): false, "天気": false,
	} {
		if got := IsValidName(name); got != valid {
			t.Errorf("IsValidName(%q) = %v, want %v", name, got, valid)
		}
	}
}

// FuzzParseComment checks that no comment makes the parser panic or report an offset outside
// the comment, and that a result without problems has its value.
func FuzzParseComment(f *testing.F) {
	for _, seed := range []string{
		"//tool:name x", "//tool:example \"s\" {\"a\":[1,{}]} => ok", "//tool:retry max=2 delay=1s",
		"// tool:name", "/*tool:timeout 1s*/", "//tool:maxresult 4KiB", "//tool:tags a,,b",
		"//tool:example `", "//tool:meta =", "//tool:hints ,", "//tool:\xff", "/*\n\ttool:name\n*/",
	} {
		f.Add(seed, uint8(OnFunc))
	}
	f.Add("//tool:sequential", uint8(OnFunc))
	f.Add("//tool:client", uint8(OnType))
	f.Fuzz(func(t *testing.T, text string, target uint8) {
		parsed, problems := ParseComment(text, Target(target)&(OnFunc|OnMethod|OnType|OnPackage))
		for _, p := range problems {
			if p.Offset < 0 || p.Offset > len(text) {
				t.Errorf("%q: offset %d outside the comment", text, p.Offset)
			}
			if p.Message == "" {
				t.Errorf("%q: problem without a message", text)
			}
		}
		if parsed != nil && (parsed.ArgsOffset < 0 || parsed.ArgsOffset > len(text)) {
			t.Errorf("%q: ArgsOffset %d outside the comment", text, parsed.ArgsOffset)
		}
		if parsed != nil && len(problems) == 0 && parsed.Value == nil {
			t.Errorf("%q: no problems but a nil Value (nil means the line had problems)", text)
		}
		if parsed != nil && len(problems) > 0 && parsed.Value != nil {
			t.Errorf("%q: Value %#v alongside problems, want nil", text, parsed.Value)
		}
	})
}
