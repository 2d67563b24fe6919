package xmlcall

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/internal/plural"
)

// Call is one <tool_call> block of a model's reply.
type Call struct {
	// ID is the block's id attribute, else "call_N" for the N-th call of the reply.
	ID   string
	Name string
	// Params are the parameters, in the order written.
	Params []Param
	// Args holds the arguments of a call written as JSON inside the block ({"name": …,
	// "arguments": {…}}, as Hermes and Qwen models write calls), read leniently; they go to
	// the tool as they are, instead of Params.
	Args json.RawMessage
	// Offset is the byte offset of the block's "<tool_call" in the reply.
	Offset int
	// Raw is the block as the model wrote it, from "<tool_call" to its end.
	Raw string
	// Recovered says, for the model, what the lenient reading had to guess (a missing
	// closing tag, a raw "&" in a value, a Markdown fence around the call); nil when the
	// block was well formed.
	Recovered []string
}

// Param is one parameter of a call: <parameter name="…">value</parameter>, or <NAME>value</NAME>
// inside <params>. Value is the text with entities decoded and CDATA sections unwrapped;
// white space around it is dropped unless it sits inside a CDATA section or is written as a
// character reference.
type Param struct {
	Name  string
	Value string
}

// Reply is a model's reply split into its tool calls and its prose.
type Reply struct {
	Calls []Call
	// Text is the reply without its tool calls, trimmed: what the model says to the user.
	Text string
}

// SyntaxError reports a malformed <tool_call> block: where, in which call when its name was
// read, and what is wrong, worded for the model to correct it.
type SyntaxError struct {
	Offset int // byte offset in the reply
	Line   int // 1-based
	Column int // 1-based, in characters
	Tool   string
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// LimitError reports a reply over one of the Options' limits; none of its calls runs.
type LimitError struct {
	Limit string // "bytes", "calls" or "parameters"
	Max   int
	Tool  string // the call with too many parameters
}

func (e *LimitError) Error() string {
	switch e.Limit {
	case "bytes":
		return "the reply is longer than " + plural.Of(e.Max, "byte")
	case "calls":
		return "the reply has more than " + plural.Of(e.Max, "tool call")
	}
	return fmt.Sprintf("a call of %s has more than %s", e.Tool, plural.Of(e.Max, "parameter"))
}

// Defaults of Options.
const (
	DefaultMaxCalls  = 64      // tool calls in one reply
	DefaultMaxParams = 128     // parameters in one call
	DefaultMaxBytes  = 1 << 20 // bytes of one reply
)

// Options say how a reply is read. The zero value reads leniently within the default limits.
type Options struct {
	// MaxCalls, MaxParams and MaxBytes bound what one reply may hold: tool calls, parameters
	// of one call, and bytes. Zero means the Default, a negative value no limit. A reply over
	// a limit is not run at all, and the model is told which limit and why; reading stops at
	// the first call or parameter past its limit, so the cost of a reply is bounded by them.
	MaxCalls, MaxParams, MaxBytes int
	// Strict refuses what the lenient reading recovers: a missing closing tag, a parameter
	// outside <params>. Raw "&" and "<" in values are read as text either way.
	Strict bool
}

func limitOf(n, def int) int {
	switch {
	case n == 0:
		return def
	case n < 0:
		return 0
	}
	return n
}

// Parse reads a reply with the zero Options: see Options.Parse.
func Parse(reply string) (Reply, error) { return Options{}.Parse(reply) }

// Parse splits a model's reply into tool calls and prose. It reads every <tool_call> block in
// order, in either of two layouts, mixed as the model likes:
//
//	<tool_call name="get_weather">
//	<parameter name="city">Tokyo</parameter>
//	</tool_call>
//
//	<tool_call>
//	  <name>get_weather</name>
//	  <params>
//	    <city><![CDATA[Tokyo]]></city>
//	  </params>
//	</tool_call>
//
// A block may carry an id attribute and may be empty (<tool_call name="now"/>). A parameter
// value is raw text, entity-escaped text (&lt; &gt; &amp; &quot; &apos; and numeric
// references), CDATA sections, or a mix of them; an unknown entity is kept as written.
// Attributes other than name and id are ignored.
//
// Unless Strict, what models get wrong is recovered and recorded in Call.Recovered: a
// missing </parameter>, </NAME>, </params> or </tool_call> (the value or block ends where the
// next one starts), parameters written straight inside <tool_call>, raw "&" and "<" in
// values, Markdown code fences around calls (removed from Text), and a call written as JSON
// inside the block (Call.Args). Each call keeps its
// text in Call.Raw.
//
// A block that cannot be read stops the parse: Parse returns the calls before it, the prose
// up to it, and a *SyntaxError. A reply over a limit returns no calls and a *LimitError.
// Parse never panics and runs in time linear in the reply's length.
func (o Options) Parse(reply string) (Reply, error) {
	if max := limitOf(o.MaxBytes, DefaultMaxBytes); max > 0 && len(reply) > max {
		return Reply{}, &LimitError{Limit: "bytes", Max: max}
	}
	p := &parser{s: reply, strict: o.Strict, maxParams: limitOf(o.MaxParams, DefaultMaxParams)}
	maxCalls := limitOf(o.MaxCalls, DefaultMaxCalls)
	var r Reply
	var prose []string // prose[i] comes before call i
	pos := 0
	for {
		start := p.findStart(pos, "tool_call")
		if start < 0 {
			prose = append(prose, reply[pos:])
			break
		}
		prose = append(prose, reply[pos:start])
		if maxCalls > 0 && len(r.Calls) == maxCalls {
			return Reply{Text: strings.TrimSpace(strings.Join(prose, ""))}, &LimitError{Limit: "calls", Max: maxCalls}
		}
		call, end, err := p.call(start)
		if err != nil {
			r.Text = strings.TrimSpace(strings.Join(prose, ""))
			return r, err
		}
		if call.ID == "" {
			call.ID = "call_" + strconv.Itoa(len(r.Calls)+1)
		}
		r.Calls = append(r.Calls, call)
		pos = end
	}
	if !o.Strict {
		unfence(prose, r.Calls)
	}
	r.Text = strings.TrimSpace(strings.Join(prose, ""))
	return r, nil
}

// unfence removes Markdown code fences that wrap calls (```xml before, ``` after, nothing
// but white space between the calls inside) from the prose around them.
func unfence(prose []string, calls []Call) {
	for i := 0; i < len(calls); i++ {
		before := strings.TrimRight(prose[i], " \t\r\n")
		nl := strings.LastIndexByte(before, '\n')
		open := strings.TrimSpace(before[nl+1:])
		if !strings.HasPrefix(open, "```") || strings.ContainsAny(strings.TrimLeft(open, "`"), "` \t") {
			continue
		}
		j := i
		for j+1 < len(calls) && strings.TrimSpace(prose[j+1]) == "" {
			j++
		}
		after := strings.TrimLeft(prose[j+1], " \t\r\n")
		if !strings.HasPrefix(after, "```") {
			continue
		}
		prose[i] = before[:nl+1]
		prose[j+1] = strings.TrimPrefix(after, "```")
		for k := i; k <= j; k++ {
			calls[k].Recovered = append(calls[k].Recovered, "the call was wrapped in a Markdown code fence; write tool calls without one")
		}
		i = j
	}
}

type parser struct {
	s         string
	strict    bool
	maxParams int
	// stop is the hard stop found from stopFrom (hardStop).
	stopValid      bool
	stopFrom, stop int
	closes         closeIndex // closedBefore's end tags
}

// fail builds the error for the problem at off; tool names the call being read, if known.
func (p *parser) fail(off int, tool, format string, args ...any) *SyntaxError {
	off = min(max(off, 0), len(p.s))
	line := 1 + strings.Count(p.s[:off], "\n")
	lineStart := strings.LastIndexByte(p.s[:off], '\n') + 1
	return &SyntaxError{
		Offset: off,
		Line:   line,
		Column: utf8.RuneCountInString(p.s[lineStart:off]) + 1,
		Tool:   tool,
		Msg:    fmt.Sprintf(format, args...),
	}
}

// findStart returns the offset of the next start tag <tag at or after from, or -1. "<tag"
// must be followed by white space, ">" or "/", so <tool_calls> is prose, not a call.
func (p *parser) findStart(from int, tag string) int {
	open := "<" + tag
	for from <= len(p.s) {
		i := strings.Index(p.s[from:], open)
		if i < 0 {
			return -1
		}
		at := from + i
		if p.isStart(at, tag) {
			return at
		}
		from = at + 1
	}
	return -1
}

// isStart reports whether a start tag <tag begins at off.
func (p *parser) isStart(off int, tag string) bool {
	rest := p.s[off:]
	if !strings.HasPrefix(rest, "<") || !strings.HasPrefix(rest[1:], tag) {
		return false
	}
	after := 1 + len(tag)
	if after == len(rest) {
		return true // a truncated reply: still the start of the tag
	}
	c := rest[after]
	return isSpace(c) || c == '>' || c == '/'
}

// closeTag returns the offset after the end tag </tag> (white space allowed before ">") at
// off, or -1 when there is none.
func (p *parser) closeTag(off int, tag string) int {
	rest := p.s[off:]
	if !strings.HasPrefix(rest, "</") || !strings.HasPrefix(rest[2:], tag) {
		return -1
	}
	i := off + 2 + len(tag)
	for i < len(p.s) && isSpace(p.s[i]) {
		i++
	}
	if i < len(p.s) && p.s[i] == '>' {
		return i + 1
	}
	return -1
}

// containers are the elements that hold a call's parameters in the <name>/<params> layout.
var containers = []string{"params", "parameters", "arguments"}

// callEnds reports whether the call's body ends at off without its </tool_call> or a
// container's end tag: the next call starts, or the reply ends.
func (p *parser) callEnds(off int) bool {
	return off >= len(p.s) || p.isStart(off, "tool_call") || p.closeTag(off, "tool_call") >= 0
}

// call reads the <tool_call> block that starts at start and returns it with the offset after
// it.
func (p *parser) call(start int) (Call, int, error) {
	attrs, selfClosing, pos, err := p.startTag(start, "tool_call", "")
	if err != nil {
		return Call{}, 0, err
	}
	call := Call{Name: strings.TrimSpace(attrs["name"]), ID: attrs["id"], Offset: start}
	if _, ok := attrs["name"]; ok && call.Name == "" {
		return Call{}, 0, p.fail(start, "", `the <tool_call> has an empty name attribute; write <tool_call name="TOOL_NAME">`)
	}
	end, err := p.body(&call, start, pos, selfClosing)
	if err != nil {
		return Call{}, 0, err
	}
	if call.Name == "" {
		return Call{}, 0, p.fail(start, "", `the <tool_call> names no tool; write <name>TOOL_NAME</name> inside it, or <tool_call name="TOOL_NAME">`)
	}
	call.Raw = p.s[start:end]
	return call, end, nil
}

// where names the call in messages.
func where(call *Call) string {
	if call.Name == "" {
		return "<tool_call>"
	}
	return fmt.Sprintf("<tool_call name=%q>", call.Name)
}

// body reads the content of a call up to and including its </tool_call>.
func (p *parser) body(call *Call, start, pos int, selfClosing bool) (int, error) {
	if selfClosing {
		return pos, nil
	}
	for {
		for pos < len(p.s) && isSpace(p.s[pos]) {
			pos++
		}
		switch {
		case pos >= len(p.s) || p.isStart(pos, "tool_call"):
			if p.strict {
				msg := "%s is not closed; end it with </tool_call>"
				if pos < len(p.s) {
					msg += " before the next <tool_call>"
				}
				return 0, p.fail(start, call.Name, msg, where(call))
			}
			call.Recovered = append(call.Recovered, "the closing </tool_call> was missing")
			return pos, nil
		case p.closeTag(pos, "tool_call") >= 0:
			return p.closeTag(pos, "tool_call"), nil
		case p.isStart(pos, "parameter"):
			end, err := p.parameter(call, pos)
			if err != nil {
				return 0, err
			}
			pos = end
		case p.isStart(pos, "name"):
			end, err := p.name(call, pos)
			if err != nil {
				return 0, err
			}
			pos = end
		case p.container(pos) != "":
			end, err := p.params(call, pos, p.container(pos))
			if err != nil {
				return 0, err
			}
			pos = end
		case strings.HasPrefix(p.s[pos:], "<!--"):
			end, err := p.comment(call, pos)
			if err != nil {
				return 0, err
			}
			pos = end
		case p.s[pos] == '<' && pos+1 < len(p.s) && isNameStart(p.s[pos+1]) && !p.strict:
			end, err := p.element(call, pos)
			if err != nil {
				return 0, err
			}
			call.Recovered = appendOnce(call.Recovered, "parameters were written outside <params>")
			pos = end
		case p.s[pos] == '<':
			tag := p.tagName(pos)
			return 0, p.fail(pos, call.Name, "unexpected %s inside %s; write each argument as <parameter name=\"NAME\">VALUE</parameter>, or as <NAME>VALUE</NAME> inside <params>", tag, where(call))
		case p.s[pos] == '{' && !p.strict && call.Args == nil && len(call.Params) == 0:
			end, ok := p.jsonBody(call, pos)
			if !ok {
				return 0, p.fail(pos, call.Name, "unexpected text %s inside %s; write each argument as <NAME>VALUE</NAME> inside <params>, or the call as {\"name\": \"TOOL_NAME\", \"arguments\": {…}}", shown(p.s[pos:]), where(call))
			}
			pos = end
		default:
			return 0, p.fail(pos, call.Name, "unexpected text %s inside %s; write each argument as <parameter name=\"NAME\">VALUE</parameter>, or as <NAME>VALUE</NAME> inside <params>", shown(p.s[pos:]), where(call))
		}
	}
}

// jsonBody reads a call written as JSON inside <tool_call>, as Hermes and Qwen models write
// it: {"name": "TOOL", "arguments": {…}}, or the arguments object alone when the call is
// named otherwise. ok is false when the text is not such an object.
func (p *parser) jsonBody(call *Call, pos int) (end int, ok bool) {
	dec := json.NewDecoder(strings.NewReader(p.s[pos:p.hardStop(pos)]))
	var raw json.RawMessage
	if dec.Decode(&raw) != nil {
		return 0, false
	}
	end = pos + int(dec.InputOffset())
	var body map[string]json.RawMessage
	if json.Unmarshal(raw, &body) != nil {
		return 0, false
	}
	name, hasName := body["name"]
	args, hasArgs := body["arguments"]
	if !hasArgs {
		args, hasArgs = body["parameters"]
	}
	switch {
	case hasName && hasArgs && len(body) == 2:
		var n string
		if json.Unmarshal(name, &n) != nil || strings.TrimSpace(n) == "" ||
			call.Name != "" && call.Name != strings.TrimSpace(n) {
			return 0, false
		}
		call.Name = strings.TrimSpace(n)
	case call.Name != "":
		args = raw // the object is the arguments
	default:
		return 0, false
	}
	call.Args = args
	call.Recovered = append(call.Recovered, "the call was written as JSON inside <tool_call>; write its parameters as XML")
	return end, true
}

// container returns the name of the parameter container element that starts at off, or "".
func (p *parser) container(off int) string {
	for _, c := range containers {
		if p.isStart(off, c) {
			return c
		}
	}
	return ""
}

func (p *parser) comment(call *Call, pos int) (int, error) {
	end := strings.Index(p.s[pos+4:], "-->")
	if end < 0 {
		return 0, p.fail(pos, call.Name, "a comment in %s is not closed; end it with -->", where(call))
	}
	return pos + 4 + end + 3, nil
}

// name reads <name>TOOL</name>.
func (p *parser) name(call *Call, pos int) (int, error) {
	_, selfClosing, valuePos, err := p.startTag(pos, "name", call.Name)
	if err != nil {
		return 0, err
	}
	value, end := "", valuePos
	if !selfClosing {
		if value, end, err = p.value(call, valuePos, pos, "name", "name"); err != nil {
			return 0, err
		}
	}
	value = strings.TrimSpace(value)
	switch {
	case value == "":
		return 0, p.fail(pos, call.Name, "the <name> of a <tool_call> is empty; write <name>TOOL_NAME</name>")
	case call.Name != "" && call.Name != value:
		return 0, p.fail(pos, call.Name, "the <tool_call> names two tools, %q and %q; write one call per tool", call.Name, value)
	}
	call.Name = value
	return end, nil
}

// params reads a container of parameters: <params>, <parameters> or <arguments>.
func (p *parser) params(call *Call, start int, tag string) (int, error) {
	_, selfClosing, pos, err := p.startTag(start, tag, call.Name)
	if err != nil || selfClosing {
		return pos, err
	}
	for {
		for pos < len(p.s) && isSpace(p.s[pos]) {
			pos++
		}
		switch {
		case p.closeTag(pos, tag) >= 0:
			return p.closeTag(pos, tag), nil
		case p.callEnds(pos):
			if p.strict {
				return 0, p.fail(start, call.Name, "<%s> in %s is not closed; end it with </%s>", tag, where(call), tag)
			}
			call.Recovered = append(call.Recovered, "the closing </"+tag+"> was missing")
			return pos, nil
		case p.isStart(pos, "parameter"):
			if pos, err = p.parameter(call, pos); err != nil {
				return 0, err
			}
		case strings.HasPrefix(p.s[pos:], "<!--"):
			if pos, err = p.comment(call, pos); err != nil {
				return 0, err
			}
		case p.s[pos] == '<' && pos+1 < len(p.s) && isNameStart(p.s[pos+1]):
			if pos, err = p.element(call, pos); err != nil {
				return 0, err
			}
		case p.s[pos] == '<':
			return 0, p.fail(pos, call.Name, "unexpected %s inside <%s> of %s; write each argument as <NAME>VALUE</NAME>", p.tagName(pos), tag, where(call))
		default:
			return 0, p.fail(pos, call.Name, "unexpected text %s inside <%s> of %s; write each argument as <NAME>VALUE</NAME>", shown(p.s[pos:]), tag, where(call))
		}
	}
}

// tagName renders the tag at off for a message: "<city>", "</city>".
func (p *parser) tagName(off int) string {
	end := off + 1
	if end < len(p.s) && p.s[end] == '/' {
		end++
	}
	for end < len(p.s) && isNameByte(p.s[end]) {
		end++
	}
	if end == off+1 {
		return strconv.Quote("<")
	}
	return p.s[off:end] + ">"
}

// add appends a parameter, within the limit on parameters.
func (p *parser) add(call *Call, param Param, at int) error {
	if call.Args != nil {
		// Which would win is a guess: neither does.
		return p.fail(at, call.Name, "%s has its arguments as JSON and as XML parameters; write them one way", where(call))
	}
	if p.maxParams > 0 && len(call.Params) == p.maxParams {
		return &LimitError{Limit: "parameters", Max: p.maxParams, Tool: call.Name}
	}
	call.Params = append(call.Params, param)
	return nil
}

// parameter reads the <parameter name="…"> element that starts at start.
func (p *parser) parameter(call *Call, start int) (int, error) {
	attrs, selfClosing, pos, err := p.startTag(start, "parameter", call.Name)
	if err != nil {
		return 0, err
	}
	name, ok := attrs["name"]
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return 0, p.fail(start, call.Name, `a <parameter> has no name attribute; write <parameter name="NAME">VALUE</parameter>`)
	}
	value, end := "", pos
	if !selfClosing {
		if value, end, err = p.value(call, pos, start, "parameter", name); err != nil {
			return 0, err
		}
	}
	return end, p.add(call, Param{Name: name, Value: value}, start)
}

// element reads a parameter written as an element of its own: <city>Tokyo</city>.
func (p *parser) element(call *Call, start int) (int, error) {
	nameEnd := start + 1
	for nameEnd < len(p.s) && isNameByte(p.s[nameEnd]) {
		nameEnd++
	}
	tag := p.s[start+1 : nameEnd]
	_, selfClosing, pos, err := p.startTag(start, tag, call.Name)
	if err != nil {
		return 0, err
	}
	value, end := "", pos
	if !selfClosing {
		if value, end, err = p.value(call, pos, start, tag, tag); err != nil {
			return 0, err
		}
	}
	return end, p.add(call, Param{Name: tag, Value: value}, start)
}

// value reads a value from pos up to its end tag </tag>; start is where its element starts
// and name is the parameter's name, for messages. Raw white space at either end is layout,
// not value, and is dropped; CDATA and character references are kept as is.
//
// Without its end tag, the value ends where the call's structure goes on: the next
// <parameter>, the end of the container or call, the next call; in the element layout also
// the next start tag, since the value's own end tag is nowhere before those.
func (p *parser) value(call *Call, pos, start int, tag, name string) (string, int, error) {
	var b strings.Builder
	kept := 0        // b.Len() after the last byte that is not raw white space
	started := false // whether anything but raw white space has been read
	element := tag != "parameter"
	closed := !element || p.closedBefore(pos, tag)
	what := fmt.Sprintf("<parameter name=%q>", name)
	if element {
		what = "<" + tag + ">"
	}
	// Raw "<" and "&" are noted once per value, in the order met: formatting a note per
	// character would make a value of many of them cost far more than its length.
	var raw []byte
	defer func() {
		for _, c := range raw {
			fix := "&lt;"
			if c == '&' {
				fix = "&amp;"
			}
			call.Recovered = appendOnce(call.Recovered, fmt.Sprintf("the value of %q holds a raw %q, read as text; write %s or wrap the value in <![CDATA[ ]]>", name, string(c), fix))
		}
	}()
	unclosed := func(at int) (string, int, error) {
		if p.strict {
			return "", 0, p.fail(start, call.Name, "%s is not closed; end its value with </%s>", what, tag)
		}
		call.Recovered = append(call.Recovered, fmt.Sprintf("the closing </%s> of %q was missing", tag, name))
		return b.String()[:kept], at, nil
	}
	for pos < len(p.s) {
		c := p.s[pos]
		switch {
		case c == '<':
			if strings.HasPrefix(p.s[pos:], "<![CDATA[") {
				body := pos + len("<![CDATA[")
				end := strings.Index(p.s[body:], "]]>")
				if end < 0 {
					return "", 0, p.fail(pos, call.Name, "a CDATA section in %s is not closed; end it with ]]>", what)
				}
				b.WriteString(p.s[body : body+end])
				started, kept = true, b.Len()
				pos = body + end + len("]]>")
				continue
			}
			// Only "</" and "<name" can be markup; a "<" before anything else is text.
			if next := pos + 1; next < len(p.s) && (p.s[next] == '/' || isNameStart(p.s[next])) {
				if end := p.closeTag(pos, tag); end >= 0 {
					return b.String()[:kept], end, nil
				}
				if p.callEnds(pos) || p.isStart(pos, "parameter") || p.containerEnds(pos) ||
					!closed && isNameStart(p.s[next]) {
					return unclosed(pos)
				}
			}
			if !slices.Contains(raw, c) {
				raw = append(raw, c)
			}
			b.WriteByte(c)
			started, kept = true, b.Len()
			pos++
		case c == '&':
			if r, n := entity(p.s[pos:]); n > 0 {
				b.WriteString(r)
				pos += n
			} else {
				if !slices.Contains(raw, c) {
					raw = append(raw, c)
				}
				b.WriteByte(c)
				pos++
			}
			started, kept = true, b.Len()
		case isSpace(c):
			if started {
				b.WriteByte(c)
			}
			pos++
		default:
			b.WriteByte(c)
			started, kept = true, b.Len()
			pos++
		}
	}
	return unclosed(pos)
}

// containerEnds reports whether a container's end tag is at off.
func (p *parser) containerEnds(off int) bool {
	for _, c := range containers {
		if p.closeTag(off, c) >= 0 {
			return true
		}
	}
	return false
}

// closedBefore reports whether the end tag </tag> appears after pos before the call or its
// container ends: whether an element's value has its end tag at all. The last end tag of
// each name up to there is indexed once, for all the values of the container, so reading a
// call costs about its length however its values are written. (An end tag inside a later
// CDATA section counts: the value then runs to the end of the container, as a strict reading
// would.)
func (p *parser) closedBefore(pos int, tag string) bool {
	stop := p.hardStop(pos)
	if p.closes.last == nil || p.closes.stop != stop || pos < p.closes.from {
		p.closes = closeIndex{from: pos, stop: stop, last: make(map[string]int)}
		for from := pos; from < stop; {
			i := strings.Index(p.s[from:stop], "</")
			if i < 0 {
				break
			}
			at := from + i
			n := at + 2
			for n < stop && isNameByte(p.s[n]) {
				n++
			}
			if name := p.s[at+2 : n]; name != "" && p.closeTag(at, name) >= 0 {
				if _, known := p.closes.last[name]; known || len(p.closes.last) < maxIndexedNames {
					p.closes.last[name] = at
				} else {
					p.closes.full = true
				}
			}
			from = at + 2
		}
	}
	if last, ok := p.closes.last[tag]; ok || !p.closes.full {
		return ok && last >= pos
	}
	// A container of more end-tag names than the index keeps: search for this one.
	end := "</" + tag
	for from := pos; from < stop; {
		i := strings.Index(p.s[from:stop], end)
		if i < 0 {
			return false
		}
		if p.closeTag(from+i, tag) >= 0 {
			return true
		}
		from += i + len(end)
	}
	return false
}

// maxIndexedNames bounds the names closedBefore indexes in one container: a container of
// more distinct end tags than that is hostile, and pays a search per value (bounded by the
// limit on parameters).
const maxIndexedNames = 1024

// closeIndex holds the offset of the last end tag of each name in [from, stop); full says
// that some names were left out.
type closeIndex struct {
	from, stop int
	last       map[string]int
	full       bool
}

// hardStop returns the first offset at or after pos where the call or a container ends
// (or the next call starts), len(s) when none does. The last answer is kept: it stays
// right for every pos up to it.
func (p *parser) hardStop(pos int) int {
	if p.stopValid && p.stopFrom <= pos && pos <= p.stop {
		return p.stop
	}
	stop := len(p.s)
	for _, pat := range []string{"<tool_call", "</tool_call", "</params", "</parameters", "</arguments"} {
		if i := strings.Index(p.s[pos:stop], pat); i >= 0 {
			stop = pos + i
		}
	}
	p.stopValid, p.stopFrom, p.stop = true, pos, stop
	return stop
}

// appendOnce appends note unless it is already there.
func appendOnce(notes []string, note string) []string {
	for _, n := range notes {
		if n == note {
			return notes
		}
	}
	return append(notes, note)
}

func isNameStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

// startTag reads the attributes of the start tag <tag …> or <tag …/> at start; tool names the
// enclosing call for messages.
func (p *parser) startTag(start int, tag, tool string) (attrs map[string]string, selfClosing bool, end int, err error) {
	pos := start + 1 + len(tag)
	attrs = make(map[string]string, 2)
	for {
		for pos < len(p.s) && isSpace(p.s[pos]) {
			pos++
		}
		if pos >= len(p.s) {
			return nil, false, 0, p.fail(start, tool, "the <%s> tag is not closed; end it with >", tag)
		}
		switch c := p.s[pos]; {
		case c == '>':
			return attrs, false, pos + 1, nil
		case c == '/' && pos+1 < len(p.s) && p.s[pos+1] == '>':
			return attrs, true, pos + 2, nil
		case !isNameByte(c):
			return nil, false, 0, p.fail(pos, tool, "unexpected %s in the <%s> tag; write attributes as name=\"value\"", shown(p.s[pos:]), tag)
		}
		nameStart := pos
		for pos < len(p.s) && isNameByte(p.s[pos]) {
			pos++
		}
		attr := p.s[nameStart:pos]
		for pos < len(p.s) && isSpace(p.s[pos]) {
			pos++
		}
		if pos >= len(p.s) || p.s[pos] != '=' {
			return nil, false, 0, p.fail(nameStart, tool, "the attribute %s of <%s> has no value; write %s=\"value\"", attr, tag, attr)
		}
		pos++
		for pos < len(p.s) && isSpace(p.s[pos]) {
			pos++
		}
		if pos >= len(p.s) || (p.s[pos] != '"' && p.s[pos] != '\'') {
			return nil, false, 0, p.fail(nameStart, tool, "the value of the attribute %s of <%s> must be in quotes: %s=\"value\"", attr, tag, attr)
		}
		quote := p.s[pos]
		valueStart := pos + 1
		n := strings.IndexByte(p.s[valueStart:], quote)
		// A value that runs into a new line or a tag lost its closing quote; reading on would
		// swallow the rest of the call.
		if n < 0 || strings.ContainsAny(p.s[valueStart:valueStart+n], "<\n") {
			return nil, false, 0, p.fail(pos, tool, "the value of the attribute %s of <%s> has no closing quote", attr, tag)
		}
		if _, dup := attrs[attr]; dup {
			return nil, false, 0, p.fail(nameStart, tool, "the attribute %s appears twice in <%s>", attr, tag)
		}
		attrs[attr] = decodeText(p.s[valueStart : valueStart+n])
		pos = valueStart + n + 1
	}
}

// decodeText resolves the entities of an attribute value.
func decodeText(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '&' {
			if r, n := entity(s[i:]); n > 0 {
				b.WriteString(r)
				i += n
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// entity decodes the entity or character reference at the start of s ("&amp;", "&#60;",
// "&#x3C;") and returns its text and length; n is 0 when s does not start with one.
func entity(s string) (text string, n int) {
	end := strings.IndexByte(s[:min(len(s), 12)], ';')
	if end < 2 {
		return "", 0
	}
	name := s[1:end]
	switch name {
	case "lt":
		return "<", end + 1
	case "gt":
		return ">", end + 1
	case "amp":
		return "&", end + 1
	case "quot":
		return `"`, end + 1
	case "apos":
		return "'", end + 1
	}
	if name[0] != '#' || len(name) < 2 {
		return "", 0
	}
	digits, base := name[1:], 10
	if digits[0] == 'x' || digits[0] == 'X' {
		digits, base = digits[1:], 16
	}
	if digits == "" || digits[0] == '+' || digits[0] == '-' {
		return "", 0
	}
	v, err := strconv.ParseUint(digits, base, 32)
	if err != nil || v == 0 || !utf8.ValidRune(rune(v)) {
		return "", 0
	}
	return string(rune(v)), end + 1
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// isNameByte reports the bytes of an XML name as models write them: ASCII letters, digits and
// "_", "-", ".", ":".
func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '-' || c == '.' || c == ':'
}

// shown quotes the start of s for a message.
func shown(s string) string {
	const limit = 30
	if len(s) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return strconv.Quote(s[:cut] + "…")
	}
	return strconv.Quote(s)
}
