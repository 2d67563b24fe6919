package xmlcall

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseAccepts(t *testing.T) {
	tests := []struct {
		name  string
		reply string
		calls []Call
		text  string
	}{
		{
			name:  "no call",
			reply: "  Just prose, with <b>tags</b> and <tool_calls> that are not calls.  ",
			text:  "Just prose, with <b>tags</b> and <tool_calls> that are not calls.",
		},
		{
			name: "several calls with prose around and between",
			reply: "First.\n<tool_call name=\"a\">\n<parameter name=\"x\">1</parameter>\n</tool_call>\nThen.\n" +
				"<tool_call name=\"b\"><parameter name=\"y\">two</parameter><parameter name=\"z\">3</parameter></tool_call>Last.",
			calls: []Call{
				{ID: "call_1", Name: "a", Params: []Param{{"x", "1"}}, Offset: 7},
				{ID: "call_2", Name: "b", Params: []Param{{"y", "two"}, {"z", "3"}}, Offset: 81},
			},
			text: "First.\n\nThen.\nLast.",
		},
		{
			name:  "CDATA keeps markup and white space exactly",
			reply: "<tool_call name=\"f\"><parameter name=\"code\">\n<![CDATA[  if a < b && c > d {\n}\n]]>\n</parameter></tool_call>",
			calls: []Call{{ID: "call_1", Name: "f", Params: []Param{{"code", "  if a < b && c > d {\n}\n"}}}},
		},
		{
			name:  "CDATA split around ]]>",
			reply: `<tool_call name="f"><parameter name="v"><![CDATA[a]]]]><![CDATA[>b]]></parameter></tool_call>`,
			calls: []Call{{ID: "call_1", Name: "f", Params: []Param{{"v", "a]]>b"}}}},
		},
		{
			name:  "entities, numeric references and unknown entities",
			reply: `<tool_call name="f"><parameter name="v">&lt;a&gt; &amp; &quot;q&quot; &apos;s&apos; &#60;&#x3E;&#X263A; &nbsp; &#0; &#xD800; & x</parameter></tool_call>`,
			calls: []Call{{ID: "call_1", Name: "f", Params: []Param{{"v", `<a> & "q" 's' <>☺ &nbsp; &#0; &#xD800; & x`}},
				Recovered: []string{`the value of "v" holds a raw "&", read as text; write &amp; or wrap the value in <![CDATA[ ]]>`}}},
		},
		{
			name:  "raw text with markup characters",
			reply: `<tool_call name="f"><parameter name="v">x < y && <b>bold</b></parameter></tool_call>`,
			calls: []Call{{ID: "call_1", Name: "f", Params: []Param{{"v", "x < y && <b>bold</b>"}}, Recovered: []string{
				`the value of "v" holds a raw "<", read as text; write &lt; or wrap the value in <![CDATA[ ]]>`,
				`the value of "v" holds a raw "&", read as text; write &amp; or wrap the value in <![CDATA[ ]]>`}}},
		},
		{
			name:  "layout white space is trimmed, inner and referenced white space kept",
			reply: "<tool_call name=\"f\"><parameter name=\"v\">\n   two\n  lines  \n</parameter><parameter name=\"w\">&#32;pad&#10;</parameter></tool_call>",
			calls: []Call{{ID: "call_1", Name: "f", Params: []Param{{"v", "two\n  lines"}, {"w", " pad\n"}}}},
		},
		{
			name:  "self-closing call and parameter, single quotes, id, extra attributes, spaces",
			reply: `<tool_call name='now' id="c9" type="function"/> <tool_call  name = "f" ><parameter name="e" type="string"/><!-- note --></tool_call >`,
			calls: []Call{
				{ID: "c9", Name: "now", Offset: 0},
				{ID: "call_2", Name: "f", Params: []Param{{"e", ""}}, Offset: 48},
			},
		},
		{
			name:  "end tags with white space and entity in attribute",
			reply: `<tool_call name="f"><parameter name="a&amp;b">v</parameter ></tool_call>`,
			calls: []Call{{ID: "call_1", Name: "f", Params: []Param{{"a&b", "v"}}}},
		},
		{
			name:  "a tool_call inside a CDATA value is a value",
			reply: `<tool_call name="f"><parameter name="v"><![CDATA[<tool_call name="g"></tool_call>]]></parameter></tool_call>`,
			calls: []Call{{ID: "call_1", Name: "f", Params: []Param{{"v", `<tool_call name="g"></tool_call>`}}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse(tt.reply)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			for i, c := range r.Calls {
				if !strings.HasPrefix(tt.reply[c.Offset:], c.Raw) || !strings.HasPrefix(c.Raw, "<tool_call") || !strings.HasSuffix(c.Raw, ">") {
					t.Errorf("call %d: Raw %q is not the block", i, c.Raw)
				}
				r.Calls[i].Raw = ""
			}
			if !reflect.DeepEqual(r.Calls, tt.calls) {
				t.Errorf("calls:\n got %+v\nwant %+v", r.Calls, tt.calls)
			}
			if r.Text != tt.text {
				t.Errorf("text: got %q, want %q", r.Text, tt.text)
			}
		})
	}
}

func TestParseRejects(t *testing.T) {
	tests := []struct {
		name      string
		reply     string
		msg       string
		line, col int
		tool      string
		before    int // calls parsed before the error
	}{
		{"no name", "ok\n<tool_call>\n</tool_call>", `the <tool_call> names no tool; write <name>TOOL_NAME</name> inside it, or <tool_call name="TOOL_NAME">`, 2, 1, "", 0},
		{"empty name", `<tool_call name=" "/>`, "has an empty name attribute", 1, 1, "", 0},
		{"empty name element", `<tool_call><name> </name></tool_call>`, "the <name> of a <tool_call> is empty", 1, 12, "", 0},
		{"two names", `<tool_call name="a"><name>b</name></tool_call>`, `the <tool_call> names two tools, "a" and "b"`, 1, 21, "a", 0},
		{"params not closed", `<tool_call><name>a</name><params><x>1</x></tool_call>`, `<params> in <tool_call name="a"> is not closed; end it with </params>`, 1, 26, "a", 0},
		{"element not closed", "<tool_call><name>a</name><params><x>1\n<y>2</y></params></tool_call>", `<x> is not closed; end its value with </x>`, 1, 34, "a", 0},
		{"text in params", `<tool_call><name>a</name><params>x</params></tool_call>`, `unexpected text "x</params></tool_call>" inside <params>`, 1, 34, "a", 0},
		{"call not closed", "<tool_call name=\"f\">\n<parameter name=\"a\">1</parameter>\n", `<tool_call name="f"> is not closed; end it with </tool_call>`, 1, 1, "f", 0},
		{"next call before close", `<tool_call name="f"><tool_call name="g"/>`, "end it with </tool_call> before the next <tool_call>", 1, 1, "f", 0},
		{"parameter not closed before end of call", "<tool_call name=\"f\">\n  <parameter name=\"city\">Tokyo\n</tool_call>", `<parameter name="city"> is not closed; end its value with </parameter>`, 2, 3, "f", 0},
		{"parameter not closed before next parameter", `<tool_call name="f"><parameter name="a">1<parameter name="b">2</parameter></tool_call>`, `<parameter name="a"> is not closed`, 1, 21, "f", 0},
		{"parameter not closed at end", `<tool_call name="f"><parameter name="a">1`, `<parameter name="a"> is not closed`, 1, 21, "f", 0},
		{"parameter without name", `<tool_call name="f"><parameter>1</parameter></tool_call>`, `a <parameter> has no name attribute`, 1, 21, "f", 0},
		{"CDATA not closed", `<tool_call name="f"><parameter name="a"><![CDATA[x</parameter></tool_call>`, `a CDATA section in <parameter name="a"> is not closed; end it with ]]>`, 1, 41, "f", 0},
		{"stray text", `<tool_call name="f">{"city": "Tokyo"}</tool_call>`, `unexpected text "{\"city\": \"Tokyo\"}</tool_call>" inside <tool_call name="f">`, 1, 21, "f", 0},
		{"stray element", `<tool_call name="f"><city>Tokyo</city></tool_call>`, `unexpected <city> inside <tool_call name="f">; write each argument as <parameter name="NAME">VALUE</parameter>, or as <NAME>VALUE</NAME> inside <params>`, 1, 21, "f", 0},
		{"unquoted attribute", `<tool_call name=f>`, `the value of the attribute name of <tool_call> must be in quotes`, 1, 12, "", 0},
		{"attribute without value", `<tool_call name>`, `the attribute name of <tool_call> has no value`, 1, 12, "", 0},
		{"attribute quote not closed", "<tool_call name=\"f>\n<parameter name=\"a\">1</parameter></tool_call>", `the value of the attribute name of <tool_call> has no closing quote`, 1, 17, "", 0},
		{"duplicate attribute", `<tool_call name="f" name="g">`, `the attribute name appears twice in <tool_call>`, 1, 21, "", 0},
		{"bad byte in tag", `<tool_call name="f" ?>`, `unexpected "?>" in the <tool_call> tag`, 1, 21, "", 0},
		{"truncated start tag", `<tool_call name="f"`, `the <tool_call> tag is not closed; end it with >`, 1, 1, "", 0},
		{"truncated tag name", `text <tool_call`, `the <tool_call> tag is not closed`, 1, 6, "", 0},
		{"comment not closed", `<tool_call name="f"><!-- x`, `a comment in <tool_call name="f"> is not closed`, 1, 21, "f", 0},
		{"good calls come first", "<tool_call name=\"a\"/>\nné <tool_call name=\"b\"><x/></tool_call>", `unexpected <x> inside`, 2, 24, "b", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Options{Strict: true}.Parse(tt.reply)
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("got error %v, want a *SyntaxError", err)
			}
			if !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("message %q does not contain %q", se.Msg, tt.msg)
			}
			if se.Line != tt.line || se.Column != tt.col {
				t.Errorf("position: got %d:%d, want %d:%d", se.Line, se.Column, tt.line, tt.col)
			}
			if se.Tool != tt.tool {
				t.Errorf("tool: got %q, want %q", se.Tool, tt.tool)
			}
			if len(r.Calls) != tt.before {
				t.Errorf("got %d calls before the error, want %d", len(r.Calls), tt.before)
			}
		})
	}
}

func TestSyntaxErrorText(t *testing.T) {
	_, err := Options{Strict: true}.Parse("a\nb <tool_call name=\"f\">")
	want := `line 2, column 3: <tool_call name="f"> is not closed; end it with </tool_call>`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}

// TestRenderCallRoundTrips checks that what RenderCall writes, Parse reads back unchanged:
// the instructions' examples and any program that writes calls rely on it.
func TestRenderCallRoundTrips(t *testing.T) {
	values := []string{
		"", "plain", "3", " lead", "trail\n", "a < b", "a & b", "x]]>y", "multi\nline <b>&amp;</b>",
		"]]>", "<![CDATA[", "</parameter>", "</tool_call>", "&lt;", "quote\"s 'and' tabs\t", "\x00\xff",
	}
	for _, v := range values {
		call := Call{ID: "id \"1\"\n", Name: "tool<&>", Params: []Param{{Name: "na\"me\n&", Value: v}, {Name: "second", Value: v}}}
		roundTrip(t, call)
	}
	roundTrip(t, Call{ID: "x", Name: "no_params"})
}

func roundTrip(t *testing.T, call Call) {
	t.Helper()
	text := RenderCall(call)
	r, err := Parse("prose " + text + " prose")
	if err != nil {
		t.Fatalf("Parse(%q): %v", text, err)
	}
	call.Offset, call.Raw = len("prose "), text
	if len(r.Calls) != 1 || !reflect.DeepEqual(r.Calls[0], call) {
		t.Fatalf("round trip of %q:\n got %#v\nwant %#v", text, r.Calls, call)
	}
	if r.Text != "prose  prose" {
		t.Fatalf("prose: got %q", r.Text)
	}
}

func FuzzRoundTrip(f *testing.F) {
	f.Add("name", "value")
	f.Add("a\"b", " x]]>y <z> &amp; \n")
	f.Fuzz(func(t *testing.T, name, value string) {
		if strings.TrimSpace(name) != name || name == "" {
			t.Skip("Parse trims names, so only trimmed, non-empty names round-trip")
		}
		roundTrip(t, Call{ID: "c", Name: "t", Params: []Param{{Name: name, Value: value}}})
	})
}

// FuzzParse checks that Parse never panics, always ends, and reports positions that exist.
func FuzzParse(f *testing.F) {
	seeds := []string{
		"", "<tool_call", "<tool_call name=\"a\"/>", "x <tool_call name='a'><parameter name=\"b\">c</parameter></tool_call> y",
		`<tool_call name="f"><parameter name="v"><![CDATA[a]]]]><![CDATA[>b]]></parameter></tool_call>`,
		`<tool_call name="f"><parameter name="v">&#x1F600;&#99999999999;&amp&lt;</parameter></tool_call>`,
		"<tool_call name=\"f\">\n<parameter name=\"a\">1\n</tool_call>", `<tool_call name="f"><!--`, `<tool_call name="f" id=`,
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, reply string) {
		done := make(chan struct{})
		var r Reply
		var err error
		go func() {
			defer close(done)
			r, err = Parse(reply)
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("Parse did not end on %q", reply)
		}
		last := -1
		for _, c := range r.Calls {
			if c.Offset <= last || c.Offset >= len(reply) || c.Name == "" || c.ID == "" {
				t.Fatalf("bad call %+v in %q", c, reply)
			}
			last = c.Offset
		}
		if err == nil {
			return
		}
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("error %v is not a *SyntaxError", err)
		}
		if se.Offset < 0 || se.Offset > len(reply) || se.Line < 1 || se.Column < 1 || se.Msg == "" || se.Offset < last {
			t.Fatalf("bad error %+v for %q", se, reply)
		}
	})
}
